import CSV
import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import Testing

/// A practice sight of `body` taken and marked at `truth`, reduced from `dr` when given.
func practiceSight(_ body: Body, at utc: UTCTime, from truth: Position, dr: Position? = nil) -> Sight {
    let limb: Limb = body == .sun || body == .moon ? .lower : .center
    return Sight.practice(body, at: utc, from: truth, reading: SextantReading(hs: 0, indexError: -1.5, eyeHeight: 2.4, limb: limb), dr: dr)!
}

@Suite("Sight reduction at the command line")
struct SkyCLITests {
    static let truth = try! Position(latitude: 40, longitude: -70)
    static let dr = try! Position(latitude: 40.4, longitude: -70.5)
    static func star(_ name: String) -> Body { Body(named: name)! }

    /// Three stars a minute apart at evening twilight, 2030-08-01, marked at 40° N 70° W.
    func threeStars(_ cli: CLI) throws -> [Sight] {
        try [("Vega", 0), ("Arcturus", 1), ("Altair", 2)].map { name, minute in
            try cli.database().insert(practiceSight(Self.star(name), at: UTCTime(year: 2030, month: 8, day: 1, hour: 1, minute: minute)!,
                                                    from: Self.truth, dr: Self.dr))
        }
    }

    @Test("almanac Aries gives GHA♈, and every star's GHA is GHA♈ + its SHA to 0.01′")
    func ariesIsAnsweredAndAgreesWithTheStars() throws {
        // Given an instant, and the almanac's Aries at it
        let cli = CLI()
        let at = "2021-08-12T17:00:00Z"
        let aries = try #require(try cli.json(["almanac", "Aries", "--at", at, "--position", "50 10 N 4 20 W", "--format", "json"]) as? [String: Any])
        let gha = try #require(aries["gha_deg"] as? Double)
        // Then it is the Nautical Almanac's 216° 21′.8 to its 0.1′, its LHA is GHA + longitude,
        // and each star's GHA is GHA♈ + SHA to 0.01′
        #expect(abs(gha - (216 + 21.8 / 60)) * 60 <= 0.1)
        #expect(abs((aries["lha_deg"] as? Double ?? 0) - (gha - (4 + 20.0 / 60))) * 60 < 1e-6)
        for star in ["Vega", "Sirius", "Polaris", "Acrux", "Alpheratz"] {
            let e = try #require(try cli.json(["almanac", star, "--at", at, "--format", "json"]) as? [String: Any])
            let sum = (gha + (e["sha_deg"] as? Double ?? .nan)).truncatingRemainder(dividingBy: 360)
            #expect(abs(sum - (e["gha_deg"] as? Double ?? .nan)) * 60 < 0.01, "\(star)")
        }
    }

    @Test("almanac Aries --hourly lists the day's 24 hours, 15° 02′.5 apart")
    func ariesHourByHour() throws {
        // When the hours of 2021-08-12 are asked for, from within the day
        let cli = CLI()
        let hours = try #require(try cli.json(["almanac", "aries", "--at", "2021-08-12T17:30:00Z", "--hourly", "--format", "json"]) as? [[String: Any]])
        // Then there are 24, from 00h to 23h, each 15° 02′.46 (a sidereal hour) after the one before
        #expect(hours.count == 24)
        #expect(hours.first?["utc"] as? String == "2021-08-12T00:00:00.000Z")
        #expect(hours.last?["utc"] as? String == "2021-08-12T23:00:00.000Z")
        let gha = hours.compactMap { $0["gha_deg"] as? Double }
        for (a, b) in zip(gha, gha.dropFirst()) {
            let step = (b - a + 360).truncatingRemainder(dividingBy: 360)
            #expect(abs(step - 15.041_068_64) * 60 < 0.01)
        }
        // And --hourly for a body is refused
        let r = try cli.run(["almanac", "Vega", "--hourly"])
        #expect(r.status != 0)
        #expect(r.stderr == "Error: --hourly is for Aries: `marktime almanac Aries --hourly`\n")
    }

