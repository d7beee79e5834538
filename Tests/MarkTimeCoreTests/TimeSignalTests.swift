import MarkTimeCore
import Testing

/// A core started at 0 s in boot "boot-a" that has heard no time source at all.
func bareCore() -> DaemonCore {
    var core = DaemonCore(configuration: try! .init(settings: settingsWith(debounce: 30), pid: 7, buttonDevice: "/dev/input/marktime",
                                                    trackSaveInterval: 600))
    _ = core.handle(.started(bootID: "boot-a", now: 0, track: [], pending: []))
    return core
}

extension DaemonCore {
    /// A press at `ns` (key down, then up 50 ms later), with the unsynced system clock read
    /// 1 ms after the key-down saying `clockUTC` ns then.
    mutating func press(at ns: Int64, clockUTC: Int64? = nil) -> [Action] {
        let clock = clockUTC.map { sample(.unsynced, mono: ns + 1_000_000, utc: $0, nil) }
        return handle(.input(keyDown(ns), clock: clock)) + handle(.input(InputEvent(type: 1, code: 28, value: 0, nanoseconds: ns + 50_000_000), clock: nil))
    }
}

extension [DaemonCore.Action] {
    var signalAnswers: [TimeSignalAnswer] { compactMap { if case .answerSignal(let a, to: "asker") = $0 { a } else { nil } } }
}

/// `marktime clock signal`: the button pressed on a time signal's tick sets the clock (#58 item 4).
@Suite("A time signal's tick sets the clock")
struct TimeSignalTests {
    /// logDay is 2007-04-08T09:52:55Z: 09:53:00 is logDay + 5 s.
    let tick0953 = TimeSignalRequest(secondOfDay: 9 * 3600 + 53 * 60, date: UTCTime(year: 2007, month: 4, day: 8))

