import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeTasks
import MarkTimeSystem
import Testing

@Suite("Tasks in the store")
struct TaskStoreTests {
    let folder = TemporaryFolder()
    let t0 = UTCTime(nanosecondsSinceEpoch: logDay)

    func db() throws -> AppDatabase { try AppDatabase(path: folder.store, createDirectory: false) }

    @Test func aReminderIsMarkedOnceAcrossConnections() throws {
        // Given a task with a reminder, and two connections (two daemons, or a restart)
        let id = try db().insertTask(title: "Sights", due: t0.adding(nanoseconds: 3600 * second), remind: t0, course: nil, now: t0)
        let a = try db(), b = try db()
        // When both try to mark it reminded
        let first = try a.markReminded(id, at: t0, late: false)
        let second = try b.markReminded(id, at: t0.adding(nanoseconds: second), late: true)
        // Then only the first succeeds, and the store keeps its time
        #expect(first?.remindedAt == t0)
        #expect(second == nil)
        #expect(try db().task(id).remindedLate == false)
        #expect(try db().armedReminders().isEmpty)
    }

    @Test func aDoneTaskIsNotArmedAndCannotBeMarked() throws {
        let id = try db().insertTask(title: "Sights", due: t0, remind: t0, course: nil, now: t0)
        try db().setTaskDone(id, at: t0)
        #expect(try db().armedReminders().isEmpty)
        #expect(try db().markReminded(id, at: t0, late: false) == nil)
    }

    @Test func aNewReminderTimeArmsItAgain() throws {
        let id = try db().insertTask(title: "Sights", due: t0.adding(nanoseconds: 3600 * second), remind: t0, course: nil, now: t0)
        _ = try db().markReminded(id, at: t0, late: false)
        let later = t0.adding(nanoseconds: 60 * second)
        let edited = try db().editTask(id, TaskEdit(remind: .some(later)))
        #expect(edited.remindedAt == nil)
        #expect(try db().armedReminders().map(\.remindAt) == [later.nanosecondsSinceEpoch])
    }

    @Test func everyChangeToTasksRingsTheDaemonsDoorbell() throws {
        // Given a daemon's doorbell beside the store, and the task list on it
        let store = try db()
        let bell = try Doorbell(path: Doorbell.path(forStore: store.path))
        let tasks = TaskList(store, bell: StoreDoorbell(store: store.path))
        // When a task is added, edited, done, opened again and removed, and one refused
        let id = try tasks.add(title: "Sights", due: t0, remind: nil, course: nil, now: t0)
        _ = try tasks.edit(id, TaskEdit(title: "Noon sight"))
        try tasks.setDone(id, at: t0)
        try tasks.setDone(id, at: nil)
        try tasks.remove(id)
        _ = try? tasks.remove(id)
        // Then each change rang once, and the refusal did not
        #expect(bell.drain().map(\.text) == ["tasks", "tasks", "tasks", "tasks", "tasks"])
    }

    @Test func aTaskForAnUnknownCourseIsRefused() throws {
        #expect(throws: StoreError.self) { try db().insertTask(title: "HW", due: t0, remind: nil, course: "NAV999", now: t0) }
        #expect(try db().tasks().isEmpty)
    }
}
