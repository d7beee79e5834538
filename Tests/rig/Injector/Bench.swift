import CEvdev
import Foundation
import GRDB
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeStore
import MarkTimeSystem
import RigSupport

/// `bench`: figures, each a median with min and max, printed as a plain table.
enum Bench {
    static func run(marktime: String, nmea: String?, presses: Int = 50) throws -> Int32 {
        var rows: [(String, String)] = []
        var failures = 0
        // Every store of the bench on a real disk: an fsync on the rig's /tmp (tmpfs) returns
        // at once, and a commit there is no more durable than memory.
        let disk = storeFolder()
        try? FileManager.default.removeItem(atPath: disk)
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let rig = try Rig(marktime: marktime, nmea: nmea, folder: "/tmp/rig-bench", store: disk + "/marktime.sqlite")
        defer { rig.tearDown() }
        rows.append(("store disk", mount(of: disk)))
        try rig.startDaemon()

        // Presses one at a time: stamp, commit and beep latency. The rig does nothing while
        // the daemon handles a press: it reads the key's timestamps back 0.3 s later from the
        // kernel's buffer, and the tone from the capture's timed samples. After each press it
        // makes one bare insert of the same row into a file of marktime's schema on the same
        // disk, after the same 0.5 s of quiet, so that both series share the host's moment
        // (its speed drifts under TCG) and neither runs warm. That first file's WAL is fresh,
        // as plain SQLite leaves it, and each commit grows it; then, as quietly, the same row
        // into a file whose WAL was grown as the daemon grows its store's (`reserveWAL`), the
        // same sight through AppDatabase.insert into a third such file, and last into the
        // daemon's own store, deleted at once: the same file as the daemon's commits, from
        // another process.
        let barePool = try bareSightPool(path: disk + "/bare-sight.sqlite")
        let grownPool = try bareSightPool(path: disk + "/bare-grown.sqlite", growWAL: true)
        let grownStore = try AppDatabase(path: disk + "/store-grown.sqlite", createDirectory: false)
        try grownStore.reserveWAL()
        let daemonStore = try AppDatabase(path: rig.store, createDirectory: false)
        var kernel: [Int64] = [], beep: [Double] = [], beepByPress: [Double?] = []
        var bareSight: [Double] = [], bareGrown: [Double] = [], storeGrown: [Double] = [], daemonFile: [Double] = []
        let deleter = try DatabaseQueue(path: rig.store)  // the bench's rows out of the daemon's store
        let writerFaults = rig.daemon.flatMap { minorFaults($0.pid, thread: "marktime-writer") }
        for _ in 0..<presses {
            let t = try rig.button.press(settle: 0.3)
            kernel.append(t)
            let heard = rig.capture.tone(after: t).map { Double($0.start - t) / 1e6 }
            beepByPress.append(heard)
            if let heard { beep.append(heard) }
            // Looked up by its instant (the receiver log loops, so GPS time may step back),
            // then left as quiet as the press was: a read just before would warm the insert.
            let stored = try daemonStore.sights().first(where: { $0.instant.nanoseconds == t })
            Thread.sleep(forTimeInterval: 0.5)
            if let stored { bareSight.append(try bareSightInsert(stored, into: barePool)) }
            Thread.sleep(forTimeInterval: 0.5)
            if let stored { bareGrown.append(try bareSightInsert(stored, into: grownPool)) }
            Thread.sleep(forTimeInterval: 0.5)
            if let stored { storeGrown.append(try storeInsert(stored, into: grownStore)) }
            Thread.sleep(forTimeInterval: 0.5)
            if let stored {
                var s = stored
                s.instant = MonotonicInstant(bootID: "bench-daemon-file", nanoseconds: stored.instant.nanoseconds)
                daemonFile.append(try storeInsert(s, into: daemonStore))
                try deleter.write { try $0.execute(sql: "DELETE FROM sight WHERE boot_id = 'bench-daemon-file'") }
            }
            Thread.sleep(forTimeInterval: 0.3)
        }
        let writerFaultsAfter = rig.daemon.flatMap { minorFaults($0.pid, thread: "marktime-writer") }
        let sights = try rig.sights()
        let errors = zip(sights, kernel).map { Double($0.instant.nanoseconds - $1) / 1e3 }
        let commits = commitTimes(in: rig.daemon?.output ?? "")
        rows.append(("timestamp error", summary(errors, unit: "µs", over: "\(errors.count) of \(presses) presses")))
        let durable = kernel.compactMap { commits[$0] }
        let daemonWAL = ((try? FileManager.default.attributesOfItem(atPath: rig.store + "-wal"))?[.size] as? Int) ?? 0
        rows[0].1 += ", the daemon's WAL \(daemonWAL) bytes after the presses"
        rows.append(("press→durable", summary(durable, unit: "ms", over: "\(commits.count) presses")))
        let log = rig.daemon?.output ?? ""
        for (field, name) in [("queued_ms", "  key-down→writer"), ("wait_ms", "  writer wake"), ("insert_ms", "  insert+commit")] {
            rows.append((name, summary(Array(logField(field, in: log).values), unit: "ms", over: field)))
        }
        if let before = writerFaults, let after = writerFaultsAfter {
            rows.append(("  writer page faults", String(format: "%d minor faults in the writer's thread over the %d presses (%.1f a press), all its other jobs included",
                                                        after - before, presses, Double(after - before) / Double(presses))))
        }
        rows.append(("press→beep", summary(beep, unit: "ms", over: "\(beep.count) beeps captured")))
        // The beep's own delay: press→beep minus press→durable, press by press.
        var heard: [Int64: Double] = [:]
        for (t, b) in zip(kernel, beepByPress) { if let b { heard[t] = b } }
        let lag = kernel.compactMap { t in heard[t].flatMap { b in commits[t].map { b - $0 } } }
        rows.append(("beep after commit", summary(lag, unit: "ms", over: "press→beep − press→durable, target ≤ 5 ms")))
        // The inserts it is compared with are spaced as the presses were: under TCG an insert
        // after a longer idle costs more (caches, QEMU's translated code), at 50 ms apart less.
        let spacing = median(zip(kernel.dropFirst(), kernel).map { Double($0 - $1) / 1e9 })
        let bare = try bareInserts(folder: disk, spacing: spacing)
        rows.append(("bare SQLite insert", summary(bare, unit: "ms", over: "a 4-column row, synchronous=FULL, WAL, same folder, \(String(format: "%.2f", spacing)) s apart as the presses")))
        rows.append(("bare sight insert", summary(bareSight, unit: "ms", over: "\(bareSight.count) inserts, each press's row into marktime's schema, same folder, no daemon, between the presses, after 0.5 s of quiet")))
        let bareSightApart = try bareSightInserts(folder: disk, like: sights, spacing: spacing, file: "bare-sight-apart.sqlite")
        rows.append(("  after the presses", summary(bareSightApart, unit: "ms", over: "the same rows again, as far apart, once the presses are done")))
        let bareSightClose = try bareSightInserts(folder: disk, like: sights, spacing: 0.05, file: "bare-sight-50ms.sqlite")
        rows.append(("  50 ms apart", summary(bareSightClose, unit: "ms", over: "the same, 0.05 s apart (warm)")))
        rows.append(("  WAL grown", summary(bareGrown, unit: "ms", over: "the same rows, between the presses, into a file whose WAL was grown as the daemon's is")))
        rows.append(("store insert", summary(storeGrown, unit: "ms", over: "AppDatabase.insert of each press's sight, no daemon, between the presses, WAL grown")))
        rows.append(("  daemon's file", summary(daemonFile, unit: "ms", over: "the same, from the bench's process into the daemon's own store (then deleted)")))
        let ratioFresh = median(durable) / max(median(bareSight), 1e-9)
        let ratio = median(durable) / max(median(bareGrown), 1e-9)
        rows.append(("durable ÷ bare", String(format: "%.2f against the fresh WAL (plain SQLite), %.2f against the grown WAL (the daemon's case; target ≤ 1.2)", ratioFresh, ratio)))
        if !(ratio <= 1.2) { failures += 1 }
        if !(median(lag) <= 5) { failures += 1 }
        if errors.count != presses || errors.contains(where: { $0 != 0 }) { failures += 1 }

        // Idle: context switches of every daemon thread over 10 s with nothing pressed, then
        // the daemon's fsync calls and block-layer writes over 60 s.
        if let pid = rig.daemon?.pid {
            let before = contextSwitches(pid)
            Thread.sleep(forTimeInterval: 10)
            rows.append(("idle wakeups", "\(contextSwitches(pid) - before) context switches in 10 s (gpsd sending 2 sentences/s, 1 s heartbeat)"))
            let idle = try idleWrites(pid, seconds: 60, folder: disk)
            rows.append(("idle fsync", "\(idle.syncs) fsync/fdatasync calls in 60 s (target 0)"))
            rows.append(("idle writes", "\(idle.blockBytes) bytes to the block layer, store grew \(idle.storeBytes) bytes in 60 s (target < 1 KB/min)"))
            if idle.syncs != 0 || idle.storeBytes >= 1024 { failures += 1 }
        }
        try speechRows(rig, into: &rows)
        _ = rig.stopDaemon()
        // A memo recording: the daemon again, with memo.device, on a store of its own (its
        // GPS is taken afresh), then back for the burst.
        let store = rig.store
        try rig.cli(["config", "set", "memo.device", "hw:Loopback,1,1", "--config", rig.config])
        rig.store = disk + "/memo.sqlite"
        try rig.startDaemon()
        try memoRows(rig, into: &rows)
        let stop = rig.stopDaemon()
        try rig.cli(["config", "set", "memo.device", "", "--config", rig.config])
        rig.store = store

        // Burst: 1000 presses 20 ms apart, sound off, a 10 ms debounce. Each press is paced
        // from the previous one's kernel time, so a late injector cannot press inside the
        // window; a pair that still lands within 10 ms is expected to merge, and only a
        // press spaced beyond the window may not go missing.
        try rig.cli(["config", "set", "sound.enabled", "false", "--config", rig.config])
        try rig.cli(["config", "set", "button.debounce_ms", "10", "--config", rig.config])
        // On a store of its own too: the first store's chronometer, carried across the
        // restart from the RTC, is minutes ahead of the replayed log's GPS time (it loops
        // over a few seconds of 2021), and the daemon rightly sets such a GPS aside.
        rig.store = disk + "/burst.sqlite"
        try rig.startDaemon()
        // The store's sights before the burst (none on a new store; counted all the same).
        let before = try rig.sights().count
        var burst: [Int64] = []
        let start = monotonicNow()
        for _ in 0..<1000 {
            if let last = burst.last {
                let wait = last + 20_000_000 - monotonicNow()
                if wait > 0 { Thread.sleep(forTimeInterval: Double(wait) / 1e9) }
            }
            burst.append(try rig.button.press())
        }
        let seconds = Double(monotonicNow() - start) / 1e9
        var expected: [Int64] = []
        for t in burst where expected.last.map({ t - $0 >= 10_000_000 }) ?? true { expected.append(t) }
        let merged = burst.count - expected.count
        _ = eventually(within: 60) { ((try? rig.sights().count) ?? 0) >= before + expected.count }
        let recorded = try rig.sights().dropFirst(before).map(\.instant.nanoseconds)
        let inOrder = recorded == expected
        rows.append(("burst", "\(recorded.count) of \(expected.count) presses recorded (\(merged) pairs within 10 ms merged) in "
                     + "\(String(format: "%.1f", seconds)) s, \(inOrder ? "all in order" : "NOT all in order")"))
        if !inOrder { failures += 1 }
        if let pid = rig.daemon?.pid { rows.append(("memory", memory(pid))) }
        rows.append(("graceful stop", String(format: "%.2f s after SIGTERM", stop)))

        // bcrypt, the hash alone (HummingbirdBcrypt, as the store uses it), at the default cost and either side.
        for cost in [PasswordHash.cost - 1, PasswordHash.cost, PasswordHash.cost + 1] {
            let times = (0..<3).map { _ in
                let t0 = monotonicNow()
                _ = PasswordHash.hash("correct horse battery", cost: cost)
                return Double(monotonicNow() - t0) / 1e6
            }
            let mark = cost == PasswordHash.cost ? " (the default)" : ""
            rows.append(("bcrypt cost \(cost)", summary(times, unit: "ms", over: "one hash, 3 runs\(mark), target 200–1000 ms at the default")))
            if cost == PasswordHash.cost, let m = times.sorted().dropFirst().first, !(200...1000).contains(m) { failures += 1 }
        }

        let width = rows.map(\.0.count).max() ?? 0
        say("RIG-BENCH marktime rig figures (QEMU TCG, Debian kernel; not measured on a Pi): median [min … max]")
        for (name, value) in rows { say("RIG-BENCH \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(value)") }
        return failures == 0 ? 0 : 1
    }

