/// The waits between restarts of something that keeps failing (a child process, a
/// connection): `initial`, doubling up to `maximum`, and back to `initial` once a run
/// lasted `settled` or longer.
public struct Backoff: Hashable, Sendable {
    public let initial: Duration
    public let maximum: Duration
    public let settled: Duration
    private var last: Duration?

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60), settled: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = maximum
        self.settled = settled
    }

    /// The wait before the next attempt, after a run that lasted `ranFor`.
    public mutating func next(after ranFor: Duration) -> Duration {
        if ranFor >= settled { last = nil }
        let wait = last.map { min($0 * 2, maximum) } ?? initial
        last = wait
        return wait
    }
}
