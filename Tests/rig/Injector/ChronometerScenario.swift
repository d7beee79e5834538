import Foundation
import MarkTimeCore
import MarkTimeStore
import RigSupport
import Synchronization

/// chronometer (#58): time kept without GPS, in one boot and across a reboot, on Debian's
/// kernel. Tests/rig/run writes NMEA to the guest's receiver port (`--receiver`: ttyS1 on
/// amd64, the virtio console hvc0 on arm64's virt machine) once a second on one timeline
/// across both boots (RMC time = the host's clock since the feed began + 2025-03-14
/// 10:00:00), and boots the guest twice on one store disk, with QEMU's RTC (an MC146818 on
/// amd64, the virt machine's PL031 on arm64).
///
/// Boot 1 (`chronometer`): the kernel clock is given a frequency error of +500 ppm
/// (adjtimex ADJ_FREQUENCY; CLOCK_MONOTONIC runs 43.2 s a day fast), gpsd reads the port, and
/// the daemon (`clock.rate_span_s` 300) learns that rate and the RTC's error and rate.
/// Then gpsd is stopped; the guest reads the NMEA itself, as the truth, and marks are
/// checked against it: within their stated uncertainty, and off by far less than the
/// frequency error would make them. The daemon stops, writing the rate book.
///
/// Boot 2 (`chronometer-reboot`): the same +500 ppm (as chrony's drift file would restore
/// it), no gpsd: the daemon dates marks from the RTC corrected by the rate book's line; the
/// same truth checks them.
enum ChronometerScenario {
    /// The kernel's frequency error given to the guest, ppm.
    static let frequencyPPM = 500.0

    /// RMC times read from the receiver's port by the guest itself, with CLOCK_MONOTONIC at their arrival.
    final class Truth: Sendable {
        private let pairs = Mutex<[(monotonic: Int64, utc: Int64)]>([])
        private let device: String

        init(device: String) { self.device = device }

