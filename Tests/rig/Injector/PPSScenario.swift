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
        let rig = try SerialReceiverRig(marktime: marktime, folder: "/tmp/rig-pps")
        // The stamp the daemon gave at the press. A gps stamp may be re-stamped a moment
        // later from a pulse carried to it (better than gps's ±0.5 s), and the scenario
        // may read the sight before or after that: what it checks is the press's own.
        func mark(_ label: String) throws -> Sight {
            var s = try rig.mark(label)
            if let first = s.original {
                say("# mark \(label) re-stamped: \(s.estimate.utc.iso8601) \(s.estimate.source.rawValue) ±\(s.estimate.uncertainty.map { String(format: "%.6f", $0) } ?? "?") s")
                rig.check(abs(Double(s.estimate.utc.nanosecondsSinceEpoch - first.utc.nanosecondsSinceEpoch)) / 1e9 <= first.uncertainty ?? 0,
                          "a re-stamp of mark \(label) moves it within the stamp it replaces",
                          "\(first.utc.iso8601) → \(s.estimate.utc.iso8601)")
                s.estimate = first
            }
            say("# mark \(label): \(s.estimate.utc.iso8601) \(s.estimate.source.rawValue) ±\(s.estimate.uncertainty.map { String(format: "%.6f", $0) } ?? "?") s")
            return s
        }
        defer { _ = rig.finish() }
        // The parallel port with its interrupt, and the PPS client on it.
        for (module, parameters) in [("parport", [String]()), ("parport_pc", ["io=0x378", "irq=7"]), ("pps_parport", [])] {
            let r = try runCommand("/usr/sbin/insmod", [modules + "/\(module).ko"] + parameters, environment: rig.environment)
            guard r.status == 0 else { throw RigError("insmod \(module): \(r.stderr)") }
        }
        guard FileManager.default.fileExists(atPath: "/dev/pps0") else { throw RigError("pps_parport made no /dev/pps0") }
        say("# /dev/pps0: \((try? String(contentsOfFile: "/sys/class/pps/pps0/name", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?")")
        try rig.start(devices: ["/dev/ttyS1", "/dev/pps0"], trustSystem: false)
        let before = try mark("before the pulses")
        rig.check(before.estimate.source == .gps, "before the pulses, a mark is stamped gps", before.estimate.source.rawValue)

        // The pulse: 0.9 s after each fix gpsd reports, a strobe of the port.
        let pulses = Pulses()
        try pulses.start()
        let stamped = try eventually(within: 60) { try rig.status()["source"] as? String == "pps" }
        rig.check(stamped, "the daemon takes gpsd's PPS edges as its clock", "\((try? rig.status()) ?? [:]); pulses \(pulses.count)")
        var ppsMarks: [Sight] = []
        for k in 1...5 { ppsMarks.append(try mark("with pulses \(k)")) }
        rig.check(ppsMarks.allSatisfy { $0.estimate.source == .pps && ($0.estimate.uncertainty ?? 1) < 0.001 },
              "marks are stamped pps, to within a millisecond",
              ppsMarks.map { "\($0.estimate.source.rawValue) ±\($0.estimate.uncertainty ?? -1)" }.joined(separator: ", "))
        // Both from one receiver: a pps stamp and the gps one agree within the gps bound.
        let offsets = ([before] + ppsMarks).map { Double($0.estimate.utc.nanosecondsSinceEpoch - $0.instant.nanoseconds) / 1e9 }
        let spread = (offsets.max() ?? 0) - (offsets.min() ?? 0)
        rig.check(spread <= 0.5 + 0.001, "pps stamps agree with the gps stamp of the same receiver within its 0.5 s",
              "UTC − monotonic spread \(spread) s")
        say("# pulses strobed: \(pulses.count); kernel's last assert: \((try? String(contentsOfFile: "/sys/class/pps/pps0/assert", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?")")

        // The pulses stop, the sentences go on: once the last edge is older than
        // clock.max_sample_age_s (10 s), sights fall back to gps.
        pulses.stop()
        let fellBack = try eventually(within: 30) { try rig.status()["source"] as? String == "gps" }
        let after = try mark("after the pulses")
        rig.check(fellBack && after.estimate.source == .gps, "when the pulses stop, marks fall back to gps", after.estimate.source.rawValue)
        say("RIG-GPS-OFF")
        return rig.failures == 0 ? 0 : 1
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
                    pace(0.9)
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
            guard let fd = connectedSocket(port: port) else { throw RigError("cannot connect to gpsd on \(port)") }
            self.fd = fd
            let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
            guard send(fd, watch, watch.count, 0) == watch.count else { throw RigError("cannot watch gpsd on \(port)") }
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