    @Test("An Hs above 90° is refused by the reduction with what to do")
    func anImpossibleHsIsRefused() throws {
        // Given a Sun sight whose Hs was set to 95°
        let cli = CLI()
        #expect(try cli.run(["mark"]).status == 0)
        #expect(try cli.run(["sight", "edit", "1", "--hs", "95", "--body", "Sun", "--limb", "lower", "--eye-height", "2", "--dr", "40 N 70 W"]).status == 0)
        // When it is reduced
        let r = try cli.run(["reduce", "1"])
        // Then it is refused, naming the value and the fix, and the command fails
        #expect(r.status == 1)
        #expect(r.stdout == "sight 1 cannot be reduced: Hs 95° 00'.0 is above 90°: no sextant reads that; correct it with `marktime sight edit 1 --hs`\n")
    }

    @Test("A reduction flags a long intercept and a date past the ΔT table, in the table and the JSON")
    func aReductionCarriesItsFlags() throws {
        // Given Vega shot in 2030 at 40° N 70° W, worked from a DR 3° away; the intercept limit is 30 nm
        let cli = CLI()
        let time = UTCTime(year: 2030, month: 8, day: 1, hour: 1)!
        _ = try cli.database().insert(practiceSight(Self.star("Vega"), at: time, from: Self.truth, dr: try Position(latitude: 37, longitude: -67)))
        // When it is reduced
        let table = try cli.run(["reduce", "1"])
        let json = try #require(try cli.json(["reduce", "1", "--format", "json"]) as? [[String: Any]])
        let flags = try #require(json.first?["flags"] as? [[String: String]])
        // Then the intercept is flagged with what to check, and the date with ΔT's uncertainty:
        // 0.05 s + 0.9 s a year for the 1,400 days and 1 h since 2026-10-01
        let deltaT = 0.05 + 0.9 * (1_400 + 1.0 / 24) / 365.25
        let intercept = try #require(json.first?["intercept_nm"] as? Double)
        #expect(abs(intercept) > 30)
        let expected = [
            ["kind": "large-intercept", "message": String(format: "intercept %.1f nm is over the 30 nm limit: check Hs, the body, the time and the DR (sight.intercept_limit_nm)", abs(intercept))],
            ["kind": "delta-t", "message": String(format: "past the last measured ΔT (2026-10-01): UT1 is uncertain by ±%.1f s, ±%.2f′ of GHA", deltaT, deltaT * 0.25)],
        ]
        #expect(flags == expected)
        #expect(table.status == 0)
        for f in expected { #expect(table.stdout.contains("sight 1: " + f["message"]!), "\(table.stdout)") }
    }

    @Test("A Sun sight below 5° is flagged")
    func aLowSightIsFlagged() throws {
        // Given the Sun low in the west at 40° N 70° W, 2022-06-21T23:50Z (it sets near 00:12)
        let cli = CLI()
        let time = UTCTime(year: 2022, month: 6, day: 21, hour: 23, minute: 50)!
        _ = try cli.database().insert(practiceSight(.sun, at: time, from: Self.truth))
        // When it is reduced
        let json = try #require(try cli.json(["reduce", "1", "--format", "json"]) as? [[String: Any]])
        let ho = try #require(json.first?["ho_deg"] as? Double)
        let kinds = (json.first?["flags"] as? [[String: String]])?.map { $0["kind"] ?? "" }
        // Then, being below 5°, it carries the low-altitude flag, and nothing else
        #expect(ho > 0 && ho < 5, "Ho \(ho)")
        #expect(kinds == ["low-altitude"])
    }

    @Test("Lines not advanced over 90 minutes are not called a fix without saying so")
    func unadvancedLinesAreNotAFix() throws {
        // Given Polaris, then Arcturus 90 minutes later, with no GPS position (so no track), worked from a DR
        let cli = CLI()
        for (name, minute) in [("Polaris", 0), ("Arcturus", 90)] {
            var s = practiceSight(Self.star(name), at: UTCTime(year: 2030, month: 8, day: 1, hour: 1)!.adding(nanoseconds: Int64(minute) * 60_000_000_000),
                                  from: Self.truth, dr: Self.dr)
            s.position = nil
            s.fixMode = nil
            _ = try cli.database().insert(s)
        }
        // When a fix is asked for without --course and --speed
        let table = try cli.run(["fix", "1", "2"])
        let json = try #require(try cli.json(["fix", "1", "2", "--format", "json"]) as? [String: Any])
        // Then it says these lines meet but are no fix, and why, and each line says it was not advanced
        let message = "not a fix: 1 line up to 90 min old was not advanced (no course and speed, no GPS track), so the ship's run is missing; "
            + "give --course and --speed (over 10 min: sight.unadvanced_limit_min)"
        #expect(table.stdout.hasPrefix("Lines meet (not a fix: see below) at "), "\(table.stdout)")
        #expect(table.stdout.contains(message), "\(table.stdout)")
        let flags = (json["flags"] as? [[String: String]])?.filter { $0["kind"] == "not-advanced" }
        #expect(flags == [["kind": "not-advanced", "message": message]])
        #expect((json["lines"] as? [[String: Any]])?.map { $0["advance"] as? String ?? "" } == ["not advanced", "at the fix's time"])
    }

    @Test func editingTheBodyStoresItsAlmanacName() throws {
        // Given a sight
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        // When its body is set as "rigil kent"
        let r = try cli.run(["sight", "edit", "1", "--body", "rigil kent"])
        // Then the almanac's name is stored
        #expect(r.status == 0)
        #expect(try cli.database().sight(id: 1).sight.body == "Rigil Kentaurus")
    }

    @Test func anUnknownBodyIsRefusedWithTheNearestNames() throws {
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        let r = try cli.run(["sight", "edit", "1", "--body", "Vegga"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("unknown body 'Vegga'"))
        #expect(r.stderr.contains("nearest: Vega, Venus, Adhara"))
        #expect(try cli.database().sight(id: 1).sight.body == nil)
    }

    @Test func reduceGivesEachSightsHoHcZnInterceptAndErrorAgainstGPS() throws {
        // Given three star sights reduced from a DR 30′ off the GPS position
        let cli = CLI()
        let sights = try threeStars(cli)
        // When reduced as JSON
        let rows = try #require(try cli.json(["reduce"]) as? [[String: Any]])
        // Then each row is the library's reduction of that sight, from the DR, with no error against GPS
        #expect(rows.count == 3)
        for (row, s) in zip(rows, sights) {
            let x = try ReducedSight(s)
            #expect(row["id"] as? Int == Int(s.id!))
            #expect(row["body"] as? String == s.body)
            #expect(row["assumed"] as? String == "dr")
            #expect(abs(try #require(row["ho_deg"] as? Double) - x.ho) < 1e-9)
            #expect(abs(try #require(row["hc_deg"] as? Double) - x.computed.altitude) < 1e-9)
            #expect(abs(try #require(row["zn_deg"] as? Double) - x.computed.azimuth) < 1e-9)
            #expect(abs(try #require(row["intercept_nm"] as? Double) - x.intercept) < 1e-9)
            #expect(abs(try #require(row["gps_error_arcmin"] as? Double)) < 0.05)
            #expect(row["ie"] as? Double == -1.5)
            #expect(abs(try #require(row["dip"] as? Double) - -1.76 * 2.4.squareRoot()) < 1e-9)
            #expect(row["sd"] as? Double == 0)
        }
    }

    @Test func aSightThatCannotBeReducedSaysWhatItLacks() throws {
        // Given a sight with no body, Hs or height of eye
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        // When reduced
        let r = try cli.run(["reduce", "1"])
        // Then it says so and fails
        #expect(r.status == 1)
        #expect(r.stdout == "sight 1 cannot be reduced: no body; no Hs; no height of eye\n")
    }

    @Test func fixFromThreeStarsIsTheGPSPosition() throws {
        // Given three star sights
        let cli = CLI()
        _ = try threeStars(cli)
        // When fixed
        let fix = try #require(try cli.json(["fix"]) as? [String: Any])
        // Then the fix is the position they were taken at, at the last sight's time
        #expect(fix["utc"] as? String == "2030-08-01T01:02:00.000Z")
        #expect(abs(try #require(fix["lat"] as? Double) - 40) * 60 < 0.02)
        #expect(abs(try #require(fix["lon"] as? Double) - -70) * 60 * cos(40 * Double.pi / 180) < 0.02)
        #expect(fix["lat_ddm"] as? String == "40° 00'.00 N")
        #expect(fix["lon_ddm"] as? String == "70° 00'.00 W")
        #expect(try #require(fix["gps_distance_nm"] as? Double) < 0.02)
        #expect(try #require(fix["rms_nm"] as? Double) < 0.02)
        #expect((fix["lines"] as? [Any])?.count == 3)
        #expect(fix["run"] as? String == "gps track")
        let ellipse = try #require(fix["ellipse"] as? [String: Any])
        #expect(ellipse["sigma_assumed"] as? Bool == false)
    }

    @Test func aFixNeedsTwoLines() throws {
        let cli = CLI()
        _ = try cli.database().insert(practiceSight(Self.star("Vega"), at: UTCTime(year: 2030, month: 8, day: 1, hour: 1)!, from: Self.truth))
        let r = try cli.run(["fix"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("a fix needs two reduced sights or more, and there is 1"))
    }

    @Test func theCSVCarriesTheReductionAndLeavesItEmptyWhereASightLacksIt() throws {
        // Given a reducible star sight and a bare one
        let cli = CLI()
        let star = try cli.database().insert(practiceSight(Self.star("Vega"), at: UTCTime(year: 2030, month: 8, day: 1, hour: 1)!,
                                                           from: Self.truth))
        _ = try cli.database().insert(try sight(at: 0))
        // When exported
        let reader = try CSVReader(string: try cli.run(["export", "csv"]).stdout, hasHeaderRow: true)
        let header = try #require(reader.headerRow)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        // Then the star's row has Ho, Hc, Zn, the intercept and the GPS error, every angle to
        // 0.01′ or finer (degrees to 5 and 4 places, miles and minutes to 2); the bare one has none
        #expect(Array(header.suffix(5)) == ["ho_deg", "hc_deg", "zn_deg", "intercept_nm", "gps_error_arcmin"])
        let x = try ReducedSight(star)
        let starRow = try #require(rows.first { $0[0] == String(star.id!) })
        #expect(Array(starRow.suffix(5)) == [String(format: "%.5f", x.ho), String(format: "%.5f", x.computed.altitude),
                                             String(format: "%.4f", x.computed.azimuth), String(format: "%.2f", x.intercept),
                                             String(format: "%.2f", x.gpsError!)])
        let bare = try #require(rows.first { $0[0] != String(star.id!) })
        #expect(Array(bare.suffix(5)) == ["", "", "", "", ""])
    }

    @Test func almanacPrintsThePublishedSun() throws {
        // Given the Sun at 2022-02-09 14h, printed GHA 26° 27.4′, Dec S 14° 33.7′
        // (The Nautical Almanac 2022 as reprinted by TheNauticalAlmanac.com)
        let e = try #require(try CLI().json(["almanac", "sun", "--at", "2022-02-09T14:00:00Z", "--position", "40 N 70 W"]) as? [String: Any])
        // Then the JSON carries the almanac's fields, within 0.1′
        #expect(e["body"] as? String == "Sun")
        #expect(e["utc"] as? String == "2022-02-09T14:00:00.000Z")
        let gha = try #require(e["gha_deg"] as? Double), dec = try #require(e["dec_deg"] as? Double)
        let printedGHA: Double = 26 + 27.4 / 60, printedDec: Double = -(14 + 33.7 / 60)
        #expect(abs(gha - printedGHA) * 60 < 0.1)
        #expect(abs(dec - printedDec) * 60 < 0.1)
        #expect(e["sha_deg"] is NSNull)
        #expect(abs(try #require(e["sd_arcmin"] as? Double) - 16.2) < 0.05)
        let hc = try #require(e["hc_deg"] as? Double), zn = try #require(e["zn_deg"] as? Double)
        let c = Computed(gha: gha, declination: dec, latitude: 40, longitude: -70)
        #expect(hc == c.altitude && zn == c.azimuth)
    }

    @Test func almanacRefusesAnUnknownBodyAndAYearOutsideIt() throws {
        let cli = CLI()
        let unknown = try cli.run(["almanac", "Vegga"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("nearest: Vega, Venus, Adhara"))
        let old = try cli.run(["almanac", "Sun", "--at", "1982-07-19T05:37:30Z"])
        #expect(old.status != 0)
        #expect(old.stderr.contains("outside the almanac's years 1990–2060"))
    }

    @Test func skyListsTheBodiesAboveTheHorizonBrightestFirst() throws {
        // Given evening twilight at 40° N 70° W on 2030-08-01
        let sky = try #require(try CLI().json(["sky", "--at", "2030-07-31T12:00:00Z", "--twilight", "evening",
                                                "--position", "40 N 70 W"]) as? [String: Any])
        // Then the instant is the Sun 6° below the horizon, and every body listed is above it, brightest first
        let utc = try #require(UTCTime.read(try #require(sky["utc"] as? String), what: "utc").time)
        #expect(abs(try #require(SunEvents.altitude(at: utc, from: Self.truth)) - -6) < 0.01)
        let bodies = try #require(sky["bodies"] as? [[String: Any]])
        let magnitudes = bodies.map { $0["magnitude"] as! Double }
        #expect(bodies.count > 10)
        #expect(bodies.allSatisfy { ($0["hc_deg"] as! Double) > 0 })
        #expect(magnitudes == magnitudes.sorted())
        #expect(bodies.contains { $0["body"] as? String == "Vega" })
    }

    @Test func planPicksThreeBodiesWhoseSightsAtThePredictedHsReduceToZeroAndTakesTheSextantFromTheNewestSight() throws {
        // Given a store whose newest sight says the sextant: 3.1 m, index error −2.0′, 25 °C, 1020 hPa
        let cli = CLI()
        var earlier = try sight(at: 0)
        (earlier.eyeHeight, earlier.indexError, earlier.temperature, earlier.pressure) = (3.1, -2.0, 25, 1020)
        _ = try cli.database().insert(earlier)
        // When the evening twilight off Plymouth on 27 November 2026 is planned, as JSON
        let plan = try #require(try cli.json(["plan", "--twilight", "evening", "--at", "2026-11-27T12:00:00Z",
                                              "--position", "50 10 N 4 20 W", "--format", "json"]) as? [String: Any])
        // Then the sextant is the sight's, the plan is in the window, and three bodies are chosen
        #expect(plan["eye_height_m"] as? Double == 3.1)
        #expect(plan["ie_arcmin"] as? Double == -2.0)
        #expect(plan["temperature_c"] as? Double == 25)
        #expect(plan["pressure_hpa"] as? Double == 1020)
        let utc = try #require(UTCTime.read(try #require(plan["utc"] as? String), what: "utc").time)
        let start = try #require(UTCTime.read(try #require(plan["window_start"] as? String), what: "start").time)
        let end = try #require(UTCTime.read(try #require(plan["window_end"] as? String), what: "end").time)
        #expect(start < utc && utc < end)
        let bodies = try #require(plan["bodies"] as? [[String: Any]])
        let chosen = bodies.filter { $0["chosen"] as? Bool == true }
        #expect(chosen.count == 3)
        #expect(bodies.filter { $0["chosen"] as? Bool == false }.allSatisfy { $0["reason"] is String })
        // And a sight of each, read at its predicted Hs at that time from that position, reduces to an intercept of 0.0′
        for (i, b) in chosen.enumerated() {
            // (Each at its own kernel instant: the store keeps one sight per press.)
            var s = try sight(at: 60 + Int64(i))
            s.estimate = UTCEstimate(utc: utc, source: .gps, uncertainty: 0.5)
            (s.body, s.hs, s.limb) = (b["body"] as? String, b["hs_deg"] as? Double, Limb(rawValue: b["limb"] as? String ?? ""))
            (s.eyeHeight, s.indexError, s.temperature, s.pressure) = (3.1, -2.0, 25, 1020)
            s.dr = try Position(latitude: 50 + 10.0 / 60, longitude: -(4 + 20.0 / 60))
            let id = try #require(try cli.database().insert(s).id)
            let rows = try #require(try cli.json(["reduce", String(id)]) as? [[String: Any]])
            let row = try #require(rows.first { $0["id"] as? Int == Int(id) })
            #expect(abs(try #require(row["intercept_nm"] as? Double)) < 0.05, "\(b)")
            #expect(abs(try #require(row["hc_deg"] as? Double) - (b["hc_deg"] as! Double)) < 1e-9, "\(b)")
        }
    }
}
