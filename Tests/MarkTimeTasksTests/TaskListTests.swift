import MarkTimeCore
import MarkTimeTasks
import Synchronization
import Testing

/// What a bell was rung with, in order.
final class RecordingBell: DaemonBell {
    let rung = Mutex<[DoorbellMessage]>([])
    func ring(_ message: DoorbellMessage) { rung.withLock { $0.append(message) } }
    var messages: [DoorbellMessage] { rung.withLock { $0 } }
}

/// An in-memory `TaskRepository`: the list's rules tested apart from SQLite.
final class MemoryTasks: TaskRepository {
    let kept = Mutex<[Int64: TaskItem]>([:])

    func insertTask(title: String, due: UTCTime, remind: UTCTime?, course: String?, now: UTCTime) throws -> Int64 {
        kept.withLock { tasks in
            let id = Int64(tasks.count + 1)
            tasks[id] = TaskItem(id: id, title: title, due: due, remind: remind, remindedAt: nil, remindedLate: false, doneAt: nil, course: course)
            return id
        }
    }

    func setTaskDone(_ id: Int64, at: UTCTime?) throws {
        try kept.withLock { tasks throws(InputError) in
            guard tasks[id] != nil else { throw InputError("no task with id \(id)") }
            tasks[id]?.doneAt = at
        }
    }

    func removeTask(_ id: Int64) throws {
        try kept.withLock { tasks throws(InputError) in
            guard tasks.removeValue(forKey: id) != nil else { throw InputError("no task with id \(id)") }
        }
    }

    func editTask(_ id: Int64, _ edit: TaskEdit) throws -> TaskItem {
        try kept.withLock { tasks throws(InputError) in
            guard let task = tasks[id] else { throw InputError("no task with id \(id)") }
            let edited = try edit.apply(to: task, course: edit.course)
            tasks[id] = edited
            return edited
        }
    }
}

@Suite("The task list")
struct TaskListTests {
    let repository = MemoryTasks()
    let bell = RecordingBell()
    var tasks: TaskList<MemoryTasks> { TaskList(repository, bell: bell) }
    let due = UTCTime(wholeSeconds: 1_795_000_000)

    @Test func eachKeptChangeRingsTheDaemonOnce() throws {
        // Given an empty list
        // When a task is added, edited, done, opened again and removed
        let id = try tasks.add(title: "  Noon sight ", due: due, remind: nil, course: nil, now: due)
        _ = try tasks.edit(id, TaskEdit(title: "Noon sight, Sun"))
        try tasks.setDone(id, at: due)
        try tasks.setDone(id, at: nil)
        try tasks.remove(id)
        // Then the daemon was told five times, and the task is gone
        #expect(bell.messages == Array(repeating: .tasksChanged, count: 5))
        #expect(repository.kept.withLock { $0.isEmpty })
    }

    @Test func aTitleIsKeptTrimmed() throws {
        // When a task is added with spaces around its title
        let id = try tasks.add(title: "  Noon sight ", due: due, remind: nil, course: "NAV101", now: due)
        // Then the store is given the title trimmed
        #expect(repository.kept.withLock { $0[id]?.title } == "Noon sight")
    }

    @Test func aChangeTheStoreRefusesRingsNothing() {
        // When a task that is not there is removed
        #expect(throws: InputError("no task with id 7")) { try tasks.remove(7) }
        // Then the daemon is not told
        #expect(bell.messages.isEmpty)
    }

    @Test func aTaskWithoutANameNeverReachesTheStore() {
        // When a task is added with a blank title
        #expect(throws: InputError("a task needs a name, e.g. \"Sun sights\"")) {
            try tasks.add(title: "   ", due: due, remind: nil, course: nil, now: due)
        }
        // Then nothing was kept and nothing rang
        #expect(repository.kept.withLock { $0.isEmpty })
        #expect(bell.messages.isEmpty)
    }

    @Test func aReminderAfterTheDueTimeNeverReachesTheStore() {
        // When the reminder is a minute after the due time
        let late = due.adding(nanoseconds: 60_000_000_000)
        #expect(throws: InputError.self) { try tasks.add(title: "Noon sight", due: due, remind: late, course: nil, now: due) }
        // Then nothing was kept and nothing rang
        #expect(repository.kept.withLock { $0.isEmpty })
        #expect(bell.messages.isEmpty)
    }
}