    /// A press whose timestamps are read back 0.3 s later: its kernel instant, and press→beep
    /// as the first 10 ms frame of 2 kHz after the key-down (speech before a beep is no tone).
    static func timedPress(_ rig: Rig) throws -> (t: Int64, beep: Double?) {
        let t = try rig.button.press(settle: 0.3)
        let heard = rig.capture.sound(after: t, window: 1.5)
        let run = heard?.pcm.toneRuns(hertz: 2000, frame: 480).first { $0.frames >= 6 }
        return (t, heard.flatMap { h in run.map { Double(rig.capture.time(ofSample: h.start + $0.start) - t) / 1e6 } })
    }

    /// The rows comparing presses made while the daemon was `busy` with those between them:
    /// press→durable (from the daemon's log) and press→beep, each a summary, then the ratio
    /// of their medians.
    static func comparison(_ presses: [(t: Int64, busy: Bool, beep: Double?)], rig: Rig, busy: String, without: String,
                           pressesNote: String, beepsNote: String, ratio: String) -> [(String, String)] {
        let commits = commitTimes(in: rig.daemon?.output ?? "")
        func figures(_ busy: Bool) -> (durable: [Double], beep: [Double]) {
            let these = presses.filter { $0.busy == busy }
            return (these.compactMap { commits[$0.t] }, these.compactMap(\.beep))
        }
        let (quiet, loaded) = (figures(false), figures(true))
        return [
            ("press→durable, \(busy)", summary(loaded.durable, unit: "ms", over: "\(loaded.durable.count) \(pressesNote)")),
            ("  \(without)", summary(quiet.durable, unit: "ms", over: "\(quiet.durable.count) presses between them")),
            ("press→beep, \(busy)", summary(loaded.beep, unit: "ms", over: "\(loaded.beep.count) \(beepsNote)")),
            ("  \(without)", summary(quiet.beep, unit: "ms", over: "\(quiet.beep.count) beeps, the same measure")),
            (ratio, String(format: "press→durable %.2f, press→beep %.2f (medians)",
                           median(loaded.durable) / max(median(quiet.durable), 1e-9), median(loaded.beep) / max(median(quiet.beep), 1e-9))),
        ]
    }

