import MarkTimeCore
import Testing

/// 2007-04-08T09:52:55Z, the day of the Haicom log.
let logDay: Int64 = 1_176_025_975_000_000_000
let second: Int64 = 1_000_000_000

func sample(_ source: TimeSource, mono: Int64, utc: Int64, _ uncertainty: Double?) -> ClockSample {
    ClockSample(source: source, monotonicNanoseconds: mono, utc: UTCTime(nanosecondsSinceEpoch: utc), uncertainty: uncertainty)
}

/// GPS samples once a second from `from` to `to` seconds; UTC runs 1000 ppm fast of
/// monotonic from `from`, so the offset grows by exactly 1 ms a second.
func gpsRun(_ track: inout ClockTrack, from: Int64, to: Int64, uncertainty: Double = 0.5) {
    for t in from...to {
        track.add(sample(.gps, mono: t * second, utc: logDay + (t - from) * second + (t - from) * 1_000_000, uncertainty))
    }
}

@Suite("The clock track")
struct ClockTrackTests {
    @Test func ppsBeatsSystemBeatsGPSBeatsUnsynced() {
        // Given fresh samples from every source that disagree by whole seconds
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 0)
        track.add(sample(.unsynced, mono: 100 * second, utc: 0, nil))
        track.add(sample(.gps, mono: 100 * second, utc: logDay + 1 * second, 0.5))
        track.add(sample(.system, mono: 100 * second, utc: logDay + 2 * second, 0.001))
        track.add(sample(.pps, mono: 100 * second, utc: logDay + 3 * second, 0.000001))
        // When an instant is stamped
        let e = track.estimate(at: 100 * second, now: 100 * second)
        // Then PPS wins
        #expect(e?.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 3 * second), source: .pps, uncertainty: 0.000001))
    }

    @Test func anExpiredSourceStopsCountingForALivePress() {
        // Given a GPS sample 11 s old and a fresh unsynced one, with a 10 s limit
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 0)
        track.add(sample(.gps, mono: 100 * second, utc: logDay, 0.5))
        track.add(sample(.unsynced, mono: 111 * second, utc: 5 * second, nil))
        // When a press at 111 s is stamped
        let e = track.estimate(at: 111 * second, now: 111 * second)
        // Then the unsynced clock is used, with an unknown uncertainty
        #expect(e?.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 5 * second), source: .unsynced, uncertainty: nil))
    }

    @Test func aSampleExactlyAtTheLimitStillCounts() {
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 0)
        track.add(sample(.gps, mono: 100 * second, utc: logDay, 0.5))
        #expect(track.estimate(at: 110 * second, now: 110 * second)?.source == .gps)
        #expect(track.estimate(at: 110 * second + 1, now: 110 * second + 1) == nil)
    }

    @Test func anInstantBetweenTwoSamplesOfARunIsInterpolated() {
        // Given a GPS run from 100 s to 160 s, thinned to its samples at 100 s and 160 s
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        gpsRun(&track, from: 100, to: 160)
        #expect(track.entries[.gps]?.map(\.sample.monotonicNanoseconds) == [100 * second, 160 * second])
        // When an instant at 115 s is stamped
        let e = track.estimate(at: 115 * second, from: .gps)
        // Then the offset is interpolated (15 ms of the 60 ms it grew), and the bound is the
        // samples' 0.5 s plus 100 ppm over the 15 s to the nearer sample
        #expect(e?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 15 * second + 15_000_000))
        #expect(e?.uncertainty == 0.5 + 15 * 100 / 1e6)
        let first = StampProvenance.Sample(source: .gps, monotonicNanoseconds: 100 * second, utcNanoseconds: logDay,
                                           uncertainty: 0.5, distance: 15)
        let secondUTC: Int64 = logDay + 60 * second + 60_000_000
        let last = StampProvenance.Sample(source: .gps, monotonicNanoseconds: 160 * second, utcNanoseconds: secondUTC,
                                          uncertainty: 0.5, distance: -45)
        #expect(e?.provenance == StampProvenance(method: .interpolated, samples: [first, last]))
    }

    @Test func interpolationWeighsTheTwoSamplesUncertainties() {
        // Given system samples at 0 s (±1 ms) and 60 s (±3 ms) in one run
        var track = ClockTrack(maxSampleAge: 60, interval: 60, driftPPM: 10)
        track.add(sample(.system, mono: 0, utc: logDay, 0.001))
        track.add(sample(.system, mono: 60 * second, utc: logDay + 60 * second, 0.003))
        // When an instant at 45 s is stamped
        let e = track.estimate(at: 45 * second, from: .system)
        // Then the bound is 1 ms + ¾ of the 2 ms difference, plus 10 ppm over the 15 s to the nearer sample
        #expect(e?.uncertainty == 0.001 + (0.003 - 0.001) * 0.75 + 15 * 10 / 1e6)
        #expect(e?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 45 * second))
    }

    @Test func anInstantBeforeARunIsCarriedBackFromItsFirstSample() {
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        gpsRun(&track, from: 100, to: 105)
        let e = track.estimate(at: 90 * second, from: .gps)
        #expect(e?.utc == UTCTime(nanosecondsSinceEpoch: logDay - 10 * second))
        #expect(e?.uncertainty == 0.5 + 10 * 100 / 1e6)
        #expect(e?.provenance?.method == .projected)
        #expect(e?.provenance?.samples.map(\.distance) == [-10])
    }

    @Test func anInstantAfterTheLastSampleIsCarriedForwardFromIt() {
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        gpsRun(&track, from: 100, to: 105)
        let e = track.estimate(at: 108 * second, now: 108 * second)
        #expect(e?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 8 * second + 5_000_000))
        #expect(e?.uncertainty == 0.5 + 3 * 100 / 1e6)
        #expect(e?.provenance?.samples.map(\.monotonicNanoseconds) == [105 * second])
    }

    @Test func aSourceThatGoesAndComesBackIsNotInterpolatedAcrossTheGap() {
        // Given GPS from 100 s to 110 s, nothing for 90 s, then GPS again from 200 s to 210 s
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        gpsRun(&track, from: 100, to: 110)
        gpsRun(&track, from: 200, to: 210)
        // Then the track keeps the first run's ends and the second run's start, in two runs
        #expect(track.entries[.gps]?.map(\.sample.monotonicNanoseconds) == [100 * second, 110 * second, 200 * second])
        #expect(track.entries[.gps]?.map(\.segment) == [0, 0, 1])
        // When an instant in the gap, at 150 s, is stamped
        let e = track.estimate(at: 150 * second, from: .gps)
        // Then it is carried 40 s from the nearer sample, the first run's last
        #expect(e?.provenance?.method == .projected)
        #expect(e?.provenance?.samples.map(\.monotonicNanoseconds) == [110 * second])
        #expect(e?.uncertainty == 0.5 + 40 * 100 / 1e6)
        #expect(e?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 50 * second + 10_000_000))
    }

    @Test func theTrackKeepsOneSampleAMinuteAndHandsEachOutOnce() {
        var track = ClockTrack(maxSampleAge: 10, interval: 60)
        gpsRun(&track, from: 0, to: 180)
        #expect(track.takeUnsaved().map(\.sample.monotonicNanoseconds) == [0, 60 * second, 120 * second, 180 * second])
        #expect(track.takeUnsaved() == [])
    }

    @Test func aRestoredTrackInterpolatesAndContinuesItsRuns() {
        // Given a run saved by an earlier daemon in this boot
        var first = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        gpsRun(&first, from: 100, to: 160)
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        track.restore(first.takeUnsaved())
        // Then it stamps between its samples, and a new sample starts a new run
        #expect(track.estimate(at: 115 * second, from: .gps)?.provenance?.method == .interpolated)
        track.add(sample(.gps, mono: 400 * second, utc: logDay, 0.5))
        #expect(track.entries[.gps]?.map(\.segment) == [0, 0, 1])
    }

    @Test func backfillNeverReplacesAStampWithAWorseOne() {
        // Given a sight stamped from GPS (±0.5 s) at 50 s, and a synchronised system clock (±1 ms) two hours later
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.system, mono: 7250 * second, utc: logDay + 7200 * second, 0.001))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5)
        // When backfill looks at it: 0.001 + 7200 s × 100 ppm = 0.721 s is worse than 0.5 s
        #expect(track.backfill(instant: 50 * second, stored: stored) == nil)
    }

    @Test func backfillReplacesAStampWithABetterOne() {
        // Given the same sight, and the system clock 1000 s later: 0.001 + 0.1 = 0.101 s
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.system, mono: 1050 * second, utc: logDay + 1000 * second, 0.001))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5)
        let better = track.backfill(instant: 50 * second, stored: stored)?.better
        #expect(better?.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .system, uncertainty: 0.001 + 1000 * 100 / 1e6))
    }

    @Test func aPhonesPressReStampedKeepsHalfItsRoundTrip() throws {
        // Given a phone's MARK at 50 s stamped from GPS (±0.5 s, and 40 ms for its 80 ms round trip),
        // and a synchronised system clock (±1 ms) 1000 s later
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.system, mono: 1050 * second, utc: logDay + 1000 * second, 0.001))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.54,
                                 provenance: StampProvenance(method: .projected, samples: [], phoneRoundTrip: 0.08))
        // When backfill looks at it
        let better = try #require(track.backfill(instant: 50 * second, stored: stored)?.better)
        // Then the system clock's stamp has the 40 ms too: 0.001 + 0.1 + 0.04, and names the round trip
        #expect(abs(try #require(better.uncertainty) - 0.141) < 1e-12)
        #expect(better.provenance?.phoneRoundTrip == 0.08)
    }

    @Test func anUnsyncedStampIsAlwaysImproved() {
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.gps, mono: 7250 * second, utc: logDay + 7200 * second, 0.5))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 3 * second), source: .unsynced, uncertainty: nil)
        let better = track.backfill(instant: 50 * second, stored: stored)?.better
        #expect(better?.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5 + 7200 * 100 / 1e6))
    }

    @Test func backfillTakesTheSourceWithTheSmallestUncertaintyAtTheInstant() {
        // Given GPS right at the sight, and PPS an hour away
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.gps, mono: 50 * second, utc: logDay, 0.5))
        track.add(sample(.pps, mono: 3650 * second, utc: logDay + 3600 * second, 0.000001))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 0), source: .unsynced, uncertainty: nil)
        // Then PPS carried an hour (0.360001 s) beats GPS at the instant (0.5 s)
        #expect(track.backfill(instant: 50 * second, stored: stored)?.better?.source == .pps)
    }

    @Test func unknownUncertaintyStaysUnknown() {
        let e = ClockTrack.project(sample(.unsynced, mono: 0, utc: 0, nil), to: 5 * second, driftPPM: 100)
        #expect(e.uncertainty == nil)
    }

    @Test func noSamplesNoEstimate() {
        #expect(ClockTrack().estimate(at: 0, now: 0) == nil)
    }

    @Test func currentSampleIsTheNewestOfTheBestSource() {
        var track = ClockTrack(maxSampleAge: 10)
        track.add(sample(.gps, mono: 1 * second, utc: logDay, 0.5))
        track.add(sample(.gps, mono: 2 * second, utc: logDay + second, 0.5))
        track.add(sample(.unsynced, mono: 3 * second, utc: 0, nil))
        #expect(track.currentSample(now: 3 * second) == sample(.gps, mono: 2 * second, utc: logDay + second, 0.5))
    }

    @Test func theRTCsReadingsEveryThirtySecondsAreOneRunThinnedToAMinute() {
        // Given an hour of RTC samples, one every 30 s as the daemon reads them, 20 ppm fast
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        for i in Int64(0)...120 {
            track.add(sample(.rtc, mono: 100 * second + i * 30 * second, utc: logDay + i * 30 * second + i * 600_000, 0.05))
        }
        // Then they are one run, kept a minute apart (61 of 121), and teach the clock no rate
        #expect(Set(track.entries[.rtc]?.map(\.segment) ?? []) == [0])
        #expect(track.entries[.rtc]?.count == 61)
        #expect(track.rate == nil)
    }

    @Test func threeMissedRTCReadingsEndItsRun() {
        // Given RTC samples at 0 s and 30 s, then none until 150 s (three readings missed)
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        for t: Int64 in [0, 30, 150] { track.add(sample(.rtc, mono: 100 * second + t * second, utc: logDay + t * second, 0.05)) }
        // Then the sample at 150 s starts a new run
        #expect(track.entries[.rtc]?.map(\.segment) == [0, 0, 1])
    }
}