    @Test func aPressOnTheTickBecomesASignalSample() throws {
        // Given a boot with no time but the free-running clock, 35 s fast, and `clock signal 09:53` waiting
        var core = bareCore()
        let waiting = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        #expect(waiting.messages == ["waiting 120 s for a press on the time signal's tick of 09:53:00 UTC"])
        // When the button goes down at 104 s
        let said = core.press(at: 104 * second, clockUTC: logDay + 40 * second + 1_000_000)
        // Then the tick is the time at the press, with the reaction time's 0.3 s; no sight is made, and the ok tone sounds
        let before = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 40 * second), source: .unsynced, uncertainty: nil)
        #expect(said.signalAnswers == [.taken(tick: UTCTime(nanosecondsSinceEpoch: logDay + 5 * second), uncertainty: 0.3, before: before)])
        #expect(said.inserts.isEmpty)
        #expect(said.tones == [.ok])
        #expect(said.messages == ["time signal taken: the tick of 2007-04-08T09:53:00.000Z is taken (signal ±300 ms); "
            + "the clock (unsynced unknown) was 35.000 s fast"])
        // And the track saves it at once
        #expect(said.savedTrack.map(\.sample) == [sample(.signal, mono: 104 * second, utc: logDay + 5 * second, 0.3)])
        #expect(core.track.latest[.signal]?.sample == sample(.signal, mono: 104 * second, utc: logDay + 5 * second, 0.3))
    }

    @Test func aPressAfterTheTickIsStampedFromIt() throws {
        // Given the tick of 09:53:00 taken at 104 s
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        _ = core.press(at: 104 * second, clockUTC: logDay + 40 * second)
        // When a sight is taken 96 s later
        let sight = try #require(core.press(at: 200 * second, clockUTC: logDay + 136 * second).inserts.first)
        // Then it is stamped from the tick, 96 s on, within 0.3 s and 96 s at 100 ppm
        #expect(sight.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + 101 * second))
        #expect(sight.estimate.source == .signal)
        #expect(abs(try #require(sight.estimate.uncertainty) - 0.3096) < 1e-9)
        #expect(sight.estimate.provenance?.samples.map(\.source) == [.signal])
    }

    @Test func theSightsTakenBeforeTheTickAreRestampedFromIt() throws {
        // Given a sight stamped unsynced at 50 s, then the tick taken at 104 s
        var core = bareCore()
        let early = try #require(core.press(at: 50 * second, clockUTC: logDay + 40 * second).inserts.first)
        #expect(early.estimate.source == .unsynced)
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        _ = core.press(at: 104 * second, clockUTC: logDay + 94 * second)
        // When the backfill looks at it
        let restamp = core.track.backfill(instant: 50 * second, stored: early.estimate)
        // Then it takes the tick's time, 54 s back
        #expect(restamp?.better?.utc == UTCTime(nanosecondsSinceEpoch: logDay - 49 * second))
        #expect(restamp?.better?.source == .signal)
    }

    @Test func aMinuteFarFromAClockThatKnowsItsErrorIsRefused() throws {
        // Given GPS time (±0.5 s) until 10 s, and `clock signal 09:54:05` waiting
        var core = startedCore()
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 54 * 60 + 5)), from: "asker", now: 10 * second))
        // When the button goes down at 10.5 s, when GPS says 09:53:05.5
        let said = core.press(at: 10 * second + 500_000_000)
        // Then the tick is refused as a wrong minute, in words, with the warning tone, and nothing changed
        let reason = "the tick of 09:54:05 UTC is 59.5 s after the clock's 2007-04-08T09:53:05.500Z (gps ±500 ms), more than its uncertainty and "
            + "half a minute: check the minute the tick began and run `marktime clock signal` again; if the clock is the one that is wrong, "
            + "add --force; nothing changed"
        #expect(said.signalAnswers == [.refused(reason)])
        #expect(said.tones == [.warning])
        #expect(said.inserts.isEmpty)
        #expect(core.track.latest[.signal] == nil)
    }

    @Test func forcedTheFarMinuteIsTaken() {
        // Given the same wrong-looking minute, forced
        var core = startedCore()
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 54 * 60 + 5, force: true)), from: "asker", now: 10 * second))
        // When the button goes down at 10.5 s
        let said = core.press(at: 10 * second + 500_000_000)
        // Then it is taken, saying the clock was 59.5 s slow
        #expect(said.signalAnswers.first?.clockError == 59.5)
        #expect(core.track.latest[.signal]?.sample.utc == UTCTime(nanosecondsSinceEpoch: logDay + 70 * second))
    }

    @Test func aSecondPressOnTheTickIsNotASight() throws {
        // Given the tick taken at 104 s
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        _ = core.press(at: 104 * second, clockUTC: logDay + 40 * second)
        // When the button goes down again 0.8 s later
        let again = core.press(at: 104 * second + 800_000_000, clockUTC: logDay + 41 * second)
        // Then it is not a sight, and the log says why
        #expect(again.inserts.isEmpty)
        #expect(again.messages == ["a second press 0.80 s after the time signal's: taken for a press on the same tick, not a sight"])
        // And a press 5 s after the tick is a sight again
        #expect(core.press(at: 109 * second, clockUTC: logDay + 45 * second).inserts.count == 1)
    }

    @Test func noPressWithinTheWindowChangesNothing() {
        // Given `clock signal 09:53` waiting 120 s from 100 s
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        // When the heartbeat comes at 222 s (the window and the 2 s grace to read a press), then at 223 s
        #expect(core.handle(.tick(now: 222 * second, clock: nil)).signalAnswers.isEmpty)
        let ended = core.handle(.tick(now: 223 * second, clock: nil))
        // Then the wait ends, in words, and a press after it is a sight
        #expect(ended.signalAnswers == [.refused("no press within 120 s of asking: nothing changed; run `marktime clock signal` again a little before the tick")])
        #expect(core.signalWait == nil)
        #expect(core.press(at: 230 * second, clockUTC: logDay).inserts.count == 1)
    }

    @Test func aPressStampedInTheWindowAndReadAfterItIsTheTick() throws {
        // Given `clock signal 09:53` waiting 120 s from 100 s, and the heartbeat at 221 s, past the window
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        #expect(core.handle(.tick(now: 221 * second, clock: nil)).signalAnswers.isEmpty)
        // When a key-down the kernel stamped at 219.9 s is read at 221.5 s
        let clock = sample(.unsynced, mono: 221 * second + 500_000_000, utc: logDay + 40 * second, nil)
        let said = core.handle(.input(keyDown(219 * second + 900_000_000), clock: clock))
        // Then it is the tick, not a sight
        #expect(said.inserts.isEmpty)
        #expect(try #require(said.signalAnswers.first).clockError != nil)
        #expect(core.track.latest[.signal]?.sample.monotonicNanoseconds == 219 * second + 900_000_000)
    }

    @Test func aPressStampedAfterTheWindowIsASightEvenWithinTheGrace() {
        // Given `clock signal 09:53` waiting 120 s from 100 s
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        // When a key-down is stamped at 220.5 s, after the window
        let said = core.press(at: 220 * second + 500_000_000, clockUTC: logDay + 40 * second)
        // Then it is a sight, and the wait goes on until its grace ends
        #expect(said.inserts.count == 1)
        #expect(core.signalWait != nil)
        #expect(core.handle(.tick(now: 223 * second, clock: nil)).signalAnswers.count == 1)
    }

    @Test func aSecondRequestTakesThePlaceOfTheFirst() {
        // Given `clock signal 09:53` waiting
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        // When another asks for 09:54
        let replaced = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 54 * 60, date: UTCTime(year: 2007, month: 4, day: 8))),
                                             from: "other", now: 101 * second))
        // Then the first is told, and the press is the second's
        #expect(replaced.signalAnswers == [.refused("another `marktime clock signal` took its place")])
        let said = core.press(at: 104 * second, clockUTC: logDay + 60 * second)
        #expect(said.contains(.answerSignal(.taken(tick: UTCTime(nanosecondsSinceEpoch: logDay + 65 * second), uncertainty: 0.3,
                                                   before: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 59_999_000_000), source: .unsynced,
                                                                       uncertainty: nil)), to: "other")))
    }

    @Test func anUnsyncedClockNeedsTheDate() {
        // Given a boot with only the free-running clock, and `clock signal 09:53` without a date
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 53 * 60)), from: "asker", now: 100 * second))
        // When the button goes down on the tick
        let said = core.press(at: 104 * second, clockUTC: logDay)
        // Then it is refused, naming the fix, and nothing changed
        #expect(said.signalAnswers == [.refused("the clock does not know the date (it is unsynced, and may be days off): give the tick's date "
            + "too, `marktime clock signal 09:53:00 --date YYYY-MM-DD`; nothing changed")])
        #expect(core.track.latest[.signal] == nil)
    }

    @Test func aClockDaysOffIsSetToTheDateGiven() {
        // Given a free-running clock three days slow, and the tick's date given
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        // When the button goes down on the tick
        let said = core.press(at: 104 * second, clockUTC: logDay - 3 * 86_400 * second)
        // Then the tick is on its date, and the clock was three days and 5 s slow
        #expect(core.track.latest[.signal]?.sample.utc == UTCTime(nanosecondsSinceEpoch: logDay + 5 * second))
        #expect(said.signalAnswers.first?.clockError == 259_205.001)
    }

    @Test func aSightStampedByLiveGPSIsNotRestampedFromATick() throws {
        // Given GPS time (±0.5 s) and a sight stamped from it at 5 s, then a tick taken at 10.5 s
        var core = startedCore()
        let sight = try #require(core.press(at: 5 * second).inserts.first)
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 53 * 60 + 5)), from: "asker", now: 10 * second))
        _ = core.press(at: 10 * second + 500_000_000)
        // When the backfill looks at the sight
        // Then the tick (±0.3 s, late by a reaction time) does not replace a live GPS stamp
        #expect(core.track.latest[.signal] != nil)
        #expect(core.track.backfill(instant: 5 * second, stored: sight.estimate) == nil)
    }

    @Test func stoppingAnswersARequestStillWaiting() {
        // Given `clock signal 09:53` waiting
        var core = bareCore()
        _ = core.handle(.doorbell(.signal(tick0953), from: "asker", now: 100 * second))
        // When the daemon stops
        let said = core.handle(.stopping(now: 101 * second))
        // Then the asker is told at once
        #expect(said.signalAnswers == [.refused("the daemon is stopping: nothing changed; run `marktime clock signal` again once it is back")])
    }

    @Test func gpsSetAsideLongSilentIsNotClearedByATick() {
        // Given GPS that came back 20 s off at 250 s, set aside, then silent
        var core = startedCore()
        _ = core.handle(.clock(sample(.gps, mono: 250 * second, utc: logDay + 270 * second, 0.5)))
        // When a tick agreeing with it carried an hour on is pressed at 3,850 s
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 57 * 60 + 30 + 3600, force: true)), from: "asker", now: 3849 * second))
        _ = core.press(at: 3855 * second)
        // Then GPS stays set aside: an hour-old sample vouches for nothing
        #expect(core.track.latest[.signal] != nil)
        #expect(core.track.suspect != nil)
    }

    @Test func gpsSetAsideThatAgreesWithTheTickCountsAgain() {
        // Given GPS that came back 20 s off after 240 s quiet, set aside
        var core = startedCore()
        _ = core.handle(.clock(sample(.gps, mono: 250 * second, utc: logDay + 270 * second, 0.5)))
        #expect(core.track.suspect?.seconds == 20)
        // When a time signal's tick at 09:57:30 is pressed at 255 s, where that GPS says 09:57:30
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 57 * 60 + 30)), from: "asker", now: 251 * second))
        let said = core.press(at: 255 * second)
        // Then GPS counts again, and the log says why
        #expect(core.track.suspect == nil)
        #expect(said.messages.contains("gps time agrees with the time signal (+0.000 s): it counts again, +20.000 s off the time carried before"))
    }

    @Test func aSignalIsCarriedWithoutALearnedRateWithinTheDriftBound() throws {
        // Given a track that has heard only a time signal at 100 s
        var track = ClockTrack()
        track.add(sample(.signal, mono: 100 * second, utc: logDay, 0.3))
        // When a press comes an hour later
        let e = try #require(track.estimate(at: 3700 * second, now: 3700 * second))
        // Then it is the tick carried an hour at rate 1, within 0.3 s and 3,600 s at 100 ppm
        #expect(e.utc == UTCTime(nanosecondsSinceEpoch: logDay + 3600 * second))
        #expect(e.source == .signal)
        #expect(abs(try #require(e.uncertainty) - 0.66) < 1e-9)
    }

    @Test func theTickIsDatedOnTheDayNearestTheClock() {
        // Given a clock at 23:59:50 and one at 00:00:10
        let late = UTCTime(year: 2026, month: 11, day: 27, hour: 23, minute: 59, second: 50)!
        let early = UTCTime(year: 2026, month: 11, day: 28, hour: 0, minute: 0, second: 10)!
        // Then 00:00 is the next day's, 23:59:30 the day before's, and 12:00 the same day's
        #expect(TimeSignalRequest(secondOfDay: 0).tick(near: late) == UTCTime(year: 2026, month: 11, day: 28)!)
        #expect(TimeSignalRequest(secondOfDay: 86_370).tick(near: early) == UTCTime(year: 2026, month: 11, day: 27, hour: 23, minute: 59, second: 30)!)
        #expect(TimeSignalRequest(secondOfDay: 43_200).tick(near: late) == UTCTime(year: 2026, month: 11, day: 27, hour: 12)!)
    }

    @Test(arguments: ["14", "14:5x", "24:00", "-1:00", "14:05:60", "14:05:00:00", "", "1405", "１４:05", "+1:+5", "14: 5"])
    func aTickThatIsNotATimeOfDayIsRefused(text: String) {
        #expect(throws: InputError.self) { try TimeSignalRequest.parseTick(text) }
    }

    @Test func theTicksSaidAsTheNavigatorSaysThem() throws {
        #expect(try TimeSignalRequest.parseTick("14:05") == 50_700)
        #expect(try TimeSignalRequest.parseTick("7:05:30") == 25_530)
        #expect(TimeSignalRequest.text(secondOfDay: 25_530) == "07:05:30")
    }

    @Test(arguments: ["2026-02-30", "2026-1-05", "26-01-05", "2026-01-05T00:00", "+026-01-05", "today", ""])
    func aDateThatIsNotOneIsRefused(text: String) {
        #expect(throws: InputError.self) { try TimeSignalRequest.parseDate(text) }
    }

    @Test func theMessagesReadBackAsTheyWereWritten() {
        let request = TimeSignalRequest(secondOfDay: 50_700, window: 300, force: true)
        #expect(DoorbellMessage.signal(request).text == "signal 14:05:00 300 force")
        #expect(DoorbellMessage("signal 14:05:00 300 force") == .signal(request))
        #expect(DoorbellMessage("signal 14:05:00 120") == .signal(TimeSignalRequest(secondOfDay: 50_700)))
        #expect(DoorbellMessage("signal 25:05:00 120") == nil)
        #expect(DoorbellMessage("signal 14:05:00 0") == nil)
        #expect(DoorbellMessage("signal 14:05:00 120 please") == nil)
        #expect(DoorbellMessage("signal 14:05:00 9223372036854775807") == nil)
        #expect(DoorbellMessage("signal 14:05:00 3601") == nil)
        #expect(DoorbellMessage("signal 14:05:00 +1") == nil)
        #expect(DoorbellMessage("signal 14:05:00  120") == nil)
        let dated = TimeSignalRequest(secondOfDay: 50_700, window: 60, force: true, date: UTCTime(year: 2026, month: 11, day: 27))
        #expect(DoorbellMessage.signal(dated).text == "signal 14:05:00 60 2026-11-27 force")
        #expect(DoorbellMessage("signal 14:05:00 60 2026-11-27 force") == .signal(dated))
        let taken = TimeSignalAnswer.taken(tick: UTCTime(nanosecondsSinceEpoch: logDay), uncertainty: 0.3,
                                           before: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay - 2 * second), source: .gps, uncertainty: 0.5))
        #expect(TimeSignalAnswer(taken.text) == taken)
        let bare = TimeSignalAnswer.taken(tick: UTCTime(nanosecondsSinceEpoch: logDay), uncertainty: 0.3, before: nil)
        #expect(TimeSignalAnswer(bare.text) == bare)
        #expect(TimeSignalAnswer("refused no press within 120 s") == .refused("no press within 120 s"))
        #expect(TimeSignalAnswer("taken soon") == nil)
        #expect(taken.json.compact == "{\"taken\":true,\"tick\":\"2007-04-08T09:52:55.000Z\",\"uncertainty_s\":0.3,"
            + "\"clock_before\":{\"utc\":\"2007-04-08T09:52:53.000Z\",\"source\":\"gps\",\"uncertainty_s\":0.5},\"error_s\":2}")
    }
}
