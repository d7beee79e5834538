import Foundation
import RigSupport

/// `marktime daemon` on a test's store, config and gpsd.
final class DaemonProcess {
    let child: Child

    init(cli: CLI, arguments: [String], environment: [String: String] = [:]) throws {
        child = try Child(CLI.binary, ["daemon", "--no-web", "--store", cli.store] + arguments,
                          log: cli.folder + "/daemon.log", environment: cli.environment.merging(environment) { $1 })
    }

    var log: String { child.output }

    /// SIGTERM, as systemd stops it; returns the seconds it took to exit.
    @discardableResult
    func stop() -> Double { child.stop(SIGTERM) }
}