/// One timeline per run: a time that jumps (a receiver's glitch, a rollover, a replay that
/// loops) starts a new run, and no stamp is moved across it (#57).
@Suite("The clock track across a jump in time")
struct ClockTrackJumpTests {
    /// GPS once a second from 100 s to 110 s on the log's day, then from 111 s to 120 s
    /// 1,075 s later: a receiver's jump between two samples 1 s apart.
    func jumped(by jump: Int64 = 1075) -> ClockTrack {
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        for t in Int64(100)...120 {
            track.add(sample(.gps, mono: t * second, utc: logDay + (t - 100) * second + (t > 110 ? jump * second : 0), 0.5))
        }
        return track
    }

    @Test func aTimeThatJumpsStartsANewRun() {
        // Given GPS samples 1 s apart whose time jumps by 1,075 s between 110 s and 111 s
        let track = jumped()
        // Then the track keeps two runs: the first's ends, and the second's start
        #expect(track.entries[.gps]?.map(\.sample.monotonicNanoseconds) == [100 * second, 110 * second, 111 * second])
        #expect(track.entries[.gps]?.map(\.segment) == [0, 0, 1])
    }

    @Test func theJumpIsSaidInWords() {
        // Given a run of GPS time to 110 s
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        track.add(sample(.gps, mono: 110 * second, utc: logDay, 0.5))
        // When the next sample, 1 s on, is 1,075 s on
        let added = track.add(sample(.gps, mono: 111 * second, utc: logDay + 1076 * second, 0.5))
        // Then it is a jump of +1,075 s where ±1.0001 s was possible
        #expect(added.kept)
        #expect(added.jump?.seconds == 1075)
        #expect(added.jump?.allowed == 0.5 + 0.5 + 1.0 * 100 / 1e6)
        #expect(added.jump?.sentence == "gps time jumped: it moved +1076.000 s while the monotonic clock moved +1.000 s, "
                + "+1075.000 s off where at most ±1.000 s is possible; a new run starts, and no stamp is interpolated or carried across the jump")
    }

    @Test func aTimeThatRunsBackwardsStartsANewRun() {
        // Given a replay that loops: 10 s of time, then the log's first second again
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        track.add(sample(.gps, mono: 110 * second, utc: logDay + 10 * second, 0.5))
        let added = track.add(sample(.gps, mono: 111 * second, utc: logDay, 0.5))
        // Then it is a jump of −11 s
        #expect(added.jump?.seconds == -11)
        #expect(track.entries[.gps]?.map(\.segment) == [0, 1])
    }

    @Test func timeThatRunsWithinBothUncertaintiesIsOneRun() {
        // Given two samples 1 s apart that differ by 0.9 s more than the monotonic clock moved (±0.5 s each)
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        track.add(sample(.gps, mono: 110 * second, utc: logDay, 0.5))
        let added = track.add(sample(.gps, mono: 111 * second, utc: logDay + 1_900_000_000, 0.5))
        // Then they are one run
        #expect(added.jump == nil)
        #expect(track.latest[.gps]?.segment == 0)
    }

    @Test func smallStepsThatAddUpToAJumpStartANewRun() {
        // Given GPS time that gains 0.6 s a second against the monotonic clock (each step within ±1 s)
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        var jumps: [Int64] = []
        for t in Int64(0)...4 {
            if track.add(sample(.gps, mono: t * second, utc: logDay + t * 1_600_000_000, 0.5)).jump != nil { jumps.append(t) }
        }
        // Then the sample at 2 s, 1.2 s off the run's first, starts a new run, and so does the one at 4 s
        #expect(jumps == [2, 4])
    }

    @Test func aSightBeforeTheJumpIsNeverInterpolatedAcrossIt() {
        // Given the jump between 110 s and 111 s
        let track = jumped()
        // When a sight at 110.6 s is stamped from the track (nearer the sample after the jump)
        let e = track.estimate(at: 110 * second + 600_000_000, from: .gps)
        // Then it is carried from the last sample before the jump
        #expect(e?.provenance?.method == .projected)
        #expect(e?.provenance?.samples.map(\.monotonicNanoseconds) == [110 * second])
        #expect(e?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 10 * second + 600_000_000))
    }

    @Test func aSightAfterTheJumpIsCarriedUntilTheNavigatorTrustsTheNewTime() {
        // Given the jump: GPS after it disagrees with the time carried, and is set aside (#58)
        var track = jumped()
        #expect(track.suspect?.seconds == 1075)
        // When a sight at 115 s is stamped: carried from before the jump
        #expect(track.estimate(at: 115 * second, now: 115 * second)?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 15 * second))
        #expect(track.estimate(at: 115 * second, from: .gps)?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 15 * second))
        // When the navigator accepts the new time, it stamps from the run after the jump
        #expect(track.trust()?.seconds == 1075)
        #expect(track.suspect == nil)
        #expect(track.estimate(at: 115 * second, from: .gps)?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 15 * second + 1075 * second))
        #expect(track.estimate(at: 115 * second, now: 115 * second)?.source == .gps)
    }

    @Test func aRestampIsNeverMovedAcrossTheJump() {
        // Given a sight at 110.6 s stamped live, carried 1.6 s from the sample at 109 s (±0.50016 s)
        let track = jumped()
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 10 * second + 600_000_000), source: .gps, uncertainty: 0.50016)
        // When backfill looks at it
        let restamp = track.backfill(instant: 110 * second + 600_000_000, stored: stored)
        // Then the better stamp is carried from the sample before the jump: the sight keeps its time
        #expect(restamp?.better?.utc == stored.utc)
        #expect(restamp?.better?.provenance?.samples.map(\.monotonicNanoseconds) == [110 * second])
    }

    @Test func aRestampThatWouldMoveASightMoreThanItsUncertaintyIsRefused() {
        // Given a sight stamped gps ±0.5 s at 50 s, and PPS (±1 µs) at 50 s saying 3 s later
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.pps, mono: 50 * second, utc: logDay + 3 * second, 0.000001))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5)
        // When backfill looks at it
        let restamp = track.backfill(instant: 50 * second, stored: stored)
        // Then it is refused, with the 3 s it would have moved
        #expect(restamp == .refused(ClockTrack.project(sample(.pps, mono: 50 * second, utc: logDay + 3 * second, 0.000001),
                                                       to: 50 * second, driftPPM: 100), moved: 3))
    }

    @Test func aRestampWithinTheOldUncertaintyIsTaken() {
        // Given the same sight, and PPS saying 0.4 s later
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.pps, mono: 50 * second, utc: logDay + 400_000_000, 0.000001))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5)
        // Then it is re-stamped
        #expect(track.backfill(instant: 50 * second, stored: stored)?.better?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 400_000_000))
    }

    @Test func aRefusedBestGivesWayToTheNextBestWithinTheOldUncertainty() {
        // Given PPS 3 s off and a system clock (±1 ms) 0.2 s off, for a gps ±0.5 s stamp
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 100)
        track.add(sample(.pps, mono: 50 * second, utc: logDay + 3 * second, 0.000001))
        track.add(sample(.system, mono: 50 * second, utc: logDay + 200_000_000, 0.001))
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5)
        // Then the system clock's stamp is taken
        #expect(track.backfill(instant: 50 * second, stored: stored)?.better?.source == .system)
    }

    @Test func aRestoredTrackStillSeesAJumpFromItsLastRun() {
        // Given a run saved earlier in this boot, to 110 s
        var first = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        gpsRun(&first, from: 100, to: 110)
        var track = ClockTrack(maxSampleAge: 10, interval: 60, driftPPM: 100)
        track.restore(first.takeUnsaved())
        // When a sample 5 s after its last kept one (100 s) is 30 s off
        #expect(track.latest[.gps]?.sample.monotonicNanoseconds == 100 * second)
        let added = track.add(sample(.gps, mono: 105 * second, utc: logDay + 35 * second, 0.5))
        // Then it is a jump
        #expect(added.jump != nil)
    }
}

