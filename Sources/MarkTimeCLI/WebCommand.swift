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
            commandName: "web",
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
            let tls = try settings.web.tls
            var serving = WebServer.Configuration(host: host, port: port, tls: tls)
            serving.given = listen != nil ? .option : .config(file: settings.values["web.listen"] != nil ? config.file.path : nil)
            try WebServer.check(serving)
            let site = try Site(store: try store.open(), settings: settings, clock: try SystemClock(trustSynchronised: settings.clock.trustSystem),
                                secure: tls != nil, logger: Logger(label: "marktime-web"))
            // One I/O thread: the pages are made on Swift's concurrency pool, a thread a core.
            serving.ioThreads = 1
            try await WebServer.run(site, configuration: serving)
        }

    }
}
