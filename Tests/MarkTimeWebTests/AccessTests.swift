import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeStore
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: login, sessions and the access rules")
struct AccessTests {
    @Test func everyPageWithoutASessionGoesToTheLogin() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            for path in ["/", "/sights", "/sights/1", "/sights.csv", "/settings"] {
                let r = try await client.execute(uri: path, method: .get)
                #expect(r.status == .seeOther, "\(path)")
                #expect(r.headers[.location] == (path == "/" ? "/login" : "/login?next=" + path.replacingOccurrences(of: "/", with: "%2F")
                    .replacingOccurrences(of: ".", with: "%2E")), "\(path)")
            }
        }
    }

    @Test func aRequestThatChangesSomethingWithoutASessionIsRefused() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            for path in ["/sights/1", "/settings/appearance", "/settings/password", "/settings/invite", "/logout"] {
                let r = try await client.execute(uri: path, method: .post, headers: origin, body: ByteBuffer(string: "theme=night"))
                #expect(r.status == .unauthorized, "\(path)")
            }
        }
    }

    @Test func theLoginPageAndAssetsNeedNoSession() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(login.status == .ok)
            #expect(login.text.contains("id=\"user\""))
            #expect(login.text.contains("id=\"password\""))
            #expect(login.text.contains("id=\"login\""))
            let css = try await client.execute(uri: "/assets/app.css", method: .get)
            #expect(css.status == .ok)
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await client.execute(uri: "/assets/nothing.js", method: .get).status == .notFound)
        }
    }

    @Test func withNoAccountTheLoginPageSaysHowToMakeOne() async throws {
        let t = try TestSite(accounts: [])
        defer { t.remove() }
        try await t.test { client in
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(login.text.contains("marktime user add NAME --admin"))
        }
    }

    @Test func aGoodLoginSetsAStrictHttpOnlySessionCookie() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let r = try await client.execute(uri: "/login", method: .post, headers: origin,
                                             body: ByteBuffer(string: "name=skipper&password=correct+horse&next=%2Fsights"))
            #expect(r.status == .seeOther)
            #expect(r.headers[.location] == "/sights")
            let cookie = try #require(r.sessionCookie)
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(!cookie.contains("Secure"))
            #expect(cookie.contains("Max-Age=2592000"))
        }
    }

    @Test func underTLSTheCookieIsSecure() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let site = try Site(store: t.store, settings: Settings(), clock: t.site.clock, secure: true, logger: t.site.logger)
        try await Application(router: WebServer.router(site)).test(.router) { client in
            let r = try await client.execute(uri: "/login", method: .post, headers: origin, body: ByteBuffer(string: "name=skipper&password=correct+horse"))
            #expect(try #require(r.sessionCookie).contains("Secure"))
            #expect(r.headers[HTTPField.Name("Strict-Transport-Security")!] == "max-age=31536000")
        }
    }

    @Test func withoutASessionABodyOverEightKBIsRefused() async throws {
        // Given a live server (the body streams in)
        let t = try TestSite()
        defer { t.remove() }
        try await Application(router: WebServer.router(t.site)).test(.live) { client in
            // When a login form of 20 KB is posted
            let body = "name=skipper&password=" + String(repeating: "x", count: 20_000)
            let r = try await client.execute(uri: "/login", method: .post, headers: origin, body: ByteBuffer(string: body))
            // Then it is refused with a sentence, and a form of the usual size still logs in
            #expect(r.status == .contentTooLarge)
            #expect(r.text.contains("Refused: a login or sign-up form is at most 8 KB. Log in first to send more."))
            let ok = try await client.execute(uri: "/login", method: .post, headers: origin, body: ByteBuffer(string: "name=skipper&password=correct+horse"))
            #expect(ok.sessionCookie != nil)
        }
    }

    @Test func overPlainHTTPThereIsNoHSTS() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let r = try await client.execute(uri: "/login", method: .get)
            #expect(r.status == .ok)
            #expect(r.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
        }
    }

    @Test func aWrongPasswordIsRefusedWithoutSayingWhichPartWasWrong() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let r = try await client.execute(uri: "/login", method: .post, headers: origin, body: ByteBuffer(string: "name=skipper&password=wrong+horse"))
            #expect(r.status == .unauthorized)
            #expect(r.text.contains("Wrong name or password."))
            #expect(r.sessionCookie == nil)
        }
    }

    @Test func theSixthFailureIsLockedOutWith429() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            for _ in 1...5 {
                let r = try await client.execute(uri: "/login", method: .post, headers: origin, body: ByteBuffer(string: "name=skipper&password=wrong+horse"))
                #expect(r.status == .unauthorized)
            }
            // Even the right password is not checked while locked.
            let r = try await client.execute(uri: "/login", method: .post, headers: origin, body: ByteBuffer(string: "name=skipper&password=correct+horse"))
            #expect(r.status == .tooManyRequests)
            #expect(r.text.contains("Too many failed logins"))
            #expect(r.text.contains("Try again after"))
        }
    }

    @Test func aLoginFromAnotherSiteIsRefused() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            var headers = origin
            headers[.origin] = "http://evil.example"
            let r = try await client.execute(uri: "/login", method: .post, headers: headers, body: ByteBuffer(string: "name=skipper&password=correct+horse"))
            #expect(r.status == .forbidden)
            #expect(r.sessionCookie == nil)
        }
    }

    @Test func aPostWithoutTheCSRFTokenIsRefused() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let (cookie, _) = try await client.logIn()
            var headers = origin
            headers[.cookie] = cookie
            let r = try await client.execute(uri: "/settings/appearance", method: .post, headers: headers, body: ByteBuffer(string: "theme=night&font=large"))
            #expect(r.status == .forbidden)
            #expect(try t.store.accounts().first?.theme == .day)
        }
    }

    @Test func aPostFromAnotherOriginWithTheTokenIsRefused() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let (cookie, csrf) = try await client.logIn()
            let headers: HTTPFields = [.origin: "http://evil.example", .cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
            let r = try await client.execute(uri: "/settings/appearance", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&theme=night&font=large"))
            #expect(r.status == .forbidden)
            #expect(try t.store.accounts().first?.theme == .day)
        }
    }

    @Test func theThemeIsSavedAndPersistsAcrossLogins() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/settings/appearance", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&theme=night&font=large"))
            #expect(r.status == .ok)
            #expect(r.text.contains("data-theme=\"night\" data-font=\"large\""))
            _ = try await client.execute(uri: "/logout", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)"))
            let (again, _) = try await client.logIn()
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: again])
            #expect(page.text.contains("data-theme=\"night\" data-font=\"large\""))
        }
    }

    @Test func anUnknownThemeIsRefusedWithTheChoices() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/settings/appearance", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&theme=pink&font=large"))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("unknown theme &#39;pink&#39;: use day, sunlight or night") || r.text.contains("unknown theme 'pink': use day, sunlight or night"))
        }
    }

    @Test func logOutEndsTheSession() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let cookie = headers[.cookie]!
            let out = try await client.execute(uri: "/logout", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)"))
            #expect(out.status == .seeOther)
            #expect(try #require(out.sessionCookie).contains("Max-Age=0"))
            let r = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
            #expect(r.status == .seeOther)
        }
    }

    @Test func changingThePasswordEndsEverySessionAndTheNewOneWorks() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let cookie = headers[.cookie]!
            let wrong = try await client.execute(uri: "/settings/password", method: .post, headers: headers,
                                                 body: ByteBuffer(string: "csrf=\(csrf)&current=nope+nope&new=battery+staple"))
            #expect(wrong.status == .badRequest)
            #expect(wrong.text.contains("the current password is wrong"))
            let r = try await client.execute(uri: "/settings/password", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&current=correct+horse&new=battery+staple"))
            #expect(r.status == .seeOther)
            #expect(try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]).status == .seeOther)
            _ = try await client.logIn(password: "battery staple")
            #expect(PasswordHash.isBcrypt(try t.store.passwordHash(of: "skipper")))
        }
    }

    @Test func anInviteFromThePageCreatesAnAccountOnce() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let page = try await client.execute(uri: "/settings/invite", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)"))
            let start = try #require(page.text.range(of: "<code id=\"invite-code\">"))
            let code = String(page.text[start.upperBound...].prefix(16))
            let made = try await client.execute(uri: "/signup", method: .post, headers: origin,
                                                body: ByteBuffer(string: "code=\(code)&name=mate&password=mates+password"))
            #expect(made.status == .seeOther)
            #expect(made.sessionCookie != nil)
            let again = try await client.execute(uri: "/signup", method: .post, headers: origin,
                                                 body: ByteBuffer(string: "code=\(code)&name=stowaway&password=mates+password"))
            #expect(again.status == .badRequest)
            #expect(try t.store.accounts().map(\.name) == ["mate", "skipper"])
        }
    }

    @Test func onlyAnAdminMayInvite() async throws {
        let t = try TestSite(accounts: [("skipper", .admin), ("crew", .crew)])
        defer { t.remove() }
        try await t.loggedIn(as: "crew") { client, headers, csrf in
            let r = try await client.execute(uri: "/settings/invite", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(csrf)"))
            #expect(r.status == .forbidden)
            #expect(r.text.contains("Refused: this needs an admin account, and yours is crew. An admin can change it on the Pi: `marktime user role NAME admin`."))
        }
    }

    @Test func loginNeverRedirectsToAnotherSite() {
        #expect(AccountRoutes.next("//evil.example/") == "/")
        #expect(AccountRoutes.next("https://evil.example/") == "/")
        #expect(AccountRoutes.next("/sights") == "/sights")
        #expect(AccountRoutes.next("/sights?id=3") == "/sights?id=3")
    }

    @Test("next= with a tab, a newline, a space or another control character is refused: browsers drop them into //")
    func aNextWithControlCharactersGoesHome() {
        for text in ["/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/ /evil.example", "/\u{7f}/evil.example", "/\u{0}x"] {
            #expect(AccountRoutes.next(text) == "/", "\(text.debugDescription)")
        }
    }

    /// A live server whose `web.hosts` names `pi.boat` and `chart-table`; `body` gets its port.
    func serveNamed(_ body: @escaping @Sendable (TestSite, Int) async throws -> Void) async throws {
        let t = try TestSite(settings: Settings(values: ["web.hosts": .string("pi.boat, chart-table")]))
        defer { t.remove() }
        // No head deadline to meet: these tests are about names, and under a loaded suite a
        // test's task may wait longer than the page's 10 s between connecting and sending.
        var configuration = WebServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.limits.headDeadline = .seconds(600)
        try await WebServer.application(t.site, configuration: configuration).test(.live) { client in
            try await body(t, try #require(client.port))
        }
    }

    /// One request on its own connection, with `host` as its `Host`.
    static func ask(_ port: Int, host: String, _ request: String, body: String = "") async throws -> (head: String, body: String) {
        try await PageStream.with(port: port) { page in
            try await page.send(request + "\r\nHost: \(host)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            return try await page.response()
        }
    }

    @Test("A page reached by a name the Pi does not answer to (DNS rebinding) is refused 421, and its logins spend no attempt")
    func aStrangersNameIsRefused() async throws {
        try await serveNamed { t, port in
            for host in ["evil.example", "evil.example:\(port)", "pi.boat.evil.example", "EVIL.example.", "192.168.1.5.evil.example", "localhost.evil.example"] {
                // When a page of that name asks for the login page
                let login = try await Self.ask(port, host: host, "GET /login HTTP/1.1")
                // Then it is refused with the sentence, and gets no page
                #expect(login.head.hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"), "\(host): \(login.head.prefix(40))")
                let name = HostNames.host(host)
                #expect(login.body.contains("Refused: this Pi&#39;s page does not answer to the name &#39;\(name)&#39;."), "\(host)")
                #expect(!login.body.contains("id=\"password\""))
            }
            // And six wrong passwords sent by such a page are refused before they are tried:
            // the owner, from the same address, still logs in
            for _ in 1...6 {
                let guess = try await Self.ask(port, host: "evil.example:\(port)", "POST /login HTTP/1.1\r\nOrigin: http://evil.example:\(port)\r\n"
                                               + "Content-Type: application/x-www-form-urlencoded", body: "name=skipper&password=guess")
                #expect(guess.head.hasPrefix("HTTP/1.1 421 "))
            }
            let owner = try await Self.ask(port, host: "localhost:\(port)", "POST /login HTTP/1.1\r\nOrigin: http://localhost:\(port)\r\n"
                                           + "Content-Type: application/x-www-form-urlencoded", body: "name=skipper&password=correct+horse")
            #expect(owner.head.hasPrefix("HTTP/1.1 303 See Other\r\n"), "\(owner.head.prefix(40))")
        }
    }

    @Test("The page answers to its addresses, localhost, this machine's name and NAME.local, and the names in web.hosts")
    func itsOwnNamesAreServed() async throws {
        let machine = try #require(HostNames.machineName)
        try await serveNamed { _, port in
            for host in ["localhost", "localhost:\(port)", "127.0.0.1:\(port)", "10.0.0.7", "[::1]:\(port)", "pi.boat", "Chart-Table:\(port)", "pi.boat.",
                         machine, machine + ".local:\(port)"] {
                // When a page of that name asks for the login page
                let login = try await Self.ask(port, host: host, "GET /login HTTP/1.1")
                // Then it gets it
                #expect(login.head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(host): \(login.head.prefix(40))")
            }
        }
    }

    @Test func whatCountsAsAnAddress() {
        #expect(HostNames.isAddress("192.168.1.5") && HostNames.isAddress("[fe80::1%25eth0]") == false && HostNames.isAddress("[::ffff:10.0.0.1]"))
        #expect(!HostNames.isAddress("256.1.1.1") && !HostNames.isAddress("1.2.3") && !HostNames.isAddress("1.2.3.4.5") && !HostNames.isAddress("1.2.3.x"))
        #expect(!HostNames(configured: "", machine: nil).allows(nil))
    }

    @Test("A login after the session ended on a form's address comes back to the form's page")
    func aLoginOnAFormsAddressReturnsToItsPage() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.test { client in
            // Given a phone whose session ended while it showed the answer to a moment's form
            // When it opens that address again
            let opened = try await client.execute(uri: "/journal/2026-11-21/moment", method: .get)
            // Then it goes to the login, which will bring it back there
            #expect(opened.status == .seeOther)
            #expect(opened.headers[.location] == "/login?next=%2Fjournal%2F2026%2D11%2D21%2Fmoment")
            let login = try await client.execute(uri: "/login", method: .post, headers: origin,
                                                 body: ByteBuffer(string: "name=skipper&password=correct+horse&next=%2Fjournal%2F2026-11-21%2Fmoment"))
            #expect(login.headers[.location] == "/journal/2026-11-21/moment")
            let cookie = String(try #require(login.sessionCookie).split(separator: ";")[0])
            // And, logged in, that address is the day's page
            let back = try await client.execute(uri: "/journal/2026-11-21/moment", method: .get, headers: [.cookie: cookie])
            #expect(back.status == .seeOther)
            #expect(back.headers[.location] == "/journal/2026-11-21")
            #expect(try await client.execute(uri: "/journal/2026-11-21", method: .get, headers: [.cookie: cookie]).status == .ok)
        }
    }

    @Test("Every form's address that takes only a POST leads to the page of its form")
    func everyFormsAddressLeadsToItsPage() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            for (form, page) in WebServer.formPages {
                let address = form.replacingOccurrences(of: "{date}", with: "2026-11-21")
                let r = try await client.execute(uri: address, method: .get, headers: [.cookie: headers[.cookie]!])
                #expect(r.status == .seeOther, "\(address)")
                let to = page.replacingOccurrences(of: "{date}", with: "2026-11-21")
                #expect(r.headers[.location] == to, "\(address)")
                if to != "/" { #expect(try await client.execute(uri: to, method: .get, headers: [.cookie: headers[.cookie]!]).status == .ok, "\(to)") }
            }
        }
    }

    @Test("The pages the service worker shows offline carry the page's Content-Security-Policy")
    func offlinePagesCarryThePolicy() {
        let worker = String(decoding: PackageResources.sw_js, as: UTF8.self)
        #expect(worker.contains("\"Content-Security-Policy\": \"\(SecurityHeadersMiddleware<WebContext>.policy)\""))
        // Every page the worker makes itself takes those headers
        #expect(worker.components(separatedBy: "new Response(").count - 1 == 3)
        #expect(worker.components(separatedBy: "headers: HEADERS").count - 1 == 2)
    }

    /// A GET of a path with no page after the login goes to the Now page, not a 404.
    @Test func anAddressWithNoPageLogsInToTheNowPage() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.test { client in
            let r = try await client.execute(uri: "/no/such/page", method: .get)
            #expect(r.status == .seeOther)
            #expect(r.headers[.location] == "/login")
        }
    }
}
