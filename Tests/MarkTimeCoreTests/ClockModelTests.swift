import MarkTimeCore
import Testing

/// 2007-04-08T09:52:55Z, the day of the Haicom log.
let logDay: Int64 = 1_176_025_975_000_000_000
let second: Int64 = 1_000_000_000

func sample(_ source: TimeSource, mono: Int64, utc: Int64, _ uncertainty: Double?) -> ClockSample {
    ClockSample(source: source, monotonicNanoseconds: mono, utc: UTCTime(nanosecondsSinceEpoch: utc), uncertainty: uncertainty)
}

@Suite("The clock model")
struct ClockModelTests {
    @Test func ppsBeatsSystemBeatsGPSBeatsUnsynced() {
        // Given fresh samples from every source that disagree by whole seconds
        var model = ClockModel(maxSampleAge: 10, driftPPM: 0)
        model.add(sample(.unsynced, mono: 100 * second, utc: 0, nil))
        model.add(sample(.gps, mono: 100 * second, utc: logDay + 1 * second, 0.5))
        model.add(sample(.system, mono: 100 * second, utc: logDay + 2 * second, 0.001))
        model.add(sample(.pps, mono: 100 * second, utc: logDay + 3 * second, 0.000001))
        // When an instant is stamped
        let e = model.estimate(at: 100 * second, now: 100 * second)
        // Then PPS wins
        #expect(e == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 3 * second), source: .pps, uncertainty: 0.000001))
    }

    @Test func anExpiredSampleStopsCounting() {
        // Given a GPS sample 11 s old and a fresh unsynced one, with a 10 s limit
        var model = ClockModel(maxSampleAge: 10, driftPPM: 0)
        model.add(sample(.gps, mono: 100 * second, utc: logDay, 0.5))
        model.add(sample(.unsynced, mono: 111 * second, utc: 5 * second, nil))
        // When "now" is 111 s
        let e = model.estimate(at: 111 * second, now: 111 * second)
        // Then the unsynced clock is used, with an unknown uncertainty
        #expect(e == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 5 * second), source: .unsynced, uncertainty: nil))
    }

    @Test func aSampleExactlyAtTheLimitStillCounts() {
        var model = ClockModel(maxSampleAge: 10, driftPPM: 0)
        model.add(sample(.gps, mono: 100 * second, utc: logDay, 0.5))
        #expect(model.estimate(at: 110 * second, now: 110 * second)?.source == .gps)
        model.expire(now: 110 * second + 1)
        #expect(model.samples[.gps] == nil)
    }

    @Test func anInstantBetweenSamplesUsesTheNearestAtRateOne() {
        // Given GPS samples at 100 s and 101 s whose offsets differ by 40 ms of NMEA jitter
        var model = ClockModel(maxSampleAge: 10, driftPPM: 100)
        model.add(sample(.gps, mono: 100 * second, utc: logDay, 0.5))
        model.add(sample(.gps, mono: 101 * second, utc: logDay + second + 40_000_000, 0.5))
        // When an instant 0.25 s after the first is stamped
        let e = model.estimate(at: 100 * second + 250_000_000, now: 101 * second)
        // Then it is carried from the nearest sample, and the drift over 0.25 s widens the bound
        #expect(e?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 250_000_000))
        #expect(e?.uncertainty == 0.5 + 0.25 * 100 / 1e6)
    }

    @Test func uncertaintyGrowsWithDistanceFromTheSample() {
        let s = sample(.pps, mono: 0, utc: logDay, 0.000001)
        let e = ClockModel.project(s, to: 60 * second, driftPPM: 50)
        #expect(e.uncertainty == 0.000001 + 60 * 50 / 1e6)
        #expect(e.utc == UTCTime(nanosecondsSinceEpoch: logDay + 60 * second))
    }

    @Test func unknownUncertaintyStaysUnknown() {
        let e = ClockModel.project(sample(.unsynced, mono: 0, utc: 0, nil), to: 5 * second, driftPPM: 100)
        #expect(e.uncertainty == nil)
    }

    @Test func noSamplesNoEstimate() {
        #expect(ClockModel().estimate(at: 0, now: 0) == nil)
    }

    @Test func currentSampleIsTheFreshestOfTheBestSource() {
        var model = ClockModel(maxSampleAge: 10)
        model.add(sample(.gps, mono: 1 * second, utc: logDay, 0.5))
        model.add(sample(.gps, mono: 2 * second, utc: logDay + second, 0.5))
        model.add(sample(.unsynced, mono: 3 * second, utc: 0, nil))
        #expect(model.currentSample(now: 3 * second) == sample(.gps, mono: 2 * second, utc: logDay + second, 0.5))
    }

    @Test func backfillRestampsAnUnsyncedSightFromALaterPPSSample() {
        // Given a sight stamped unsynced at 50 s, and a PPS sample arriving at 60 s
        var model = ClockModel(maxSampleAge: 10, driftPPM: 100)
        model.add(sample(.pps, mono: 60 * second, utc: logDay, 0.000001))
        let instant = MonotonicInstant(bootID: "boot-a", nanoseconds: 50 * second)
        // When it is backfilled at 60 s
        let better = model.backfill(instant: instant, stamped: .unsynced, bootID: "boot-a", now: 60 * second)
        // Then it reads 10 s before the PPS sample, with 10 s of drift in the bound
        #expect(better == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay - 10 * second), source: .pps,
                                      uncertainty: 0.000001 + 10 * 100 / 1e6))
    }

    @Test func backfillIgnoresAnotherBoot() {
        var model = ClockModel()
        model.add(sample(.pps, mono: 60 * second, utc: logDay, 0.000001))
        let instant = MonotonicInstant(bootID: "boot-a", nanoseconds: 50 * second)
        #expect(model.backfill(instant: instant, stamped: .unsynced, bootID: "boot-b", now: 60 * second) == nil)
    }

    @Test func backfillNeedsABetterSource() {
        var model = ClockModel()
        model.add(sample(.gps, mono: 60 * second, utc: logDay, 0.5))
        let instant = MonotonicInstant(bootID: "b", nanoseconds: 50 * second)
        #expect(model.backfill(instant: instant, stamped: .gps, bootID: "b", now: 60 * second) == nil)
        #expect(model.backfill(instant: instant, stamped: .system, bootID: "b", now: 60 * second) == nil)
        #expect(model.backfill(instant: instant, stamped: .unsynced, bootID: "b", now: 60 * second)?.source == .gps)
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
        #expect(e == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 7 * second), source: .unsynced, uncertainty: nil))
    }

    @Test func aSynchronisedSystemClockBeatsTheDaemonsGPS() {
        let system = sample(.system, mono: 100 * second, utc: logDay + 2 * second, 0.000_020)
        let published = daemon(boot: "boot-a", clock: sample(.gps, mono: 99 * second, utc: logDay, 0.5))
        let e = NowEstimate.estimate(system: system, at: instant, published: published, maxSampleAge: 10)
        #expect(e == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 2 * second), source: .system, uncertainty: 0.000_020))
    }
}
