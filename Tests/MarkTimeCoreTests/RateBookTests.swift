import MarkTimeCore
import Testing

/// The chronometer's rate book: written a line a day per boot, and carried into the next (#58 item 1).
@Suite("The rate book")
struct RateBookTests {
    let bookRate = ClockRate(gain: -0.432, scatter: 0.1728, source: .gps, span: 7200, samples: 121, learnedAt: 8200 * second)
    var bookLine: RateBookEntry {
        RateBookEntry(bootID: "boot-old", rate: bookRate, learnedUTC: UTCTime(nanosecondsSinceEpoch: logDay - 86_400 * second), error: 0.25)
    }

    @Test func aRateLearnedIsWrittenOnceWithTheSystemClocksError() throws {
        // Given two hours of GPS every 5 s on a clock that loses 0.432 s a day
        var core = bareCore()
        for s in losingRun(minutes: 120, step: 5) { _ = core.handle(.clock(s)) }
        // When the heartbeat comes half a second after the last sample, the system clock reading 1.5 s ahead of GPS
        let system = sample(.unsynced, mono: 8200 * second + 500_000_000, utc: logDay + 7202 * second + 36_000_000, nil)
        let said = core.handle(.tick(now: 8200 * second + 500_000_000, clock: system))
        // Then the day's line is written: the rate, when it was learned, and the system clock 1.5 s fast
        let line = try #require(said.compactMap { if case .saveRate(let l) = $0 { l } else { nil } }.first)
        #expect(line.rate == core.track.rate)
        #expect(line.day == "2007-04-08")
        #expect(line.bootID == "boot-a")
        #expect(line.learnedUTC == UTCTime(nanosecondsSinceEpoch: logDay + 7200 * second + 36_000_000))
        #expect(line.error == 1.5)
        // And not again while the rate is the same
        let later = core.handle(.tick(now: 8900 * second, clock: nil))
        #expect(!later.contains { if case .saveRate = $0 { true } else { false } })
    }

