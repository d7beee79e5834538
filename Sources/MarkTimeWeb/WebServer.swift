import Foundation
import UnixSignals
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import MarkTimeCore
import MarkTimePlot
import MarkTimeSystem
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle

/// `marktime web`: the phone page's HTTP server, with its routes, its access rules,
/// its assets compiled into the binary, and the live connections.
public enum WebServer {
    /// Where to listen, and the certificate and key for TLS (PEM files), if any.
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var tls: WebSettings.TLSFiles?
        /// Where the address was given, for a refusal that names it and its fix.
        public var given = Given.option
        /// The connection limits (`ConnectionGuard`), and the count of those open.
        var limits = ConnectionGuard.Limits()
        var connections = ConnectionGuard.Counter()
        /// The event loops it serves on: NIO's shared ones (nil), or (in a test that opens
        /// thousands of connections) loops of its own, so that the others are not held up.
        var eventLoops: (any EventLoopGroup)?
        /// When `eventLoops` is nil: that many I/O threads of the page's own, or NIO's
        /// shared loops (one a core) when nil. The page's work runs on Swift's concurrency
        /// pool, one thread a core; on 2 cores, two more loops beside it took CPU turns from
        /// each other and put the sight log's p99 at 8 to 10 times its median (`Tests/bench/web`).
        public var ioThreads: Int?

