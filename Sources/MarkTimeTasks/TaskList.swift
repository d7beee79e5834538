import MarkTimeCore

/// What the task list needs of a store: tasks kept and found, each change in one
/// transaction. It keeps; `TaskList` checks and tells the daemon. MarkTimeStore's
/// `AppDatabase` is the one on SQLite.
public protocol TaskRepository: Sendable {
    /// Keeps a new task, its course (as typed) matched to a stored one; the task's id.
    func insertTask(title: String, due: UTCTime, remind: UTCTime?, course: String?, now: UTCTime) throws -> Int64
    /// Marks a task done at `at`, or open again when `at` is nil.
    func setTaskDone(_ id: Int64, at: UTCTime?) throws
    func removeTask(_ id: Int64) throws
    /// Applies `edit` (`TaskEdit.apply`) to the stored task, all or nothing; the task as edited.
    func editTask(_ id: Int64, _ edit: TaskEdit) throws -> TaskItem
}

/// The navigator's tasks over a `TaskRepository`: a task is checked before it is kept (a
/// name, a reminder not after the due time), and each change that was kept rings the
/// daemon, whose reminder thread then reads the tasks again. A refused change rings nothing.
public struct TaskList<Repository: TaskRepository>: Sendable {
    public let repository: Repository
    let bell: any DaemonBell

    public init(_ repository: Repository, bell: any DaemonBell) {
        self.repository = repository
        self.bell = bell
    }

    /// Adds a task; its id.
    public func add(title: String, due: UTCTime, remind: UTCTime?, course: String?, now: UTCTime) throws -> Int64 {
        let title = try Text.name(title, what: "a task", example: "\"Sun sights\"")
        try TaskItem.checkReminder(remind, due: due)
        return rung(try repository.insertTask(title: title, due: due, remind: remind, course: course, now: now))
    }

    /// Marks a task done at `at`, or open again when `at` is nil.
    public func setDone(_ id: Int64, at: UTCTime?) throws {
        rung(try repository.setTaskDone(id, at: at))
    }

    public func remove(_ id: Int64) throws {
        rung(try repository.removeTask(id))
    }

    /// Applies an edit, all or nothing; a new reminder time arms the reminder again.
    public func edit(_ id: Int64, _ edit: TaskEdit) throws -> TaskItem {
        rung(try repository.editTask(id, edit))
    }

    private func rung<T>(_ kept: T) -> T {
        bell.ring(.tasksChanged)
        return kept
    }
}
