import Foundation
import MarkTimeCore
import MarkTimeStore
import RigSupport

/// The chrony and pps scenarios' world: gpsd reading the guest's ttyS1 (Tests/rig/run
/// writes its NMEA) and any other devices, `marktime daemon` on a store of its own, and
/// marks through `marktime mark`, read back from the store. Results are TAP lines.
final class SerialReceiverRig {
    let marktime: String
    let folder: String
    let store: String
    let config: String
    let environment: [String: String]
    private(set) var failures = 0
    private(set) var gpsd: Child?
    private(set) var daemon: Child?

    init(marktime: String, folder: String) throws {
        self.marktime = marktime
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = folder + "/marktime.sqlite"
        config = folder + "/config.toml"
        environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": folder, "LANG": "C.UTF-8"]
    }

    /// Records one TAP-style result line.
    func check(_ ok: Bool, _ what: String, _ detail: @autoclosure () -> String = "") {
        if !ok { failures += 1 }
        let extra = ok ? "" : detail()
        say("\(ok ? "ok" : "not ok") - \(what)\(extra.isEmpty ? "" : " (\(extra))")")
    }

    /// Runs `marktime ARGS` on the scenario's store; its standard output.
    @discardableResult
    func cli(_ args: [String], config withConfig: Bool = true) throws -> String {
        let r = try runCommand(marktime, args + ["--store", store] + (withConfig ? ["--config", config] : []), environment: environment)
        guard r.status == 0 else { throw RigError("marktime \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout
    }

    func status() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try cli(["status", "--format", "json"]).utf8)) as? [String: Any] ?? [:]
    }

    /// A mark through `marktime mark` (the daemon stamps it), as the store holds it.
    func mark(_ label: String) throws -> Sight {
        let id = try cli(["mark", "--quiet", "--note", label]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = Int64(id) else { throw RigError("marktime mark printed '\(id)'") }
        return try AppDatabase(path: store, createDirectory: false).sight(id: id).sight
    }

    /// gpsd on `devices` (ttyS1 first), as a Pi runs it, then the daemon (with `settings`
    /// set first), once it stamps from gps.
    func start(devices: [String], trustSystem: Bool, settings: [(String, String)] = []) throws {
        // devtmpfs makes the devices root's alone.
        for device in devices { chmod(device, 0o666) }
        let gpsd = try Child("/usr/sbin/gpsd", ["-N", "-n", "-b", "-S", "2947", "-F", folder + "/gpsd.sock"] + devices,
                             log: folder + "/gpsd.log", environment: environment)
        self.gpsd = gpsd
        guard eventually(within: 30, { tcpAccepts(port: 2947) }) else { throw RigError("gpsd never listened on 2947: \(gpsd.output)") }
        for (key, value) in [("sound.enabled", "false"), ("clock.trust_system", "\(trustSystem)")] + settings { try cli(["config", "set", key, value]) }
        try startDaemon(waitFor: "gps")
    }

    /// The daemon, once its status says it stamps from `source`.
    func startDaemon(waitFor source: String) throws {
        if gpsd == nil { try cli(["config", "set", "sound.enabled", "false"]) }
        daemon = try Child(marktime, ["daemon", "--no-web", "--store", store, "--config", config, "--gpsd", "127.0.0.1:2947",
                                      "--button", folder + "/no-button"], log: folder + "/daemon.log", environment: environment)
        guard try eventually(within: 120, { try status()["source"] as? String == source }) else {
            throw RigError("the daemon never stamped from \(source): \(try status()); daemon: \(daemon?.output.suffix(2000) ?? "")")
        }
    }

    /// Stops gpsd (the receiver's port is free again).
    func stopGPSD() {
        gpsd?.stop()
        gpsd = nil
    }

    /// Stops the daemon gracefully (it writes the track and the rate book as it stops); whether it exited cleanly.
    func stopDaemon() -> Bool {
        guard let daemon else { return false }
        _ = daemon.stop()
        self.daemon = nil
        return daemon.exitedCleanly
    }

    /// Stops the daemon and gpsd, with their logs' tails after a failure; the exit code.
    func finish() -> Int32 {
        if failures > 0 {
            for line in (try? String(contentsOfFile: folder + "/daemon.log", encoding: .utf8))?.split(separator: "\n").suffix(20) ?? [] {
                say("# daemon: \(line)")
            }
            for line in (gpsd?.output ?? "").split(separator: "\n").suffix(10) { say("# gpsd: \(line)") }
        }
        daemon?.stop()
        gpsd?.stop()
        return failures == 0 ? 0 : 1
    }
}