        public init(host: String, port: Int, tls: WebSettings.TLSFiles? = nil) {
            self.host = host
            self.port = port
            self.tls = tls
        }
    }


    /// Where the listening address was given: `--listen`, or `web.listen` in a config file.
    public enum Given: Sendable, Equatable {
        case option
        /// The config file's `web.listen`; nil when no file sets it (its default).
        case config(file: String?)

        /// The setting, as a refusal names it.
        var name: String {
            switch self {
            case .option: "--listen"
            case .config(let file?): "web.listen in \(file)"
            case .config(nil): "web.listen's default"
            }
        }

        /// How to give it `example` instead.
        func fix(_ example: String) -> String {
            switch self {
            case .option: "--listen \(example)"
            case .config: "`marktime config set web.listen \(example)`"
            }
        }
    }

    /// Every route, behind the security headers and the access rules.
    public static func router(_ site: Site) -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeadersMiddleware(secure: site.secure))
        router.add(middleware: AccessMiddleware(site: site))
        Assets.add(to: router)
        AccountRoutes(site: site).add(to: router)
        SightRoutes(site: site).add(to: router)
        ClockRoutes(site: site).add(to: router)
        NavigationRoutes(site: site).add(to: router)
        PlaceRoutes(site: site).add(to: router)
        PeopleRoutes(site: site).add(to: router)
        TaskRoutes(site: site).add(to: router)
        JournalRoutes(site: site).add(to: router)
        router.ws("/live") { inbound, outbound, context in
            try await LiveConnection(site: site).handle(inbound: inbound, outbound: outbound, context: context)
        }
        for (form, page) in formPages {
            router.get(RouterPath(form)) { _, context in
                var to = page
                if let date = context.parameters.get("date") { to = to.replacingOccurrences(of: "{date}", with: date) }
                return Response.redirect(to: to, type: .normal)
            }
        }
        return router
    }

    /// Each form's address that only takes a POST, and the page the form is on. The answer
    /// to a form shows at the form's address: opened again (a reload after the Pi restarted, a
    /// login after the session ended there), it goes to that page, never to a blank 404.
    static let formPages: [(form: String, page: String)] = [
        ("/logout", "/"),
        ("/settings/appearance", "/settings"), ("/settings/password", "/settings"), ("/settings/invite", "/settings"),
        ("/settings/logout-everywhere", "/settings"),
        ("/places/remove", "/places"), ("/anchor/drop", "/places"), ("/anchor/ack", "/places"), ("/anchor/lift", "/places"),
        ("/people/select", "/people"), ("/people/remove", "/people"),
        ("/tasks/done", "/tasks"), ("/tasks/undo", "/tasks"), ("/tasks/remove", "/tasks"),
        ("/journal/{date}/moment", "/journal/{date}"), ("/journal/{date}/checkin", "/journal/{date}"), ("/journal/{date}/photo", "/journal/{date}"),
    ]

    /// How long a stop (SIGTERM, SIGINT) waits for open requests and live pages before
    /// it cancels them.
    public static let shutdownGrace = Duration.seconds(3)
    /// When a stop ends the process regardless: a browser's pre-opened connection that
    /// never sends a request holds hummingbird-websocket's wait for the upgrade decision,
    /// which neither graceful shutdown nor cancellation ends.
    public static let shutdownDeadline = Duration.seconds(5)

    /// Serves until SIGTERM or SIGINT, then stops within `shutdownDeadline`. An address it
    /// cannot listen on is refused with a sentence that names the setting and its fix.
    public static func run(_ site: Site, configuration: Configuration) async throws {
        try check(configuration)
        var configuration = configuration
        let ownLoops = configuration.eventLoops == nil ? configuration.ioThreads.map { MultiThreadedEventLoopGroup(numberOfThreads: max(1, $0)) } : nil
        if let ownLoops { configuration.eventLoops = ownLoops }
        defer { ownLoops?.shutdownGracefully { _ in } }
        // A photo's buffers go back to the kernel once it is kept (see `Heap.mapLargeBlocks`).
        Heap.mapLargeBlocks(over: Heap.pageMapsOver)
        // Each connection is a descriptor: room for as many as the guard lets in, and the store's.
        let files = OpenFileLimit.raise(to: configuration.limits.connections + 256)
        if files < configuration.limits.connections + 64 {
            site.logger.warning("the page may open only \(files) files, fewer than its \(configuration.limits.connections) connections: set LimitNOFILE=8192 in its unit")
        }
        var group = ServiceGroupConfiguration(services: [try application(site, configuration: configuration)],
                                              gracefulShutdownSignals: [.sigterm, .sigint], logger: site.logger)
        group.maximumGracefulShutdownDuration = shutdownGrace
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for await signal in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
                    site.logger.info("stopping on \(signal)")
                    try await Task.sleep(for: shutdownDeadline)
                    site.logger.notice("connections still open \(shutdownDeadline) after \(signal); exiting")
                    exit(0)
                }
            }
            do { try await ServiceGroup(configuration: group).run() } catch let error as IOError {
                throw listenError(error, configuration)
            } catch let error as SocketAddressError {
                throw unresolvable(configuration, reason: "\(error)")
            }
            tasks.cancelAll()
        }
    }

    /// A socket error from listening, as a sentence that names the setting and says what to do.
    static func listenError(_ error: IOError, _ c: Configuration) -> InputError {
        let at = "cannot listen on \(c.host):\(c.port) (\(c.given.name))"
        switch error.errnoCode {
        case EADDRINUSE:
            return InputError("\(at): another program listens there already (`ss -ltnp` shows which); give another port, e.g. \(c.given.fix("\(c.host):\(c.port == 8081 ? 8082 : 8081)"))")
        case EADDRNOTAVAIL:
            return InputError("\(at): \(c.host) is not an address of this machine; give 0.0.0.0 for every network, or one that `ip -brief address` lists, "
                + "e.g. \(c.given.fix("0.0.0.0:\(c.port)"))")
        case EACCES:
            return InputError("\(at): ports below 1024 need more rights than this user has; give a port such as 8080, e.g. \(c.given.fix("\(c.host):8080"))")
        case EINVAL where c.host.lowercased().hasPrefix("fe80:"):
            return InputError("\(at): a link-local address needs its interface, as in [\(c.host)%eth0]:\(c.port); or give 0.0.0.0 for every network, "
                + "e.g. \(c.given.fix("0.0.0.0:\(c.port)"))")
        default:
            return InputError("\(at): \(String(cString: strerror(error.errnoCode))); give another address, e.g. \(c.given.fix("0.0.0.0:8080"))")
        }
    }

    /// Refuses a listening host that names no address, in words: asked before anything is
    /// opened, and before the server's own resolver, which answers with NIO's raw error type.
    public static func check(_ c: Configuration) throws(InputError) {
        if let reason = TCPSocket.unresolvable(c.host) { throw unresolvable(c, reason: reason) }
    }

    /// A listening host that names no address, in words.
    static func unresolvable(_ c: Configuration, reason: String) -> InputError {
        InputError("cannot listen on '\(c.host):\(c.port)' (\(c.given.name)): \(c.host) is no address or name this machine can find (\(reason)); "
            + "give one of its addresses: \(c.given.fix("0.0.0.0:\(c.port)")) for every network, or \(c.given.fix("127.0.0.1:\(c.port)")) for this machine alone")
    }

    /// The application: the router, the live service, and TLS when configured.
    public static func application(_ site: Site, configuration: Configuration) throws -> some ApplicationProtocol {
        let router = router(site)
        let (counter, limits) = (configuration.connections, configuration.limits)
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(http1: .init(
            additionalChannelHandlers: [BodyDeadline(limits: limits)],
            idleTimeout: limits.idleTimeout,
            httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.headBytes, maxHeaderListSize: limits.headBytes, maxHeaderFieldCount: 100)))
        let webSocketResponder = router.buildResponder()
        let http = HTTPServerBuilder { responder in
            GuardedChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channel),
                           limits: limits, counter: counter)
        }
        let server: HTTPServerBuilder
        if let tls = configuration.tls {
            for (name, path) in [("web.tls_cert", tls.certificate), ("web.tls_key", tls.key)] {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw InputError("\(name) \(path) does not exist: set \(name) to a PEM file (`marktime config set \(name) PATH`)")
                }
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw InputError("\(name) \(path) cannot be read by this user: let it read the file, or run the page as one who may")
                }
            }
            let chain: [NIOSSLCertificate], key: NIOSSLPrivateKey
            do { chain = try NIOSSLCertificate.fromPEMFile(tls.certificate) } catch {
                throw InputError("web.tls_cert \(tls.certificate) is not a PEM certificate (-----BEGIN CERTIFICATE-----): give the certificate's PEM file")
            }
            do { key = try NIOSSLPrivateKey(file: tls.key, format: .pem) } catch {
                throw InputError("web.tls_key \(tls.key) is not a PEM private key (-----BEGIN PRIVATE KEY-----), or it has a passphrase: give the key's PEM file without one")
            }
            server = try .tls(http, tlsConfiguration: .makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                                               privateKey: .privateKey(key)))
        } else {
            server = http
        }
        var app = Application(router: router, server: server,
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
                              eventLoopGroupProvider: configuration.eventLoops.map { .shared($0) } ?? .singleton, logger: site.logger)
        app.addServices(LiveService(site: site))
        return app
    }
}

