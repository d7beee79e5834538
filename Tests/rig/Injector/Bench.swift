import Foundation
import MarkTimeCore
import MarkTimeStore
import RigSupport

/// `bench`: figures, each a median with min and max, printed as a plain table.
enum Bench {
    static func run(marktime: String, nmea: String?, presses: Int = 50) throws -> Int32 {
        var rows: [(String, String)] = []
        var failures = 0
        let rig = try Rig(marktime: marktime, nmea: nmea, folder: "/tmp/rig-bench")
        defer { rig.tearDown() }
        try rig.startDaemon()

        // Presses one at a time: stamp, commit and beep latency.
        var kernel: [Int64] = [], beep: [Double] = []
        for _ in 0..<presses {
            let t = try rig.button.press()
            kernel.append(t)
            if let heard = rig.capture.tone(after: t) { beep.append(Double(heard.start - t) / 1e6) }
            Thread.sleep(forTimeInterval: 0.3)
        }
        let sights = try rig.sights()
        let errors = zip(sights, kernel).map { Double($0.instant.nanoseconds - $1) / 1e3 }
        let commits = commitTimes(in: rig.daemon?.output ?? "")
        rows.append(("timestamp error", summary(errors, unit: "µs", over: "\(errors.count) of \(presses) presses")))
        rows.append(("press→durable", summary(kernel.compactMap { commits[$0] }, unit: "ms", over: "\(commits.count) presses")))
        rows.append(("press→beep", summary(beep, unit: "ms", over: "\(beep.count) beeps captured")))
        if errors.count != presses || errors.contains(where: { $0 != 0 }) { failures += 1 }

        // Idle: context switches of every daemon thread over 10 s with nothing pressed.
        if let pid = rig.daemon?.pid {
            let before = contextSwitches(pid)
            Thread.sleep(forTimeInterval: 10)
            rows.append(("idle wakeups", "\(contextSwitches(pid) - before) context switches in 10 s (gpsd sending 2 sentences/s, 1 s heartbeat)"))
        }
        let stop = rig.stopDaemon()

        // Burst: 1000 presses at 50 per second, sound off, debounce under the 20 ms spacing.
        try rig.cli(["config", "set", "sound.enabled", "false", "--config", rig.config])
        try rig.cli(["config", "set", "button.debounce_ms", "10", "--config", rig.config])
        try rig.startDaemon()
        var burst: [Int64] = []
        let start = monotonicNow()
        for i in 0..<1000 {
            burst.append(try rig.button.press())
            let next = start + Int64(i + 1) * 20_000_000
            let wait = next - monotonicNow()
            if wait > 0 { Thread.sleep(forTimeInterval: Double(wait) / 1e9) }
        }
        let seconds = Double(monotonicNow() - start) / 1e9
        _ = eventually(within: 60) { ((try? rig.sights().count) ?? 0) >= sights.count + 1000 }
        let recorded = try rig.sights().dropFirst(sights.count).map(\.instant.nanoseconds)
        let inOrder = recorded == burst
        rows.append(("burst", "\(recorded.count) of 1000 presses recorded in \(String(format: "%.1f", seconds)) s, \(inOrder ? "all in order" : "NOT all in order")"))
        if !inOrder { failures += 1 }
        if let pid = rig.daemon?.pid { rows.append(("rss", "\(peakRSS(pid)) (daemon peak, VmHWM)")) }
        rows.append(("graceful stop", String(format: "%.2f s after SIGTERM", stop)))

        let width = rows.map(\.0.count).max() ?? 0
        say("RIG-BENCH marktime rig figures (QEMU TCG, Debian kernel; not measured on a Pi): median [min … max]")
        for (name, value) in rows { say("RIG-BENCH \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(value)") }
        return failures == 0 ? 0 : 1
    }

    /// Key-down instant → commit milliseconds, from the daemon's "sight stored" log lines.
    static func commitTimes(in log: String) -> [Int64: Double] {
        var out: [Int64: Double] = [:]
        for line in log.split(separator: "\n") where line.contains("sight stored") {
            func field(_ name: String) -> Substring? {
                guard let r = line.range(of: name + "=") else { return nil }
                return line[r.upperBound...].prefix { !$0.isWhitespace }
            }
            if let m = field("monotonic_ns").flatMap({ Int64($0) }), let c = field("commit_ms").flatMap({ Double($0) }) { out[m] = c }
        }
        return out
    }

    static func summary(_ values: [Double], unit: String, over: String) -> String {
        guard !values.isEmpty else { return "no values (\(over))" }
        let s = values.sorted()
        let median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        func f(_ v: Double) -> String { String(format: v == v.rounded() && abs(v) < 1e6 ? "%.0f" : "%.2f", v) }
        return "\(f(median)) \(unit) [\(f(s.first!)) … \(f(s.last!))], \(over)"
    }

    /// Voluntary and involuntary context switches of all the process's threads.
    static func contextSwitches(_ pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { total, task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            return total + status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }.reduce(0, +)
        }
    }

    static func peakRSS(_ pid: pid_t) -> String {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return "unknown" }
        return String(format: "%.1f MiB", kb / 1024)
    }
}
