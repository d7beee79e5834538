import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import MarkTimeAccounts
import MarkTimeStore
import Synchronization
import Testing
@testable import MarkTimeWeb

/// An open page's live connection lasts only as long as its session.
@Suite("The phone page: a revoked session's live connection", .timeLimit(.minutes(10)))
struct LiveRevocationTests {
    /// Opens a logged-in page's live connection, calls `revoke` once the first snapshot has
    /// come, then `afterFirst`; returns how the server closed the connection and the
    /// messages after the revocation.
    func liveConnection(_ t: TestSite, services: Bool, afterFirst: @escaping @Sendable (WebSocketOutboundWriter) async throws -> Void,
                        revoke: @escaping @Sendable () throws -> Void) async throws -> (WebSocketCloseFrame?, [String]) {
        let after = Mutex<[String]?>(nil)
        let frame = try await withLivePage(t, watchStore: services, answerPings: false) { type, _, outbound in
            if after.withLock({ $0 }) != nil {
                after.withLock { $0?.append(type) }
            } else if type == "now" {
                try revoke()
                after.withLock { $0 = [] }
                try await afterFirst(outbound)
            }
            return false
        }
        return (frame, after.withLock { $0 } ?? [])
    }

    @Test func aPasswordChangeClosesTheOpenPageAtOnce() async throws {
        // Given a logged-in page's live connection, and the server watching the store
        let t = try TestSite()
        defer { t.remove() }
        // When the password is set (as `marktime user passwd` does, from another process)
        let (frame, _) = try await liveConnection(t, services: true, afterFirst: { _ in }) {
            try Logins(t.store, cost: 4).setPassword(name: "skipper", password: "new battery staple")
        }
        // Then the server closes it, saying why
        #expect(frame?.closeCode == .policyViolation)
        #expect(frame?.reason == "the session ended: log in again")
    }

    @Test func anAccountsRemovalClosesTheOpenPageAtOnce() async throws {
        // Given a logged-in page's live connection, and the server watching the store
        let t = try TestSite(accounts: [("skipper", .admin), ("mate", .crew)])
        defer { t.remove() }
        // When the account is removed (`marktime user remove`)
        let (frame, _) = try await liveConnection(t, services: true, afterFirst: { _ in }) {
            try t.store.removeAccount(named: "skipper")
        }
        // Then the server closes it
        #expect(frame?.closeCode == .policyViolation)
    }

    @Test func aMarkAfterTheSessionEndedIsRefusedAndNotStored() async throws {
        // Given a logged-in page's live connection and no store watch (so only the MARK can notice)
        let t = try TestSite()
        defer { t.remove() }
        // When its sessions end (log out everywhere) and it then sends MARK
        let (frame, after) = try await liveConnection(t, services: false, afterFirst: { outbound in
            try await outbound.write(.text(#"{"type":"mark","phone_ms":\#(Date().timeIntervalSince1970 * 1000)}"#))
        }) {
            let ended = try t.store.endSessions(ofAccount: "skipper")
            #expect(ended == 1)
        }
        // Then the connection is closed, nothing is marked, and no sight is stored
        #expect(frame?.closeCode == .policyViolation)
        #expect(!after.contains("marked"), "\(after)")
        #expect(try t.store.sights().isEmpty)
    }

    @Test func logOutEverywhereEndsEverySessionOfTheAccount() async throws {
        // Given the account logged in twice (a phone and a laptop)
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let (phone, csrf) = try await client.logIn()
            let (laptop, _) = try await client.logIn()
            // When the phone asks to log out everywhere
            var headers = origin
            headers[.cookie] = phone
            let r = try await client.execute(uri: "/settings/logout-everywhere", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)"))
            // Then it goes to the login, and the laptop's session is gone too
            #expect(r.status == .seeOther || r.status == .found)
            #expect(r.headers[.location] == "/login")
            let later = try await client.execute(uri: "/", method: .get, headers: [.cookie: laptop])
            #expect(later.headers[.location] == "/login")
        }
    }

    @Test func markIsRateLimitedPerAccount() async throws {
        // Given a logged-in page whose clock is synchronised
        let t = try TestSite(clock: try AdjustedClock.synchronised(error: 0.002))
        defer { t.remove() }
        let answers = Mutex<[String]>([])
        let synced = Mutex(false)
        try await withLivePage(t) { type, m, outbound in
            switch type {
            case "sync" where !synced.withLock({ let was = $0; $0 = true; return was }):
                // When it sends 8 MARKs at once
                let now = Date().timeIntervalSince1970 * 1000
                for i in 0..<8 { try await outbound.write(.text(#"{"type":"mark","phone_ms":\#(now - Double(i))}"#)) }
                return false
            case "marked", "refused":
                return answers.withLock { $0.append(type + ":" + (m["message"] as? String ?? "")); return $0.count } == 8
            default: return false
            }
        }
        // Then 5 are stored and 3 refused with the limit's sentence
        let all = answers.withLock { $0 }
        #expect(all.filter { $0 == "marked:" }.count == 5, "\(all)")
        #expect(all.filter { $0 == "refused:" + MarkRateLimit.refusal }.count == 3, "\(all)")
        #expect(try t.store.sights().count == 5)
    }
}
