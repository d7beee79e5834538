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

/// GPS that disagrees with the time carried is set aside (#58 item 6).
@Suite("A GPS that disagrees is not followed")
struct GPSSetAsideTests {
    /// GPS once a second from 100 s to 160 s, then from `restart` s on, `off` ns off the true time.
    func restarted(at restart: Int64 = 400, off: Int64, uncertainty: Double = 0.5) -> (ClockTrack, ClockTrack.Addition) {
        var track = ClockTrack()
        for t in Int64(100)...160 { track.add(sample(.gps, mono: t * second, utc: logDay + t * second, uncertainty)) }
        let added = track.add(sample(.gps, mono: restart * second, utc: logDay + restart * second + off, uncertainty))
        for t in (restart + 1)...(restart + 5) { track.add(sample(.gps, mono: t * second, utc: logDay + t * second + off, uncertainty)) }
        return (track, added)
    }

    @Test(arguments: [(Int64(2_000_000_000), 2.0), (30_000_000_000, 30.0), (-1024 * 7 * 86_400 * second, -619_315_200.0)])
    func aGPSThatComesBackOffIsSetAside(off: Int64, seconds: Double) throws {
        // Given GPS that went quiet for 240 s and came back 2 s, 30 s or 1024 weeks off (a spoofer, a rollover)
        let (track, added) = restarted(off: off)
        // Then it is set aside, saying how far off it is, where ±1.024 s (two ±0.5 s and 240 s at 100 ppm) was possible
        let suspicion = try #require(added.suspicion)
        #expect(suspicion.seconds == seconds)
        #expect(abs(suspicion.allowed - 1.024) < 1e-9)
        #expect(track.suspect == suspicion)
        // And a press then is carried from the last trusted sample, never stamped from it
        let e = try #require(track.estimate(at: 404 * second, now: 404 * second))
        #expect(e.utc == UTCTime(nanosecondsSinceEpoch: logDay + 404 * second))
        #expect(e.provenance?.samples.map(\.monotonicNanoseconds) == [160 * second])
    }

    @Test func nothingIsRestampedFromGPSSetAside() {
        // Given GPS set aside 30 s off, and a sight at 403 s stamped unsynced
        let (track, _) = restarted(off: 30 * second)
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 5 * second), source: .unsynced, uncertainty: nil)
        // When backfill looks at it: the better stamp is the carried one, not GPS's
        #expect(track.backfill(instant: 403 * second, stored: stored)?.better?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 403 * second))
    }

    @Test func gpsThatComesBackRightCounts() {
        // Given GPS that went quiet and came back 0.3 s off (within ±1.024 s)
        let (track, added) = restarted(off: 300_000_000)
        // Then it is not set aside, and stamps
        #expect(added.suspicion == nil)
        #expect(track.estimate(at: 404 * second, now: 404 * second)?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 404 * second + 300_000_000))
    }

    @Test func theBootsFirstGPSIsTakenAsItIs() {
        // Given no time yet this boot
        var track = ClockTrack()
        // When GPS's first sample comes, whatever it says
        let added = track.add(sample(.gps, mono: 100 * second, utc: logDay - 1024 * 7 * 86_400 * second, 0.5))
        // Then it is taken
        #expect(added.suspicion == nil)
        #expect(track.suspect == nil)
    }

    @Test func aLeapSecondIsNoJump() {
        // Given GPS once a second, UTC repeating a second at a leap second (23:59:60)
        var track = ClockTrack()
        var said: [ClockTrack.Addition] = []
        for t in Int64(100)...120 { said.append(track.add(sample(.gps, mono: t * second, utc: logDay + (t > 110 ? t - 1 : t) * second, 0.5))) }
        // Then no jump and nothing set aside
        #expect(said.allSatisfy { $0.jump == nil && $0.suspicion == nil })
        #expect(track.suspect == nil)
    }

    @Test func gpsThatAgreesAgainCountsAgain() throws {
        // Given GPS set aside 30 s off
        var (track, _) = restarted(off: 30 * second)
        // When it goes quiet and comes back right
        let added = track.add(sample(.gps, mono: 500 * second, utc: logDay + 500 * second, 0.5))
        // Then the suspicion is lifted, and it stamps
        #expect(added.cleared?.seconds == 30)
        #expect(track.suspect == nil)
        #expect(track.estimate(at: 500 * second, now: 500 * second)?.source == .gps)
    }

    @Test func aRunSetAsideIsNotSavedSoARestartChecksItAgain() {
        // Given GPS set aside 30 s off
        var (track, _) = restarted(off: 30 * second)
        // When the track is saved and restored
        var restored = ClockTrack()
        restored.restore(track.takeUnsaved())
        // Then only trusted samples were saved, and GPS 30 s off is set aside again when it comes
        #expect(restored.latest[.gps]?.sample.monotonicNanoseconds == 160 * second)
        #expect(restored.add(sample(.gps, mono: 410 * second, utc: logDay + 440 * second, 0.5)).suspicion?.seconds == 30)
    }

    @Test func theDaemonSaysItAndTheNavigatorCanAcceptIt() throws {
        // Given a daemon core whose GPS comes back 30 s off after 240 s quiet
        var core = startedCore()
        let said = core.handle(.clock(sample(.gps, mono: 250 * second, utc: logDay + 280 * second, 0.5)))
        // Then the log says so in words, and status shows it
        #expect(said.messages.first?.hasPrefix("gps time disagrees with the time carried from gps at 2007-04-08T09:53:05.000Z: it is +30.000 s off") == true)
        #expect(core.status(now: 250 * second).gpsSetAside == said.messages.first)
        // And a press is stamped from the time carried, not GPS's
        let press = try #require(core.handle(.input(keyDown(250 * second + 100_000_000), clock: nil)).inserts.first)
        #expect(press.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + 250 * second + 100_000_000))
        // When the navigator accepts GPS (`marktime clock trust-gps` rings the doorbell)
        let accepted = core.handle(.doorbell(.trustGPS, from: nil, now: 251 * second))
        // Then it counts again, and the log says so
        #expect(accepted.messages == ["gps time accepted by the navigator as it is: it counts again, +30.000 s off the time carried before"])
        #expect(core.status(now: 251 * second).gpsSetAside == nil)
        #expect(DoorbellMessage("trust gps") == .trustGPS)
        #expect(DoorbellMessage.trustGPS.text == "trust gps")
    }
}