    /// Presses while the daemon speaks against presses without, alternated so both share the
    /// host's moment (its speed drifts under TCG). The ratios are the figures.
    static func speechRows(_ rig: Rig, into rows: inout [(String, String)], pairs: Int = 10) throws {
        let sentence = "Vega, fifty-one forty, bearing zero seven five. Deneb, sixty-two twelve, bearing zero four one."
        var presses: [(t: Int64, busy: Bool, beep: Double?)] = []
        for i in 0..<(2 * pairs) {
            let speaking = i % 2 == 1
            if let quiet = rig.capture.quiet(after: monotonicNow(), window: 0.5) { rig.capture.waitOutRing(since: quiet) }
            if speaking {
                let asked = monotonicNow()
                Doorbell.ring(store: rig.store, message: DoorbellMessage.say(sentence).text)
                guard rig.capture.sound(after: asked, window: 0.5) != nil else { continue }
            }
            let (t, beep) = try timedPress(rig)
            presses.append((t, speaking, beep))
        }
        rows += comparison(presses, rig: rig, busy: "speaking", without: "without speech", pressesNote: "presses during speech",
                           beepsNote: "beeps found inside the speech (first 2 kHz frame)", ratio: "speaking ÷ not")
    }

    /// Presses of the button's Enter while its Space is held, recording a memo, against
    /// presses without, alternated. Each held Space is let go once the Enter press is
    /// measured, and its memo kept (the pips) before the next round.
    static func memoRows(_ rig: Rig, into rows: inout [(String, String)], pairs: Int = 10) throws {
        var presses: [(t: Int64, busy: Bool, beep: Double?)] = []
        var held = 0
        let keptSoFar = { rig.daemonLog.components(separatedBy: "voice memo kept with sight").count - 1 }
        for i in 0..<(2 * pairs) {
            let recording = i % 2 == 1
            if let quiet = rig.capture.quiet(after: monotonicNow(), window: 0.5) { rig.capture.waitOutRing(since: quiet) }
            if recording {
                // Space down: a sight of its own, its beep waited out, and the capture running.
                let down = try rig.button.key(1, code: KEY_SPACE)
                if let quiet = rig.capture.quiet(after: down, window: 0.5) { rig.capture.waitOutRing(since: quiet) }
                // The held key's autorepeat fills the rig's reader: emptied before each read-back.
                rig.button.discardPending()
            }
            let (t, beep) = try timedPress(rig)
            presses.append((t, recording, beep))
            if recording {
                rig.button.discardPending()
                let before = keptSoFar()
                try rig.button.key(0, code: KEY_SPACE)
                held += 1
                // Kept before the next round; one that never comes shows in the count below.
                _ = eventually(within: 10) { keptSoFar() > before }
            }
        }
        rows += comparison(presses, rig: rig, busy: "memo recording", without: "without a memo",
                           pressesNote: "presses with Space held (\(keptSoFar()) of \(held) memos kept)",
                           beepsNote: "beeps (first 2 kHz frame)", ratio: "recording ÷ not")
    }

