import GRDB
import MarkTimeCore
import MarkTimeTasks

/// A row of the `task` table: GRDB reads and writes it by its coding keys, the column names.
struct TaskRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "task"

    var id: Int64?
    var title: String, dueNs: Int64, remindedLate: Bool, createdAtNs: Int64
    var remindNs: Int64? = nil, remindedAtNs: Int64? = nil, doneAtNs: Int64? = nil, course: String? = nil

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, title, course
        case dueNs = "due_ns", remindNs = "remind_ns", remindedAtNs = "reminded_at_ns", remindedLate = "reminded_late"
        case doneAtNs = "done_at_ns", createdAtNs = "created_at_ns"
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Tasks whose reminder may still fire: set, not fired, the task not done.
    static var armed: QueryInterfaceRequest<TaskRecord> {
        filter(CodingKeys.remindNs != nil && CodingKeys.remindedAtNs == nil && CodingKeys.doneAtNs == nil)
    }

    var item: TaskItem {
        TaskItem(id: id ?? 0, title: title, due: UTCTime(nanosecondsSinceEpoch: dueNs), remind: remindNs.map(UTCTime.init(nanosecondsSinceEpoch:)),
                 remindedAt: remindedAtNs.map(UTCTime.init(nanosecondsSinceEpoch:)), remindedLate: remindedLate,
                 doneAt: doneAtNs.map(UTCTime.init(nanosecondsSinceEpoch:)), course: course)
    }
}

extension AppDatabase: TaskRepository {
    /// Keeps a new task; its id. `TaskList` checks it and rings the daemon.
    public func insertTask(title: String, due: UTCTime, remind: UTCTime?, course: String?, now: UTCTime) throws(StoreError) -> Int64 {
        try write { db in
            var record = TaskRecord(title: title, dueNs: due.nanosecondsSinceEpoch, remindedLate: false, createdAtNs: now.nanosecondsSinceEpoch,
                                    remindNs: remind?.nanosecondsSinceEpoch, course: try course.map { try Self.courseCode($0, db) })
            try record.insert(db)
            return record.id ?? db.lastInsertedRowID
        }
    }

    /// Every task, soonest due first.
    public func tasks() throws(StoreError) -> [TaskItem] {
        try read { db in try TaskRecord.order(TaskRecord.CodingKeys.dueNs, TaskRecord.CodingKeys.id).fetchAll(db).map(\.item) }
    }

    public func task(_ id: Int64) throws(StoreError) -> TaskItem {
        try read { db in try Self.task(id, db).item }
    }

    static func task(_ id: Int64, _ db: Database) throws -> TaskRecord {
        guard let record = try TaskRecord.fetchOne(db, key: id) else {
            throw StoreError.refused("no task with id \(id): `marktime task list --all` lists them")
        }
        return record
    }

    /// Marks a task done at `at`, or open again when `at` is nil.
    public func setTaskDone(_ id: Int64, at: UTCTime?) throws(StoreError) {
        try write { db in
            var t = try Self.task(id, db)
            t.doneAtNs = at?.nanosecondsSinceEpoch
            try t.update(db)
        }
    }

    public func removeTask(_ id: Int64) throws(StoreError) {
        try write { db in _ = try Self.task(id, db).delete(db) }
    }

    /// Applies an edit, all or nothing. A new reminder time arms the reminder again.
    public func editTask(_ id: Int64, _ edit: TaskEdit) throws(StoreError) -> TaskItem {
        try write { db in
            var t = try Self.task(id, db)
            let course = try edit.course.map { try $0.map { try Self.courseCode($0, db) } }
            let edited = try edit.apply(to: t.item, course: course)
            (t.title, t.dueNs, t.remindNs) = (edited.title, edited.due.nanosecondsSinceEpoch, edited.remind?.nanosecondsSinceEpoch)
            (t.remindedAtNs, t.remindedLate, t.course) = (edited.remindedAt?.nanosecondsSinceEpoch, edited.remindedLate, edited.course)
            try t.update(db)
            return edited
        }
    }

    /// Reminders that may still fire: set, not fired, task not done.
    public func armedReminders() throws(StoreError) -> [ReminderState] {
        try read { db in
            try TaskRecord.armed.fetchAll(db).compactMap { t in t.remindNs.map { ReminderState(id: t.id ?? 0, remindAt: $0) } }
        }
    }

    /// Records that a reminder fired; `nil` when it had already fired, or the task was
    /// done or removed meanwhile (then it must not sound).
    public func markReminded(_ id: Int64, at: UTCTime, late: Bool) throws(StoreError) -> TaskItem? {
        try write { db in
            typealias T = TaskRecord.CodingKeys
            let changed = try TaskRecord.armed.filter(T.id == id)
                .updateAll(db, [T.remindedAtNs.set(to: at.nanosecondsSinceEpoch), T.remindedLate.set(to: late)])
            return changed == 1 ? try Self.task(id, db).item : nil
        }
    }
}
