import Foundation
import Hummingbird
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeStore

/// Log in, log out, create an account with an invite, and the account's settings:
/// theme, font size, password, and invites for admins.
struct AccountRoutes {
    let site: Site

    func add(to router: Router<WebContext>) {
        router.get("/login") { request, context in try loginPage(request, context: context) }
        router.post("/login") { request, context in try await logIn(request, context: context) }
        router.post("/logout") { request, context in try logOut(request, context: context) }
        router.get("/signup") { _, context in try site.pages.page("signup", title: "Create account", SignUpView(), context: context) }
        router.post("/signup") { request, context in try await signUp(request, context: context) }
        router.get("/settings") { _, context in try settingsPage(context: context) }
        router.post("/settings/appearance") { request, context in try await appearance(request, context: context) }
        router.post("/settings/password") { request, context in try await password(request, context: context) }
        router.post("/settings/invite") { request, context in try await invite(request, context: context) }
        router.post("/settings/logout-everywhere") { _, context in try logOutEverywhere(context: context) }
    }

    /// Where to go after logging in: a path on this site, never another site. No `//`, no
    /// backslash, and no control character or space anywhere (a browser drops a tab or a
    /// newline, so `/<tab>/evil.example` would become `//evil.example`).
    static func next(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"),
              !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7f || $0.properties.isWhitespace }) else { return "/" }
        return text
    }

    func loginPage(_ request: Request, context: WebContext, error: String? = nil, name: String = "",
                   status: HTTPResponse.Status = .ok) throws -> Response {
        if context.session != nil, error == nil { return .redirect(to: "/") }
        let none = try site.store.accounts().isEmpty
        let view = LoginView(error: error, name: name, next: Self.next(request.uri.queryParameters.get("next")), noAccounts: none)
        return try site.pages.page("login", title: "Log in", view, context: context, status: status)
    }

    func logIn(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var name: String?; var password: String?; var next: String? }
        let form = try await request.decode(as: Form.self, context: context)
        do {
            let (site, name, password, address) = (site, form.name ?? "", form.password ?? "", context.address)
            let session = try await site.offLoop { try Logins(site.store).logIn(name: name, password: password, address: address, now: try site.now()) }
            var response = Response.redirect(to: Self.next(form.next))
            response.setCookie(sessionCookie(session.token))
            return response
        } catch let refusal as LoginRefusal {
            switch refusal {
            case .wrongNameOrPassword:
                return try loginPage(request, context: context, error: "Wrong name or password.", name: form.name ?? "", status: .unauthorized)
            case .lockedOut(let until):
                let view = LockedOutView(
                    message: "Too many failed logins for this name or from this device. Try again after \(until.isoTimeOfDayMinutes) UTC (\(until.iso8601)).",
                    code: 429, until: until.iso8601)
                return try site.pages.page("problem", title: "Locked out", view, context: context, status: .tooManyRequests)
            }
        }
    }

    func sessionCookie(_ token: String, maxAge: Int = Int(AccessRules.sessionIdleSeconds)) -> Cookie {
        Cookie(name: AccessMiddleware.cookieName, value: token, maxAge: maxAge, path: "/", secure: site.secure, httpOnly: true, sameSite: .strict)
    }

    func logOut(_ request: Request, context: WebContext) throws -> Response {
        if let session = context.session { try site.store.logOut(token: session.token) }
        var response = Response.redirect(to: "/login")
        response.setCookie(sessionCookie("", maxAge: 0))
        return response
    }

    /// Ends every session of the account, this one too: a lost phone's page is closed.
    func logOutEverywhere(context: WebContext) throws -> Response {
        if let session = context.session { try site.store.endSessions(ofAccount: session.account.name) }
        var response = Response.redirect(to: "/login")
        response.setCookie(sessionCookie("", maxAge: 0))
        return response
    }

    func signUp(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var code: String?; var name: String?; var password: String? }
        let form = try await request.decode(as: Form.self, context: context)
        let (site, code, name, password, address) = (site, form.code ?? "", form.name ?? "", form.password ?? "", context.address)
        do {
            _ = try await site.offLoop { try Logins(site.store).redeemInvite(code, name: name, password: password, now: try site.now()) }
        } catch {
            return try site.pages.page("signup", title: "Create account", SignUpView(error: "\(error)", code: code, name: name),
                                       context: context, status: .badRequest)
        }
        let session = try await site.offLoop { try Logins(site.store).logIn(name: name, password: password, address: address, now: try site.now()) }
        var response = Response.redirect(to: "/")
        response.setCookie(sessionCookie(session.token))
        return response
    }

    func settingsPage(context: WebContext, error: String? = nil, notice: String? = nil, invite: SettingsView.Invite? = nil,
                      status: HTTPResponse.Status = .ok) throws -> Response {
        let account = try context.account()
        let view = SettingsView(themes: Theme.allCases.map { Choice(value: $0.rawValue, selected: $0 == account.theme) },
                                fonts: FontSize.allCases.map { Choice(value: $0.rawValue, selected: $0 == account.fontSize) },
                                error: error, notice: notice, invite: invite)
        return try site.pages.page("settings", title: "Settings", view, context: context, status: status, section: "/settings")
    }

    func appearance(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var theme: String?; var font: String? }
        let form = try await request.decode(as: Form.self, context: context)
        var context = context
        do {
            let account = try site.store.setAppearance(name: try context.account().name, theme: try Theme.parse(form.theme ?? ""),
                                                       fontSize: try FontSize.parse(form.font ?? ""))
            context.session?.account = account
        } catch {
            return try settingsPage(context: context, error: "\(error)", status: .badRequest)
        }
        return try settingsPage(context: context, notice: "Saved.")
    }

    func password(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var current: String?; var new: String? }
        let form = try await request.decode(as: Form.self, context: context)
        let (site, name, current, new, address) = (site, try context.account().name, form.current ?? "", form.new ?? "", context.address)
        do {
            try await site.offLoop { try Logins(site.store).changePassword(name: name, current: current, new: new, address: address, now: try site.now()) }
        } catch {
            return try settingsPage(context: context, error: "\(error)", status: .badRequest)
        }
        var response = Response.redirect(to: "/login")
        response.setCookie(sessionCookie("", maxAge: 0))
        return response
    }

    /// An admin's invite, for an account of the role chosen (crew when none is).
    func invite(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var role: String? }
        let form = try await request.decode(as: Form.self, context: context)
        let role: Role
        do { role = try Role.parse(form.role ?? Role.crew.rawValue) } catch {
            return try settingsPage(context: context, error: "\(error)", status: .badRequest)
        }
        let (code, expires) = try Logins(site.store).createInvite(by: try context.account().name, role: role, now: try site.now())
        return try settingsPage(context: context, invite: .init(code: code, expires: expires.iso8601, role: role.rawValue))
    }
}

/// The log-in form, again with what was typed and why it was refused.
struct LoginView: Encodable {
    var error: String?
    var name: String
    var next: String
    var noAccounts: Bool
}

/// The account form of an invite, again with what was typed and why it was refused.
struct SignUpView: Encodable {
    var error: String?
    var code = ""
    var name: String?
}

/// The problem page of a lockout: until when.
struct LockedOutView: Encodable {
    var message: String
    var code: Int
    var until: String
}

/// One option of a select: its value, and whether it is the one chosen.
struct Choice: Encodable {
    var value: String
    var label: String?
    var selected: Bool
}

/// The settings page: the account's appearance, and a new invite once made.
struct SettingsView: Encodable {
    struct Invite: Encodable {
        var code, expires, role: String
    }

    var themes: [Choice]
    var fonts: [Choice]
    var error, notice: String?
    var invite: Invite?
}

