import Foundation
import MarkTimeCore
import MarkTimeDaemon
import MarkTimeDevices
import MarkTimeStore
import MarkTimeTasks
import Testing

import DaemonFakes

/// The reminder thread in the whole daemon on fakes: its wall clock is the fake clock, its
/// timer is fired by the test, and each step waits for what the thread does next (the timer
/// armed again after every firing was drained, the time it is armed for, a log line), so
/// nothing waits on the machine's time. A reminder's log line comes after its chime, so a
/// line for the last reminder says every tone before it has been asked for.
@Suite("reminders in the daemon on fakes")
struct ReminderFakesTests {
    /// The wall clock `seconds` after the daemon starts, which its fake clock reads as logDay.
    static func at(_ seconds: Int64) -> UTCTime { UTCTime(nanosecondsSinceEpoch: logDay + seconds * second) }

    /// A fake clock that reads `at(0)` until moved.
    static func clock() -> FakeClock {
        let clock = FakeClock()
        clock.realtimeOffset.withLock { $0 = logDay - clock.monotonic.withLock { $0 } }
        return clock
    }

    /// Moves the fake clock to `at(seconds)`.
    static func move(_ clock: FakeClock, to seconds: Int64) {
        clock.monotonic.withLock { $0 = logDay + seconds * second - clock.realtimeOffset.withLock { $0 } }
    }

    /// Adds `first`, reminded 3 s after the start and due in an hour, and "Evening star
    /// sights", reminded in an hour; the first one's id.
    func addTwoReminders(to store: AppDatabase, first: String) throws -> Int64 {
        let id = try store.insertTask(title: first, due: Self.at(3600), remind: Self.at(3), course: nil, now: Self.at(0))
        _ = try store.insertTask(title: "Evening star sights", due: Self.at(3 * 3600), remind: Self.at(3600), course: nil, now: Self.at(0))
        return id
    }

    func run(_ f: DaemonOnFakes) -> Task<Void, any Error> {
        let daemon = f.daemon
        return Task(executorPreference: QueueExecutor()) { try await daemon.run() }
    }

    @Test func aReminderFiresOnceWhenItsTimeComesWithAChime() async throws {
        // Given reminders 3 s and an hour after the daemon starts
        let log = LogLines()
        let f = try DaemonOnFakes(logger: log.logger, clock: Self.clock())
        defer { f.remove() }
        let wind = try addTwoReminders(to: f.store, first: "Wind the chronometer")
        let running = run(f)
        // Then its timer is armed for the first
        #expect(try await waitFor { f.timer.armed == Self.at(3).nanosecondsSinceEpoch }, "\(String(describing: f.timer.armed))")
        // When that time comes
        Self.move(f.clock, to: 3)
        f.timer.fire()
        // Then it chimes, the store says it fired on time, and the timer is armed for the next
        #expect(try await waitFor { f.timer.settled && f.beeper.played == [.chime] }, "\(f.beeper.played)")
        #expect(f.timer.armed == Self.at(3600).nanosecondsSinceEpoch)
        let fired = try f.store.task(wind)
        #expect(fired.remindedAt == Self.at(3) && fired.remindedLate == false)
        // When the timer wakes again before the next one (as a clock step wakes it), then the next one's time comes
        f.timer.fire()
        #expect(try await waitFor { f.timer.settled })
        #expect(f.beeper.played == [.chime])
        #expect(f.timer.armed == Self.at(3600).nanosecondsSinceEpoch)
        Self.move(f.clock, to: 3600)
        f.timer.fire()
        // Then each fired once, with one chime each, and nothing is left to arm
        #expect(try await waitFor { log.values("title", of: "reminder").last == "Evening star sights" }, "\(log.messages)")
        #expect(log.values("title", of: "reminder") == ["Wind the chronometer", "Evening star sights"])
        #expect(f.beeper.played == [.chime, .chime])
        #expect(try await waitFor { f.timer.settled })
        #expect(f.timer.armed == nil)
        await f.daemon.shutdown()
        try await running.value
    }

    @Test func aReminderMissedWhileStoppedFiresLateAtStartAndNotAfterARestart() async throws {
        // Given a reminder that fell due 10 minutes before the daemon starts, and one 10 minutes after
        let clock = Self.clock()
        let folder: String
        do {
            let log = LogLines()
            let f = try DaemonOnFakes(logger: log.logger, clock: clock)
            folder = f.folder
            let noon = try f.store.insertTask(title: "Log the noon sight", due: Self.at(3600), remind: Self.at(-600), course: nil, now: Self.at(-3600))
            _ = try f.store.insertTask(title: "Shoot the Moon", due: Self.at(3600), remind: Self.at(600), course: nil, now: Self.at(-3600))
            // When the daemon starts
            let running = run(f)
            // Then the missed one fires at once, late, with a chime
            #expect(try await waitFor { log.values("title", of: "reminder (late)") == ["Log the noon sight"] }, "\(log.messages)")
            #expect(f.beeper.played == [.chime])
            let late = try f.store.task(noon)
            #expect(late.remindedAt == Self.at(0) && late.remindedLate == true)
            await f.daemon.shutdown()
            try await running.value
        }
        // When the daemon starts again on the same store (the first one gone, and its lock), and the second one's time comes
        let log = LogLines()
        let g = try DaemonOnFakes(logger: log.logger, folder: folder, clock: clock)
        defer { g.remove() }
        let running = run(g)
        #expect(try await waitFor { g.timer.armed == Self.at(600).nanosecondsSinceEpoch }, "\(String(describing: g.timer.armed))")
        Self.move(clock, to: 600)
        g.timer.fire()
        // Then only the second one fires: the missed one fired once, before the restart
        #expect(try await waitFor { log.values("title", of: "reminder") == ["Shoot the Moon"] }, "\(log.messages)")
        #expect(log.values("title", of: "reminder (late)") == [])
        #expect(g.beeper.played == [.chime])
        await g.daemon.shutdown()
        try await running.value
    }

    @Test func aTaskDoneBeforeItsReminderNeverFires() async throws {
        // Given the daemon running, with reminders 3 s and an hour away
        let log = LogLines()
        let f = try DaemonOnFakes(logger: log.logger, clock: Self.clock())
        defer { f.remove() }
        let light = try addTwoReminders(to: f.store, first: "Check the anchor light")
        let running = run(f)
        #expect(try await waitFor { f.timer.armed == Self.at(3).nanosecondsSinceEpoch }, "\(String(describing: f.timer.armed))")
        // When the first task is done (the task list rings the daemon's doorbell, which wakes the thread), then both times pass
        try TaskList(f.store, bell: StoreDoorbell(store: f.store.path)).setDone(light, at: Self.at(1))
        #expect(try await waitFor { f.timer.armed == Self.at(3600).nanosecondsSinceEpoch }, "\(String(describing: f.timer.armed))")
        Self.move(f.clock, to: 3600)
        f.timer.fire()
        // Then only the second one fires
        #expect(try await waitFor { log.values("title", of: "reminder") == ["Evening star sights"] }, "\(log.messages)")
        #expect(f.beeper.played == [.chime])
        #expect(try f.store.task(light).remindedAt == nil)
        await f.daemon.shutdown()
        try await running.value
    }
}
