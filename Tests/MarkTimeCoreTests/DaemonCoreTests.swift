import MarkTimeCore
import Testing

/// A core started at 0 s in boot "boot-a", with GPS samples once a second from 0 to 10 s
/// (UTC = logDay + monotonic) and a 3D fix received at 10 s.
func startedCore(debounce: Int = 30, pending: [Sight] = []) -> DaemonCore {
    var core = DaemonCore(configuration: try! .init(settings: settingsWith(debounce: debounce), pid: 7, buttonDevice: "/dev/input/marktime",
                                               trackSaveInterval: 600))
    _ = core.handle(.started(bootID: "boot-a", now: 0, track: [], pending: pending))
    for t in Int64(0)...10 { _ = core.handle(.clock(sample(.gps, mono: t * second, utc: logDay + t * second, 0.5))) }
    _ = core.handle(.fix(testFix))
    return core
}

func settingsWith(debounce: Int) -> Settings {
    var s = Settings()
    s.set("button.debounce_ms", .int(debounce))
    return s
}

let testFix = Fix(position: try! Position(latitude: -27.3807, longitude: 153.3807), mode: 3, horizontalError: 5,
                  time: UTCTime(nanosecondsSinceEpoch: logDay + 10 * second), receivedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second))

func keyDown(_ ns: Int64) -> InputEvent { InputEvent(type: 1, code: 28, value: 1, nanoseconds: ns) }

extension [DaemonCore.Action] {
    var inserts: [Sight] { compactMap { if case .insert(let s) = $0 { s } else { nil } } }
    var tones: [Tone] { compactMap { if case .beep(let t) = $0 { t } else { nil } } }
    var messages: [String] { compactMap { if case .log(let l) = $0 { l.message } else { nil } } }
    var gaps: [InputGap] { compactMap { if case .recordGap(let g) = $0 { g } else { nil } } }
    var backfills: Int { filter { if case .backfill = $0 { true } else { false } }.count }
    var savedTrack: [ClockTrack.Entry] {
        flatMap { action -> [ClockTrack.Entry] in if case .saveTrack(let e) = action { e } else { [] } }
    }
}