    /// Where the bench's stores go: the virtio-blk ext4 disk the rig gives the guest (QEMU
    /// with `cache=writeback` passes each of its flushes to the host's disk as an fdatasync),
    /// else, natively, a folder on the machine's own disk.
    static func storeFolder() -> String {
        mounts().contains { $0.point == "/tmp/store" } ? "/tmp/store/rig-bench" : "/var/tmp/marktime-rig-bench"
    }

    static func mounts() -> [(device: String, point: String, type: String)] {
        ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            return f.count >= 3 ? (String(f[0]), String(f[1]), String(f[2])) : nil
        }
    }

    /// The file system `folder` is on: its device, type and mount point.
    static func mount(of folder: String) -> String {
        let found = mounts().filter { folder == $0.point || folder.hasPrefix($0.point == "/" ? "/" : $0.point + "/") }
            .max { $0.point.count < $1.point.count }
        return found.map { "\(folder): \($0.device), \($0.type) at \($0.point)" } ?? "\(folder): unknown"
    }

    /// Key-down instant → commit milliseconds, from the daemon's "sight stored" log lines.
    static func commitTimes(in log: String) -> [Int64: Double] { logField("commit_ms", in: log) }

    /// Key-down instant → a field of the daemon's "sight stored" log lines.
    static func logField(_ wanted: String, in log: String) -> [Int64: Double] {
        var out: [Int64: Double] = [:]
        for line in log.split(separator: "\n") where line.contains("sight stored") {
            func field(_ name: String) -> Substring? {
                guard let r = line.range(of: name + "=") else { return nil }
                return line[r.upperBound...].prefix { !$0.isWhitespace }
            }
            if let m = field("monotonic_ns").flatMap({ Int64($0) }), let c = field(wanted).flatMap({ Double($0) }) { out[m] = c }
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

    /// Minor page faults so far of the daemon's thread named `thread` (its stat's 10th field).
    static func minorFaults(_ pid: pid_t, thread: String) -> Int? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == thread,
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After the name: state (field 3), ppid, pgrp, session, tty_nr, tpgid, flags, minflt (10).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 7 ? Int(fields[7]) : nil
        }
        return nil
    }

    /// Peak RSS (VmHWM), and RSS and PSS now (smaps_rollup).
    static func memory(_ pid: pid_t) -> String {
        func kb(_ file: String, _ key: String) -> Double? {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return nil }
            return Double(line.split(separator: " ").dropFirst().first ?? "")
        }
        func mib(_ v: Double?) -> String { v.map { String(format: "%.1f MiB", $0 / 1024) } ?? "unknown" }
        return "peak RSS \(mib(kb("status", "VmHWM"))), RSS \(mib(kb("smaps_rollup", "Rss"))), PSS \(mib(kb("smaps_rollup", "Pss"))) (daemon)"
    }

    /// Milliseconds per single-row insert, each its own autocommit transaction, in a WAL file with
    /// synchronous=FULL beside the store: what a sight's commit cannot beat.
    static func bareInserts(folder: String, count: Int = 50, spacing: Double) throws -> [Double] {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let path = folder + "/bare.sqlite"
        let pool = try DatabasePool(path: path, configuration: config)
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, boot TEXT, ns INTEGER, utc INTEGER)")
        }
        var out: [Double] = []
        for i in 0..<count {
            let start = monotonicNow()
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO t (boot, ns, utc) VALUES (?, ?, ?)", arguments: ["bench", i, i])
            }
            out.append(Double(monotonicNow() - start) / 1e6)
            Thread.sleep(forTimeInterval: spacing)
        }
        return out
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Milliseconds per `AppDatabase.insert` of `sights` into a fresh store beside the
    /// daemon's, spaced as the presses are: the store's share of press→durable.
    static func storeInserts(folder: String, like sights: [Sight], spacing: Double, file: String = "store-insert.sqlite") throws -> [Double] {
        let store = try AppDatabase(path: folder + "/" + file, createDirectory: false)
        var out: [Double] = []
        for s in sights {
            out.append(try storeInsert(s, into: store))
            Thread.sleep(forTimeInterval: spacing)
        }
        return out
    }

    /// Milliseconds for `AppDatabase.insert` of `s` as a new row.
    static func storeInsert(_ s: Sight, into store: AppDatabase) throws -> Double {
        var s = s; s.id = nil
        let start = monotonicNow()
        _ = try store.insert(s)
        return Double(monotonicNow() - start) / 1e6
    }

    /// Milliseconds per insert of `sights` (new boot id, same columns) into a fresh store of
    /// marktime's schema beside the daemon's: one prepared INSERT in autocommit, synchronous=FULL.
    static func bareSightInserts(folder: String, like sights: [Sight], spacing: Double, file: String = "bare-sight.sqlite") throws -> [Double] {
        let pool = try bareSightPool(path: folder + "/" + file)
        var out: [Double] = []
        for s in sights {
            out.append(try bareSightInsert(s, into: pool))
            Thread.sleep(forTimeInterval: spacing)
        }
        return out
    }

    /// A fresh file of marktime's schema, opened by plain GRDB with synchronous=FULL.
    /// With `growWAL`, its WAL grown as the daemon's (`reserveWAL`); else emptied, as a new
    /// file's is, so that each commit grows it.
    static func bareSightPool(path: String, growWAL: Bool = false) throws -> DatabasePool {
        do {
            let store = try AppDatabase(path: path, createDirectory: false)
            if growWAL { try store.reserveWAL() }
        }
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(path: path, configuration: config)
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            if !growWAL { _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        return pool
    }

    /// Milliseconds for one prepared INSERT of `s`'s columns (boot "bare"), in autocommit.
    static func bareSightInsert(_ s: Sight, into pool: DatabasePool) throws -> Double {
        let provenance = s.estimate.provenance.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        let start = monotonicNow()
        try pool.writeWithoutTransaction { db in
            try db.cachedStatement(sql: """
                INSERT INTO sight (boot_id, monotonic_ns, utc_ns, source, uncertainty_s, provenance, gps_lat, gps_lon, fix_mode,
                    fix_age_s, created_at_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: ["bare", s.instant.nanoseconds, s.estimate.utc.nanosecondsSinceEpoch, s.estimate.source.rawValue,
                                         s.estimate.uncertainty, provenance, s.position?.latitude, s.position?.longitude, s.fixMode,
                                         s.fixAge, s.createdAt.nanosecondsSinceEpoch])
        }
        return Double(monotonicNow() - start) / 1e6
    }

    /// The daemon's fsync-family calls (strace) and writes (/proc/PID/io, the store's size) over `seconds`.
    static func idleWrites(_ pid: pid_t, seconds: Int, folder: String) throws -> (syncs: Int, blockBytes: Int, storeBytes: Int) {
        func io() -> Int {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").first { $0.hasPrefix("write_bytes:") }
                .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
        func storeSize() -> Int {
            ["marktime.sqlite", "marktime.sqlite-wal"].reduce(0) { total, name in
                total + ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
            }
        }
        let (io0, size0) = (io(), storeSize())
        let out = folder + "/strace.txt"
        _ = try runCommand("/usr/bin/timeout", ["-s", "INT", "\(seconds)", "/usr/bin/strace", "-f", "-c", "-o", out,
                                                    "-e", "trace=fsync,fdatasync,sync_file_range", "-p", "\(pid)"], environment: [:])
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let syncs = text.split(separator: "\n").reduce(0) { total, line in
            let f = line.split(separator: " ")
            guard let name = f.last, ["fsync", "fdatasync", "sync_file_range"].contains(name), f.count >= 5, let n = Int(f[3]) else { return total }
            return total + n
        }
        return (syncs, io() - io0, storeSize() - size0)
    }
}
