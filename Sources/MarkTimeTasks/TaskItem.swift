import MarkTimeCore

/// A task with a deadline, and perhaps a reminder.
public struct TaskItem: Hashable, Sendable {
    public var id: Int64
    public var title: String
    public var due: UTCTime
    public var remind: UTCTime?
    /// When the daemon fired the reminder, and whether it was late.
    public var remindedAt: UTCTime?
    public var remindedLate: Bool
    public var doneAt: UTCTime?
    public var course: String?

    public init(id: Int64, title: String, due: UTCTime, remind: UTCTime? = nil, remindedAt: UTCTime? = nil, remindedLate: Bool, doneAt: UTCTime? = nil, course: String? = nil) {
        self.id = id
        self.title = title
        self.due = due
        self.remind = remind
        self.remindedAt = remindedAt
        self.remindedLate = remindedLate
        self.doneAt = doneAt
        self.course = course
    }
}

/// The changes `task edit` makes; `nil` leaves a field as it is.
public struct TaskEdit: Sendable {
    public var title: String?
    public var due: UTCTime?
    /// `.some(nil)` clears the reminder.
    public var remind: UTCTime??
    public var course: String??

    public init(title: String? = nil, due: UTCTime? = nil, remind: UTCTime?? = nil, course: String?? = nil) {
        self.title = title
        self.due = due
        self.remind = remind
        self.course = course
    }
}


extension TaskItem {
    /// A reminder must come before the task is due.
    public static func checkReminder(_ remind: UTCTime?, due: UTCTime) throws(InputError) {
        if let remind, remind > due {
            throw InputError("the reminder (\(remind.iso8601)) is after the due time (\(due.iso8601)): remind before it, e.g. --remind 30m-before")
        }
    }
}

extension TaskEdit {
    /// `task` after this edit: a new title checked, a new reminder time arming the reminder
    /// again, and the reminder before the due time. `course` is the course as the store
    /// spells it (the caller looks it up), `.some(nil)` to clear it.
    public func apply(to task: TaskItem, course: String??) throws(InputError) -> TaskItem {
        var t = task
        if let title { t.title = try Text.name(title, what: "a task", example: "\"Sun sights\"") }
        if let due { t.due = due }
        if let remind, remind != t.remind {
            t.remind = remind
            t.remindedAt = nil
            t.remindedLate = false
        }
        if let course { t.course = course }
        try TaskItem.checkReminder(t.remind, due: t.due)
        return t
    }
}
