import Foundation
import MarkTimeCore
import Testing

/// A run of `source` every `step` seconds for `minutes`, from monotonic second 1000, on a
/// clock that loses 0.432 s a day (5 ppm: the offset grows 5 µs a second), each sample off by
/// `jitter` ns, alternately down and up.
func losingRun(_ source: TimeSource = .gps, minutes: Int64, step: Int64 = 60, jitter: Int64 = 0, uncertainty: Double = 0.5) -> [ClockSample] {
    (0...(minutes * 60 / step)).map { i in
        let t = i * step
        return sample(source, mono: (1000 + t) * second, utc: logDay + t * second + t * 5_000 + (i % 2 == 0 ? -jitter : jitter),
                      uncertainty)
    }
}

@Suite("The chronometer: the clock's rate learned, and time carried at it")
struct ChronometerTests {
    @Test func twoHoursOfGPSTeachTheRate() throws {
        // Given two hours of GPS on a clock that loses 0.432 s a day
        // When the rate is fitted
        let rate = try #require(ClockRate.fit(losingRun(minutes: 120)))
        // Then it loses 0.432 s/day, within the floor of 2 ppm, from 121 samples over 7,200 s
        #expect(abs(rate.gain - -0.432) < 1e-9)
        #expect(rate.scatter == ClockRate.floor)
        #expect(rate.samples == 121)
        #expect(rate.span == 7200)
        #expect(rate.text == "−0.43 s/day ± 0.17")
    }

    @Test func aNoisyRunStatesItsScatter() throws {
        // Given the same run with samples 50 ms off, alternately early and late
        // When fitted
        let rate = try #require(ClockRate.fit(losingRun(minutes: 120, jitter: 50_000_000)))
        // Then the same rate, and three standard errors of its slope: 0.567 s/day
        #expect(abs(rate.gain - -0.432) < 1e-9)
        #expect((rate.scatter * 1000).rounded() == 567)
    }

    @Test func anHourIsTheShortestRunThatTeaches() {
        #expect(ClockRate.fit(losingRun(minutes: 59)) == nil)
        #expect(ClockRate.fit(losingRun(minutes: 60)) != nil)
        // Nine samples over two hours teach nothing either
        #expect(ClockRate.fit(Array(losingRun(minutes: 120).enumerated().filter { $0.offset % 15 == 0 }.map(\.element).prefix(9))) == nil)
    }

    @Test func withGPSGoneAPressIsCarriedAtTheLearnedRate() throws {
        // Given a track that heard two hours of GPS, then nothing
        var track = ClockTrack()
        let run = losingRun(minutes: 120, step: 1)
        for s in run { track.add(s) }
        let last = run.last!
        // When a key goes down 26 hours after the last sample
        let instant = last.monotonicNanoseconds + 26 * 3600 * second
        let e = try #require(track.estimate(at: instant, now: instant))
        // Then the time is the last sample's, plus 26 h, plus the 0.468 s the clock lost meanwhile
        #expect(e.utc.nanosecondsSinceEpoch == last.utc.nanosecondsSinceEpoch + 26 * 3600 * second + 468_000_000)
        // And its uncertainty is the sample's 0.5 s and 26 h at the rate's 0.1728 s/day
        #expect(abs(try #require(e.uncertainty) - 0.6872) < 1e-9)
        #expect(e.source == .gps)
        #expect(e.provenance?.method == .carried)
        #expect(e.provenance?.rate == track.rate)
        #expect(e.provenance?.samples.first?.distance == 93_600)
    }

    @Test func beforeARateIsLearnedNothingIsCarried() {
        // Given 50 minutes of GPS, then nothing
        var track = ClockTrack()
        for s in losingRun(minutes: 50, step: 1) { track.add(s) }
        // When a key goes down an hour later
        let instant = (1000 + 50 * 60 + 3600) * second
        // Then there is no stamp but the free-running clock's, as before
        #expect(track.rate == nil)
        #expect(track.estimate(at: instant, now: instant) == nil)
    }

