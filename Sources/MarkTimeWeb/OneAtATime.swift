/// Lets one task at a time through `run`; the others wait their turn, first come first
/// served. A photo is read whole into memory to be checked and kept: one at a time, a
/// dozen uploads at once take no more memory than one.
actor OneAtATime {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// How many wait for their turn.
    var waitingCount: Int { waiting.count }

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }  // the one before hands its turn over
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
