import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimeExport
import MarkTimeSky
import MarkTimeStore
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: the fix, its plotting sheet, and the navigator's tools")
struct NavigationPageTests {
    static let truth = try! Position(latitude: 35, longitude: -40)
    static let evening = UTCTime(year: 2026, month: 3, day: 10, hour: 22)!

    /// Star sights taken at `truth` a minute apart from `start`, each `error` arc-minutes high; their ids.
    static func stars(_ store: AppDatabase, _ list: [(String, Double)], start: UTCTime = evening) throws -> [Int64] {
        try list.enumerated().map { k, pair in
            var s = Sight.practice(Body(named: pair.0)!, at: start.adding(nanoseconds: Int64(k) * 60_000_000_000), from: truth,
                                   reading: SextantReading(hs: 0, eyeHeight: 2.5), dr: try Position(latitude: 35.1, longitude: -40.2))!
            s.hs! += pair.1 / 60
            return try store.insert(s).id!
        }
    }

    @Test func theFixPageShowsTheFixItsLeftOutLineAndItsSheet() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let ids = try Self.stars(t.store, [("Sirius", 0.2), ("Capella", -0.3), ("Pollux", 5), ("Regulus", 0.1), ("Procyon", -0.2)])
        try await t.loggedIn { client, headers, _ in
            // When the fix of the five is asked for
            let r = try await client.execute(uri: "/fix?ids=" + ids.map(String.init).joined(separator: ","), method: .get, headers: headers)
            // Then the library's fix is shown, Pollux is named as left out, and the sheet is drawn inline
            let work = try FixWork(try ids.map { try t.store.sight(id: $0).sight }, options: .init())
            #expect(r.status == .ok)
            #expect(r.text.contains("<p class=\"big num\" id=\"fix-position\">\(work.fix.position.ddm.replacingOccurrences(of: "'", with: "&#39;"))</p>"), "\(r.text)")
            #expect(r.text.contains("sight \(ids[2]) (Pollux) left out: "))
            #expect(r.text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(r.text.components(separatedBy: "<g class=\"lop\"").count - 1 == 5)
            // And the drawing brings no inline style, which the page's CSP refuses
            #expect(!r.text.contains("<style>"))
        }
    }

    @Test func theFixPageSaysAWarningOfEverySightOnce() async throws {
        // Given five sights in 2030, past the last measured ΔT, so each has the ΔT flag
        let t = try TestSite()
        defer { t.remove() }
        let start = UTCTime(year: 2030, month: 3, day: 10, hour: 22)!
        let ids = try Self.stars(t.store, [("Sirius", 0.2), ("Capella", -0.3), ("Regulus", 0.1), ("Procyon", -0.2), ("Pollux", 0.3)], start: start)
        let deltaT = try #require(ReductionFlag.deltaT(at: SkyTime(start)!)).message
        try await t.loggedIn { client, headers, _ in
            // When their fix is shown
            let r = try await client.execute(uri: "/fix?ids=" + ids.map(String.init).joined(separator: ","), method: .get, headers: headers)
            // Then the warning is one line naming the five
            #expect(r.status == .ok)
            let warnings = r.text.components(separatedBy: "<li data-kind=\"flag\">").dropFirst().map { $0.components(separatedBy: "</li>")[0] }
            #expect(warnings == ["sights 1, 2, 3, 4, 5: \(deltaT)"])
        }
    }

    @Test func aWarningIsSaidOnceWithEverySightThatHasIt() throws {
        // Given a fix's flags: its own, and a sight's intercept, and the ΔT of three sights
        let t = try TestSite()
        defer { t.remove() }
        let ids = try Self.stars(t.store, [("Sirius", 0), ("Capella", 0), ("Regulus", 0)])
        var work = try FixWork(try ids.map { try t.store.sight(id: $0).sight }, options: .init())
        work.flags = [ReductionFlag(.notAdvanced, "not a fix: 2 lines up to 40 min old were not advanced"),
                      ReductionFlag(.largeIntercept, "sight 3: intercept 41.0 nm is over the 30 nm limit"),
                      ReductionFlag(.deltaT, "sight 3: past the last measured ΔT (2026-10-01): UT1 is uncertain by ±0.9 s"),
                      ReductionFlag(.largeIntercept, "sight 12: intercept 35.5 nm is over the 30 nm limit"),
                      ReductionFlag(.deltaT, "sight 12: past the last measured ΔT (2026-10-01): UT1 is uncertain by ±0.9 s"),
                      ReductionFlag(.deltaT, "sight ?: past the last measured ΔT (2026-10-01): UT1 is uncertain by ±0.9 s")]
        // Then each is said once, in the order of its first line, with the sights that have it
        #expect(work.warnings == ["not a fix: 2 lines up to 40 min old were not advanced",
                                  "sight 3: intercept 41.0 nm is over the 30 nm limit",
                                  "sights 3, 12, ?: past the last measured ΔT (2026-10-01): UT1 is uncertain by ±0.9 s",
                                  "sight 12: intercept 35.5 nm is over the 30 nm limit"])
    }

    @Test func aFixPageWithOneSightSaysWhy() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let ids = try Self.stars(t.store, [("Sirius", 0)])
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/fix?ids=\(ids[0])", method: .get, headers: headers)
            #expect(r.status == .badRequest)
            #expect(r.text.contains("a fix needs two reduced sights or more, and there is 1"))
        }
    }

    @Test func aSightsPageDrawsItsLine() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let ids = try Self.stars(t.store, [("Sirius", 0)])
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/sights/\(ids[0])", method: .get, headers: headers)
            #expect(r.status == .ok)
            #expect(r.text.contains("<figure class=\"sheet\" id=\"sheet\"><svg "))
            #expect(r.text.contains("<g class=\"lop\" data-sight=\"\(ids[0])\" data-body=\"Sirius\""))
            #expect(r.text.contains("href=\"/fix?until=2026-03-10T22:00:00.000Z\""))
        }
    }

    @Test func theToolsGiveTheLibrarysAnswers() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let run = try Self.stars(t.store, [("Sirius", 0), ("Sirius", 0.5), ("Sirius", 6)])
        try await t.loggedIn { client, headers, _ in
            // Noon for the Eagle's DR
            let noon = try await client.execute(uri: "/tools?tool=noon&position=30+31+N+76+47+W&at=2006-10-26T12:00:00Z&ho=47+11.6", method: .get, headers: headers)
            let lan = try #require(MeridianPassage.localApparentNoon(DeadReckoning(try Position(latitude: 30 + 31.0 / 60, longitude: -(76 + 47.0 / 60)),
                                                                                   at: UTCTime(year: 2006, month: 10, day: 26, hour: 12)!)))
            #expect(noon.status == .ok)
            #expect(noon.text.contains("Local apparent noon \(lan.utc.iso8601)"), "\(noon.text)")
            #expect(noon.text.contains("latitude 30° 14&#39;."))
            // Polaris
            let polaris = try await client.execute(uri: "/tools?tool=polaris&ho=50+04.3&at=2026-02-01T03:00:00Z&position=49+41+N+6+17+W", method: .get, headers: headers)
            #expect(polaris.status == .ok)
            #expect(polaris.text.contains("<dt>Latitude</dt><dd>"))
            // Naming: Sirius where Sirius is
            let e = Almanac.entry(Body(named: "Sirius")!, at: SkyTime(Self.evening)!)
            let c = Computed(gha: e.gha, declination: e.declination, latitude: 35, longitude: -40)
            let uri = String(format: "/tools?tool=identify&altitude=%.4f&zn=%.1f&at=2026-03-10T22:00:00Z&position=35+N+40+W", c.altitude, c.azimuth)
            let named = try await client.execute(uri: uri, method: .get, headers: headers)
            #expect(named.text.contains("<ul class=\"lines\" id=\"identify-result\"><li class=\"num\"><span>Sirius</span>"), "\(named.text)")
            // Averaging the run: the third is left out, and its chart drawn
            let average = try await client.execute(uri: "/tools?tool=average&ids=" + run.map(String.init).joined(separator: ","), method: .get, headers: headers)
            #expect(average.status == .ok)
            #expect(average.text.components(separatedBy: "<span class=\"error\">left out</span>").count - 1 == 1)
            #expect(average.text.contains("class=\"drawing run-chart\""))
            // The tables' working of one sight
            let assumed = try await client.execute(uri: "/tools?tool=assumed&ids=\(run[0])&tables=pub249", method: .get, headers: headers)
            #expect(assumed.text.contains("Sight \(run[0]), Sirius, Pub. 249"))
            #expect(assumed.text.contains("<dt>LHA</dt>"))
            // An unknown tool is refused with the choices
            let unknown = try await client.execute(uri: "/tools?tool=sextant", method: .get, headers: headers)
            #expect(unknown.status == .badRequest)
            #expect(unknown.text.contains("no tool &#39;sextant&#39;: choose noon, polaris, identify, average, assumed or plan"))
            // A query that is not a form is refused with a sentence
            let broken = try await client.execute(uri: "/tools?tool=noon&position=%zz", method: .get, headers: headers)
            #expect(broken.status == .badRequest)
            #expect(broken.text.contains("the address&#39;s query cannot be read as a form"))
        }
    }

    @Test func thePlanToolGivesTheLibrarysSetAndPresets() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            // When the evening twilight off Plymouth on 27 November 2026 is planned for a sextant 2.5 m up, index error -1.2′
            let page = try await client.execute(uri: "/tools?tool=plan&twilight=evening&at=2026-11-27T12:00:00Z&position=50+10+N+4+20+W&eye=2.5&ie=-1.2",
                                                method: .get, headers: headers)
            // Then the page shows the library's three, each with its preset Hs, and the window, with the form as typed
            #expect(page.status == .ok)
            let sextant = SextantReading(hs: 0, indexError: -1.2, eyeHeight: 2.5, limb: .lower)
            let here = try Position(latitude: 50 + 10.0 / 60, longitude: -(4 + 20.0 / 60))
            let (utc, window) = try SightPlan.time(at: UTCTime(year: 2026, month: 11, day: 27, hour: 12)!, twilight: false, from: here)
            let plan = try SightPlan(at: utc, from: here, sextant: sextant)
            func e(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "&#39;") }
            let chosen = plan.chosen.map { "<li class=\"num\"><span>\($0.body.name)</span> <span>Zn \(String(format: "%05.1f°", $0.computed.azimuth))</span> "
                + "<span>Hc \(e(SextantAngle.format($0.computed.altitude)))</span> <span><strong>Hs \(e(SextantAngle.format($0.hs)))</strong></span>" }
            #expect(chosen.count == 3)
            for line in chosen { #expect(page.text.contains(line), "\(line)\n\(page.text)") }
            #expect(page.text.contains("(twilight \(try #require(window).start.isoTimeOfDayMinutes)–\(try #require(window).end.isoTimeOfDayMinutes) UTC)"))
            #expect(page.text.contains("<option value=\"evening\" selected>"))
            #expect(page.text.contains("id=\"plan-eye\" name=\"eye\" value=\"2.5\""))
            // And a plan with no height of eye anywhere is refused in words, with the form kept
            let bare = try await client.execute(uri: "/tools?tool=plan&position=50+10+N+4+20+W&at=2026-11-27T17:00:00Z", method: .get, headers: headers)
            #expect(bare.status == .badRequest)
            #expect(bare.text.contains("no height of eye: type one in metres (Height of eye), or set it on a sight&#39;s page"), "\(bare.text)")
        }
    }

    @Test func thePlansLivePresetIsTheLibrarysAtThePisNow() async throws {
        // Given the Pi's clock at 17:00:32.4 UTC on 27 November 2026
        let t = try TestSite(clock: try AdjustedClock.fixed(utc: UTCTime(nanosecondsSinceEpoch: UTCTime(year: 2026, month: 11, day: 27, hour: 17)!
            .nanosecondsSinceEpoch + 32_400_000_000)))
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            // When the plan page links its live preset, and the page asks for it
            let page = try await client.execute(uri: "/tools?tool=plan&position=50+10+N+4+20+W&eye=2.5&ie=-1.2", method: .get, headers: headers)
            let src = try #require(page.text.range(of: "data-src=\"").map { page.text[$0.upperBound...].prefix { $0 != "\"" } })
            let preset = try await client.execute(uri: String(src).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'"),
                                                  method: .get, headers: headers)
            // Then it is the library's preset of the plan's three at the whole second, 17:00:32
            let sextant = SextantReading(hs: 0, indexError: -1.2, eyeHeight: 2.5, limb: .lower)
            let here = try Position(latitude: 50 + 10.0 / 60, longitude: -(4 + 20.0 / 60))
            let second = UTCTime(year: 2026, month: 11, day: 27, hour: 17, minute: 0, second: 32)!
            let plan = try SightPlan(at: second, from: here, sextant: sextant)
            let lines = try LivePreset(plan, sextant: sextant, window: nil).lines(at: second)
            #expect(preset.status == .ok, "\(src) \(preset.text)")
            #expect(preset.headers[.contentType] == "application/json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(preset.text.utf8)) as? [String: Any])
            #expect(json["utc"] as? String == "2026-11-27T17:00:32.000Z")
            #expect(json["now_ms"] as? Double == Double(UTCTime(year: 2026, month: 11, day: 27, hour: 17)!.nanosecondsSinceEpoch / 1_000_000 + 32_400))
            #expect(json["window"] is NSNull)
            let bodies = try #require(json["bodies"] as? [[String: Any]])
            #expect(bodies.map { $0["body"] as? String } == lines.map(\.body.name))
            // (the DR goes through the page as its DDM text: the same to 1e-9)
            for (b, l) in zip(bodies, lines) {
                #expect(abs(try #require(b["hs_deg"] as? Double) - l.hs) < 1e-9, "\(b)")
                #expect(abs(try #require(b["hs_arcmin_per_min"] as? Double) - l.hsPerMinute) < 1e-9, "\(b)")
            }
            // And bodies it cannot name are refused in words, as JSON
            let bad = try await client.execute(uri: "/tools/preset?bodies=Vega,Nostar&position=50+10+N+4+20+W&eye=2.5", method: .get, headers: headers)
            #expect(bad.status == .badRequest)
            var refusal = ""
            do { _ = try Body.parse("Nostar") } catch { refusal = "\(error)" }
            #expect(!refusal.isEmpty)
            #expect((try JSONSerialization.jsonObject(with: Data(bad.text.utf8)) as? [String: Any])?["error"] as? String == refusal)
        }
    }

    @Test func theSightLogDownloadsGPXAndKMLAsTheCommandWritesThem() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let ids = try Self.stars(t.store, [("Sirius", 0), ("Capella", 0), ("Regulus", 0)])
        try await t.loggedIn { client, headers, _ in
            let gpx = try await client.execute(uri: "/sights.gpx?since=2026-03-10", method: .get, headers: headers)
            let kml = try await client.execute(uri: "/sights.kml", method: .get, headers: headers)
            let sights = try ids.map { try t.store.sight(id: $0).sight }
            let chart = ChartData(name: "marktime", sights: sights, fix: try FixWork(sights, options: .init()).fix, places: [])
            #expect(gpx.status == .ok)
            #expect(gpx.headers[.contentType] == "application/gpx+xml")
            #expect(gpx.text == GPXDocument.text(chart))
            #expect(kml.headers[.contentDisposition] == "attachment; filename=\"marktime-sights.kml\"")
            #expect(kml.text == KMLDocument.text(chart))
        }
    }

    @Test func theDrawingsStylesheetIsServed() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/assets/plot.css", method: .get, headers: headers)
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "text/css; charset=utf-8")
            #expect(r.text.contains(".drawing .lop-line{stroke:var(--plot-lop,#0b5cad)"))
        }
    }
}
