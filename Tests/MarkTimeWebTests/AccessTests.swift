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
}