@Suite("The daemon core")
struct DaemonCoreTests {
    @Test func aKeyDownBecomesOneInsertStampedFromTheTrackWithTheFix() {
        // Given a core with GPS time and a fix
        var core = startedCore()
        // When the key goes down at 10.25 s
        let actions = core.handle(.input(keyDown(10 * second + 250_000_000), clock: nil))
        // Then it asks for exactly one insert: the kernel's instant, GPS time carried 0.25 s, the fix 0.25 s old
        #expect(actions.count == 1)
        let s = actions.inserts.first
        #expect(s?.instant == MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second + 250_000_000))
        #expect(s?.estimate.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 10 * second + 250_000_000), source: .gps,
                                                uncertainty: 0.5 + 0.25 * 100 / 1e6))
        #expect(s?.position == testFix.position)
        #expect(s?.fixAge == 0.25)
    }

    @Test func keyUpAutorepeatAndBouncesAskForNothing() {
        var core = startedCore(debounce: 30)
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        #expect(core.handle(.input(InputEvent(type: 1, code: 28, value: 2, nanoseconds: 10 * second + 1), clock: nil)).isEmpty)
        #expect(core.handle(.input(InputEvent(type: 1, code: 28, value: 0, nanoseconds: 10 * second + 2), clock: nil)).isEmpty)
        #expect(core.handle(.input(keyDown(10 * second + 29_000_000), clock: nil)).isEmpty)
        #expect(core.handle(.input(keyDown(10 * second + 30_000_000), clock: nil)).inserts.count == 1)
    }

    @Test func theOkToneComesOnlyWhenTheStoreHasTheSight() {
        var core = startedCore()
        let sight = core.handle(.input(keyDown(10 * second), clock: nil)).inserts[0]
        var stored = sight
        stored.id = 1
        let timing = CommitTiming(queuedAt: 10 * second + 500_000, startedAt: 10 * second + 1_000_000, committedAt: 10 * second + 2_500_000)
        let actions = core.handle(.stored(stored, timing: timing))
        #expect(actions.first == .beep(.ok))
        #expect(actions.messages == ["sight stored"])
        if case .log(let line) = actions[1] {
            #expect(line.metadata["commit_ms"] == "2.5")
            #expect(line.metadata["queued_ms"] == "0.5")
            #expect(line.metadata["wait_ms"] == "0.5")
            #expect(line.metadata["insert_ms"] == "1.5")
        }
    }

    @Test func aSightStoredUnsyncedGetsTheWarningTone() throws {
        var core = DaemonCore(configuration: try .init(settings: Settings()))
        _ = core.handle(.started(bootID: "boot-a", now: 0, track: [], pending: []))
        let clock = sample(.unsynced, mono: 5 * second, utc: 99 * second, nil)
        let sight = core.handle(.input(keyDown(5 * second), clock: clock)).inserts[0]
        #expect(sight.estimate.source == .unsynced)
        #expect(core.handle(.stored(sight, timing: nil)).tones == [.warning])
    }

    @Test func aFailedInsertBuzzesOnceIsJournalledRetriedAndConfirmedWhenItLands() {
        // Given a press whose insert fails
        var core = startedCore()
        let sight = core.handle(.input(keyDown(10 * second), clock: nil)).inserts[0]
        let failed = core.handle(.storeFailed(sight, reason: "disk I/O error"))
        // Then: the sight to the journal, then one failure tone, and it is pending
        #expect(failed.tones == [.failure])
        #expect(failed.firstIndex(of: .keepPending(sight)) == 0 && failed[1] == .beep(.failure))
        #expect(core.pending == [sight])
        // When the retry at the next tick fails again: no second buzz, no second journal line
        let tick = core.handle(.tick(now: 11 * second, clock: nil))
        #expect(tick.inserts == [sight])
        let again = core.handle(.storeFailed(sight, reason: "disk I/O error"))
        #expect(again.tones == [])
        #expect(!again.contains(.keepPending(sight)))
        // When it finally lands: the ok tone, and the journal is emptied
        let landed = core.handle(.stored(sight, timing: nil))
        #expect(landed.tones == [.ok])
        #expect(landed.contains(.settlePending))
        #expect(core.pending == [])
    }

    @Test func aPendingSightIsNotRetriedWhileAnAttemptIsUnderWay() {
        // Given a press whose insert failed, and a retry asked for at the next tick
        var core = startedCore()
        let sight = core.handle(.input(keyDown(10 * second), clock: nil)).inserts[0]
        _ = core.handle(.storeFailed(sight, reason: "database is locked"))
        #expect(core.handle(.tick(now: 11 * second, clock: nil)).inserts == [sight])
        // When ticks come while that retry waits on the store: no second attempt
        #expect(core.handle(.tick(now: 12 * second, clock: nil)).inserts == [])
        #expect(core.handle(.tick(now: 13 * second, clock: nil)).inserts == [])
    }

    @Test func aSightConfirmedTwiceBeepsOnce() {
        var core = startedCore()
        let sight = core.handle(.input(keyDown(10 * second), clock: nil)).inserts[0]
        #expect(core.handle(.stored(sight, timing: nil)).tones == [.ok])
        #expect(core.handle(.stored(sight, timing: nil)) == [])
    }

    @Test func sightsLeftInTheJournalByAnEarlierRunAreInsertedAtStart() throws {
        let left = Sight(instant: MonotonicInstant(bootID: "boot-z", nanoseconds: 5), estimate:
                            UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5),
                         createdAt: UTCTime(nanosecondsSinceEpoch: logDay))
        var core = DaemonCore(configuration: try .init(settings: Settings()))
        let actions = core.handle(.started(bootID: "boot-a", now: 0, track: [], pending: [left]))
        #expect(actions.inserts == [left])
        #expect(core.handle(.stored(left, timing: nil)).contains(.settlePending))
    }

    @Test func pressesAnotherProcessKeptInThePendingFileAreAdoptedOnce() throws {
        // Given a running core, and a press that `marktime mark` kept in the pending-presses file
        var core = startedCore()
        var kept = Sight(instant: MonotonicInstant(bootID: "boot-a", nanoseconds: 7 * second), estimate:
                            UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5),
                         createdAt: UTCTime(nanosecondsSinceEpoch: logDay))
        kept.trigger = .cli
        // When the heartbeat finds it
        let found = core.handle(.pendingFound([kept]))
        // Then it is inserted and pending; found again while under way, nothing new happens
        #expect(found.inserts == [kept])
        #expect(core.pending == [kept])
        #expect(core.handle(.pendingFound([kept])) == [])
        // And when it lands: the ok tone, and the file lets go of it
        let landed = core.handle(.stored(kept, timing: nil))
        #expect(landed.tones == [.ok])
        #expect(landed.contains(.settlePending))
    }

    @Test func aPressWhileTheAnchorAlarmSoundsAcknowledgesItAndIsNoSight() {
        var core = startedCore()
        #expect(core.handle(.anchor(.alarm(true))).tones == [.alarm])
        let actions = core.handle(.input(keyDown(10 * second), clock: nil))
        #expect(actions.inserts == [])
        #expect(actions.contains(.acknowledgeAnchor))
        #expect(actions.contains(.silenceAlarm))
        #expect(!core.alarmSounding)
    }

    @Test func theAlarmStartsOnceAndStopsWhenTheWatchSaysSo() {
        var core = startedCore()
        #expect(core.handle(.anchor(.alarm(true))).tones == [.alarm])
        #expect(core.handle(.anchor(.alarm(true))) == [])
        #expect(core.handle(.anchor(.alarm(false))) == [.silenceAlarm])
        #expect(core.handle(.anchor(.alarm(false))) == [])
    }

    @Test func aDropRecordsAGapWarnsAndIgnoresTheResyncsKeyDowns() {
        // Given a press read at 10 s
        var core = startedCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        // When the kernel reports a drop at 10.5 s
        let drop = core.handle(.inputDropped(at: 10 * second + 500_000_000, clock: nil))
        // Then: the warning tone, a log line, and the gap from the last event read to the drop, in UTC too
        #expect(drop.tones == [.warning])
        #expect(drop.gaps == [InputGap(bootID: "boot-a", fromNanoseconds: 10 * second, toNanoseconds: 10 * second + 500_000_000,
                                       from: UTCTime(nanosecondsSinceEpoch: logDay + 10 * second),
                                       to: UTCTime(nanosecondsSinceEpoch: logDay + 10 * second + 500_000_000))])
        #expect(drop.messages.count == 1)
        // And a key-down replayed by the resync is not a press, nor is a live one before the resync ends
        #expect(core.handle(.replayed(keyDown(10 * second + 600_000_000))) == [])
        #expect(core.handle(.input(keyDown(10 * second + 700_000_000), clock: nil)).inserts == [])
        // After the resync, a live key-down is a press again
        _ = core.handle(.resynced)
        #expect(core.handle(.input(keyDown(10 * second + 800_000_000), clock: nil)).inserts.count == 1)
    }

    @Test func aKeyDownWithNoClockAtAllBuzzes() throws {
        var core = DaemonCore(configuration: try .init(settings: Settings()))
        _ = core.handle(.started(bootID: "boot-a", now: 0, track: [], pending: []))
        let actions = core.handle(.input(keyDown(second), clock: nil))
        #expect(actions.tones == [.failure])
        #expect(actions.inserts == [])
    }

    @Test func backfillIsAskedForOnlyWhenTheTrackGainedASample() {
        // Given a started core whose first tick backfilled
        var core = startedCore()
        #expect(core.handle(.tick(now: 10 * second, clock: nil)).backfills == 1)
        // When ticks bring GPS samples the track thins away
        _ = core.handle(.clock(sample(.gps, mono: 11 * second, utc: logDay + 11 * second, 0.5)))
        #expect(core.handle(.tick(now: 11 * second, clock: nil)).backfills == 0)
        // When a sample a minute on is kept
        _ = core.handle(.clock(sample(.gps, mono: 60 * second, utc: logDay + 60 * second, 0.5)))
        #expect(core.handle(.tick(now: 60 * second, clock: nil)).backfills == 1)
    }

    @Test func aSightTakenWhileTheFixWasLostIsBackfilledWhenGPSTimeComesBack() {
        // Given a started core with GPS time to 10 s, whose first tick backfilled
        var core = startedCore()
        #expect(core.handle(.tick(now: 10 * second, clock: nil)).backfills == 1)
        // When gpsd loses its fix at 10.5 s and the key goes down at 11 s (the system clock unsynchronised)
        _ = core.handle(.noFix(mode: 1, at: 10 * second + 500_000_000))
        let press = core.handle(.input(keyDown(11 * second), clock: sample(.unsynced, mono: 11 * second, utc: 16 * second, nil))).inserts
        // Then the press is stamped unsynced, and a tick while GPS is gone asks for no backfill
        #expect(press.map(\.estimate.source) == [.unsynced])
        #expect(core.handle(.tick(now: 11 * second + 500_000_000, clock: nil)).backfills == 0)
        // When the time comes back at 12 s (a sample of the same run, which the track does not keep)
        _ = core.handle(.clock(sample(.gps, mono: 12 * second, utc: logDay + 12 * second, 0.5)))
        // Then the next tick asks for the backfill, which stamps the press from GPS
        #expect(core.handle(.tick(now: 12 * second, clock: nil)).backfills == 1)
        let stamp = press.first.flatMap { core.track.backfill(instant: 11 * second, stored: $0.estimate)?.better }
        #expect(stamp?.source == .gps)
        #expect(stamp?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 11 * second))
    }

    @Test func theTrackIsSavedInBatchesAndAtTheStop() {
        var core = startedCore()
        // Nothing before the interval: the samples at 0 s wait
        #expect(core.handle(.tick(now: 10 * second, clock: nil)).savedTrack == [])
        #expect(core.handle(.tick(now: 600 * second, clock: nil)).savedTrack.map(\.sample.monotonicNanoseconds) == [0])
        _ = core.handle(.clock(sample(.gps, mono: 601 * second, utc: logDay + 601 * second, 0.5)))
        #expect(core.handle(.stopping(now: 602 * second)).savedTrack.map(\.sample.monotonicNanoseconds) == [10 * second, 601 * second])
    }

    @Test func eachTickPublishesWhatStatusShows() {
        var core = startedCore()
        _ = core.handle(.gpsd("connected localhost:2947"))
        _ = core.handle(.button("ready: clicker"))
        let published = core.handle(.tick(now: 10 * second, clock: nil)).compactMap { if case .publish(let s) = $0 { s } else { nil } }
        var expected = DaemonStatus(pid: 7, bootID: "boot-a", startedAt: 0, heartbeat: 10 * second,
                                    clock: sample(.gps, mono: 10 * second, utc: logDay + 10 * second, 0.5), fix: testFix,
                                    gpsd: "connected localhost:2947", buttonDevice: "/dev/input/marktime",
                                    buttonState: "ready: clicker", soundState: "", stopped: false)
        expected.rtc = "/dev/rtc0: never compared with good time; not used without it"
        expected.trustedFix = testFix
        #expect(published == [expected])
    }
}

