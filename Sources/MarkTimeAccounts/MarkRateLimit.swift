/// How often one account may MARK from the phone page: a burst of `burst`, then one each
/// `interval`, whatever number of pages or phones it has open (a token bucket).
///
/// A navigator marks a sight every half minute or so and may double-tap; a script that
/// marks 200 times in 0.3 s is refused after the burst.
public struct MarkRateLimit: Sendable {
    public static let burst = 5
    public static let intervalNanoseconds: Int64 = 1_000_000_000

    private var buckets: [String: (tokens: Double, at: Int64)] = [:]

    public init() {}

    /// Takes one MARK for `account` at monotonic `now`; false when it is over the limit.
    public mutating func take(_ account: String, now: Int64) -> Bool {
        let bucket = buckets[account] ?? (Double(Self.burst), now)
        let refilled = Double(max(0, now - bucket.at)) / Double(Self.intervalNanoseconds)
        let tokens = min(Double(Self.burst), bucket.tokens + refilled)
        guard tokens >= 1 else {
            buckets[account] = (tokens, now)
            return false
        }
        buckets[account] = (tokens - 1, now)
        return true
    }

    /// The sentence a refused MARK gets.
    public static let refusal = "Not stored: more than \(burst) MARKs in a few seconds from this account; wait a second and MARK again."
}
