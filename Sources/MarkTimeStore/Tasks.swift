import GRDB
import MarkTimeCore
import MarkTimeSystem
import MarkTimeTasks

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

extension AppDatabase {
    /// Adds a task; its id.
    public func addTask(title: String, due: UTCTime, remind: UTCTime?, course: String?, now: UTCTime) throws(StoreError) -> Int64 {
        let title = try StoreError.name(title, what: "a task", example: "\"Sun sights\"")
        try Self.checkReminder(remind, due: due)
        return try changingTasks { () throws(StoreError) in
            try write { db in
                let course = try course.map { try Self.courseCode($0, db) }
                try db.execute(sql: "INSERT INTO task (title, due_ns, remind_ns, course, created_at_ns) VALUES (?, ?, ?, ?, ?)",
                               arguments: [title, due.nanosecondsSinceEpoch, remind?.nanosecondsSinceEpoch, course, now.nanosecondsSinceEpoch])
                return db.lastInsertedRowID
            }
        }
    }

    /// Runs a change to tasks, then rings the daemon's doorbell so that its reminder
    /// thread reads them again: every front end's change reaches the daemon this way.
    func changingTasks<T>(_ change: () throws(StoreError) -> T) throws(StoreError) -> T {
        let result = try change()
        Doorbell.ring(store: path)
        return result
    }

    static func checkReminder(_ remind: UTCTime?, due: UTCTime) throws(StoreError) {
        if let remind, remind > due {
            throw .refused("the reminder (\(remind.iso8601)) is after the due time (\(due.iso8601)): remind before it, e.g. --remind 30m-before")
        }
    }

    /// Every task, soonest due first.
    public func tasks() throws(StoreError) -> [TaskItem] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM task ORDER BY due_ns, id").map(Self.task) }
    }

    public func task(_ id: Int64) throws(StoreError) -> TaskItem {
        try read { db in try Self.task(id, db) }
    }

    static func task(_ id: Int64, _ db: Database) throws -> TaskItem {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM task WHERE id = ?", arguments: [id]) else {
            throw StoreError.refused("no task with id \(id): `marktime task list --all` lists them")
        }
        return task(row)
    }

    static func task(_ row: Row) -> TaskItem {
        func time(_ column: String) -> UTCTime? { (row[column] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)) }
        return TaskItem(id: row["id"], title: row["title"], due: time("due_ns")!, remind: time("remind_ns"),
                        remindedAt: time("reminded_at_ns"), remindedLate: row["reminded_late"], doneAt: time("done_at_ns"),
                        course: row["course"])
    }

    /// Marks a task done at `at`, or open again when `at` is nil.
    public func setTaskDone(_ id: Int64, at: UTCTime?) throws(StoreError) {
        try changingTasks { () throws(StoreError) in
            try write { db in
                _ = try Self.task(id, db)
                try db.execute(sql: "UPDATE task SET done_at_ns = ? WHERE id = ?", arguments: [at?.nanosecondsSinceEpoch, id])
            }
        }
    }

    public func removeTask(_ id: Int64) throws(StoreError) {
        try changingTasks { () throws(StoreError) in
            try write { db in
                _ = try Self.task(id, db)
                try db.execute(sql: "DELETE FROM task WHERE id = ?", arguments: [id])
            }
        }
    }

    /// Applies an edit, all or nothing. A new reminder time arms the reminder again.
    public func editTask(_ id: Int64, _ edit: TaskEdit) throws(StoreError) -> TaskItem {
        try changingTasks { () throws(StoreError) in try write { db in
            var t = try Self.task(id, db)
            if let title = edit.title {
                t.title = try StoreError.name(title, what: "a task", example: "\"Sun sights\"")
            }
            if let due = edit.due { t.due = due }
            var rearm = false
            if let remind = edit.remind {
                rearm = remind != t.remind
                t.remind = remind
            }
            if let course = edit.course { t.course = try course.map { try Self.courseCode($0, db) } }
            try Self.checkReminder(t.remind, due: t.due)
            try db.execute(sql: """
                UPDATE task SET title = ?, due_ns = ?, remind_ns = ?, course = ?,
                    reminded_at_ns = CASE WHEN ? THEN NULL ELSE reminded_at_ns END,
                    reminded_late = CASE WHEN ? THEN 0 ELSE reminded_late END
                WHERE id = ?
                """, arguments: [t.title, t.due.nanosecondsSinceEpoch, t.remind?.nanosecondsSinceEpoch, t.course, rearm, rearm, id])
            return try Self.task(id, db)
        } }
    }

    /// Reminders that may still fire: set, not fired, task not done.
    public func armedReminders() throws(StoreError) -> [ReminderState] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, remind_ns FROM task WHERE remind_ns IS NOT NULL AND reminded_at_ns IS NULL AND done_at_ns IS NULL")
                .map { ReminderState(id: $0["id"], remindAt: $0["remind_ns"]) }
        }
    }

    /// Records that a reminder fired; `nil` when it had already fired, or the task was
    /// done or removed meanwhile (then it must not sound).
    public func markReminded(_ id: Int64, at: UTCTime, late: Bool) throws(StoreError) -> TaskItem? {
        try write { db in
            try db.execute(sql: """
                UPDATE task SET reminded_at_ns = ?, reminded_late = ?
                WHERE id = ? AND remind_ns IS NOT NULL AND reminded_at_ns IS NULL AND done_at_ns IS NULL
                """, arguments: [at.nanosecondsSinceEpoch, late, id])
            return db.changesCount == 1 ? try Self.task(id, db) : nil
        }
    }
}
