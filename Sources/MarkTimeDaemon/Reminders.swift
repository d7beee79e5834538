import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem
import MarkTimeTasks

/// The reminder thread. It sleeps in poll(2) until the next reminder's wall-clock
/// time (a CLOCK_REALTIME timer that a clock step also wakes), until another process
/// rings the store's doorbell, or until the daemon stops. It never polls the store. What
/// is due and what was rung go to the core as events. With `plan.alarms` it also warns
/// of noon and the twilight windows at the boat's position (`SkyAlarms`), waking at least
/// once a minute then, as the boat moves.
final class ReminderLoop: @unchecked Sendable {
    let store: AppDatabase
    let clock: any SystemClockSource
    let schedule = ReminderSchedule(lateAfter: 60)
    /// Wall-clock start of the daemon: a reminder due before it was missed, so it is late.
    let startedAt: Int64
    let doorbell: Doorbell?
    /// Why there is no doorbell, reported when the thread starts.
    let doorbellProblem: String?
    let timer: any WallTimerSource
    let thread: PollThread
    /// Hands an event to the core; set before `start`.
    var feed: @Sendable (DaemonCore.Event) -> Void = { _ in }
    /// The daemon's monotonic clock (its adapter's, a fake in tests), for when a ring was read.
    var monotonic: @Sendable () -> Int64 = { Clocks.monotonicNanoseconds() }
    /// `plan.alarm_min` while `plan.alarms` is on, read at each wake (a reload changes it).
    var skyAlarmMinutes: @Sendable () -> Double? = { nil }
    /// Where the boat is and how it moves: its last fix that is not flagged, if any.
    var boat: @Sendable () -> DeadReckoning? = { nil }
    private var skyAlarms = SkyAlarms(minutes: 10)

    init(store: AppDatabase, clock: any SystemClockSource, timer: any WallTimerSource) throws {
        self.store = store
        self.clock = clock
        startedAt = try clock.read().realtime.nanosecondsSinceEpoch
        self.timer = timer
        thread = try PollThread(name: "marktime-remind")
        do {
            doorbell = try Doorbell(path: Doorbell.path(forStore: store.path))
            doorbellProblem = nil
        } catch {
            doorbell = nil
            doorbellProblem = "\(error)"
        }
    }

    /// The system's wall clock, in nanoseconds: what the timer runs on.
    func now() throws -> Int64 { try clock.read().realtime.nanosecondsSinceEpoch }

    func start() {
        if let doorbellProblem { feed(.report(.failed(.wakeSocket, error: doorbellProblem))) }
        thread.start { [self] t in run(t) }
    }

    func stop() { thread.stop() }

    private func run(_ t: PollThread) {
        while true {
            var next = fireDue()
            if doorbell == nil, let t = try? now() { next = min(next ?? .max, t + 60_000_000_000) }
            timer.arm(at: next)
            do {
                if try t.wait([timer.fd] + (doorbell.map { [$0.fd] } ?? [])) == .stopped { return }
            } catch {
                feed(.report(.failed(.reminders, error: "\(error)")))
                return
            }
            timer.drain()
            for rung in doorbell?.drain() ?? [] {
                guard let message = DoorbellMessage(rung.text) else { continue }
                feed(.doorbell(message, from: rung.sender, now: monotonic()))
            }
        }
    }

    /// Warns of noon and the twilight windows due within `plan.alarm_min`; when to look again:
    /// at the next warning, and within a minute (the boat moves, a fix comes).
    private func warnOfTheSky(now t: Int64) -> Int64? {
        guard let minutes = skyAlarmMinutes() else { return nil }
        // No fix yet: look again soon, so the warning follows the first fix by seconds.
        guard let dr = boat() else { return t + 5_000_000_000 }
        skyAlarms.minutes = minutes
        let now = UTCTime(nanosecondsSinceEpoch: t)
        let moments = SkyMoment.upcoming(after: now, from: dr)
        for m in skyAlarms.due(now: now, moments) { feed(.skyAlarm(m.sentence(now: now))) }
        return min(t + 60_000_000_000, skyAlarms.next(now: now, moments)?.nanosecondsSinceEpoch ?? .max)
    }

    /// Fires what is due; the next reminder's or warning's time, if any. A failed read retries in 5 s.
    private func fireDue() -> Int64? {
        do {
            let t = try now()
            for (id, late) in schedule.due(try store.armedReminders(), now: t, startedAt: startedAt) {
                // The store decides: a task done or removed meanwhile, or fired by another daemon, returns nil.
                guard let task = try store.markReminded(id, at: UTCTime(nanosecondsSinceEpoch: t), late: late) else { continue }
                feed(.reminderDue(id: task.id, title: task.title, due: task.due, remind: task.remind, late: late))
            }
            let next = schedule.next(try store.armedReminders(), now: try now())
            return [next, warnOfTheSky(now: try now())].compactMap { $0 }.min()
        } catch {
            feed(.report(.failed(.readReminders, error: "\(error)")))
            return (try? now()).map { $0 + 5_000_000_000 }
        }
    }
}
