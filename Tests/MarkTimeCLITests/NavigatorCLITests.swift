import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import Testing

@Suite("The navigator's tools at the command line")
struct NavigatorCLITests {
    static let truth = try! Position(latitude: 35, longitude: -40)
    static let dr = try! Position(latitude: 35.1, longitude: -40.2)
    static let evening = UTCTime(year: 2026, month: 3, day: 10, hour: 22)!
    static func star(_ name: String) -> Body { Body(named: name)! }

    /// Star sights taken at `truth`, a minute apart, each `error` arc-minutes high.
    func stars(_ cli: CLI, _ list: [(String, Double)], minutes: [Int]? = nil) throws -> [Sight] {
        try list.enumerated().map { k, pair in
            let t = Self.evening.adding(nanoseconds: Int64(minutes?[k] ?? k) * 60_000_000_000)
            var s = practiceSight(Self.star(pair.0), at: t, from: Self.truth, dr: Self.dr)
            s.hs! += pair.1 / 60
            return try cli.database().insert(s)
        }
    }

    @Test func reduceWithoutIDsTakesTheNewestTenAndUntilBoundsThem() throws {
        // Given twelve sights a minute apart
        let cli = CLI()
        let ids = try stars(cli, Array(repeating: ("Sirius", 0.0), count: 12)).map { Int($0.id!) }
        // When reduced without IDs, then the newest ten, oldest first
        let all = try #require(try cli.json(["reduce"]) as? [[String: Any]])
        #expect(all.map { $0["id"] as? Int } == Array(ids[2...]))
        // And --until takes the newest ten before it
        let before = try #require(try cli.json(["reduce", "--until", "2026-03-10T22:05:00Z"]) as? [[String: Any]])
        #expect(before.map { $0["id"] as? Int } == Array(ids[..<5]))
        // And a range that ends before it starts is refused
        let r = try cli.run(["reduce", "--since", "2026-03-11", "--until", "2026-03-09"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("before it starts"), "\(r.stderr)")
    }

    @Test func aFixOfFiveLinesNamesTheOneItLeftOut() throws {
        // Given five stars, the third 5' high
        let cli = CLI()
        let ids = try stars(cli, [("Sirius", 0.2), ("Capella", -0.3), ("Pollux", 5), ("Regulus", 0.1), ("Procyon", -0.2)]).map { String($0.id!) }
        // When fixed
        let json = try #require(try cli.json(["fix"] + ids) as? [String: Any])
        let table = try cli.run(["fix"] + ids)
        // Then Pollux is left out with its distance, and four lines make the fix
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["id"] as? Int } == [Int(ids[2])])
        #expect(rejected.first?["body"] as? String == "Pollux")
        #expect((json["lines"] as? [Any])?.count == 4)
        #expect(table.stdout.contains("sight \(ids[2]) (Pollux) left out: "), "\(table.stdout)")
        #expect(table.stdout.contains("nm from the fix of the other lines, more than 2.0 nm (3 σ of theirs, at least 2 nm)"))
        // And --keep-all keeps it
        let all = try #require(try cli.json(["fix", "--keep-all"] + ids) as? [String: Any])
        #expect((all["lines"] as? [Any])?.count == 5)
        #expect((all["rejected"] as? [Any])?.count == 0)
    }

    @Test func averageLeavesOutTheBadSightAndWritesItsChart() throws {
        // Given five sights of Sirius a minute apart, the fourth 6' high
        let cli = CLI()
        let ids = try stars(cli, [("Sirius", 0), ("Sirius", 0.5), ("Sirius", -0.4), ("Sirius", 6), ("Sirius", 0.1)]).map { String($0.id!) }
        // When averaged, with its chart
        let chart = cli.folder + "/run.svg"
        let json = try #require(try cli.json(["average", "--chart", chart] + ids) as? [String: Any])
        // Then the fourth is rejected, the average is at the kept sights' mean time (1.75 min: 22:01:45)
        let sights = try #require(json["sights"] as? [[String: Any]])
        #expect(sights.map { $0["rejected"] as? Bool } == [false, false, false, true, false])
        #expect(json["utc"] as? String == "2026-03-10T22:01:45.000Z")
        #expect(json["body"] as? String == "Sirius")
        // And the chart is an SVG with five points, one hollow
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg "))
        #expect(svg.components(separatedBy: "class=\"point\"").count - 1 == 4)
        #expect(svg.components(separatedBy: "class=\"point rejected\"").count - 1 == 1)
    }

    @Test func averageRefusesMixedBodies() throws {
        let cli = CLI()
        let ids = try stars(cli, [("Sirius", 0), ("Capella", 0)]).map { String($0.id!) }
        let r = try cli.run(["average"] + ids)
        #expect(r.status == 1)
        #expect(r.stderr.contains("a run is of one body, and these sights are of Capella, Sirius: choose the sights of one"), "\(r.stderr)")
    }

    @Test func fixAverageUsesOneLinePerRun() throws {
        // Given three sights of Sirius, then Capella and Regulus
        let cli = CLI()
        let ids = try stars(cli, [("Sirius", 0.3), ("Sirius", -0.3), ("Sirius", 0), ("Capella", 0), ("Regulus", 0)]).map { String($0.id!) }
        // When fixed with --average
        let json = try #require(try cli.json(["fix", "--average"] + ids) as? [String: Any])
        // Then three lines make it, the first being Sirius's average (no id), and the average is listed
        let lines = try #require(json["lines"] as? [[String: Any]])
        #expect(lines.map { $0["body"] as? String } == ["Sirius", "Capella", "Regulus"])
        #expect(lines.first?["id"] is NSNull)
        #expect((json["averaged"] as? [[String: Any]])?.first?["utc"] as? String == "2026-03-10T22:01:00.000Z")
    }

    @Test func reduceAssumedLaysOutTheTablesWork() throws {
        // Given one sight of Sirius
        let cli = CLI()
        let s = try stars(cli, [("Sirius", 0)])[0]
        // When reduced from an assumed position
        let json = try #require(try cli.json(["reduce", String(s.id!), "--assumed"]) as? [[String: Any]])
        let table = try cli.run(["reduce", String(s.id!), "--assumed", "--tables", "pub249"])
        // Then it is the library's HO 229 working from the DR
        let r = try ReducedSight(s)
        let e = Almanac.entry(r.body, at: SkyTime(r.utc)!)
        let t = TableReduction(ho: r.ho, gha: e.gha, declination: e.declination, near: r.assumedPosition)
        let row = try #require(json.first)
        #expect(row["ap_lat"] as? Double == 35)
        #expect(abs(try #require(row["ap_lon"] as? Double) - t.assumedPosition.longitude) < 1e-12)
        #expect(row["lha_deg"] as? Int == t.lha)
        // (JSON carries 15 significant digits)
        for (key, value) in [("tab_hc_deg", t.tabulatedHc), ("d_arcmin", t.d), ("zn_deg", t.zn), ("intercept_nm", t.intercept)] {
            #expect(abs(try #require(row[key] as? Double) - value) < 1e-9, "\(key)")
        }
        #expect(row["tables"] as? String == "ho229")
        // And the Pub. 249 table prints whole degrees of Z and the LHA
        #expect(table.stdout.contains("Pub. 249"), "\(table.stdout)")
        #expect(table.stdout.contains("  LHA          \(t.lha)°"))
    }

    @Test func noonAndPolarisGiveTheLibrarysAnswers() throws {
        let cli = CLI()
        // Given the Eagle's DR on 2006-10-26; when noon is asked for
        let noon = try #require(try cli.json(["noon", "--position", "30 31 N 76 47 W", "--at", "2006-10-26T12:00:00Z"]) as? [String: Any])
        let expected = try #require(MeridianPassage.localApparentNoon(DeadReckoning(try Position(latitude: 30 + 31.0 / 60, longitude: -(76 + 47.0 / 60)),
                                                                                    at: UTCTime(year: 2006, month: 10, day: 26, hour: 12)!)))
        // Then it is the library's instant (16:51 UT, as published)
        #expect(noon["lan_utc"] as? String == expected.utc.iso8601)
        #expect((noon["lan_utc"] as? String)?.hasPrefix("2006-10-26T16:51") == true)
        // When Polaris at Ho 50° 04'.3 is worked
        let p = try #require(try cli.json(["polaris", "--ho", "50 04.3", "--at", "2026-02-01T03:00:00Z", "--position", "49 41 N 6 17 W"]) as? [String: Any])
        let e = Almanac.entry(Self.star("Polaris"), at: SkyTime(UTCTime(year: 2026, month: 2, day: 1, hour: 3)!)!)
        let lib = try #require(PolarisLatitude(ho: 50 + 4.3 / 60, gha: e.gha, declination: e.declination,
                                               near: try Position(latitude: 49 + 41.0 / 60, longitude: -(6 + 17.0 / 60))))
        // Then it is the library's latitude
        #expect(abs(try #require(p["latitude"] as? Double) - lib.latitude) < 1e-12)
    }

    @Test func identifyNamesTheSight() throws {
        // Given a sight of Sirius stored with no body
        let cli = CLI()
        var s = try stars(cli, [("Sirius", 0)])[0]
        let zn = try ReducedSight(s).computed.azimuth
        s = try cli.database().edit(id: s.id!, try SightEdit(SightEditText(), clear: ["body"]), now: Self.evening)
        #expect(s.body == nil)
        // When identified with its bearing, and named
        let r = try cli.run(["identify", String(s.id!), "--zn", String(format: "%.1f", zn), "--name"])
        // Then Sirius heads the list and the sight is named
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").dropFirst().first?.hasPrefix("Sirius") == true, "\(r.stdout)")
        #expect(r.stdout.contains("Sight \(s.id!) is now named Sirius."))
        #expect(try cli.database().sight(id: s.id!).sight.body == "Sirius")
    }

    @Test func plotWritesTheSheet() throws {
        // Given three stars
        let cli = CLI()
        let ids = try stars(cli, [("Sirius", 0), ("Capella", 0), ("Regulus", 0)]).map { String($0.id!) }
        // When plotted to a file
        let out = cli.folder + "/sheet.svg"
        let r = try cli.run(["plot", "-o", out] + ids)
        // Then it is an SVG with three lines, a fix and its ellipse
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.hasPrefix("<svg "))
        #expect(svg.components(separatedBy: "<g class=\"lop\"").count - 1 == 3)
        #expect(svg.contains("class=\"fix\""))
        #expect(svg.contains("class=\"ellipse\""))
        #expect(r.stderr == "Wrote the plotting sheet to \(out).\n")
        // And its JSON gives what it draws: three lines whose feet are the library's, and the fix
        let json = try #require(try cli.json(["plot"] + ids) as? [String: Any])
        let lines = try #require(json["lines"] as? [[String: Any]])
        #expect(lines.count == 3)
        let sights = try ids.map { try cli.database().sight(id: Int64($0)!).sight }
        for (line, s) in zip(lines, sights) {
            let foot = try ReducedSight(s).lineOfPosition.foot
            let drawn = try #require(line["foot"] as? [String: Double])
            #expect(abs(drawn["lat"]! - foot.latitude) < 1e-9 && abs(drawn["lon"]! - foot.longitude) < 1e-9)
        }
        let fix = try FixWork(sights, options: .init()).fix
        #expect(abs(try #require((json["fix"] as? [String: Double])?["lat"]) - fix.position.latitude) < 1e-9)
    }
}
