import Foundation
import HTTPTypes
import Hummingbird
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeStore

/// Every request needs a session except the login and create-account pages and the
/// assets; a request that changes anything must come from this site's own pages (its
/// `Origin`, else its `Referer`) and carry the session's CSRF token (form field `csrf`
/// or header `X-CSRF-Token`).
struct AccessMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let site: Site

    static let cookieName = "marktime_session"
    /// The most a request without a session may send.
    static let openBodyLimit = 8 * 1024
    static let openBodyRefusal = "Refused: a login or sign-up form is at most 8 KB. Log in first to send more."

    /// Paths open without a session.
    static let open: Set<String> = ["/login", "/signup", "/favicon.ico", "/sw.js", "/manifest.webmanifest"]

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var context = context
        var request = request
        let path = request.uri.path
        let isOpen = Self.open.contains(path) || path.hasPrefix("/assets/")
        if let token = request.cookies[Self.cookieName]?.value, !token.isEmpty {
            context.session = try site.store.session(token: token, now: try site.now())
        }
        let changes = ![.get, .head, .options].contains(request.method)
        if changes, context.session == nil {
            // Without a session only a login or sign-up form comes in: a few hundred bytes.
            // Anything longer is refused as it arrives, before it can take the Pi's memory.
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.openBodyLimit {
                return try site.pages.problem(.contentTooLarge, Self.openBodyRefusal, context: context)
            }
            do { _ = try await request.collectBody(upTo: Self.openBodyLimit) } catch where WebContext.isTooLarge(error) {
                return try site.pages.problem(.contentTooLarge, Self.openBodyRefusal, context: context)
            }
        }
        if changes || path == "/live" {
            guard Self.sameOrigin(request) else {
                return try site.pages.problem(.forbidden, "Refused: this request did not come from this site's own pages. Open the page again and retry.",
                                              context: context)
            }
        }
        guard isOpen || context.session != nil else {
            if request.method == .get, path != "/live" {
                return .redirect(to: "/login" + (path == "/" ? "" : "?next=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))
            }
            return try site.pages.problem(.unauthorized, "Log in first: this needs a session.", context: context)
        }
        if changes, let session = context.session {
            let token: String?
            do { token = try await Self.csrfToken(&request, context: context) } catch where WebContext.isTooLarge(error) {
                return try site.pages.problem(.contentTooLarge, WebContext.formRefusal, context: context)
            }
            guard token == session.csrf else {
                return try site.pages.problem(.forbidden, "Refused: the form's security token is missing or old. Open the page again and retry.",
                                              context: context)
            }
            let needed = Role.needed(toPost: path)
            guard session.account.role >= needed else {
                return try site.pages.problem(.forbidden, session.account.role.refusal(needs: needed), context: context)
            }
        }
        // Read before the handler reads its data: a change after it shows as a newer revision.
        context.revision = site.revision()
        return try await next(request, context)
    }

    /// The `Origin` (else `Referer`) names this host and port. Browsers send one `Origin`
    /// with every POST and WebSocket; a request with neither is not from a page.
    static func sameOrigin(_ request: Request) -> Bool {
        guard let host = request.head.authority else { return false }
        let origins = request.headers[values: .origin]
        let claimed = origins.isEmpty ? request.headers[values: .referer] : origins
        return claimed.contains { from in
            guard let url = URL(string: from), let fromHost = url.host else { return false }
            return fromHost + (url.port.map { ":\($0)" } ?? "") == host
        }
    }

    /// The CSRF token a request carries: the header, else the form's `csrf` field. The body
    /// is collected, so the handler reads it again.
    static func csrfToken(_ request: inout Request, context: WebContext) async throws -> String? {
        if let header = request.headers[HTTPField.Name("X-CSRF-Token")!] { return header }
        let type = request.headers[.contentType] ?? ""
        if type.hasPrefix("multipart/form-data") { return request.uri.queryParameters.get("csrf") }
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        struct Token: Decodable { var csrf: String? }
        return (try? URLEncodedFormDecoder().decode(Token.self, from: String(buffer: body)))?.csrf
    }
}
