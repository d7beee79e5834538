import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import HummingbirdWebSocket
import HummingbirdWSTesting
import Logging
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
@testable import MarkTimeWeb

/// A phone page on a fresh store file in its own folder, with one account per name given.
struct TestSite {
    let folder: String
    let store: AppDatabase
    let site: Site

    init(accounts: [(String, Role)] = [("skipper", .admin)], settings: Settings = Settings(),
         clock: (any SystemClockSource)? = nil) throws {
        folder = NSTemporaryDirectory() + "marktime-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = try AppDatabase(path: folder + "/marktime.sqlite", createDirectory: false)
        for (name, role) in accounts {
            // Cost 4: these tests check the rules, not bcrypt's cost.
            try Logins(store, cost: 4).addAccount(name: name, password: "correct horse", role: role, now: UTCTime(nanosecondsSinceEpoch: 0))
        }
        site = try Site(store: store, settings: settings, clock: try clock ?? SystemClock(), secure: false,
                        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Runs `body` logged in as `name`: the client, headers for a form post, the CSRF token.
    func loggedIn(as name: String = "skipper",
                  _ body: @escaping @Sendable (any TestClientProtocol, HTTPFields, String) async throws -> Void) async throws {
        try await test { client in
            let (cookie, csrf) = try await client.logIn(name)
            var headers = origin
            headers[.cookie] = cookie
            try await body(client, headers, csrf)
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }


    /// Runs `body` against the router alone (no sockets).
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: WebServer.router(site))
        try await app.test(.router, body)
    }
}

/// Headers a page's own form sends.
/// The test client asks for host `localhost`.
let origin: HTTPFields = [.origin: "http://localhost", .contentType: "application/x-www-form-urlencoded"]

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The session cookie this answer sets.
    var sessionCookie: String? {
        headers[values: .setCookie].first { $0.hasPrefix("marktime_session=") }
    }
}

extension TestClientProtocol {
    /// Logs in; the session's cookie header value and CSRF token.
    func logIn(_ name: String = "skipper", password: String = "correct horse") async throws -> (cookie: String, csrf: String) {
        let login = try await execute(uri: "/login", method: .post, headers: origin,
                                      body: ByteBuffer(string: "name=\(name)&password=\(password.replacingOccurrences(of: " ", with: "+"))"))
        guard let set = login.sessionCookie else { throw TestFailure("no session cookie: \(login.status) \(login.text)") }
        let cookie = String(set.split(separator: ";")[0])
        let page = try await execute(uri: "/settings", method: .get, headers: [.cookie: cookie])
        guard let range = page.text.range(of: "name=\"csrf\" content=\""),
              let end = page.text[range.upperBound...].firstIndex(of: "\"") else { throw TestFailure("no CSRF token on the page") }
        return (cookie, String(page.text[range.upperBound..<end]))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

extension Settings {
    /// A Pi whose home zone is Australia/Brisbane (UTC+10, no DST): exact local times in tests.
    static let brisbaneHome = Settings(values: ["home.zone": .string("Australia/Brisbane")])
}


/// The machine's clock with each reading adjusted: told by chrony that it is synchronised
/// (a `system` source with a known uncertainty, whatever the host's clock is doing), or with
/// its UTC held (a page's "now" that a test can compute).
struct AdjustedClock: SystemClockSource {
    let real: SystemClock
    let adjust: @Sendable (inout SystemClockReading) -> Void

    /// Synchronised to within `error` seconds.
    static func synchronised(error: Double) throws -> AdjustedClock {
        AdjustedClock(real: try SystemClock()) { r in (r.synchronised, r.estimatedError, r.trusted) = (true, error, true) }
    }

    /// Its UTC held at `utc`.
    static func fixed(utc: UTCTime) throws -> AdjustedClock {
        AdjustedClock(real: try SystemClock()) { r in r.realtime = utc }
    }

    var bootID: String { real.bootID }

    func read() throws(DeviceError) -> SystemClockReading {
        var r = try real.read()
        adjust(&r)
        return r
    }
}

/// A logged-in page's live connection on a live server (with `watchStore`, the server's
/// store watch, `LiveService`). Each message goes to `handle` with its type and the writer, after a ping
/// has been answered with this machine's clock when `answerPings`; `handle` returns true
/// when the page is done. Returns how the connection was closed.
@discardableResult
func withLivePage(_ t: TestSite, as name: String = "skipper", watchStore: Bool = false, answerPings: Bool = true,
                  _ handle: @escaping @Sendable (String, [String: Any], WebSocketOutboundWriter) async throws -> Bool) async throws -> WebSocketCloseFrame? {
    let router = WebServer.router(t.site)
    let app = Application(router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
                          services: watchStore ? [LiveService(site: t.site)] : [])
    let closed = Mutex<WebSocketCloseFrame?>(nil)
    try await app.test(.live) { client in
        let (cookie, _) = try await client.logIn(name)
        let port = try #require(client.port)
        let frame = try await client.ws("/live", configuration: .init(additionalHeaders: [.cookie: cookie, .origin: "http://localhost:\(port)"])) { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 16) {
                guard case .text(let text) = message,
                      let m = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], let type = m["type"] as? String else { continue }
                if answerPings, type == "ping" {
                    try await outbound.write(.text(#"{"type":"pong","n":\#(m["n"] as! Int),"phone_ms":\#(Date().timeIntervalSince1970 * 1000)}"#))
                }
                if try await handle(type, m, outbound) { return }
            }
        }
        closed.withLock { $0 = frame }
    }
    return closed.withLock { $0 }
}
