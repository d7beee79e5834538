import MarkTimeCore
import Testing

/// An RTC that reads `error` seconds ahead at good time `t` (seconds after `logDay`), plus
/// `gain` seconds a day since: its reading at monotonic `1000 s + t`, and the good time then.
func rtcReading(at t: Int64, error: Double, gain: Double = 0, resolution: Double = 0.002) -> (RTCReading, UTCEstimate) {
    let ahead = error + gain * Double(t) / 86_400
    let good = logDay + t * second
    return (RTCReading(monotonicNanoseconds: (1000 + t) * second, rtc: UTCTime(nanosecondsSinceEpoch: good + Int64((ahead * 1e9).rounded())),
                       resolution: resolution),
            UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: good), source: .gps, uncertainty: 0.01))
}

/// The RTC kept as a chronometer (#58 items 1 and 3).
@Suite("The RTC as a chronometer")
struct RTCChronometerTests {
    /// An hour of readings every 30 s against GPS, the RTC 3.1 s fast and gaining 2 s a day.
    func calibrated(gain: Double = 2) -> RTCChronometer {
        var rtc = RTCChronometer()
        for t in stride(from: Int64(0), through: 3600, by: 30) {
            let (reading, good) = rtcReading(at: t, error: 3.1, gain: gain)
            #expect(rtc.compare(reading, against: good) == nil)
        }
        return rtc
    }

    @Test func anHourOfComparisonsTeachesTheRTCsRate() throws {
        // Given an hour of GPS, read every 30 s
        let rtc = calibrated()
        // Then a comparison a minute is kept, and the rate is the RTC's, 2 s a day, within the floor
        let rate = try #require(rtc.rate)
        #expect(rtc.run.count == 61)
        #expect(abs(rate.gain - 2) < 1e-6)
        #expect(rate.scatter == ClockRate.floor)
        #expect(rate.source == .gps)
        #expect(rate.span == 3600)
        // And the last error is the one measured at the last reading
        #expect(abs(try #require(rtc.last).error - (3.1 + 2.0 / 24)) < 1e-9)
    }

    @Test func withoutGoodTimeAReadingIsCorrectedByTheErrorAndTheRate() throws {
        // Given the RTC calibrated, then a day later with no good source
        let rtc = calibrated()
        let (reading, truth) = rtcReading(at: 3600 + 86_400, error: 3.1, gain: 2)
        // When it is read
        guard case .sample(let s) = rtc.sample(reading) else { Issue.record("no sample"); return }
        // Then its time is the truth (to the nanosecond's rounding), stated ±(0.01 + 0.002 at the comparison, a day at 0.1728, 0.002 now)
        #expect(s.source == .rtc)
        #expect(abs(s.utc.nanosecondsSinceEpoch - truth.utc.nanosecondsSinceEpoch) < 1_000)
        #expect(abs(try #require(s.uncertainty) - (0.012 + 0.1728 + 0.002)) < 1e-6)
        #expect(s.monotonicNanoseconds == reading.monotonicNanoseconds)
    }

    @Test func beforeARateIsLearnedTheHundredPPMBoundIsCarried() throws {
        // Given one comparison only (3.1 s fast), then ten minutes without good time
        var rtc = RTCChronometer()
        let (first, good) = rtcReading(at: 0, error: 3.1)
        rtc.compare(first, against: good)
        let (reading, truth) = rtcReading(at: 600, error: 3.1)
        // When it is read
        guard case .sample(let s) = rtc.sample(reading) else { Issue.record("no sample"); return }
        // Then the error is taken as it was, within 100 ppm of the ten minutes
        #expect(s.utc == truth.utc)
        #expect(abs(try #require(s.uncertainty) - (0.012 + 0.06 + 0.002)) < 1e-9)
        // And the rate book's line says no rate: 0 within the bound
        let line = try #require(rtc.line(bootID: "boot-a"))
        #expect(line.clock == "rtc")
        #expect(line.rate.gain == 0)
        #expect(abs(line.rate.scatter - 8.64) < 1e-9)
        #expect(line.error == 3.1)
        #expect(line.errorUncertainty == 0.012)
        #expect(rtc.sentence(device: "/dev/rtc0") == "/dev/rtc0 read +3.100 s ± 0.012 against gps at 2007-04-08T09:52:55.000Z; no rate yet (within ±8.64 s/day)")
    }

