import Foundation
import Logging
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeSystem
import MarkTimeTasks

/// The reminder thread. It sleeps in poll(2) until the next reminder's wall-clock
/// time (a CLOCK_REALTIME timer that a clock step also wakes), until the CLI rings
/// the store's doorbell, or until the daemon stops. It never polls the store.
final class ReminderLoop: @unchecked Sendable {
    let store: AppDatabase
    let clock: SystemClock
    let beeper: (any Beeper)?
    let logger: Logger
    let schedule = ReminderSchedule(lateAfter: 60)
    /// Wall-clock start of the daemon: a reminder due before it was missed, so it is late.
    let startedAt: Int64
    let doorbell: Doorbell?
    let timer: WallTimer
    let thread: PollThread
    /// Whether the anchor alarm is sounding (then a chime would cut it short); set before `start`.
    var alarmSounding: @Sendable () -> Bool = { false }
    /// Called when the doorbell says the places changed (`places`).
    var placesChanged: @Sendable () -> Void = {}

    init(store: AppDatabase, clock: SystemClock, beeper: (any Beeper)?, logger: Logger) throws {
        self.store = store
        self.clock = clock
        self.beeper = beeper
        self.logger = logger
        startedAt = try clock.read().realtime.nanosecondsSinceEpoch
        timer = try WallTimer()
        thread = try PollThread(name: "marktime-remind")
        do {
            doorbell = try Doorbell(path: Doorbell.path(forStore: store.path))
        } catch {
            logger.warning("no wake socket: new reminders are seen within a minute", metadata: ["error": "\(error)"])
            doorbell = nil
        }
    }

    /// The system's wall clock, in nanoseconds: what the timer runs on.
    func now() throws -> Int64 { try clock.read().realtime.nanosecondsSinceEpoch }

    func start() {
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
                logger.error("reminders stopped", metadata: ["error": "\(error)"])
                return
            }
            timer.drain()
            for message in doorbell?.drain() ?? [] { beep(asked: message) }
        }
    }

    /// `beep TONE` from the phone page, which stored a sight but has no sound card.
    private func beep(asked message: String) {
        if message == "places" { return placesChanged() }
        guard message.hasPrefix("beep "), let tone = Tone(rawValue: String(message.dropFirst(5))), tone != .alarm, tone != .chime else { return }
        if !alarmSounding() { beeper?.play(tone) }
        logger.info("beep for the phone page", metadata: ["tone": "\(tone.rawValue)"])
    }

    /// Fires what is due; the next reminder's time, if any. A failed read retries in 5 s.
    private func fireDue() -> Int64? {
        do {
            let t = try now()
            for (id, late) in schedule.due(try store.armedReminders(), now: t, startedAt: startedAt) {
                // The store decides: a task done or removed meanwhile, or fired by another daemon, returns nil.
                guard let task = try store.markReminded(id, at: UTCTime(nanosecondsSinceEpoch: t), late: late) else { continue }
                if !alarmSounding() { beeper?.play(.chime) }
                logger.notice(late ? "reminder (late)" : "reminder", metadata: [
                    "task": "\(task.id)", "title": "\(task.title)", "due": "\(task.due.iso8601)",
                    "remind": "\(task.remind?.iso8601 ?? "")", "late": "\(late)",
                ])
            }
            return schedule.next(try store.armedReminders(), now: try now())
        } catch {
            logger.error("cannot read reminders; retrying in 5 s", metadata: ["error": "\(error)"])
            return (try? now()).map { $0 + 5_000_000_000 }
        }
    }
}
