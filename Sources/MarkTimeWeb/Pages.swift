import Foundation
import HTTPTypes
import Hummingbird
import MarkTimeAccounts
import MarkTimeStore
import Mustache

/// The page templates (Mustache, compiled into the binary) and how a page is framed:
/// the account's theme and font, the navigation, the CSRF token for its forms.
struct Pages: Sendable {
    let library: MustacheLibrary

    static let templates: [(String, [UInt8])] = [
        ("layout", PackageResources.layout_mustache), ("login", PackageResources.login_mustache),
        ("signup", PackageResources.signup_mustache), ("problem", PackageResources.problem_mustache),
        ("now", PackageResources.now_mustache), ("sights", PackageResources.sights_mustache),
        ("sight", PackageResources.sight_mustache), ("settings", PackageResources.settings_mustache),
        ("places", PackageResources.places_mustache), ("people", PackageResources.people_mustache),
        ("tasks", PackageResources.tasks_mustache), ("journal", PackageResources.journal_mustache),
        ("day", PackageResources.day_mustache), ("fix", PackageResources.fix_mustache), ("tools", PackageResources.tools_mustache),
    ]

    init() throws {
        var library = MustacheLibrary()
        for (name, bytes) in Self.templates {
            try library.register(MustacheTemplate(string: String(decoding: bytes, as: UTF8.self)), named: name)
        }
        self.library = library
    }

    /// The navigation bar's pages, in order.
    static let sections: [(path: String, label: String)] = [("/", "Now"), ("/sights", "Sights"), ("/places", "Places"), ("/people", "People"), ("/tasks", "Tasks"), ("/tools", "Tools"), ("/journal", "Journal"), ("/settings", "Settings")]

    /// A whole page: `template` inside the layout, with `view`'s fields and the frame's.
    /// `refresh` is where the page's live sections are fetched again (when not its own URL,
    /// as after a POST).
    func page(_ template: String, title: String, _ view: some Encodable = Message(), context: WebContext,
              status: HTTPResponse.Status = .ok, section: String? = nil, refresh: String? = nil) throws -> Response {
        let session = context.session
        let frame = Frame(
            title: title, refresh: refresh, revision: context.revision,
            // Logged out: the last theme on this phone, else its dark preference (theme.js, app.css).
            theme: session?.account.theme.rawValue ?? "auto", font: session?.account.fontSize.rawValue ?? FontSize.normal.rawValue,
            csrf: session?.csrf,
            account: session.map { Frame.Account(name: $0.account.name, admin: $0.account.admin, role: $0.account.role.rawValue, crew: $0.account.role >= .crew) },
            nav: session.map { _ in Self.sections.map { Frame.Link(path: $0.path, label: $0.label, current: $0.path == section) } })
        guard case .fields(let frameFields) = try ViewValue(encoding: frame) else { throw HTTPError(.internalServerError) }
        let all = try ViewValue(encoding: view).adding(frameFields)
        guard let html = library.render(all, withTemplate: template) else { throw HTTPError(.internalServerError, message: "no page \(template)") }
        return Self.html(html, status: status)
    }

    /// What every page shows around its own part: the title, the account's theme and font,
    /// the navigation, the CSRF token for its forms.
    struct Frame: Encodable {
        struct Account: Encodable {
            var name: String
            var admin: Bool
            var role: String
            var crew: Bool
        }

        struct Link: Encodable {
            var path, label: String
            var current: Bool
        }

        var title: String
        var refresh, revision: String?
        var theme, font: String
        var csrf: String?
        var account: Account?
        var nav: [Link]?
    }

    /// A page's words alone: an error or a notice above its form (each nil when there is none).
    struct Message: Encodable {
        var error: String?
        var notice: String?
    }

    /// A page that says what went wrong and what to do, with its status.
    func problem(_ status: HTTPResponse.Status, _ message: String, context: WebContext) throws -> Response {
        struct Problem: Encodable {
            var message: String
            var code: Int
        }
        return try page("problem", title: status.reasonPhrase, Problem(message: message, code: status.code), context: context, status: status)
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Headers on every answer: the page runs only its own scripts and styles, is never
/// framed, and never tells another site where it came from; under TLS, the browser keeps
/// to HTTPS for this host (HSTS, a year).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Whether the page is served over TLS.
    var secure = false

    /// The Content-Security-Policy of every answer, and of the pages the service worker
    /// shows offline (`sw.js` carries the same words).
    static var policy: String {
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if secure { response.headers[HTTPField.Name("Strict-Transport-Security")!] = "max-age=31536000" }
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return response
    }
}