    @Test func aSynchronisedSystemClockMeasuresTheErrorButTeachesNoRate() throws {
        // Given an hour of readings against chrony's system clock (which the kernel copies to the RTC)
        var rtc = RTCChronometer()
        for t in stride(from: Int64(0), through: 3600, by: 30) {
            let (reading, good) = rtcReading(at: t, error: 0.004)
            rtc.compare(reading, against: UTCEstimate(utc: good.utc, source: .system, uncertainty: 0.001))
        }
        // Then the error is measured, and no rate is learned from it
        #expect(try #require(rtc.last).error == 0.004)
        #expect(rtc.run.isEmpty)
        #expect(rtc.rate == nil)
    }

    @Test func aReadsJitterIsNoStep() {
        // Given the RTC compared against PPS (±10 µs), its error 3.1 s
        var rtc = RTCChronometer()
        let (first, good) = rtcReading(at: 0, error: 3.1)
        rtc.compare(first, against: UTCEstimate(utc: good.utc, source: .pps, uncertainty: 0.000_01))
        // When the next read is 15 ms late (a busy machine)
        let (next, good2) = rtcReading(at: 60, error: 3.085)
        // Then it is no step
        #expect(rtc.compare(next, against: UTCEstimate(utc: good2.utc, source: .pps, uncertainty: 0.000_01)) == nil)
        #expect(rtc.run.count == 2)
    }

    @Test func anRTCNeverComparedGivesNothing() {
        let rtc = RTCChronometer()
        #expect(rtc.sample(rtcReading(at: 0, error: 3.1).0) == .uncalibrated)
        #expect(rtc.line(bootID: "boot-a") == nil)
        #expect(rtc.sentence(device: "/dev/rtc0") == "/dev/rtc0: never compared with good time; not used without it")
    }

    @Test func anRTCThatReadsBeforeItsLastComparisonIsNotUsed() {
        // Given the RTC calibrated, then reset to 2000-01-01 (a flat battery)
        let rtc = calibrated()
        let reset = RTCReading(monotonicNanoseconds: 99 * second, rtc: UTCTime(year: 2000, month: 1, day: 1)!, resolution: 0.002)
        // Then it is refused, naming its last comparison
        #expect(rtc.sample(reset) == .behind(rtc.last!.utc))
    }

    @Test func anRTCSetByHwclockIsAStepAndItsRateIsLearnedAgain() throws {
        // Given the RTC calibrated, 3.18 s fast
        var rtc = calibrated()
        // When it is set to the system's time (hwclock --systohc, chrony's rtcsync): 0.02 s fast
        let (reading, good) = rtcReading(at: 3630, error: 0.02)
        let stepped = rtc.compare(reading, against: good)
        let step = try #require(stepped)
        // Then the step is said, the run starts again and the rate is forgotten
        #expect(step.sentence == "the RTC's error stepped from +3.183 s to +0.020 s (it was set, or it stopped): its rate is learned again from here")
        #expect(rtc.run.count == 1)
        #expect(rtc.rate == nil)
        #expect(rtc.last?.error == 0.02)
    }

    @Test func aTimeSignalMeasuresTheErrorAndStartsANewRun() throws {
        // Given the RTC calibrated
        var rtc = calibrated()
        let rate = rtc.rate
        // When a time signal is the reference, 0.25 s late
        let (reading, good) = rtcReading(at: 7200, error: 3.1, gain: 2)
        let tick = UTCEstimate(utc: good.utc.adding(nanoseconds: 250_000_000), source: .signal, uncertainty: 0.3)
        #expect(rtc.compare(reading, against: tick) == nil)
        // Then the error is the tick's, ±0.302, the run is empty, and the rate stays
        #expect(abs(try #require(rtc.last).error - (3.1 + 2.0 / 12 - 0.25)) < 1e-9)
        #expect(rtc.last?.uncertainty == 0.302)
        #expect(rtc.run.isEmpty)
        #expect(rtc.rate == rate)
    }

