import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import RigSupport

/// chrony: Debian's chronyd disciplines the guest's clock from gpsd, which reads NMEA from
/// the guest's ttyS1 (Tests/rig/run writes it: RMC and GGA once a second from
/// 2025-03-14 10:00:00). A real serial port, as on a Pi: gpsd feeds chrony's SHM refclock
/// from it, which it never does for gpsfake's pseudo-terminals. Marks go through
/// `marktime mark` (the daemon stamps them) all along: from gps before chrony, across
/// chrony's step of the clock to the log's date, from `system` once adjtimex says
/// synchronised, and after the receiver goes quiet (`RIG-GPS-OFF`).
enum ChronyScenario {
    /// One mark as the store holds it, with adjtimex read right after it.
    struct Mark {
        var label: String
        var monotonic: Int64, utc: Int64
        var source: String
        var uncertainty: Double?
        var kernelSynchronised: Bool, kernelEstimatedError: Double
        /// adjtimex's estimated error read just before the press (chrony may update it, every
        /// 4 s poll, between the daemon's reading and the one after the mark).
        var kernelEstimatedErrorBefore: Double
        /// UTC minus monotonic time: the same for every mark while the stamps are continuous.
        var offset: Int64 { utc - monotonic }
    }

    static func run(marktime: String, chronyd: String) throws -> Int32 {
        let rig = try SerialReceiverRig(marktime: marktime, folder: "/tmp/rig-chrony")
        let folder = rig.folder
        let kernel = try SystemClock(trustSynchronised: true)
        var marks: [Mark] = []
        func mark(_ label: String) throws -> Mark {
            let before = try kernel.read()
            let s = try rig.mark(label)
            let reading = try kernel.read()
            let m = Mark(label: label, monotonic: s.instant.nanoseconds, utc: s.estimate.utc.nanosecondsSinceEpoch, source: s.estimate.source.rawValue,
                         uncertainty: s.estimate.uncertainty, kernelSynchronised: reading.synchronised, kernelEstimatedError: reading.estimatedError,
                         kernelEstimatedErrorBefore: before.estimatedError)
            marks.append(m)
            say("# mark \(label): \(s.estimate.utc.iso8601) \(m.source) ±\(m.uncertainty.map { String(format: "%.6f", $0) } ?? "?") s; adjtimex "
                + "\(m.kernelSynchronised ? "synchronised" : "unsynchronised") esterror \(String(format: "%.6f", m.kernelEstimatedError)) s")
            return m
        }
        defer { _ = rig.finish() }
        try rig.start(devices: ["/dev/ttyS1"], trustSystem: true)
        let wallBefore = Date()
        let first = try mark("before chrony")
        rig.check(first.source == "gps" && !first.kernelSynchronised, "before chrony, a mark is stamped gps, the clock unsynchronised",
              "\(first.source), synchronised \(first.kernelSynchronised)")

        // chronyd, from the SHM segment gpsd fills; it steps the clock at its first update.
        // rtcsync, as in Debian's chrony.conf: without it chrony never clears the kernel's
        // STA_UNSYNC on Linux, and adjtimex says unsynchronised however good the clock.
        let conf = folder + "/chrony.conf"
        try """
            refclock SHM 0 refid GPS poll 2 filter 4 precision 1e-1 delay 0.2
            makestep 1 -1
            rtcsync
            driftfile \(folder)/chrony.drift
            pidfile \(folder)/chronyd.pid
            cmdport 0
            bindcmdaddress /

            """.write(toFile: conf, atomically: true, encoding: .utf8)
        let chrony = try Child(chronyd, ["-d", "-u", "root", "-f", conf], log: folder + "/chronyd.log", environment: rig.environment)
        defer { chrony.stop() }
        var n = 0
        let synchronised = try eventually(within: 100) {
            n += 1
            return try mark("while chrony starts \(n)").source == "system"
        }
        for line in chrony.output.split(separator: "\n").prefix(20) { say("# chronyd: \(line)") }
        rig.check(synchronised, "once adjtimex says synchronised, marks are stamped system", "last: \(marks.last.map { "\($0.source)" } ?? "none")")
        let stepped = abs(Date().timeIntervalSince1970 - 1_741_946_400) < 86_400 && abs(wallBefore.timeIntervalSince1970 - 1_741_946_400) > 86_400
        rig.check(stepped, "chrony stepped the clock to the log's date", "wall clock before \(wallBefore), now \(Date())")
        for k in 1...5 { _ = try mark("synchronised \(k)") }
        let system = marks.filter { $0.source == "system" }
        // adjtimex read just before and right after each mark, by a clock of the injector's
        // own: the daemon's figure is one of the two (chrony may have updated it between),
        // but for up to one poll's growth of the maximum error (4 s at 500 µs/s).
        rig.check(!system.isEmpty && system.allSatisfy { m in
            m.uncertainty.map { min(abs($0 - m.kernelEstimatedErrorBefore), abs($0 - m.kernelEstimatedError)) < 0.0025 } ?? false
        }, "a system stamp's uncertainty is the kernel's estimated error, and the growth since chrony's last update",
              system.map { "\($0.uncertainty ?? -1) vs \($0.kernelEstimatedErrorBefore) before, \($0.kernelEstimatedError) after" }.joined(separator: ", "))

        // Continuous across the step: every stamp's UTC − monotonic agrees with every
        // other's within their uncertainties and 100 ppm of drift between them.
        var breaks: [String] = []
        for (i, a) in marks.enumerated() {
            for b in marks[(i + 1)...] {
                guard let ua = a.uncertainty, let ub = b.uncertainty else { continue }
                let allowed = ua + ub + Double(abs(b.monotonic - a.monotonic)) / 1e9 * 100e-6
                if Double(abs(a.offset - b.offset)) / 1e9 > allowed {
                    breaks.append("\(a.label) \(a.source) and \(b.label) \(b.source): \(Double(a.offset - b.offset) / 1e9) s")
                }
            }
        }
        rig.check(breaks.isEmpty && marks.allSatisfy { $0.uncertainty != nil }, "stamps stay continuous across chrony's step",
              breaks.prefix(5).joined(separator: "; "))

        // The receiver goes quiet: gpsd says nothing, chrony loses its only source.
        say("RIG-GPS-OFF")
        let quiet = ContinuousClock.now
        let silent = try eventually(within: 30) { (try rig.status()["gpsd"] as? String)?.hasPrefix("silent for") == true }
        rig.check(silent, "the daemon finds gpsd silent", "\((try? rig.status()) ?? [:])")
        let afterSilence = try mark("gpsd silent")
        rig.check(afterSilence.source != "gps", "no mark is stamped gps once gpsd is silent", afterSilence.source)
        // chrony keeps the kernel "synchronised" with its last estimate: the stamps' honesty is
        // the growth of the kernel's maximum error, 500 µs a second, added to it.
        let atQuiet = afterSilence
        var k = 0
        _ = try eventually(within: 25) {
            k += 1
            _ = try mark("without a source \(k)")
            return (ContinuousClock.now - quiet) > .seconds(60)
        }
        let waited = Double((ContinuousClock.now - quiet).components.seconds)
        let last = marks.last!
        for line in chrony.output.split(separator: "\n").suffix(4) { say("# chronyd: \(line)") }
        say("# \(Int(waited)) s after the receiver went quiet: \(last.source) ±\(last.uncertainty.map { String(format: "%.6f", $0) } ?? "?") s, adjtimex "
            + "\(last.kernelSynchronised ? "synchronised" : "unsynchronised"); at the silence ±\(atQuiet.uncertainty.map { String(format: "%.6f", $0) } ?? "?") s")
        let grown = (last.uncertainty ?? 0) - (atQuiet.uncertainty ?? 0)
        rig.check(last.source == "unsynced" || grown >= KernelClockError.growthPerSecond * (waited - 20),
              "without a source, a system stamp's uncertainty grows as the kernel's maximum error does",
              "grew \(grown) s in \(waited) s")
        rig.check(marks.allSatisfy { $0.source != "system" || $0.kernelSynchronised }, "no mark is stamped system while adjtimex says unsynchronised")
        let seen = system.compactMap(\.uncertainty)
        if let lo = seen.min(), let hi = seen.max() {
            say("# system uncertainties seen: \(seen.count) marks, \(String(format: "%.6f", lo)) to \(String(format: "%.6f", hi)) s")
        }
        return rig.failures == 0 ? 0 : 1
    }
}
