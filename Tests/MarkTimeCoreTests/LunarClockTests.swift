import MarkTimeCore
import Testing

/// `marktime lunar --sight ID --set-clock`: a lunar's UT dates its sight's instant, re-dates
/// this boot's sights where it is better, and carries the presses after it (#58 item 5).
@Suite("A lunar sets the clock")
struct LunarClockTests {
    /// The lunar for the sight marked at `seconds` of boot-a, with its UT and uncertainty.
    func lunar(at seconds: Int64, utc: Int64, uncertainty: Double = 28, boot: String = "boot-a") -> LunarTime {
        LunarTime(sight: 1, instant: MonotonicInstant(bootID: boot, nanoseconds: seconds * second), utc: UTCTime(nanosecondsSinceEpoch: utc),
                  uncertainty: uncertainty)
    }

    @Test func aLunarForAnUnsyncedSightBecomesALunarSample() {
        // Given a boot with only the free-running clock, 70 s fast, and a sight marked at 50 s
        var core = bareCore()
        _ = core.press(at: 50 * second, clockUTC: logDay + 40 * second + 1_000_000)
        // When its lunar says the UT there was logDay − 30 s, ±28 s
        let said = core.handle(.doorbell(.lunar(lunar(at: 50, utc: logDay - 30 * second)), from: "asker", now: 600 * second))
        // Then it is taken as a lunar sample at the sight's instant, saved at once, and the sights are re-dated now
        let before = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 40 * second), source: .unsynced, uncertainty: nil)
        #expect(said.signalAnswers == [.lunar(utc: UTCTime(nanosecondsSinceEpoch: logDay - 30 * second), uncertainty: 28, before: before)])
        #expect(said.savedTrack.map(\.sample) == [sample(.lunar, mono: 50 * second, utc: logDay - 30 * second, 28)])
        #expect(said.backfills == 1)
        #expect(said.messages == ["lunar taken: the lunar's UT, 2007-04-08T09:52:25.000Z, is taken (lunar ±28.00 s) and re-dates this boot's "
            + "sights where it is better; the clock (unsynced unknown) was 70.000 s fast"])
    }

    @Test func theMarkedSightIsRedatedFromTheLunar() throws {
        // Given a sight marked unsynced at 50 s, and its lunar taken
        var core = bareCore()
        let marked = try #require(core.press(at: 50 * second, clockUTC: logDay + 40 * second + 1_000_000).inserts.first)
        _ = core.handle(.doorbell(.lunar(lunar(at: 50, utc: logDay - 30 * second)), from: "asker", now: 600 * second))
        // When the backfill looks at it
        let restamp = core.track.backfill(instant: 50 * second, stored: marked.estimate)
        // Then it takes the lunar's UT, ±28 s
        #expect(restamp?.better?.utc == UTCTime(nanosecondsSinceEpoch: logDay - 30 * second))
        #expect(restamp?.better?.source == .lunar)
        #expect(restamp?.better?.uncertainty == 28)
    }

    @Test func aPressAfterTheLunarIsCarriedFromIt() throws {
        // Given a lunar taken for the sight at 50 s
        var core = bareCore()
        _ = core.press(at: 50 * second, clockUTC: logDay + 40 * second + 1_000_000)
        _ = core.handle(.doorbell(.lunar(lunar(at: 50, utc: logDay - 30 * second)), from: "asker", now: 600 * second))
        // When the button is pressed at 650 s
        let sight = try #require(core.press(at: 650 * second, clockUTC: logDay + 640 * second).inserts.first)
        // Then the press is the lunar carried 600 s at rate 1, within 28 s and 600 s at 100 ppm
        #expect(sight.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + 570 * second))
        #expect(sight.estimate.source == .lunar)
        #expect(abs(try #require(sight.estimate.uncertainty) - 28.06) < 1e-9)
    }

    @Test func aClockBetterThanTheLunarIsKeptAndToldHowFarOffTheLunarPutsIt() throws {
        // Given GPS time (±0.5 s) and a sight stamped from it at 5 s
        var core = startedCore()
        _ = try #require(core.press(at: 5 * second).inserts.first)
        // When a lunar for it says 12 s later, ±28 s
        let said = core.handle(.doorbell(.lunar(lunar(at: 5, utc: logDay + 17 * second)), from: "asker", now: 6 * second))
        // Then it is refused in words, with what it says of the clock, and the track has no lunar
        let reason = "the clock already dates sight 1 better (gps ±500 ms) than the lunar (±28.00 s); the lunar puts the clock 12.0 s slow there; nothing changed"
        #expect(said.signalAnswers == [.refused(reason)])
        #expect(core.track.latest[.lunar] == nil)
    }

    @Test func aSightOfAnotherBootIsRefused() {
        // Given a boot with only the free-running clock
        var core = bareCore()
        // When a lunar comes for a sight of boot-z
        let said = core.handle(.doorbell(.lunar(lunar(at: 50, utc: logDay, boot: "boot-z")), from: "asker", now: 600 * second))
        // Then it is refused, naming why and what to do, and nothing changed
        #expect(said.signalAnswers == [.refused("sight 1 was taken before the last reboot: its kernel time cannot be tied to this boot's clock; "
            + "nothing changed (take a new lunar, and mark it)")])
        #expect(core.track.latest[.lunar] == nil)
    }

    @Test func aLunarForAnEarlierSightThanTheOneTakenIsRefused() {
        // Given a lunar taken for a sight at 300 s
        var core = bareCore()
        _ = core.handle(.doorbell(.lunar(lunar(at: 300, utc: logDay)), from: "asker", now: 600 * second))
        // When one comes for a sight at 200 s
        let said = core.handle(.doorbell(.lunar(lunar(at: 200, utc: logDay - 100 * second)), from: "asker", now: 610 * second))
        // Then it is refused, and the track keeps the first
        #expect(said.signalAnswers == [.refused("a lunar for this sight or a later one is on the clock's track already: only a later sight's is taken; nothing changed")])
        #expect(core.track.latest[.lunar]?.sample.monotonicNanoseconds == 300 * second)
    }

    @Test func gpsFarFromALunarIsNotSetAside() {
        // Given a boot whose only time is a lunar (±28 s) for the sight at 50 s
        var core = bareCore()
        _ = core.press(at: 50 * second, clockUTC: logDay + 40 * second + 1_000_000)
        _ = core.handle(.doorbell(.lunar(lunar(at: 50, utc: logDay - 30 * second)), from: "asker", now: 600 * second))
        // When GPS comes at 700 s, 60 s off the lunar carried there
        let said = core.handle(.clock(sample(.gps, mono: 700 * second, utc: logDay + 680 * second, 0.5)))
        // Then GPS is taken as it is: a lunar's uncertainty is an estimate, not a bound
        #expect(core.track.suspect == nil)
        #expect(!said.messages.contains { $0.hasPrefix("gps time disagrees") })
        #expect(core.track.bestSource(now: 700 * second) == .gps)
    }

    @Test func theDoorbellCarriesALunarWhole() {
        // Given a lunar for sight 42
        let l = LunarTime(sight: 42, instant: MonotonicInstant(bootID: "7d3c", nanoseconds: 123_456_789), utc: UTCTime(nanosecondsSinceEpoch: logDay),
                          uncertainty: 27.5)
        // When it is written and read back
        // Then it is the same, and a malformed one is no message
        #expect(DoorbellMessage(DoorbellMessage.lunar(l).text) == .lunar(l))
        for bad in ["lunar 42 7d3c 1 2", "lunar x 7d3c 1 2 3", "lunar 42  1 2 3", "lunar 42 7d3c 1 2 0", "lunar 42 7d3c 1 2 nan", "lunar 42 7d3c 1 2 -3",
                    "lunar 42 7d3c 1 2 0.5", "lunar 42 7d3c 1 2 86401", "lunar 42 7d3c -1 2 3"] {
            #expect(DoorbellMessage(bad) == nil, "\(bad)")
        }
    }

    @Test func theAnswerTravelsWhole() {
        // Given a lunar's answer with the clock before it
        let a = TimeSignalAnswer.lunar(utc: UTCTime(nanosecondsSinceEpoch: logDay), uncertainty: 28,
                                       before: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 70 * second), source: .unsynced, uncertainty: nil))
        // Then its text reads back the same, and it says the clock was 70 s fast
        #expect(TimeSignalAnswer(a.text) == a)
        #expect(a.clockError == -70)
    }
}
