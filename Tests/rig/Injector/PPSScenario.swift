import Foundation
import Glibc
import MarkTimeCore
import MarkTimeStore
import RigSupport

/// pps: the receiver on the guest's ttyS1 (Tests/rig/run writes its NMEA) and its PPS line
/// on the guest's parallel port. Debian's `pps_parport` timestamps the port's interrupt;
/// QEMU raises it when the port is strobed with interrupts on, which this scenario does
/// 0.9 s after each of gpsd's fixes, as a receiver's pulse leads the sentence that names
/// its second. gpsd reads `/dev/pps0` as a PPS-only device beside the serial one and
/// reports each edge with the second it marks; marktime stamps sights from them (`pps`).
enum PPSScenario {
    static func run(marktime: String, modules: String) throws -> Int32 {
        let folder = "/tmp/rig-pps"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/marktime.sqlite", config = folder + "/config.toml"
        let environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": folder, "LANG": "C.UTF-8"]
        var failures = 0
        func check(_ ok: Bool, _ what: String, _ detail: @autoclosure () -> String = "") {
            if !ok { failures += 1 }
            let extra = ok ? "" : detail()
            say("\(ok ? "ok" : "not ok") - \(what)\(extra.isEmpty ? "" : " (\(extra))")")
        }
        @discardableResult
        func cli(_ args: [String]) throws -> String {
            let r = try runCommand(marktime, args + ["--store", store, "--config", config], environment: environment)
            guard r.status == 0 else { throw RigError("marktime \(args.joined(separator: " ")): \(r.stderr)") }
            return r.stdout
        }
        func status() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(try cli(["status", "--format", "json"]).utf8)) as? [String: Any] ?? [:]
        }
        func mark(_ label: String) throws -> Sight {
            let id = try cli(["mark", "--quiet", "--note", label]).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let id = Int64(id) else { throw RigError("marktime mark printed '\(id)'") }
            let s = try AppDatabase(path: store, createDirectory: false).sight(id: id).sight
            say("# mark \(label): \(s.estimate.utc.iso8601) \(s.estimate.source.rawValue) ±\(s.estimate.uncertainty.map { String(format: "%.6f", $0) } ?? "?") s")
            return s
        }

        // The parallel port with its interrupt, and the PPS client on it.
        for (module, parameters) in [("parport", [String]()), ("parport_pc", ["io=0x378", "irq=7"]), ("pps_parport", [])] {
            let r = try runCommand("/usr/sbin/insmod", [modules + "/\(module).ko"] + parameters, environment: environment)
            guard r.status == 0 else { throw RigError("insmod \(module): \(r.stderr)") }
        }
        guard FileManager.default.fileExists(atPath: "/dev/pps0") else { throw RigError("pps_parport made no /dev/pps0") }
        say("# /dev/pps0: \((try? String(contentsOfFile: "/sys/class/pps/pps0/name", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?")")
        chmod("/dev/ttyS1", 0o666)
        chmod("/dev/pps0", 0o666)
        let gpsd = try Child("/usr/sbin/gpsd", ["-N", "-n", "-b", "-S", "2947", "-F", folder + "/gpsd.sock", "/dev/ttyS1", "/dev/pps0"],
                             log: folder + "/gpsd.log", environment: environment)
        defer { gpsd.stop() }
        guard eventually(within: 30, { tcpAccepts(port: 2947) }) else { throw RigError("gpsd never listened on 2947: \(gpsd.output)") }

        for (key, value) in [("sound.enabled", "false"), ("clock.trust_system", "false")] { try cli(["config", "set", key, value]) }
        let daemon = try Child(marktime, ["daemon", "--no-web", "--store", store, "--config", config, "--gpsd", "127.0.0.1:2947",
                                          "--button", folder + "/no-button"], log: folder + "/daemon.log", environment: environment)
        defer { daemon.stop() }
        guard try eventually(within: 120, { try status()["source"] as? String == "gps" }) else {
            throw RigError("the daemon never stamped from gps: \(try status()); gpsd: \(gpsd.output)")
        }
        let before = try mark("before the pulses")
        check(before.estimate.source == .gps, "before the pulses, a mark is stamped gps", before.estimate.source.rawValue)

        // The pulse: 0.9 s after each fix gpsd reports, a strobe of the port.
        let pulses = Pulses()
        try pulses.start()
        let stamped = try eventually(within: 60) { try status()["source"] as? String == "pps" }
        check(stamped, "the daemon takes gpsd's PPS edges as its clock", "\((try? status()) ?? [:]); pulses \(pulses.count)")
        var ppsMarks: [Sight] = []
        for k in 1...5 { ppsMarks.append(try mark("with pulses \(k)")) }
        check(ppsMarks.allSatisfy { $0.estimate.source == .pps && ($0.estimate.uncertainty ?? 1) < 0.001 },
              "marks are stamped pps, to within a millisecond",
              ppsMarks.map { "\($0.estimate.source.rawValue) ±\($0.estimate.uncertainty ?? -1)" }.joined(separator: ", "))
        // Both from one receiver: a pps stamp and the gps one agree within the gps bound.
        let offsets = ([before] + ppsMarks).map { Double($0.estimate.utc.nanosecondsSinceEpoch - $0.instant.nanoseconds) / 1e9 }
        let spread = (offsets.max() ?? 0) - (offsets.min() ?? 0)
        check(spread <= 0.5 + 0.001, "pps stamps agree with the gps stamp of the same receiver within its 0.5 s",
              "UTC − monotonic spread \(spread) s")
        say("# pulses strobed: \(pulses.count); kernel's last assert: \((try? String(contentsOfFile: "/sys/class/pps/pps0/assert", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?")")

        // The pulses stop, the sentences go on: once the last edge is older than
        // clock.max_sample_age_s (10 s), sights fall back to gps.
        pulses.stop()
        let fellBack = try eventually(within: 30) { try status()["source"] as? String == "gps" }
        let after = try mark("after the pulses")
        check(fellBack && after.estimate.source == .gps, "when the pulses stop, marks fall back to gps", after.estimate.source.rawValue)
        say("RIG-GPS-OFF")
        if failures > 0 {
            for line in (try? String(contentsOfFile: folder + "/daemon.log", encoding: .utf8))?.split(separator: "\n").suffix(20) ?? [] {
                say("# daemon: \(line)")
            }
            for line in gpsd.output.split(separator: "\n").suffix(10) { say("# gpsd: \(line)") }
        }
        return failures == 0 ? 0 : 1
    }

    /// The receiver's PPS line: strobes the parallel port (through /dev/port) 0.9 s after
    /// each 2D or 3D fix gpsd reports, on a thread of its own.
    final class Pulses: @unchecked Sendable {
        private let lock = NSLock()
        private var running = true
        private var strobed = 0
        var count: Int { lock.withLock { strobed } }

        func stop() { lock.withLock { running = false } }

        func start() throws {
            let port = open("/dev/port", O_RDWR)
            guard port >= 0 else { throw RigError("open /dev/port: \(String(cString: strerror(errno)))") }
            let socket = try GPSDWatch(port: 2947)
            Thread { [self] in
                defer { close(port) }
                while lock.withLock({ running }) {
                    guard let line = socket.nextLine() else { continue }
                    guard line.contains("\"class\":\"TPV\""), line.contains("\"mode\":3") || line.contains("\"mode\":2") else { continue }
                    Thread.sleep(forTimeInterval: 0.9)
                    guard lock.withLock({ running }) else { break }
                    // Control register: INIT, SELECT and interrupts on; strobe, then release it.
                    for value: UInt8 in [0x1d, 0x1c] {
                        var v = value
                        lseek(port, 0x37a, SEEK_SET)
                        _ = write(port, &v, 1)
                    }
                    lock.withLock { strobed += 1 }
                }
            }.start()
        }
    }

    /// A gpsd client watching JSON reports, read a line at a time.
    final class GPSDWatch: @unchecked Sendable {
        let fd: Int32
        private var buffer: [UInt8] = []

        init(port: UInt16) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = port.bigEndian
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
            guard connected, send(fd, watch, watch.count, 0) == watch.count else { throw RigError("cannot watch gpsd on \(port)") }
        }

        deinit { close(fd) }

        /// The next line, or nil when none came within a second.
        func nextLine() -> String? {
            while true {
                if let end = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeSubrange(...end)
                    return line
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = recv(fd, &chunk, chunk.count, 0)
                guard n > 0 else { return nil }
                buffer += chunk[..<n]
            }
        }
    }
}
