import Foundation
import MarkTimeCore
import MarkTimeStore
import RigSupport

/// One scenario's world: the loopback capture, gpsd fed by gpsfake, the uinput
/// button linked at /dev/input/marktime, and `marktime daemon` on a store.
final class Rig {
    let marktime: String
    let folder: String
    /// The store the daemon and the CLI use; a scenario may start the daemon again on a new one.
    var store: String
    let config: String
    let log: ReceiverLog
    let capture: LoopbackCapture
    let gps: FakeGPS
    var button: VirtualButton
    var daemon: Child?
    let bootID: String
    private(set) var failures = 0
    static let buttonLink = "/dev/input/marktime"

    init(marktime: String, nmea: String?, folder: String, store: String? = nil, settings: [String: String] = [:]) throws {
        self.marktime = marktime
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        self.store = store ?? folder + "/marktime.sqlite"
        config = folder + "/config.toml"
        log = try ReceiverLog(path: nmea)
        bootID = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Only gpsd counts as a clock; the button is shared with the rig's reader.
        let base = ["sound.device": "plughw:Loopback,0", "button.grab": "false", "clock.trust_system": "false"]
        capture = try LoopbackCapture()
        gps = try FakeGPS(folder: folder, log: log.text)
        button = try VirtualButton()
        try button.link(as: Self.buttonLink)
        for (key, value) in base.merging(settings, uniquingKeysWith: { $1 }).sorted(by: { $0.key < $1.key }) {
            try cli(["config", "set", key, value, "--config", config])
        }
    }

    /// Starts the daemon and waits for a GPS fix and the button.
    func startDaemon() throws {
        daemon = try Child(marktime, ["daemon", "--no-web", "--store", store, "--config", config, "--gpsd", gps.address],
                           log: folder + "/daemon.log", environment: environment)
        // A slow start says what it waits for every minute, with the daemon's last lines: a
        // power cut (the host's limit) would otherwise leave nothing to read.
        let started = ContinuousClock.now
        var said = 0
        let ready = try eventually(within: 120) {
            let s = try status()
            let minutes = Int((ContinuousClock.now - started).components.seconds / 60)
            if minutes > said {
                said = minutes
                say("# the daemon is not ready after \(minutes) min: source \(s["source"] ?? "none"), fix_mode \(s["fix_mode"] ?? "none"), "
                    + "button \(s["button"] ?? "none"), gpsd \(s["gpsd"] ?? "none")")
                for line in daemonLog.split(separator: "\n").suffix(8) { say("# daemon: \(line)") }
            }
            return s["source"] as? String == "gps" && s["fix_mode"] as? Int ?? 0 >= 2 && (s["button"] as? String)?.hasPrefix("ready") == true
        }
        guard ready else { throw RigError("the daemon never reported GPS time, a fix and a ready button: \(try status())") }
        say("# daemon ready: sound \(try status()["sound"] as? String ?? "?")")
    }

    /// What the daemon has logged, also after it stopped.
    var daemonLog: String { (try? String(contentsOfFile: folder + "/daemon.log", encoding: .utf8)) ?? "" }

    func stopDaemon() -> Double {
        defer { daemon = nil }
        return daemon?.stop() ?? 0
    }

    func status() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try cli(["status", "--format", "json", "--store", store, "--config", config]).utf8)) as? [String: Any] ?? [:]
    }

    func sights() throws -> [Sight] {
        try AppDatabase(path: store, createDirectory: false).sights().sorted { ($0.id ?? 0) < ($1.id ?? 0) }
    }

    /// Runs `marktime ARGS`; its standard output, or an error with its standard error.
    @discardableResult
    func cli(_ args: [String], input: String? = nil) throws -> String {
        let r = try runCommand(marktime, args, environment: environment, input: input)
        guard r.status == 0 else { throw RigError("marktime \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout
    }

    /// What the daemon and the CLI run with: nothing from the caller's environment.
    var environment: [String: String] { ["PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8"] }

    /// Unplugs the button and plugs in a new one.
    func replug() throws {
        button.destroy()
        pace(0.5)
        button = try VirtualButton()
        try button.link(as: Self.buttonLink)
    }

    /// Records one TAP-style result line.
    func check(_ ok: Bool, _ what: String, _ detail: @autoclosure () -> String = "") {
        if !ok { failures += 1 }
        let extra = ok ? "" : detail()
        say("\(ok ? "ok" : "not ok") - \(what)\(extra.isEmpty ? "" : " (\(extra))")")
    }

    func tearDown() {
        say("# bursts left out as the loopback's stale re-reads: \(capture.staleBursts)")
        if failures > 0 {
            say("# daemon log (tail):")
            for line in daemonLog.split(separator: "\n").suffix(30) { say("# \(line)") }
        }
        _ = stopDaemon()
        button.destroy()
        gps.kill()
        capture.stop()
    }
}

/// Prints a line to the console at once (the host may cut the power any moment).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The NMEA log gpsfake plays, and what the sights should carry from it.
struct ReceiverLog {
    let text: String
    /// `YYYY-MM-DD` of the log's RMC sentences.
    let date: String
    /// Every position the log's valid RMC sentences give, in DDM.
    let positions: Set<String>
    /// The log's first position.
    let first: Position

    /// `path` is a real receiver's log; without one, a log the rig writes (2025-03-14).
    init(path: String?) throws {
        text = try path.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? FakeGPS.log()
        var dates: [String] = [], positions: Set<String> = [], first: Position?
        for line in text.split(whereSeparator: \.isNewline) {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 10, f[0].hasSuffix("RMC"), f[2] == "A", f[9].count == 6,
                  let lat = Self.degrees(f[3], f[4]), let lon = Self.degrees(f[5], f[6]),
                  let p = try? Position(latitude: lat, longitude: lon) else { continue }
            let d = Array(f[9])
            dates.append("20\(d[4])\(d[5])-\(d[2])\(d[3])-\(d[0])\(d[1])")
            positions.insert(p.ddm)
            first = first ?? p
        }
        guard let date = dates.first, let first else { throw RigError("the NMEA log has no valid RMC sentence") }
        self.date = date
        self.first = first
        self.positions = positions
    }

    /// `ddmm.mmmm` and a hemisphere, as signed degrees.
    static func degrees(_ value: String, _ hemisphere: String) -> Double? {
        guard let v = Double(value) else { return nil }
        let d = (v / 100).rounded(.towardZero) + v.truncatingRemainder(dividingBy: 100) / 60
        return hemisphere == "S" || hemisphere == "W" ? -d : d
    }
}
