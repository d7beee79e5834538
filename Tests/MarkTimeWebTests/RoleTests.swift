import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeAccounts
import MarkTimeCore
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
        let t = try TestSite(accounts: [("skipper", .admin), ("grandma", .family)], clock: try SynchronisedClock(error: 0.002))
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

    @Test func whatEachChangeNeeds() {
        #expect(Role.needed(toPost: "/settings/appearance") == .family)
        #expect(Role.needed(toPost: "/sights/12") == .crew)
        #expect(Role.needed(toPost: "/anchor/ack") == .crew)
        #expect(Role.needed(toPost: "/anchor/lift") == .admin)
        #expect(Role.needed(toPost: "/settings/invite") == .admin)
        #expect([Role.family, .crew, .admin].sorted() == [.family, .crew, .admin])
    }
}
