/// The one failure policy for presses, whoever made them (the button, `marktime mark`,
/// the phone's MARK): events in, actions out, no I/O.
///
/// A press is inserted; once stored it is confirmed with the stored tone and one log line.
/// A press the store refuses is first kept in the pending-presses file, then buzzed once
/// (the buzz means it is on disk), and retried on each `retry()` until it lands, with the
/// stored tone then. A second answer for a press already confirmed says nothing.
public struct Recording: Sendable {
    public enum Action: Hashable, Sendable {
        /// Store this sight durably.
        case insert(Sight)
        /// Keep this sight in the pending-presses file until it lands; done before the actions after it.
        case keepPending(Sight)
        /// Every pending sight has landed: the pending-presses file can let go of them.
        case settlePending
        case beep(Tone)
        case log(LogLine)
    }

    /// Sights the store has not taken yet, oldest first; they are in the pending-presses file.
    public private(set) var pending: [Sight] = []
    /// Presses whose tone has not played yet: each is confirmed once, however often it is inserted.
    private var awaiting: Set<MonotonicInstant> = []
    /// Inserts asked for and not yet answered: a pending sight is not asked for twice at once.
    private var inFlight: Set<MonotonicInstant> = []
    /// Pending presses that have landed: the file may still hold them for a moment, and
    /// finding them there again must not store or confirm them twice.
    private var landed: Set<MonotonicInstant> = []

    public init() {}

    /// A new press.
    public mutating func press(_ sight: Sight) -> [Action] {
        [insert(sight)]
    }

    /// Presses found in the pending-presses file (left by an earlier run or another
    /// process): the ones not already known are adopted and inserted.
    public mutating func adopt(_ found: [Sight]) -> [Action] {
        let new = found.filter { f in !pending.contains { $0.instant == f.instant } && !awaiting.contains(f.instant) && !landed.contains(f.instant) }
        guard !new.isEmpty else { return [] }
        pending += new
        return new.map { insert($0) }
            + [.log(LogLine(.warning, "sights from the pending-presses file go to the store", ["count": "\(new.count)"]))]
    }

    /// Pending presses not under way: try each again, in order.
    public mutating func retry() -> [Action] {
        pending.filter { !inFlight.contains($0.instant) }.map { insert($0) }
    }

    /// The store committed this sight (first try or a retry); `timing` says when.
    public mutating func stored(_ sight: Sight, timing: CommitTiming?) -> [Action] {
        inFlight.remove(sight.instant)
        guard awaiting.remove(sight.instant) != nil else { return [] }
        let wasPending = pending.contains { $0.instant == sight.instant }
        pending.removeAll { $0.instant == sight.instant }
        var metadata = [
            "id": "\(sight.id ?? -1)", "utc": sight.estimate.utc.iso8601, "source": sight.estimate.source.rawValue,
            "monotonic_ns": "\(sight.instant.nanoseconds)",
        ]
        if let trigger = sight.trigger { metadata["trigger"] = trigger.rawValue }
        if wasPending {
            metadata["late"] = "true"
            landed.insert(sight.instant)
        }
        if let t = timing {
            func ms(_ ns: Int64) -> String { "\(Double(ns) / 1e6)" }
            metadata["commit_ms"] = ms(t.committedAt - sight.instant.nanoseconds)
            metadata["queued_ms"] = ms(t.queuedAt - sight.instant.nanoseconds)
            metadata["wait_ms"] = ms(t.startedAt - t.queuedAt)
            metadata["insert_ms"] = ms(t.committedAt - t.startedAt)
        }
        var actions: [Action] = [.beep(.stored(sight.estimate.source)), .log(LogLine(.info, "sight stored", metadata))]
        if wasPending, pending.isEmpty { actions.append(.settlePending) }
        return actions
    }

    /// The store could not take this sight.
    public mutating func failed(_ sight: Sight, reason: String) -> [Action] {
        inFlight.remove(sight.instant)
        // A retry that fails again says nothing new: the navigator heard the buzz at the press.
        if pending.contains(where: { $0.instant == sight.instant }) {
            return [.log(LogLine(.debug, "pending sight still not stored", ["error": reason]))]
        }
        pending.append(sight)
        return [
            .keepPending(sight),
            .beep(.failure),
            .log(LogLine(.critical, "sight kept in the pending-presses file until the store takes it", [
                "utc": sight.estimate.utc.iso8601, "monotonic_ns": "\(sight.instant.nanoseconds)", "error": reason,
            ])),
        ]
    }

    private mutating func insert(_ sight: Sight) -> Action {
        awaiting.insert(sight.instant)
        inFlight.insert(sight.instant)
        return .insert(sight)
    }
}