    @Test func aNewBootCarriesATimeSignalAtTheBooksRate() throws {
        // Given a new boot that read the rate book's last line (−0.43 s/day ± 0.17, boot-old), and a time signal at 104 s
        var core = bareCore()
        #expect(core.handle(.rateBook(bookLine)).messages == ["the rate book's last line (2007-04-07, boot boot-old): −0.43 s/day ± 0.17; "
            + "time is carried at it until this boot learns its own, if it is no more than 30 days old then"])
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 53 * 60, date: UTCTime(year: 2007, month: 4, day: 8))),
                                  from: "asker", now: 100 * second))
        _ = core.press(at: 104 * second, clockUTC: logDay)
        // When a sight is taken a day later
        let sight = try #require(core.press(at: (104 + 86_400) * second, clockUTC: logDay + 86_400 * second).inserts.first)
        // Then it is the tick carried a day at the book's rate: 0.432 s lost, ±0.3 s and 0.1728 s
        #expect(sight.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + (5 + 86_400) * second + 432_000_000))
        #expect(abs(try #require(sight.estimate.uncertainty) - 0.4728) < 1e-9)
        #expect(sight.estimate.provenance?.rate?.fromBoot == "boot-old")
        #expect(core.status(now: (104 + 86_400) * second).chronometer?.sentence(now: (104 + 86_400) * second)
            == "carried 24 h 00 m from signal (last heard 2007-04-08T09:53:00.000Z) at −0.43 s/day ± 0.17 "
            + "(learned over 2 h 00 m of gps in an earlier boot, from the rate book)")
    }

    @Test func aBookRateMoreThanThirtyDaysOldCarriesNoTime() throws {
        // Given a new boot 31 days after the book's line (learned 2007-04-07) and a time signal at 104 s
        var core = bareCore()
        _ = core.handle(.rateBook(bookLine))
        let day31: Int64 = 30 * 86_400 * second
        _ = core.handle(.doorbell(.signal(TimeSignalRequest(secondOfDay: 9 * 3600 + 53 * 60, date: UTCTime(year: 2007, month: 5, day: 8))),
                                  from: "asker", now: 100 * second))
        _ = core.press(at: 104 * second, clockUTC: logDay + day31)
        // When a sight is taken a day later
        let sight = try #require(core.press(at: (104 + 86_400) * second, clockUTC: logDay + day31 + 86_400 * second).inserts.first)
        // Then the tick is carried at rate 1 within the 100 ppm bound (±0.3 s and 8.64 s), not at the book's rate
        #expect(sight.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + day31 + (5 + 86_400) * second))
        #expect(abs(try #require(sight.estimate.uncertainty) - 8.94) < 1e-9)
        #expect(sight.estimate.provenance?.rate == nil)
        // And the status says why, and that the book's rate (learned 2007-04-07T09:52:55Z, as its line says) is 32 days old there
        let chronometer = try #require(core.status(now: (104 + 86_400) * second).chronometer)
        let age = try #require(chronometer.bookRateAge(now: (104 + 86_400) * second, utc: UTCTime(nanosecondsSinceEpoch: 0)))
        #expect(age.expired)
        #expect(age.days == Double(logDay + day31 + (5 + 86_400) * second - bookLine.learnedUTC.nanosecondsSinceEpoch) / 86_400e9)
        #expect(core.status(now: (104 + 86_400) * second).chronometer?.sentence(now: (104 + 86_400) * second)
            == "carried 24 h 00 m from signal (last heard 2007-05-08T09:53:00.000Z) within the drift bound: the rate book's rate "
            + "(−0.43 s/day ± 0.17, learned over 2 h 00 m of gps in an earlier boot, from the rate book) is 32 days old, more than 30")
    }

    @Test func aBookRateIsAgedAtTheInstantCarriedToAndEitherWay() {
        var rate = bookRate
        (rate.fromBoot, rate.learnedUTCNanoseconds) = ("boot-old", logDay)
        // 29 days after it was learned it carries time; 31 days after, or 31 days before (a clock dated wrongly), it does not
        #expect(!rate.isTooOld(at: UTCTime(nanosecondsSinceEpoch: logDay + 29 * 86_400 * second)))
        #expect(rate.isTooOld(at: UTCTime(nanosecondsSinceEpoch: logDay + 31 * 86_400 * second)))
        #expect(rate.isTooOld(at: UTCTime(nanosecondsSinceEpoch: logDay - 31 * 86_400 * second)))
        // A tick 29 days after carries a sight an hour later at the rate, but not one two days later
        var track = ClockTrack(maxSampleAge: 10)
        track.adopt(bookRate: bookRate, fromBoot: "boot-old", learnedUTC: UTCTime(nanosecondsSinceEpoch: logDay))
        track.add(sample(.signal, mono: 100 * second, utc: logDay + 29 * 86_400 * second, 0.3))
        #expect(track.carried(at: (100 + 3600) * second)?.provenance?.rate?.fromBoot == "boot-old")
        #expect(track.carried(at: (100 + 2 * 86_400) * second)?.provenance?.rate == nil)
    }

    @Test func thisBootsLineIsNotTakenForAnEarlierOnes() {
        var core = bareCore()
        var line = bookLine
        line.bootID = "boot-a"
        #expect(core.handle(.rateBook(line)).isEmpty)
        #expect(core.track.rate == nil)
    }

    @Test func theBootsOwnRateTakesThePlaceOfTheBooks() {
        // Given the book's rate adopted
        var core = bareCore()
        _ = core.handle(.rateBook(bookLine))
        // When two hours of GPS teach this boot's own
        for s in losingRun(minutes: 120, step: 5) { _ = core.handle(.clock(s)) }
        // Then the rate is this boot's
        #expect(core.track.rate?.fromBoot == nil)
        #expect(core.track.rate?.samples == 121)
    }

    @Test func theBookReadsAsATable() {
        let lines = RateBookEntry.table([bookLine, RateBookEntry(bootID: "0123456789", rate: bookRate, learnedUTC: UTCTime(nanosecondsSinceEpoch: logDay),
                                                                 error: nil)])
        #expect(lines == [
            "day         boot      clock      rate                learned over                   error",
            "2007-04-07  boot-old  monotonic  −0.43 s/day ± 0.17  2 h 00 m of gps (121 samples)  +0.250 s",
            "2007-04-08  01234567  monotonic  −0.43 s/day ± 0.17  2 h 00 m of gps (121 samples)  —",
        ])
        #expect(bookLine.json.compact == "{\"day\":\"2007-04-07\",\"boot_id\":\"boot-old\",\"clock\":\"monotonic\",\"gain_s_per_day\":-0.432,"
            + "\"scatter_s_per_day\":0.1728,\"source\":\"gps\",\"span_s\":7200,\"samples\":121,\"learned_utc\":\"2007-04-07T09:52:55.000Z\",\"error_s\":0.25,\"error_uncertainty_s\":null}")
    }
}
