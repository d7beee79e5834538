import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeAccounts
import MarkTimeCore
import MarkTimePeople
import MarkTimePlaces
import MarkTimeStore
import MarkTimeTasks
import Synchronization
import Testing
@testable import MarkTimeWeb

@Suite("Roles: admin, crew and a read-only family")
struct RoleTests {
    static func post(_ client: any TestClientProtocol, _ path: String, _ headers: HTTPFields, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test("A family account sees every page, changes nothing but its own appearance, and is told why")
    func familyLooksOnly() async throws {
        // Given a family account logged in
        let t = try TestSite(accounts: [("skipper", .admin), ("grandma", .family)])
        defer { t.remove() }
        try await t.loggedIn(as: "grandma") { client, headers, csrf in
            // When it opens the pages, then tries changes
            for path in ["/", "/sights", "/places", "/people", "/tasks", "/journal", "/settings"] {
                #expect(try await client.execute(uri: path, method: .get, headers: [.cookie: headers[.cookie]!]).status == .ok, "\(path)")
            }
            let place = try await Self.post(client, "/places", headers, "csrf=\(csrf)&name=Home&kind=home&radius=150&position=-27.38%20153.38")
            let task = try await Self.post(client, "/tasks", headers, "csrf=\(csrf)&title=Varnish&due=2030-01-01T00:00Z")
            let look = try await Self.post(client, "/settings/appearance", headers, "csrf=\(csrf)&theme=night&font=large")
            // Then the changes are refused with the sentence, nothing is stored, and its appearance is saved
            for refused in [place, task] {
                #expect(refused.status == .forbidden)
                #expect(refused.text.contains("Refused: this needs a crew account, and yours is family. An admin can change it on the Pi: `marktime user role NAME crew`."))
            }
            #expect(try t.store.places().isEmpty)
            #expect(look.status == .ok)
            #expect(try t.store.accounts().first { $0.name == "grandma" }?.theme == .night)
            // And the Now page has no MARK, but says what the account may do
            let now = try await client.execute(uri: "/", method: .get, headers: [.cookie: headers[.cookie]!]).text
            #expect(!now.contains("id=\"mark\""))
            #expect(now.contains("This is a family account: it may look, not mark or change."))
        }
    }

    @Test("Crew may add a place but not remove one; an admin may")
    func removingAPlaceNeedsAnAdmin() async throws {
        // Given a crew account and an admin
        let t = try TestSite(accounts: [("skipper", .admin), ("mate", .crew)])
        defer { t.remove() }
        // When the crew adds a place, then tries to remove it
        try await t.loggedIn(as: "mate") { client, headers, csrf in
            let added = try await Self.post(client, "/places", headers, "csrf=\(csrf)&name=Home&kind=home&radius=150&position=-27.38%20153.38")
            #expect(added.status == .ok || added.status == .seeOther)
            let removed = try await Self.post(client, "/places/remove", headers, "csrf=\(csrf)&name=Home")
            // Then the removal is refused and the place stays
            #expect(removed.status == .forbidden)
            #expect(removed.text.contains("Refused: this needs an admin account, and yours is crew."))
        }
        #expect(try t.store.places().map(\.name) == ["Home"])
        // And the admin removes it
        try await t.loggedIn(as: "skipper") { client, headers, csrf in
            _ = try await Self.post(client, "/places/remove", headers, "csrf=\(csrf)&name=Home")
        }
        #expect(try t.store.places().isEmpty)
    }

    @Test("A family page's MARK is refused; made crew, the same open page marks")
    func markNeedsCrewAndFollowsARoleChange() async throws {
        // Given a family account's live page with a synchronised clock
        let t = try TestSite(accounts: [("skipper", .admin), ("grandma", .family)], clock: try AdjustedClock.synchronised(error: 0.002))
        defer { t.remove() }
        let answers = Mutex<[String]>([])
        let synced = Mutex(false)
        try await withLivePage(t, as: "grandma") { type, m, outbound in
            let mark = #"{"type":"mark","phone_ms":\#(Date().timeIntervalSince1970 * 1000)}"#
            switch type {
            case "sync" where !synced.withLock({ let was = $0; $0 = true; return was }):
                // When it sends MARK
                try await outbound.write(.text(mark))
                return false
            case "marked", "refused":
                let count = answers.withLock { $0.append(type + ":" + (m["message"] as? String ?? "")); return $0.count }
                if count == 1 {
                    // And, after an admin makes it crew on the Pi, MARK again on the same page
                    _ = try t.store.setRole(name: "grandma", role: .crew)
                    try await outbound.write(.text(mark))
                }
                return count == 2
            default: return false
            }
        }
        // Then the first was refused with the sentence, and the second stored
        #expect(answers.withLock { $0 } == ["refused:" + Role.family.refusal(needs: .crew), "marked:"])
        #expect(try t.store.sights().count == 1)
    }

    /// Every change a page can post, with a form that would do it and the role it needs.
    /// Left out: `/login` and `/signup` (open without a session) and `/settings/password`
    /// (each wrong current password counts as a failed login, so the sweep would lock itself out).
    static let changes: [(path: String, form: String, needs: Role)] = [
        ("/logout", "", .family), ("/settings/logout-everywhere", "", .family), ("/settings/appearance", "theme=night&font=large", .family),
        ("/settings/invite", "role=admin", .admin), ("/places/remove", "name=Home", .admin), ("/people/remove", "name=Ann", .admin),
        ("/tasks/remove", "id=1", .admin), ("/anchor/lift", "", .admin),
        ("/places", "name=Reef&kind=home&radius=150&position=-27.38%20153.38", .crew), ("/anchor/drop", "radius=50&position=-27.38%20153.38", .crew),
        ("/anchor/ack", "", .crew), ("/people", "name=Bob&city=Paris", .crew), ("/people/select", "name=Ann&selected=on", .crew),
        ("/tasks", "title=Varnish&due=2030-01-01T00:00Z", .crew), ("/tasks/done", "id=1", .crew), ("/tasks/undo", "id=1", .crew),
        ("/sights/1", "note=Hazy", .crew), ("/journal/2026-11-21/moment", "text=Squall&time=10%3A00", .crew),
        ("/journal/2026-11-21/checkin", "name=Here&position=-27.38%20153.38", .crew), ("/journal/2026-11-21/photo", "", .crew),
    ]

    /// `path` in the forms a careless or hostile client may write it: the router takes the
    /// first six for `path` itself (empty segments are skipped), the rest it may not.
    static func forms(of path: String) -> (routed: [String], others: [String]) {
        let inner = String(path.dropFirst())
        func slashed(_ slash: String) -> String { "/" + inner.replacingOccurrences(of: "/", with: slash) }
        let routed: [String] = [path, path + "/", path + "//", "/" + path, slashed("//"), path + "?x=1"]
        let encoded: [String] = [slashed("%2F"), path + "%2F", slashed("%2f"), path + "%00", "/%2E/" + inner]
        let cased: [String] = [path.uppercased(), path.prefix(2).uppercased() + String(path.dropFirst(2))]
        let dotted: [String] = ["/./" + inner, path + "/.", slashed("/./"), "/x/../" + inner]
        let others = encoded + cased + dotted
        var seen = Set<String>()
        return (routed.filter { seen.insert($0).inserted }, others.filter { seen.insert($0).inserted })
    }

    @Test("Roles are checked on the route that runs, whatever the path's form: crew and family are refused exactly the admin's changes")
    func rolesHoldWhateverThePathsForm() async throws {
        // Given an admin, a crew and a family account, and a place, a person, a task and an
        // anchor watch that the admin's changes would remove
        let t = try TestSite(accounts: [("skipper", .admin), ("mate", .crew), ("grandma", .family)], settings: .brisbaneHome)
        defer { t.remove() }
        let epoch = UTCTime(nanosecondsSinceEpoch: 0)
        try t.store.addPlace(try Place(name: "Home", kind: .home, center: try Position.parse("-27.3807 153.3807"), radius: 150), now: epoch)
        try t.store.addPerson(Person(name: "Ann", zone: "America/New_York"), now: epoch)
        _ = try t.store.insertTask(title: "Wind the chronometer", due: UTCTime(wholeSeconds: 4_000_000_000), remind: nil, course: nil, now: epoch)
        try t.store.dropAnchor(at: try Position.parse("-27.3807 153.3807"), radius: 50, now: epoch)
        let wrong = Mutex<[String]>([])
        try await t.test { client in
            for (name, role) in [("grandma", Role.family), ("mate", .crew), ("skipper", .admin)] {
                var (cookie, csrf) = try await client.logIn(name)
                // When each posts every change in every form of its path
                for change in Self.changes {
                    let (routed, others) = Self.forms(of: change.path)
                    for path in routed + others {
                        var headers = origin
                        headers[.cookie] = cookie
                        let r = try await Self.post(client, path, headers, "csrf=\(csrf)" + (change.form.isEmpty ? "" : "&" + change.form))
                        let refused = r.status == .forbidden && r.text.contains(role.refusal(needs: change.needs))
                        // Then a change its role may make is never refused; one it may not is
                        // refused in every form the router takes, and not found in any other
                        let right = role >= change.needs ? !refused : refused || (others.contains(path) && r.status == .notFound)
                        if !right { wrong.withLock { $0.append("\(role) POST \(path): \(r.status.code)") } }
                        if change.path.hasPrefix("/logout") || change.path.hasSuffix("/logout-everywhere") {
                            (cookie, csrf) = try await client.logIn(name)
                        }
                    }
                }
                if role == .crew {
                    // And after crew and family, nothing an admin alone may remove is gone
                    #expect(try t.store.places().map(\.name).contains("Home"))
                    #expect(try t.store.people().map(\.name).contains("Ann"))
                    #expect(try t.store.tasks().map(\.id).contains(1))
                    #expect(try t.store.anchorWatch(settings: Settings()) != nil)
                }
            }
        }
        #expect(wrong.withLock { $0 } == [])
    }

    /// About 100 live connections, each waiting for the page's clock sync: in a full parallel
    /// suite on 2 cores the page answered late enough to time out the test client (15 s), so
    /// `Tests/run` runs it in a step of its own (`MARKTIME_TEST_ALONE=1`).
    @Test("The live connection keeps its rules whatever its path's form: another site's page is refused, and so is family's MARK",
          .enabled(if: ProcessInfo.processInfo.environment["MARKTIME_TEST_ALONE"] == "1", "runs alone: Tests/run's own step"))
    func theLiveConnectionHoldsWhateverThePathsForm() async throws {
        // Given an admin, a crew and a family account on a live server with a synchronised clock
        let t = try TestSite(accounts: [("skipper", .admin), ("mate", .crew), ("grandma", .family)], clock: try AdjustedClock.synchronised(error: 0.002))
        defer { t.remove() }
        let wrong = Mutex<[String]>([])
        try await WebServer.application(t.site, configuration: .init(host: "127.0.0.1", port: 0)).test(.live) { client in
            let port = try #require(client.port)
            // Each account logs in first: the test client's one connection would otherwise sit
            // idle through a role's live connections, and under a loaded suite the page
            // closes an idle connection before the next role's login.
            var cookies: [(cookie: String, role: Role)] = []
            for (name, role) in [("grandma", Role.family), ("mate", .crew), ("skipper", .admin)] {
                cookies.append((try await client.logIn(name).0, role))
            }
            for (cookie, role) in cookies {
                let (routed, others) = Self.forms(of: "/live")
                for path in routed + others {
                    // When another site's page opens the live connection with the account's cookie
                    let foreign = try await PageStream.with(port: port) { try await $0.upgrade(path, port: port, cookie: cookie, origin: "http://evil.example") }
                    // And the site's own page opens it, syncs its clock and sends MARK
                    let own = try await PageStream.with(port: port) { live -> String in
                        let head = try await live.upgrade(path, port: port, cookie: cookie, origin: "http://localhost:\(port)")
                        guard head.hasPrefix("HTTP/1.1 101 ") else { return "not opened" }
                        var marked = false
                        while true {
                            let m = try await live.message()
                            let now = Date().timeIntervalSince1970 * 1000
                            switch m["type"] as? String {
                            case "ping": try await live.sendText(#"{"type":"pong","n":\#(m["n"] as! Int),"phone_ms":\#(now)}"#)
                            case "sync" where !marked:
                                marked = true
                                try await live.sendText(#"{"type":"mark","phone_ms":\#(now)}"#)
                            case "marked": return "marked"
                            case "refused": return m["message"] as? String ?? ""
                            default: continue
                            }
                        }
                    }
                    // Then another site's page never opens it; the site's own opens it in every
                    // form the router takes and no other; and MARK is refused for family alone
                    let roleRefused = own == role.refusal(needs: Role.neededToMark)
                    let right = !foreign.hasPrefix("HTTP/1.1 101 ") && (own == "not opened") == others.contains(path)
                        && (own == "not opened" || roleRefused == (role < Role.neededToMark))
                    if !right { wrong.withLock { $0.append("\(role) \(path): another site \(foreign.prefix(12)), own page \(own)") } }
                }
            }
        }
        #expect(wrong.withLock { $0 } == [])
    }

    @Test func whatEachChangeNeeds() {
        #expect(Role.needed(toPost: "/settings/appearance") == .family)
        #expect(Role.needed(toPost: "/sights/12") == .crew)
        #expect(Role.needed(toPost: "/anchor/ack") == .crew)
        #expect(Role.needed(toPost: "/anchor/lift") == .admin)
        #expect(Role.needed(toPost: "/settings/invite") == .admin)
        #expect([Role.family, .crew, .admin].sorted() == [.family, .crew, .admin])
    }
}