    @Test func aNewBootCorrectsTheRTCByTheBooksLine() throws {
        // Given an earlier boot's line: 3.18 s fast at its last comparison, 2 s a day
        let line = try #require(calibrated().line(bootID: "boot-old"))
        var rtc = RTCChronometer()
        rtc.adopt(line)
        // When the RTC is read twelve hours later, with no good time
        let (reading, truth) = rtcReading(at: 3600 + 43_200, error: 3.1, gain: 2)
        guard case .sample(let s) = rtc.sample(reading) else { Issue.record("no sample"); return }
        // Then the sample is the truth, ±(0.012, half a day at 0.1728, 0.002)
        #expect(abs(s.utc.nanosecondsSinceEpoch - truth.utc.nanosecondsSinceEpoch) < 1_000)
        #expect(abs(try #require(s.uncertainty) - (0.012 + 0.0864 + 0.002)) < 1e-6)
        // And this boot writes no line of its own until it compares
        #expect(rtc.line(bootID: "boot-b") == nil)
        #expect(rtc.sentence(device: "/dev/rtc0").hasPrefix("/dev/rtc0 read +3.183 s ± 0.012 against gps at 2007-04-08T10:52:55.000Z in boot boot-old, from the rate book; rate +2.00 s/day ± 0.17 (learned over 1 h 00 m of gps)"))
    }
}

/// The daemon's core and the RTC (#58 item 3): compared while GPS is heard, a source without it.
@Suite("The daemon and the RTC")
struct DaemonRTCTests {
    var bookLine: RateBookEntry {
        RateBookEntry(bootID: "boot-old", clock: "rtc", rate: ClockRate(gain: 2, scatter: 0.1728, source: .gps, span: 3600, samples: 61, learnedAt: 1),
                      learnedUTC: UTCTime(nanosecondsSinceEpoch: logDay), error: 3.1, errorUncertainty: 0.012)
    }