    @Test func aFreeRunningClockDoesNotBeatTheCarriedTime() throws {
        // Given two hours of GPS, then the unsynced system clock alone
        var track = ClockTrack()
        for s in losingRun(minutes: 120, step: 1) { track.add(s) }
        let later = (1000 + 120 * 60 + 600) * second
        track.add(sample(.unsynced, mono: later, utc: logDay, nil))
        // When a key goes down then
        let e = try #require(track.estimate(at: later, now: later))
        // Then it is carried from GPS, with an uncertainty, not the unsynced clock's unknown one
        #expect(e.provenance?.method == .carried)
        #expect(e.uncertainty != nil)
    }

    @Test func theBetterSourcesRateIsKeptWhileItRuns() throws {
        // Given two hours of PPS and of GPS at once, GPS's samples 50 ms noisy
        var track = ClockTrack()
        for (p, g) in zip(losingRun(.pps, minutes: 120, step: 1, uncertainty: 0.000001), losingRun(.gps, minutes: 120, step: 1, jitter: 50_000_000)) {
            track.add(g)
            track.add(p)
        }
        // Then the rate is PPS's
        #expect(track.rate?.source == .pps)
        #expect(track.rate?.scatter == ClockRate.floor)
    }

    @Test func aRestoredTrackRelearnsTheRate() {
        // Given a track with two hours of GPS, saved
        var track = ClockTrack()
        for s in losingRun(minutes: 120, step: 1) { track.add(s) }
        let saved = track.takeUnsaved()
        // When a restarted daemon restores it
        var restored = ClockTrack()
        restored.restore(saved)
        // Then it knows the same rate
        #expect(restored.rate == track.rate)
    }

    @Test func aCarriedStampsProvenanceSurvivesJSON() throws {
        // Given a carried stamp
        var track = ClockTrack()
        for s in losingRun(minutes: 120, step: 1) { track.add(s) }
        let e = try #require(track.carried(at: (1000 + 120 * 60 + 3600) * second))
        let p = try #require(e.provenance)
        // When its provenance is written and read back
        let json = try #require(p.json)
        let back = try JSONDecoder().decode(StampProvenance.self, from: Data(json.utf8))
        // Then it is the same, rate and all
        #expect(back == p)
    }

    @Test func theDaemonCarriesAPressAfterTheFixIsLostAndSaysSo() throws {
        // Given a daemon core that heard two hours of GPS on a clock losing 0.432 s a day, then lost the fix
        var core = startedCore()
        for t in Int64(11)...7211 { _ = core.handle(.clock(sample(.gps, mono: t * second, utc: logDay + t * second + (t - 10) * 5_000, 0.5))) }
        _ = core.handle(.noFix(mode: 1, at: 7211 * second + 500_000_000))
        // When a key goes down an hour later, only the free-running clock to hand
        let at = (7211 + 3600) * second
        let sight = try #require(core.handle(.input(keyDown(at), clock: sample(.unsynced, mono: at, utc: 5 * second, nil))).inserts.first)
        // Then it is stamped carried from GPS's last sample at the learned rate, its uncertainty grown by an hour at 2 ppm
        #expect(sight.estimate.provenance?.method == .carried)
        #expect(sight.estimate.source == .gps)
        // (to 2 µs: the fit also holds the core's first 11 s, at rate 1)
        #expect(abs(sight.estimate.utc.nanosecondsSinceEpoch - (logDay + (7211 + 3600) * second + 7201 * 5_000 + 18_000_000)) < 2_000)
        #expect(abs(try #require(sight.estimate.uncertainty) - 0.5072) < 1e-9)
        // And the status says the chronometer carries the time, and since when
        let status = core.status(now: at)
        #expect(status.chronometer?.carriedFrom?.monotonicNanoseconds == 7211 * second)
        #expect(status.chronometer?.sentence(now: at)
            == "carried 1 h 00 m from gps (last heard 2007-04-08T11:53:06.036Z) at −0.43 s/day ± 0.17 (learned over 2 h 00 m of gps)")
        #expect(status.clock?.source == .gps)
        #expect(status.clock?.uncertainty == sight.estimate.uncertainty)
    }
}
