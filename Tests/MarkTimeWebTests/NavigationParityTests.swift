import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import Testing
@testable import MarkTimeWeb

/// The page's fix and tools refuse and warn as the command line does, through the same
/// library operations and in the same words (issue 57: sights given twice, Ho outside
/// 0°–90°, Polaris to the pole, the meridian altitude near the zenith, ΔT past its table).
@Suite("The phone page's navigator tools: the command line's rules and sentences")
struct NavigationParityTests {
    /// A sentence as the page's template writes it (HTML-escaped).
    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    /// GET `uri` as the logged-in skipper.
    static func get(_ uri: String, _ body: @escaping @Sendable (TestResponse) throws -> Void) async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in try body(try await client.execute(uri: uri, method: .get, headers: headers)) }
    }

    @Test func aFixOfASightGivenTwiceIsRefused() async throws {
        // Given three star sights
        let t = try TestSite()
        defer { t.remove() }
        let ids = try NavigationPageTests.stars(t.store, [("Sirius", 0), ("Capella", 0), ("Regulus", 0)])
        try await t.loggedIn { client, headers, _ in
            // When the fix is asked of the first twice
            let r = try await client.execute(uri: "/fix?ids=\(ids[0]),\(ids[0]),\(ids[1])", method: .get, headers: headers)
            // Then it is refused with the command line's sentence
            #expect(r.status == .badRequest)
            #expect(r.text.contains(Self.html("sight \(ids[0]) is given twice: a sight counts once in a reduction, an average or a fix; give each ID once")), "\(r.text)")
            #expect(!r.text.contains("id=\"fix-position\""))
        }
    }

    @Test func anAverageOfASightGivenThriceIsRefused() async throws {
        // Given a run of three Sirius sights
        let t = try TestSite()
        defer { t.remove() }
        let run = try NavigationPageTests.stars(t.store, [("Sirius", 0), ("Sirius", 0.5), ("Sirius", 0.2)])
        try await t.loggedIn { client, headers, _ in
            // When the average counts the second three times
            let r = try await client.execute(uri: "/tools?tool=average&ids=\(run[0]),\(run[1]),\(run[1]),\(run[1])", method: .get, headers: headers)
            // Then it is refused, not averaged
            #expect(r.status == .badRequest)
            #expect(r.text.contains(Self.html("sight \(run[1]) is given 3 times: a sight counts once in a reduction, an average or a fix; give each ID once")), "\(r.text)")
            #expect(!r.text.contains("id=\"average-result\""))
        }
    }

    @Test(arguments: [
        ("/tools?tool=noon&position=30+31+N+76+47+W&at=2006-10-26T12:00:00Z&ho=91",
         "Ho 91° 00&#39;.0 is above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give one such as &quot;40 12.5&quot;"),
        ("/tools?tool=noon&position=30+31+N+76+47+W&at=2006-10-26T12:00:00Z&ho=-0+23",
         "Ho -0 23 is below the horizon: an altitude is from 0° on the horizon to 90° at the zenith; give one such as &quot;40 12.5&quot;"),
        ("/tools?tool=polaris&ho=90+10.5&at=2026-02-01T03:00:00Z&position=49+41+N+6+17+W",
         "Ho 90° 10&#39;.5 is above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give one such as &quot;40 12.5&quot;"),
        ("/tools?tool=identify&altitude=95&zn=100&at=2026-02-01T03:00:00Z&position=40+N+70+W",
         "the altitude 95° 00&#39;.0 is above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give one such as &quot;40 12.5&quot;"),
        ("/tools?tool=polaris&ho=abc&at=2026-02-01T03:00:00Z&position=49+41+N+6+17+W",
         "cannot read Ho &#39;abc&#39;: unexpected &#39;a&#39;; write it as `34 12.3` (degrees, minutes), `34°12&#39;.3` or `34.205`"),
    ])
    func anAltitudeOutsideZeroToNinetyIsRefused(_ uri: String, _ sentence: String) async throws {
        // Given an altitude typed past the zenith or below the horizon
        // When the tool is asked
        try await Self.get(uri) { r in
            // Then it is refused with the sentence the command line gives for --ho and --altitude
            #expect(r.status == .badRequest)
            #expect(r.text.contains("<p class=\"error\" role=\"alert\">\(sentence)</p>"), "\(r.text)")
        }
    }

    @Test func polarisBelowTheHorizonIsRefused() async throws {
        // Given a DR at 27° S, where Polaris is below the horizon
        // When Polaris's latitude is asked from Ho 20°
        try await Self.get("/tools?tool=polaris&ho=20&at=2026-02-01T03:00:00Z&position=27+S+153+E") { r in
            // Then it is refused, not answered 19° 51' N
            #expect(r.status == .badRequest)
            #expect(r.text.contains(Self.html("Polaris is below the horizon at 27° 00'.00 S  153° 00'.00 E (Hc -26° 51'.6): it is seen only north of about 0° 38' S; "
                + "check the DR (the position given, or the sight's)")), "\(r.text)")
            #expect(!r.text.contains("id=\"polaris-result\""))
        }
    }

    @Test func polarisNearThePoleGivesBothLatitudesAndNoFormula() async throws {
        // Given Polaris's Hc at 89° N 128° W on 2026-02-01 03:00 UTC, worked from a DR at the pole
        let e = Almanac.entry(Body(named: "Polaris")!, at: SkyTime(UTCTime(year: 2026, month: 2, day: 1, hour: 3)!)!)
        let hc = Computed(gha: e.gha, declination: e.declination, latitude: 89, longitude: -128).altitude
        let uri = String(format: "/tools?tool=polaris&ho=%.7f&at=2026-02-01T03:00:00Z&position=90+N+128+W", hc)
        // When Polaris's latitude is asked without the bearing seen
        try await Self.get(uri) { r in
            // Then the root nearer the DR is given, 89° N named with Polaris's bearing there, and no formula past 68° N
            #expect(r.status == .ok)
            #expect(r.text.contains("<dt>Latitude</dt><dd>89° 45&#39;.59 N</dd><dt>Almanac formula</dt><dd>—</dd>"), "\(r.text)")
            #expect(r.text.contains("<li data-kind=\"flag\">the almanac&#39;s tables and formula stop at 68° N: the exact solution alone holds here</li>"))
            #expect(r.text.contains("<li data-kind=\"flag\">Two latitudes see Polaris at this Ho: 89° 45&#39;.59 N with it bearing 183°, and 89° 00&#39;.00 N "
                + "with it bearing 357°; the one nearer the DR is given: give Zn with the bearing seen to choose</li>"), "\(r.text)")
        }
        // And with the bearing seen, 000°, it is 89° N (where Polaris bears 357°)
        try await Self.get(uri + "&zn=0") { r in
            #expect(r.status == .ok)
            #expect(r.text.contains("<dt>Latitude</dt><dd>89° 00&#39;.00 N</dd>"), "\(r.text)")
            #expect(r.text.contains("<li data-kind=\"flag\">Two latitudes see Polaris at this Ho: 89° 00&#39;.00 N with it bearing 357°, and 89° 45&#39;.59 N "
                + "with it bearing 183°; the one nearer Zn is given</li>"), "\(r.text)")
        }
    }

    @Test func aMeridianAltitudeNearTheZenithIsWarnedOf() async throws {
        // Given the Sun's Ho 87° on the meridian
        // When noon's latitude is asked
        try await Self.get("/tools?tool=noon&position=10+N+40+W&at=2026-03-01T12:00:00Z&ho=87") { r in
            // Then the latitude comes with the command line's warning
            #expect(r.status == .ok)
            #expect(r.text.contains("<li data-kind=\"flag\">" + Self.html(MeridianPassage.nearZenith(87)!) + "</li>"), "\(r.text)")
            #expect(r.text.contains("is within 5° of the zenith: there the altitude changes fast"))
        }
    }

    @Test(arguments: [
        "/tools?tool=noon&position=30+31+N+76+47+W&at=2030-06-01T12:00:00Z&ho=70",
        "/tools?tool=polaris&ho=50+04.3&at=2030-06-01T03:00:00Z&position=49+41+N+6+17+W",
        "/tools?tool=identify&altitude=40&zn=100&at=2030-06-01T03:00:00Z&position=40+N+70+W",
    ])
    func everyToolSaysDeltaTPastItsTable(_ uri: String) async throws {
        // Given a time in 2030, past the last measured ΔT (2026-10-01)
        // When the tool is asked
        try await Self.get(uri) { r in
            // Then its answer carries the ΔT flag, as the command line's does
            #expect(r.status == .ok)
            #expect(r.text.contains(/<li data-kind="flag">past the last measured ΔT \(2026-10-01\): UT1 is uncertain by ±3\.[0-9] s, ±0\.[0-9]{2}′ of GHA<\/li>/), "\(r.text)")
        }
    }

    @Test func anAnswerWithNothingToSayDrawsNoList() async throws {
        // Given noon in 2006, within the ΔT table, at a low Ho
        // When it is worked
        try await Self.get("/tools?tool=noon&position=30+31+N+76+47+W&at=2006-10-26T12:00:00Z&ho=47+11.6") { r in
            // Then no empty list of flags is drawn under it
            #expect(r.status == .ok)
            #expect(r.text.contains("id=\"noon-latitude\""))
            #expect(!r.text.contains("<ul class=\"flags\">"))
        }
    }

    @Test func theTablesWorkingSaysDeltaTPastItsTable() async throws {
        // Given a Sirius sight on 2030-06-01
        let t = try TestSite()
        defer { t.remove() }
        let utc = UTCTime(year: 2030, month: 6, day: 1, hour: 3)!
        let s = try #require(Sight.practice(Body(named: "Sirius")!, at: utc, from: try Position(latitude: -30, longitude: 150),
                                            reading: SextantReading(hs: 0, eyeHeight: 2.5), dr: try Position(latitude: -30.1, longitude: 150.2)))
        let id = try t.store.insert(s).id!
        let time = try #require(SkyTime(s.estimate.utc))
        let flag = try #require(ReductionFlag.deltaT(at: time)).message
        try await t.loggedIn { client, headers, _ in
            // When its tables' working is asked
            let r = try await client.execute(uri: "/tools?tool=assumed&ids=\(id)", method: .get, headers: headers)
            // Then the flag is said beside it
            #expect(r.status == .ok)
            #expect(r.text.contains("<li data-kind=\"flag\">\(flag)</li>"), "\(r.text)")
        }
    }
}
