/// A task's reminder as the daemon sees it: when, and whether it may still fire.
public struct ReminderState: Hashable, Sendable {
    public var id: Int64
    /// Nanoseconds since the epoch.
    public var remindAt: Int64
    public var remindedAt: Int64?
    public var doneAt: Int64?

    public init(id: Int64, remindAt: Int64, remindedAt: Int64? = nil, doneAt: Int64? = nil) {
        self.id = id
        self.remindAt = remindAt
        self.remindedAt = remindedAt
        self.doneAt = doneAt
    }

    var isArmed: Bool { remindedAt == nil && doneAt == nil }
}

/// When reminders fire: each armed reminder once its time has come; "late" when it
/// fell due before the daemon started, or more than `lateAfter` before it fired.
public struct ReminderSchedule: Sendable {
    public var lateAfterNanoseconds: Int64

    public init(lateAfter seconds: Double = 60) {
        lateAfterNanoseconds = Int64(seconds * 1e9)
    }

    /// The reminders to fire at `now`, oldest first, each with whether it is late.
    public func due(_ reminders: [ReminderState], now: Int64, startedAt: Int64? = nil) -> [(id: Int64, late: Bool)] {
        reminders.filter { $0.isArmed && $0.remindAt <= now }.sorted { $0.remindAt < $1.remindAt }
            .map { ($0.id, now - $0.remindAt > lateAfterNanoseconds || $0.remindAt < startedAt ?? .min) }
    }

    /// The next time a reminder falls due after `now`; `nil` when none is armed.
    public func next(_ reminders: [ReminderState], now: Int64) -> Int64? {
        reminders.filter { $0.isArmed && $0.remindAt > now }.map(\.remindAt).min()
    }
}
