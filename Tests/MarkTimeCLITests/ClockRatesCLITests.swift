import Foundation
import MarkTimeCore
import MarkTimeStore
import Testing

@Suite("marktime clock rates")
struct ClockRatesCLITests {
    @Test func anEmptyBookSaysWhenItWillBeWritten() throws {
        let cli = CLI()
        let r = try cli.run(["clock", "rates"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "the rate book is empty: the daemon writes it once it has heard a good time source (GPS, PPS, chrony) for an hour\n")
        #expect((try cli.json(["clock", "rates", "--format", "json"]) as? [Any])?.isEmpty == true)
    }

    @Test func theBookIsPrintedAsATableAndAsJSON() throws {
        // Given a store with two lines of the rate book
        let cli = CLI()
        _ = try cli.run(["sights"])
        let store = try AppDatabase(path: cli.store, createDirectory: false)
        for (boot, day, gain) in [("4f0c2a91-aaaa", 26, -0.41), ("9b1d0e55-bbbb", 27, -0.39)] {
            try store.saveRate(RateBookEntry(bootID: boot, rate: ClockRate(gain: gain, scatter: 0.1728, source: .gps, span: 7200, samples: 121, learnedAt: 1),
                                             learnedUTC: UTCTime(year: 2026, month: 11, day: day, hour: 12)!, error: 0.012))
        }
        // When it is printed
        let r = try cli.run(["clock", "rates"])
        // Then a line a day, oldest first, and the same in JSON
        #expect(r.stdout == """
            day         boot      clock      rate                learned over                   error
            2026-11-26  4f0c2a91  monotonic  −0.41 s/day ± 0.17  2 h 00 m of gps (121 samples)  +0.012 s
            2026-11-27  9b1d0e55  monotonic  −0.39 s/day ± 0.17  2 h 00 m of gps (121 samples)  +0.012 s

            """)
        let json = try #require(try cli.json(["clock", "rates", "--format", "json"]) as? [[String: Any]])
        #expect(json.map { $0["day"] as? String } == ["2026-11-26", "2026-11-27"])
        #expect(json.first?["gain_s_per_day"] as? Double == -0.41)
    }
}

@Suite("marktime status when the time is unknown")
struct UnknownTimeStatusTests {
    @Test func statusSaysTheTimeIsUnknownAndNamesTheTwoWaysToSetIt() throws {
        // Given a store, and a system clock not counted as a source (as after a boot without GPS or an RTC)
        let cli = CLI()
        #expect(try cli.run(["config", "set", "clock.trust_system", "false"], storeFlag: false).status == 0)
        // When status is asked
        let table = try cli.run(["status"]).stdout
        // Then it says so at once, with the two ways to set it
        let sentence = "the time is unknown (no GPS, PPS or synchronised clock, nothing carried): set it from a time signal, "
            + "`marktime clock signal HH:MM --date YYYY-MM-DD` and the button on the tick (the daemon must be running), "
            + "or find it from a lunar distance, `marktime lunar --sight ID --set-clock` for a sight marked at the distance"
        #expect(table.contains("\ntime    " + sentence + "\n"), "\(table)")
        let json = try cli.json(["status", "--format", "json"]) as? [String: Any]
        #expect(json?["time_unknown"] as? String == sentence)
    }
}
