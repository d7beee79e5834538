import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimePlaces
import MarkTimeStore
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: places and the anchor watch")
struct PlacePageTests {
    @Test func addingAPlaceUsesTheCLIsRulesAndListsIt() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            // Given a place typed in decimal degrees
            let form = "csrf=\(csrf)&name=Home&kind=home&radius=150&position=-27.3807+153.3807"
            // When it is added
            let r = try await client.execute(uri: "/places", method: .post, headers: headers, body: ByteBuffer(string: form))
            // Then it is stored and shown in DDM
            #expect(r.status == .ok)
            #expect(r.text.contains("Added Home: 27° 22&#39;.84 S  153° 22&#39;.84 E, radius 150 m."))
            #expect(try t.store.places().map(\.name) == ["Home"])
            #expect(r.text.contains("<tr data-name=\"Home\">"))
        }
    }

    @Test func aBadRadiusIsRefusedWithTheCLIsSentenceAndKeepsTheForm() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let form = "csrf=\(csrf)&name=Reef&kind=other&radius=0.5&position=-27.3807+153.3807"
            let r = try await client.execute(uri: "/places", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("radius 0.5 m is under 1 m: a fix is never that exact"))
            #expect(r.text.contains("value=\"Reef\""))
            #expect(try t.store.places().isEmpty)
        }
    }

    @Test func atTheCurrentFixWithoutADaemonSaysWhatIsMissing() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let form = "csrf=\(csrf)&name=Here&kind=other&radius=100&here=1&position="
            let r = try await client.execute(uri: "/places", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("needs a GPS fix, and the daemon has published none: is `marktime daemon` running with a receiver? Or give a position"))
        }
    }

    @Test func theFamilyClockShowsEveryMemberWhereTheGeofenceHasThem() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let home = try Position.parse("-27.3807 153.3807")
        try t.store.addPlace(try Place(name: "Home", kind: .home, center: home, radius: 150), now: UTCTime(nanosecondsSinceEpoch: 0))
        _ = try t.store.addMember(name: "Anna", color: .blue, isMe: false)
        for i in 1...3 {
            let fix = try GeoFix.reported(position: home, error: 5, time: UTCTime(nanosecondsSinceEpoch: Int64(i) * 60_000_000_000))
            try t.store.report(fix, member: "Anna", rules: try Settings().geofenceRules)
        }
        try await t.loggedIn { client, headers, _ in
            let page = try await client.execute(uri: "/places", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(page.text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(!page.text.contains("role=\"alert\""))
            #expect(page.text.contains("<details>\n<summary>Add a place</summary>"))
            #expect(page.text.contains("Anna: at Home since 00:03 UTC"))
            #expect(page.text.contains("<tr><td><strong>Anna</strong></td><td data-label=\"at\">Home</td><td class=\"num\" data-label=\"since\">00:03</td>"))
            #expect(page.text.contains("1970-01-01 00:03 Anna enter Home"))
        }
    }

    @Test func theAnchorAlarmOffersAcknowledgeWhichRearmsTheWatch() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let settings = Settings()
        let anchor = try Position.parse("-27.3807 153.3807")
        try t.store.dropAnchor(at: anchor, radius: 50, now: UTCTime(nanosecondsSinceEpoch: 0))
        // Given a watch that three fixes 200 m away have put in alarm
        let away = try Position.parse("-27.3789 153.3807")
        try t.store.updateAnchorWatch(settings: settings) { w, _ in
            (1...3).flatMap { i in w.handle(GeoFix(position: away, error: 5, time: UTCTime(nanosecondsSinceEpoch: Int64(i) * 1_000_000_000)),
                                            now: Int64(i) * 1_000_000_000) }
        }
        try await t.loggedIn { client, headers, csrf in
            let page = try await client.execute(uri: "/places", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(page.text.contains("data-state=\"alarm\""))
            #expect(page.text.contains("id=\"ack\""))
            // When it is acknowledged
            let r = try await client.execute(uri: "/anchor/ack", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)"))
            // Then the watch is armed again, and the page says so
            #expect(r.text.contains("Alarm silenced; watching again."))
            #expect(try t.store.anchorWatch(settings: settings)?.watch.state == .watching)
            #expect(!r.text.contains("id=\"ack\""))
        }
    }

    @Test func droppingTheAnchorFromRodeAndDepthUsesTheSwingRule() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let form = "csrf=\(csrf)&position=-27.3807+153.3807&radius=&rode=50&depth=12&bow=2"
            let r = try await client.execute(uri: "/anchor/drop", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(r.status == .ok)
            // √(50² − 14²) = 48.0 m, plus the 10 m GPS margin
            let swing: Double = (50.0 * 50 - 14 * 14).squareRoot() + 10
            #expect(try t.store.anchorWatch(settings: Settings())?.watch.radius == swing)
            #expect(r.text.contains("watching: no fix yet (radius 58 m)"))
        }
    }
}
