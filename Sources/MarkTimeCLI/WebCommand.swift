import ArgumentParser
import Foundation
import Logging
import MarkTimeCore
import MarkTimeDevices
import MarkTimeSystem
import MarkTimeWeb

extension MarkTime {
    struct Web: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the phone page: the clock and MARK, the sight log, settings, behind a login.",
            discussion: """
                Open http://PI-ADDRESS:8080/ on a phone on the same network. Accounts come from `marktime user add` \
                and `marktime user invite`. The page works the same store as the CLI, in its own process: nothing in it \
                can stop the daemon recording a sight. Under systemd it is its own unit, marktime-web.service.

                HTTPS: set web.tls_cert and web.tls_key to PEM files; the session cookie is then Secure.

                Example: marktime web --listen 0.0.0.0:8080
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Option(help: ArgumentHelp("Where to listen (default: web.listen, 0.0.0.0:8080).", valueName: "host:port"))
        var listen: String?

        func run() async throws {
            logToStandardError()
            // Run by `marktime daemon`: stop with it, even when it is killed.
            if let parent = ProcessInfo.processInfo.environment["MARKTIME_SUPERVISOR"].flatMap(Int32.init),
               try !Parent.terminateWith(expected: parent) { return }
            let settings = try config.settings()
            let text = try listen ?? settings.web.listen
            guard let (host, port) = ConfigKey.address(text) else {
                throw InputError("--listen '\(text)' is not HOST:PORT with a port from 1 to 65535, e.g. 0.0.0.0:8080")
            }
            try Self.checkResolves(host, text)
            let tls = try settings.web.tls
            let site = try Site(store: try store.open(), settings: settings, clock: try SystemClock(trustSynchronised: settings.clock.trustSystem),
                                secure: tls != nil, logger: Logger(label: "marktime-web"))
            var serving = WebServer.Configuration(host: host, port: port, tls: tls)
            // One I/O thread: the pages are made on Swift's concurrency pool, a thread a core.
            serving.ioThreads = 1
            try await WebServer.run(site, configuration: serving)
        }

        /// Refuses a listening host that names no address (`getaddrinfo(3)`), in words, before
        /// the server's own resolver answers with its raw error type.
        static func checkResolves(_ host: String, _ text: String) throws {
            var hints = addrinfo()
            hints.ai_flags = AI_PASSIVE
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let code = getaddrinfo(host, nil, &hints, &list)
            if code == 0 { freeaddrinfo(list); return }
            throw InputError("cannot listen on '\(text)': \(host) is no address or name this machine can find (\(String(cString: gai_strerror(code)))); "
                + "give one of its addresses, e.g. 0.0.0.0:8080 for every network or 127.0.0.1:8080 for this machine alone")
        }
    }
}
