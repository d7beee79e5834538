import Foundation
import Logging
import MarkTimeConfig
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeSystem

extension WebServer {
    /// Serves the phone page as `marktime web` describes: the store and config found as
    /// every command finds them, on `--listen`, else `web.listen`, with TLS when `web.tls`
    /// says. Run by the daemon (`MARKTIME_SUPERVISOR`), it stops with it, even when the
    /// daemon is killed.
    public static func run(_ arguments: PageArguments, environment: [String: String]) async throws {
        if let parent = environment["MARKTIME_SUPERVISOR"].flatMap(Int32.init), try !Parent.terminateWith(expected: parent) { return }
        let configFile = ConfigFile.resolve(explicit: arguments.config, environment: environment)
        let settings = try configFile.load(zoneExists: TZDatabase().knows)
        let text = try arguments.listen ?? settings.web.listen
        guard let (host, port) = ConfigKey.address(text) else {
            throw InputError("--listen '\(Text.escaped(text))' is not HOST:PORT with a port from 1 to 65535, e.g. 0.0.0.0:8080")
        }
        let tls = try settings.web.tls
        var serving = Configuration(host: host, port: port, tls: tls)
        serving.given = arguments.listen != nil ? .option : .config(file: settings.values["web.listen"] != nil ? configFile.path : nil)
        try check(serving)
        let site = try Site(store: try AppDatabase.resolving(arguments.store, environment: environment), settings: settings,
                            clock: try SystemClock(trustSynchronised: settings.clock.trustSystem), secure: tls != nil,
                            logger: Logger(label: "marktime-web"))
        // One I/O thread: the pages are made on Swift's concurrency pool, a thread a core.
        serving.ioThreads = 1
        try await run(site, configuration: serving)
    }
}