/// The stylesheet and scripts, compiled into the binary; cached by the browser for an hour.
/// The service worker and the web app manifest are served at the root.
enum Assets {
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "app.css": ("text/css; charset=utf-8", PackageResources.app_css),
        "app.js": ("text/javascript; charset=utf-8", PackageResources.app_js),
        "icon.svg": ("image/svg+xml", PackageResources.icon_svg),
        "plot.css": ("text/css; charset=utf-8", PlotStyle.bytes),
        "theme.js": ("text/javascript; charset=utf-8", PackageResources.theme_js),
    ]

    static func add(to router: Router<WebContext>) {
        // Browsers ask for it at the root, whatever the page says.
        router.get("/favicon.ico") { _, _ in Response.redirect(to: "/assets/icon.svg", type: .permanent) }
        // At the root: a service worker's scope is its own folder and below; not cached, so
        // that a new version reaches the phone at its next visit.
        router.get("/sw.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.sw_js)))
        }
        router.get("/manifest.webmanifest") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/manifest+json", .cacheControl: "public, max-age=3600"],
                     body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.manifest_webmanifest)))
        }
        router.get("/assets/{name}") { _, context in
            guard let file = files[try context.parameters.require("name")] else { throw HTTPError(.notFound) }
            return Response(status: .ok, headers: [.contentType: file.type, .cacheControl: "public, max-age=3600"],
                            body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }
}
