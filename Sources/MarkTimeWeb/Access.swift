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
        // A page of a stranger's name (DNS rebinding: the name pointed at the Pi) gets nothing,
        // not even the login, where it could spend the owner's attempts.
        guard site.hosts.allows(request.head.authority) else {
            return try site.pages.problem(.misdirectedRequest, site.hosts.refusal(request.head.authority), context: context)
        }
        var context = context
        var request = request
        // The route that will run, whatever the path's form (the router takes `/places/remove/`
        // and `//places//remove` for `/places/remove`); the path itself only when none will.
        let path = context.endpointPath ?? request.uri.path
        let isOpen = Self.open.contains(path) || path.hasPrefix("/assets/")
        if let token = request.cookies[Self.cookieName]?.value, !token.isEmpty {
            context.session = try Logins(site.store).session(token: token, now: try site.now())
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
                // Back to this address after the login only if a page answers it (a form's
                // address has one, `formPages`); else to the Now page.
                let here = request.uri.path
                let next = context.endpointPath == nil || here == "/" ? "" : "?next=" + (here.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                return .redirect(to: "/login" + next)
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
            // On the route that will run; with none, nothing runs and the answer is 404.
            if let route = context.endpointPath {
                let needed = Role.needed(toPost: route)
                guard session.account.role >= needed else {
                    return try site.pages.problem(.forbidden, session.account.role.refusal(needs: needed), context: context)
                }
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

/// The names the page answers to: its IP addresses (any literal address: a page that
/// reaches it by address is this site's own), `localhost`, this machine's name and
/// `NAME.local` (mDNS), and the names in `web.hosts`. A request of any other `Host` is
/// refused: a stranger's page whose name was pointed at the Pi (DNS rebinding) reaches no
/// page of it, the login least of all.
struct HostNames: Sendable {
    let names: Set<String>

    /// The setting `web.hosts` (names apart by commas or spaces), and this machine's name.
    init(configured: String, machine: String?) {
        var names: Set<String> = ["localhost"]
        if let machine = machine.map(Self.normal), !machine.isEmpty { names.formUnion([machine, machine + ".local"]) }
        for name in configured.split(whereSeparator: { $0 == "," || $0 == " " }) where !name.isEmpty { names.insert(Self.normal(name)) }
        self.names = names
    }

    /// This machine's name, as the kernel has it.
    static var machineName: String? {
        (try? String(contentsOfFile: "/proc/sys/kernel/hostname", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A name as it is compared: lower case, without a trailing dot.
    static func normal(_ name: some StringProtocol) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    /// The host of an authority (`name:port`, `[v6]:port`), without its port.
    static func host(_ authority: String) -> String {
        if authority.hasPrefix("[") { return String(authority.prefix { $0 != "]" }) + "]" }
        return String(authority.prefix { $0 != ":" })
    }

    /// Whether a dotted IPv4 address, or a bracketed IPv6 one.
    static func isAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") { return host.hasSuffix("]") && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { $0.count <= 3 && !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0).map { $0 <= 255 } == true }
    }

    func allows(_ authority: String?) -> Bool {
        guard let authority else { return false }
        let host = Self.normal(Self.host(authority))
        return Self.isAddress(host) || names.contains(host)
    }

    /// The sentence for a request of another name.
    func refusal(_ authority: String?) -> String {
        let host = Text.shown(Self.host(authority ?? ""))
        return authority == nil
            ? "Refused: the request names no host. Open the page by the Pi's address or name."
            : "Refused: this Pi's page does not answer to the name '\(host)'. Open it by the Pi's address or name, or, if '\(host)' is the boat's own "
                + "name for it, add it on the Pi: `marktime config set web.hosts \(host)`."
    }
}