    @Test func aBootWithoutGPSDatesASightByTheRTCCorrectedByTheBook() throws {
        // Given a new boot that read the book's rtc line, and the RTC read with no good source, half a day on
        var core = bareCore()
        #expect(core.handle(.rateBook(bookLine)).messages == ["the rate book's last RTC line (2007-04-08, boot boot-old): the RTC read +3.100 s ± 0.012 "
            + "against gps at 2007-04-08T09:52:55.000Z, rate +2.00 s/day ± 0.17; a reading without good time is corrected by it"])
        let rtcTime: Int64 = logDay + 43_204 * second + 100_000_000
        let reading = RTCReading(monotonicNanoseconds: 100 * second, rtc: UTCTime(nanosecondsSinceEpoch: rtcTime), resolution: 0.002)
        let said = core.handle(.rtc(reading))
        #expect(said.messages == ["no good time: the RTC, corrected by its last comparison, dates the sights"])
        // When the button is pressed 2 s later
        let sight = try #require(core.press(at: 102 * second, clockUTC: logDay).inserts.first)
        // Then the sight is dated by the RTC: its reading less 3.1 s and half a day's 1 s, 2 s on; ±(0.012, 0.0864, 0.002, 2 s at 100 ppm)
        #expect(sight.estimate.source == .rtc)
        let expected: Int64 = rtcTime - 2_100_000_000
        #expect(sight.estimate.utc == UTCTime(nanosecondsSinceEpoch: expected))
        let uncertainty = try #require(sight.estimate.uncertainty)
        #expect(abs(uncertainty - 0.1006) < 1e-9)
        #expect(core.status(now: 102 * second).rtc?.hasPrefix("/dev/rtc0 read +3.100 s ± 0.012 against gps at 2007-04-08T09:52:55.000Z in boot boot-old") == true)
    }

    @Test func aGPSThatDisagreesWithTheRTCIsSetAside() throws {
        // Given a boot dated by the RTC (as above)
        var core = bareCore()
        _ = core.handle(.rateBook(bookLine))
        let rtcTime: Int64 = logDay + 43_204 * second + 100_000_000
        _ = core.handle(.rtc(RTCReading(monotonicNanoseconds: 100 * second, rtc: UTCTime(nanosecondsSinceEpoch: rtcTime), resolution: 0.002)))
        // When GPS comes, 30 s off the RTC's corrected time
        let gpsTime: Int64 = rtcTime + 30_900_000_000
        let gps = sample(.gps, mono: 105 * second, utc: gpsTime, 0.5)
        let said = core.handle(.clock(gps))
        // Then GPS is set aside, and the sights stay on the RTC's time
        #expect(core.track.suspect != nil)
        #expect(said.messages.first?.hasPrefix("gps time disagrees with the time carried from rtc") == true)
        #expect(try #require(core.press(at: 106 * second, clockUTC: logDay).inserts.first).estimate.source == .rtc)
    }

    @Test func afterAGPSOutageTheRTCIsNotTakenWhenTheCarriedTimeIsBetter() throws {
        // Given two hours of GPS (the clock's rate learned), the RTC compared at 7000 s with no rate of its own
        var core = bareCore()
        for s in losingRun(minutes: 120, step: 5) { _ = core.handle(.clock(s)) }
        let (reading, _) = rtcReading(at: 7000, error: 3.1)
        let atGPS = RTCReading(monotonicNanoseconds: (1000 + 7000) * second + 35_000_000, rtc: reading.rtc, resolution: 0.002)
        _ = core.handle(.rtc(atGPS))
        #expect(core.rtc.last?.source == .gps)
        // When GPS has been gone 10 minutes and the RTC is read (±0.5 s at the comparison, and 100 ppm since)
        let later = RTCReading(monotonicNanoseconds: (1000 + 7800) * second, rtc: reading.rtc.adding(nanoseconds: 600 * second), resolution: 0.002)
        let said = core.handle(.rtc(later))
        // Then the time carried from GPS at the learned rate (±0.5 s and 2 ppm) is kept, and no rtc sample is tracked
        #expect(said.isEmpty)
        #expect(core.track.latest[.rtc] == nil)
    }

    @Test func aRestartedDaemonTakesItsOwnBootsRTCLine() throws {
        // Given this boot's rtc line, saved before a restart
        var core = bareCore()
        let line = RateBookEntry(bootID: "boot-a", clock: "rtc", rate: ClockRate(gain: 0, scatter: 8.64, source: .gps, span: 600, samples: 11, learnedAt: 1),
                                 learnedUTC: UTCTime(nanosecondsSinceEpoch: logDay), error: 3.1, errorUncertainty: 0.502)
        // When the restarted daemon reads it
        #expect(core.handle(.rateBook(line)).isEmpty)
        // Then it is this boot's, not an earlier one's
        #expect(core.rtc.fromBoot == nil)
        #expect(core.rtc.last?.error == 3.1)
    }

    @Test func whileGPSIsHeardTheRTCIsComparedAndItsLineWritten() throws {
        // Given GPS heard every second, and the RTC read at 100 s, 3.1 s fast
        var core = bareCore()
        for t in Int64(90)...100 { _ = core.handle(.clock(sample(.gps, mono: t * second, utc: logDay + t * second, 0.5))) }
        let said = core.handle(.rtc(RTCReading(monotonicNanoseconds: 100 * second + 500_000_000,
                                               rtc: UTCTime(nanosecondsSinceEpoch: logDay + 103 * second + 600_000_000), resolution: 0.002)))
        // Then nothing is said and no rtc sample is tracked
        #expect(said.isEmpty)
        #expect(core.track.latest[.rtc] == nil)
        // And the next save writes the RTC's line: 3.1 s fast, ±(0.5 + 100 ppm of 0.5 s + 0.002)
        let saved = core.handle(.tick(now: 700 * second, clock: nil)).compactMap { if case .saveRate(let l) = $0 { l } else { nil } }
        let line = try #require(saved.first { $0.clock == "rtc" })
        #expect(abs(try #require(line.error) - 3.1) < 1e-9)
        #expect(abs(try #require(line.errorUncertainty) - 0.50205) < 1e-9)
        #expect(line.bootID == "boot-a")
    }

    // MARK: the update interrupt's edge, checked against a polled one

    /// An RTC polled at the edge of 2007-04-08 09:52:55 (1 ms late, at monotonic 1000.001 s),
    /// then read by the interrupt at the edge two seconds on, `late` after it.
    func edgeReadings(late: Double) -> (interrupt: RTCReading, polled: RTCReading) {
        let polled = RTCReading(monotonicNanoseconds: 1000 * second + 1_000_000, rtc: UTCTime(nanosecondsSinceEpoch: logDay), resolution: 0.002)
        let interrupt = RTCReading(monotonicNanoseconds: 1002 * second + Int64((late * 1e9).rounded()),
                                   rtc: UTCTime(nanosecondsSinceEpoch: logDay + 2 * second), resolution: 0.002)
        return (interrupt, polled)
    }

    @Test func anInterruptThatComesAsTheSecondTurnsIsKept() throws {
        // Given a poll that found the edge 1 ms late, and an interrupt 4 ms after the edge two seconds on
        let (interrupt, polled) = edgeReadings(late: 0.004)
        // When they are compared
        let check = RTCEdgeCheck.check(interrupt: interrupt, polled: polled)
        // Then the interrupt is 3 ms from the polled edge, within 2 + 2 + 20 ms: it is used
        #expect(abs(try #require(check.lag) - 0.003) < 1e-9)
        #expect(check.atTheEdge)
        #expect(check.sentence == "the RTC's update interrupt comes as its second turns (+3 ms from the polled edge): the RTC is read by it")
    }

    @Test func anInterruptCountedFromWhenItsAlarmWasSetIsNotKept() throws {
        // Given QEMU's PL031, armed half a second after the polled edge: its alarm comes half a second after the next edge
        let (interrupt, polled) = edgeReadings(late: 0.503)
        // When they are compared, after the third such check
        var check = RTCEdgeCheck.check(interrupt: interrupt, polled: polled)
        check.checks = 3
        // Then it is 502 ms late, and the RTC is polled instead
        #expect(abs(try #require(check.lag) - 0.502) < 1e-9)
        #expect(!check.atTheEdge)
        #expect(check.sentence == "the RTC's update interrupt came +502 ms from its second's edge in the last of 3 checks (an alarm "
            + "counted from when it is set, as QEMU's PL031 does, or a slow wake-up): the RTC is read by polling instead")
    }

    @Test func anInterruptJustOutsideTheReadingsResolutionIsNotKept() {
        // Given an interrupt 26 ms after the edge (25 from the polled one: 1 ms past 2 + 2 + 20)
        let (interrupt, polled) = edgeReadings(late: 0.026)
        // When they are compared, then it is not used
        #expect(!RTCEdgeCheck.check(interrupt: interrupt, polled: polled).atTheEdge)
    }

    @Test func anRTCWithNoInterruptIsSaidToBePolled() {
        #expect(RTCEdgeCheck.Result(lag: nil, atTheEdge: false, checks: 3).sentence
            == "the RTC gave no update interrupt in 3 tries: it is read by polling")
    }

    @Test func theDaemonLogsTheDecisionOnceWithTheReadingThatMadeIt() {
        // Given a daemon without good time or a rate book, and the reading that decided, polled after a late interrupt
        var core = bareCore()
        var (_, polled) = edgeReadings(late: 0.503)
        polled.interruptCheck = RTCEdgeCheck.Result(lag: 0.502, atTheEdge: false, checks: 3)
        // When the reading comes, and another after it
        let first = core.handle(.rtc(polled))
        polled.interruptCheck = nil
        polled.monotonicNanoseconds += 30 * second
        polled.rtc = polled.rtc.adding(nanoseconds: 30 * second)
        let second = core.handle(.rtc(polled))
        // Then the decision is logged with the first, before what the reading itself says, and not again
        #expect(first.messages.first == "the RTC's update interrupt came +502 ms from its second's edge in the last of 3 checks (an alarm "
            + "counted from when it is set, as QEMU's PL031 does, or a slow wake-up): the RTC is read by polling instead")
        #expect(!second.messages.contains { $0.contains("update interrupt") })
    }

    @Test func aCheckThatPassesUsesTheInterruptAndSaysSo() {
        // Given a first check whose interrupt came 3 ms from the polled edge
        let (interrupt, polled) = edgeReadings(late: 0.004)
        // When it is decided
        let (next, reading) = RTCEdgeCheck.decide(failed: 0, polled: polled, armed: interrupt, byInterrupt: true)
        // Then the interrupt is used from now on, and its reading carries the result
        #expect(next == .interrupt(lag: 0.003))
        #expect(reading.monotonicNanoseconds == interrupt.monotonicNanoseconds)
        #expect(reading.interruptCheck?.atTheEdge == true)
        #expect(reading.interruptCheck?.checks == 1)
    }

    @Test func aFailedCheckHandsOnThePolledReadingAndTriesAgainTwiceMore() {
        // Given an interrupt 502 ms from the polled edge
        let (interrupt, polled) = edgeReadings(late: 0.503)
        // When the first and second checks fail, then the third
        let first = RTCEdgeCheck.decide(failed: 0, polled: polled, armed: interrupt, byInterrupt: true)
        let second = RTCEdgeCheck.decide(failed: 1, polled: polled, armed: interrupt, byInterrupt: true)
        let third = RTCEdgeCheck.decide(failed: 2, polled: polled, armed: interrupt, byInterrupt: true)
        // Then the polled reading is handed on each time, undecided twice, and polling is decided, and said, at the third
        #expect(first.next == .unchecked(failed: 1))
        #expect(second.next == .unchecked(failed: 2))
        #expect(third.next == .polled)
        #expect([first, second, third].allSatisfy { $0.reading.monotonicNanoseconds == polled.monotonicNanoseconds })
        #expect(first.reading.interruptCheck == nil && second.reading.interruptCheck == nil)
        #expect(third.reading.interruptCheck?.checks == 3)
        #expect(third.reading.interruptCheck?.atTheEdge == false)
    }

    @Test func noInterruptCountsAsAFailedCheckAndItsPolledReadingIsHandedOn() {
        // Given an armed reading that C polled because no interrupt came
        let (armed, polled) = edgeReadings(late: 0.004)
        // When the third such check is decided
        let (next, reading) = RTCEdgeCheck.decide(failed: 2, polled: polled, armed: armed, byInterrupt: false)
        // Then the RTC is polled, the later reading is handed on, and "no interrupt" is said
        #expect(next == .polled)
        #expect(reading.monotonicNanoseconds == armed.monotonicNanoseconds)
        #expect(reading.interruptCheck == RTCEdgeCheck.Result(lag: nil, atTheEdge: false, checks: 3))
    }

    @Test func anInterruptReadingIsDatedNoCloserThanItsCheckFoundIt() {
        let (interrupt, _) = edgeReadings(late: 0.004)
        #expect(abs(RTCEdgeCheck.dated(interrupt, lag: 0.009).resolution - 0.011) < 1e-12)
        #expect(abs(RTCEdgeCheck.dated(interrupt, lag: -0.0001).resolution - 0.0021) < 1e-12)
        #expect(RTCEdgeCheck.dated(interrupt, lag: 0).resolution == 0.002)
    }
}