@Suite("What the doorbell and the reminders ask of the daemon")
struct DoorbellCoreTests {
    @Test("Each message reads back from its text; anything else is no message")
    func messagesRoundTrip() {
        for m in [DoorbellMessage.tasksChanged, .placesChanged, .beep(.ok), .beep(.failure)] {
            #expect(DoorbellMessage(m.text) == m)
        }
        #expect(DoorbellMessage("beep loud") == nil)
        #expect(DoorbellMessage("places\n") == nil)
    }

    @Test("A sight's tone asked by another process plays and is logged; the alarm and the chime are never asked for")
    func beepsForOthers() {
        var core = startedCore()
        let ok = core.handle(.doorbell(.beep(.ok)))
        #expect(ok.tones == [.ok])
        #expect(ok.messages == ["beep for another process"])
        #expect(core.handle(.doorbell(.beep(.alarm))) == [])
        #expect(core.handle(.doorbell(.beep(.chime))) == [])
        #expect(core.handle(.doorbell(.placesChanged)) == [.resendPlaces])
        #expect(core.handle(.doorbell(.tasksChanged)) == [])
    }

    @Test("While the anchor alarm sounds, neither another process's tone nor a reminder's chime plays; the reminder is still logged")
    func nothingOverTheAlarm() {
        var core = startedCore()
        _ = core.handle(.anchor(.alarm(true, details: ["distance_m": "75"])))
        #expect(core.handle(.doorbell(.beep(.ok))) == [])
        let due = UTCTime(nanosecondsSinceEpoch: logDay)
        let reminder = core.handle(.reminderDue(id: 4, title: "Noon sight", due: due, remind: nil, late: false))
        #expect(reminder.tones == [])
        #expect(reminder.messages == ["reminder"])
    }