        /// Reads the port on a thread of its own for the rest of the scenario.
        func start() throws {
            let fd = open(device, O_RDONLY | O_NOCTTY)
            guard fd >= 0 else { throw RigError("cannot open \(device): \(String(cString: strerror(errno)))") }
            var t = termios()
            tcgetattr(fd, &t)
            cfmakeraw(&t)
            tcsetattr(fd, TCSANOW, &t)
            // What the port held before it was opened arrives in a burst, its time long gone.
            tcflush(fd, TCIFLUSH)
            Thread { [self] in
                var line: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = read(fd, &buffer, buffer.count)
                    guard n > 0 else { return }
                    var now = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &now)
                    let at = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
                    var times: [Int64] = []
                    for byte in buffer[0..<n] {
                        if byte == 10 {
                            if let utc = Self.rmcTime(String(decoding: line, as: UTF8.self)) { times.append(utc) }
                            line = []
                        } else {
                            line.append(byte)
                        }
                    }
                    // A read with two sentences' times came late (a backlog): only a lone one dates its arrival.
                    if times.count == 1 { pairs.withLock { $0.append((at, times[0])) } }
                }
            }.start()
        }

        /// `$GPRMC,HHMMSS.SS,A,…,DDMMYY,…`: its UTC, nanoseconds.
        static func rmcTime(_ sentence: String) -> Int64? {
            let f = sentence.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count > 9, f[0].hasSuffix("RMC"), f[1].count >= 6, f[9].count == 6,
                  let hh = Int(f[1].prefix(2)), let mm = Int(f[1].dropFirst(2).prefix(2)), let ss = Int(f[1].dropFirst(4).prefix(2)),
                  let dd = Int(f[9].prefix(2)), let mo = Int(f[9].dropFirst(2).prefix(2)), let yy = Int(f[9].suffix(2)),
                  let day = UTCTime(year: 2000 + yy, month: mo, day: dd) else { return nil }
            return day.nanosecondsSinceEpoch + Int64(hh * 3600 + mm * 60 + ss) * 1_000_000_000
        }

        /// True UTC at monotonic `instant`: the line through the sentences of the 40 s around
        /// it that were read as they came (the clock's frequency error is in the line's
        /// slope), once sentences follow it.
        func utc(at instant: Int64) -> Int64? {
            var near = pairs.withLock { $0 }.filter { abs($0.monotonic - instant) <= 20_000_000_000 }
            // A sentence read late (a backlog, a busy guest) has a smaller UTC − monotonic
            // offset than one read as it came: keep those within 50 ms of the largest.
            let top = near.map { $0.utc - $0.monotonic }.max() ?? 0
            near.removeAll { $0.utc - $0.monotonic < top - 50_000_000 }
            guard near.count >= 10, near.contains(where: { $0.monotonic > instant + 5_000_000_000 }) else { return nil }
            let x0 = near[0].monotonic, y0 = near[0].utc
            let xs = near.map { Double($0.monotonic - x0) / 1e9 }, ys = near.map { Double($0.utc - y0) / 1e9 }
            let n = Double(near.count), mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
            let slope = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
            let at = Double(instant - x0) / 1e9
            return y0 + Int64(((my + slope * (at - mx)) * 1e9).rounded())
        }
    }

    /// Gives the kernel clock a frequency error (CLOCK_MONOTONIC and CLOCK_REALTIME alike),
    /// with busybox's adjtimex (ADJ_FREQUENCY, in 2^-16 ppm).
    static func setFrequency(ppm: Double) throws {
        let r = try runCommand("/bin/busybox", ["adjtimex", "-f", "\(Int(ppm * 65_536))"], environment: [:])
        guard r.status == 0 else { throw RigError("busybox adjtimex -f: \(r.stderr)") }
        say("# the kernel clock runs \(ppm) ppm fast: \(r.stdout.split(separator: "\n").first { $0.contains("frequency") } ?? "")")
    }

    /// A mark checked against the truth: its error, within its stated uncertainty.
    struct Checked {
        var label: String, source: String, method: String
        var error: Double, uncertainty: Double
    }

    /// Marks `seconds` after now: the time the clock drifts over is what is measured, so
    /// each waits until that much has passed (the condition), however slow the guest.
    static func marks(_ rig: SerialReceiverRig, at seconds: [Int], label: String) throws -> [(String, Sight)] {
        let start = ContinuousClock.now
        return try seconds.enumerated().map { k, after in
            _ = eventually(within: Double(after) / patience + 1) { ContinuousClock.now - start >= .seconds(after) }
            return ("\(label) \(k + 1) (\(after) s)", try rig.mark("\(label) \(k + 1)"))
        }
    }

    static func check(_ rig: SerialReceiverRig, truth: Truth, marks: [(String, Sight)]) -> [Checked] {
        var checked: [Checked] = []
        for (label, s) in marks {
            guard eventually(within: 30, { truth.utc(at: s.instant.nanoseconds) != nil }), let t = truth.utc(at: s.instant.nanoseconds) else {
                rig.check(false, "the truth is known at mark \(label)", "too few sentences read around it")
                continue
            }
            let error = Double(s.estimate.utc.nanosecondsSinceEpoch - t) / 1e9
            let c = Checked(label: label, source: s.estimate.source.rawValue, method: s.estimate.provenance?.method.rawValue ?? "?",
                            error: error, uncertainty: s.estimate.uncertainty ?? .infinity)
            say("# mark \(label): \(c.source) (\(c.method)) error \(String(format: "%+.4f", c.error)) s, stated ±\(String(format: "%.4f", c.uncertainty)) s")
            rig.check(abs(c.error) <= c.uncertainty, "mark \(label): the stated uncertainty covers the true error",
                      "error \(c.error) s, uncertainty \(c.uncertainty) s")
            checked.append(c)
        }
        return checked
    }

    /// Boot 1: GPS, then none.
    static func run(marktime: String, receiver: String) throws -> Int32 {
        let rig = try SerialReceiverRig(marktime: marktime, folder: "/tmp/store/chronometer")
        defer { _ = rig.finish() }
        try setFrequency(ppm: frequencyPPM)
        try rig.start(devices: [receiver], trustSystem: false, settings: [("clock.rate_span_s", "300")])
        // The rate: a run of 300 s, a sample kept every 30 s.
        var status: [String: Any] = [:]
        let learned = try eventually(within: 200) {
            status = try rig.status()
            return (status["chronometer"] as? [String: Any])?["rate_s_per_day"] is Double && (status["rtc"] as? String)?.contains(" read ") == true
        }
        rig.check(learned, "the daemon learns the clock's rate from 300 s of GPS, and compares the RTC", "\(status)")
        let gain = (status["chronometer"] as? [String: Any])?["rate_s_per_day"] as? Double ?? .nan
        say("# learned: \(gain) s/day (the kernel clock was given \(frequencyPPM * 0.0864) s/day); rtc: \(status["rtc"] ?? "none")")
        rig.check(abs(gain - frequencyPPM * 0.0864) <= 0.2 * frequencyPPM * 0.0864, "the learned rate is the frequency error given, within 20 %",
                  "\(gain) s/day")
        let withGPS = try rig.mark("with gps")
        rig.check(withGPS.estimate.source == .gps, "a mark with GPS is stamped gps", withGPS.estimate.source.rawValue)

        // GPS goes: gpsd stops, and the port is the truth's.
        rig.stopGPSD()
        let truth = Truth(device: receiver)
        try truth.start()
        // A carried stamp keeps the source it was carried from: the chronometer says it carries.
        let gone = try eventually(within: 60) {
            let s = try rig.status()
            return (s["chronometer"] as? [String: Any])?["carried_from"] is String || s["source"] as? String == "rtc"
        }
        rig.check(gone, "once gpsd is gone the daemon carries the time", "\((try? rig.status()) ?? [:])")
        let checked = check(rig, truth: truth, marks: try marks(rig, at: [20, 80, 160], label: "without gps"))
        rig.check(checked.count == 3 && checked.allSatisfy { $0.method == "carried" || $0.source == "rtc" },
                  "without GPS, marks are carried at the learned rate or dated by the RTC, never unsynced",
                  checked.map { "\($0.source) \($0.method)" }.joined(separator: ", "))
        // Carried at rate 1, the +500 ppm would move the marks 140 ms apart from 20 s to 160 s.
        if let first = checked.first, let last = checked.last, checked.count == 3 {
            let drift = last.error - first.error
            let uncorrected = frequencyPPM * 1e-6 * 140
            say("# the marks' error moved \(String(format: "%+.4f", drift)) s from 20 s to 160 s without GPS; at rate 1 it would be +\(uncorrected) s")
            rig.check(abs(drift) < 0.3 * uncorrected, "the learned rate keeps the marks' error from growing with the clock's frequency error",
                      "moved \(drift) s")
        }
        // The daemon stops: the rate book has both lines for the next boot.
        _ = rig.stopDaemon()
        let book = try rig.cli(["clock", "rates", "--format", "json"], config: false)
        let clocks = Set(((try? JSONSerialization.jsonObject(with: Data(book.utf8))) as? [[String: Any]] ?? []).compactMap { $0["clock"] as? String })
        rig.check(clocks == ["monotonic", "rtc"], "the rate book has the monotonic and the rtc lines", book)
        say(try rig.cli(["clock", "rates"], config: false).split(separator: "\n").map { "# " + $0 }.joined(separator: "\n"))
        return rig.failures == 0 ? 0 : 1
    }

    /// Boot 2: no GPS at all; the RTC.
    static func reboot(marktime: String, receiver: String) throws -> Int32 {
        let rig = try SerialReceiverRig(marktime: marktime, folder: "/tmp/store/chronometer")
        defer { _ = rig.finish() }
        try setFrequency(ppm: frequencyPPM)
        let truth = Truth(device: receiver)
        try truth.start()
        try rig.startDaemon(waitFor: "rtc")
        let status = try rig.status()
        say("# rtc: \(status["rtc"] ?? "none"); chronometer: \((status["chronometer"] as? [String: Any])?["sentence"] ?? "none")")
        let checked = check(rig, truth: truth, marks: try marks(rig, at: [5, 40, 75], label: "after the reboot"))
        rig.check(checked.count == 3 && checked.allSatisfy { $0.source == "rtc" }, "after a reboot without GPS, marks are dated by the RTC",
                  checked.map(\.source).joined(separator: ", "))
        // Each reading dates its second's edge alike: the marks' errors agree (whatever
        // QEMU's RTC phase did to all of them) within the reads' few ms and the drift between.
        let errors = checked.map(\.error)
        if let lo = errors.min(), let hi = errors.max() {
            rig.check(hi - lo < 0.05, "the marks dated by different RTC readings agree within 50 ms", errors.map { String(format: "%+.4f", $0) }.joined(separator: ", "))
        }
        return rig.failures == 0 ? 0 : 1
    }
}