@Suite("Now from the system clock and the daemon")
struct NowEstimateTests {
    let instant = MonotonicInstant(bootID: "boot-a", nanoseconds: 100 * second)
    let unsynced = sample(.unsynced, mono: 100 * second, utc: 7 * second, nil)

    func daemon(boot: String, clock: ClockSample) -> DaemonStatus {
        DaemonStatus(pid: 1, bootID: boot, startedAt: 0, heartbeat: 99 * second, clock: clock)
    }

    @Test func aFreshDaemonGPSSampleBeatsAnUnsyncedClock() {
        let published = daemon(boot: "boot-a", clock: sample(.gps, mono: 99 * second, utc: logDay, 0.5))
        let e = NowEstimate.estimate(system: unsynced, at: instant, published: published, maxSampleAge: 10)
        #expect(e.source == .gps)
        #expect(e.utc == UTCTime(nanosecondsSinceEpoch: logDay + second))
    }

    @Test func aSampleFromAnotherBootIsIgnored() {
        let published = daemon(boot: "boot-z", clock: sample(.gps, mono: 99 * second, utc: logDay, 0.5))
        let e = NowEstimate.estimate(system: unsynced, at: instant, published: published, maxSampleAge: 10)
        #expect(e.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 7 * second), source: .unsynced, uncertainty: nil))
    }

    @Test func aSynchronisedSystemClockBeatsTheDaemonsGPS() {
        let system = sample(.system, mono: 100 * second, utc: logDay + 2 * second, 0.000_020)
        let published = daemon(boot: "boot-a", clock: sample(.gps, mono: 99 * second, utc: logDay, 0.5))
        let e = NowEstimate.estimate(system: system, at: instant, published: published, maxSampleAge: 10)
        #expect(e.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 2 * second), source: .system, uncertainty: 0.000_020))
    }
}