    @Test("The anchor alarm is logged once, with its figures")
    func anchorDraggingLoggedOnce() {
        var core = startedCore()
        let first = core.handle(.anchor(.alarm(true, details: ["distance_m": "75", "radius_m": "60"])))
        #expect(first.contains(.log(LogLine(.critical, "anchor dragging", ["distance_m": "75", "radius_m": "60"]))))
        #expect(core.handle(.anchor(.alarm(true, details: ["distance_m": "80", "radius_m": "60"]))) == [])
    }

    @Test("A chore the wiring could not do is logged as the core words it")
    func aFailedChoreIsLoggedAtItsLevel() {
        // Given a started core
        var core = startedCore()
        // When the wiring reports that the pending-presses file could not be written
        let actions = core.handle(.report(.failed(.pendingFile, error: "No space left on device")))
        // Then the core asks for one critical line naming what is at stake, and nothing else
        #expect(actions == [.log(LogLine(.critical, "cannot write the pending-presses file: the sight is kept in memory only",
                                         ["error": "No space left on device"]))])
    }

    @Test("A friend's dropped message is logged with its topic's escape sequences made visible")
    func aDroppedMessageEscapesItsTopic() {
        var core = startedCore()
        let actions = core.handle(.report(.shareDropped(topic: "owntracks/a\u{1B}[2J/b", reason: "not JSON")))
        #expect(actions == [.log(LogLine(.warning, "sharing: message dropped", ["topic": "owntracks/a\\u{1B}[2J/b", "reason": "not JSON"]))])
    }
}

@Suite("A pending press found again after it landed")
struct PendingFoundAgainTests {
    @Test("A press the file still holds a moment after it landed is not stored or confirmed twice")
    func noSecondConfirmation() {
        // Given a press adopted from the pending-presses file, which has landed with the ok tone
        var core = startedCore()
        var kept = Sight(instant: MonotonicInstant(bootID: "boot-a", nanoseconds: 7 * second), estimate:
                            UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5),
                         createdAt: UTCTime(nanosecondsSinceEpoch: logDay))
        kept.trigger = .cli
        _ = core.handle(.pendingFound([kept]))
        #expect(core.handle(.stored(kept, timing: nil)).tones == [.ok])
        // When the heartbeat finds it in the file again before the writer let go of it
        // Then nothing happens
        #expect(core.handle(.pendingFound([kept])) == [])
    }
}
