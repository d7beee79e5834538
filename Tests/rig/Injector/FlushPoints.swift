import Foundation
import GRDB
import MarkTimeCore
import MarkTimeStore
import RigSupport

/// The flush-point scenario (`Tests/rig/run flushpoints`): every state a power cut can leave
/// on the store's disk, rebuilt from the kernel's record of the writes.
///
/// `record` runs the daemon on ext4 over a `dm-log-writes` device (/dev/vda logged to
/// /dev/vdb) and marks the log when each press is acknowledged: its beep heard, or, for
/// a press the store could not take, its buzz (it is then in the pending-presses file);
/// and when a CLI edit has returned. `check` replays that log onto a copy of the disk as
/// it was before (/dev/vda again) up to each flush and FUA entry, mounts a snapshot of it
/// (copy-on-write on /dev/vdc, so ext4's recovery leaves the replay untouched), and
/// checks what each mark promised, then starts the daemon there.
enum FlushPoints {
    static let data = "/dev/vda", logDevice = "/dev/vdb", cow = "/dev/vdc"
    static let folder = "/tmp/store"
    static let store = folder + "/marktime.sqlite"

    // MARK: the session

    static func record(marktime: String, nmea: String?, presses: Int) throws -> Int32 {
        let sectors = try system("blockdev", ["--getsz", data]).trimmingCharacters(in: .whitespacesAndNewlines)
        try system("dmsetup", ["create", "logged", "--table", "0 \(sectors) log-writes \(data) \(logDevice)"])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try system("mount", ["-t", "ext4", "/dev/mapper/logged", folder])
        try mark("start")
        let rig = try Rig(marktime: marktime, nmea: nmea, folder: "/tmp/rig-flushpoints", store: store)
        try rig.startDaemon()
        say("# the capture ring: \(rig.capture.ringNanoseconds / 1_000_000) ms")
        var acknowledged = 0, edits = 0, pendingPresses = 0, lastSound = monotonicNow()
        for i in 1...presses {
            // More than one capture ring after the last sound, so no beep can be taken for
            // a stale re-read of the one before (LoopbackCapture.isStale).
            rig.capture.waitOutRing(since: lastSound)
            if i == presses / 5 || i == presses * 4 / 5 {
                // A press the store refuses (another process holds its write lock): its
                // buzz says it is in the pending-presses file.
                let release = try holdWriteLock(store)
                let t = try rig.button.press()
                let buzz = rig.capture.tone(after: t, window: 1.2, timeout: 20)
                lastSound = buzz?.bursts.last?.start ?? monotonicNow()
                let pending = PendingPresses(storePath: store).load().first { $0.instant.nanoseconds == t }
                if isTone(buzz, hertz: 400, count: 1, milliseconds: 1000), let pending {
                    try mark(sightMark(pending))
                    acknowledged += 1
                    pendingPresses += 1
                } else {
                    rig.check(false, "press \(i), refused by the store, buzzes and waits in the pending-presses file", describe(buzz, after: t))
                }
                let released = monotonicNow()
                release()
                // It lands with the ok beep, heard out before the next press.
                let ok = rig.capture.tone(after: released, timeout: 30)
                lastSound = ok?.bursts.last?.start ?? monotonicNow()
                let landed = try eventually(within: 30) { try rig.sights().contains { $0.instant.nanoseconds == t } }
                rig.check(landed && isDoubleBeep(ok), "press \(i) lands from the pending-presses file once the lock is gone, with the ok beep",
                          "landed \(landed), heard \(describe(ok, after: released))")
                continue
            }
            let t = try rig.button.press()
            let heard = rig.capture.tone(after: t)
            lastSound = heard?.bursts.last?.start ?? monotonicNow()
            guard isDoubleBeep(heard), let sight = try rig.sights().last(where: { $0.instant.nanoseconds == t }) else {
                rig.check(false, "press \(i) is stored and beeps", describe(heard, after: t))
                continue
            }
            try mark(sightMark(sight))
            acknowledged += 1
            if i % 20 == 10, let id = sight.id {
                // An edit from the CLI: acknowledged when the command returns.
                try rig.cli(["sight", "edit", "\(id)", "--note", "edit-\(i)", "--store", store])
                try mark("e:\(id):edit-\(i)")
                edits += 1
            }
            if i == presses / 2 {
                var configuration = Configuration()
                configuration.busyMode = .timeout(30)
                let (frames, done) = try DatabaseQueue(path: store, configuration: configuration).writeWithoutTransaction {
                    try $0.checkpoint(.truncate)
                }
                try mark("checkpoint")
                say("# checkpoint after press \(i): \(done) of \(frames) WAL frames copied, the WAL truncated")
            }
        }
        rig.tearDown()
        try system("umount", [folder])
        let status = try system("dmsetup", ["status", "logged"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try removeDevice("logged")
        say("RIG-FLUSHPOINTS presses: \(presses)  acknowledged: \(acknowledged) (\(pendingPresses) through the pending-presses file)"
            + "  edits: \(edits)  log: \(status)")
        rig.check(acknowledged == presses, "every press was acknowledged", "\(acknowledged) of \(presses)")
        return rig.failures == 0 ? 0 : 1
    }

    /// `s:<ns>:<latitude>:<longitude>`, the coordinates as their exact bits.
    static func sightMark(_ sight: Sight) -> String {
        let bits = { (v: Double?) in v.map { String($0.bitPattern, radix: 16) } ?? "-" }
        return "s:\(sight.instant.nanoseconds):\(bits(sight.position?.latitude)):\(bits(sight.position?.longitude))"
    }

    static func mark(_ text: String) throws {
        try system("dmsetup", ["message", "logged", "0", "mark", text])
    }

    // MARK: the replay

    /// `points`: how many states to check, spread over the log (0: all of them).
    static func check(marktime: String, points: Int, only: Int?, tornEvery: Int, seed: UInt64) throws -> Int32 {
        let logFD = open(logDevice, O_RDONLY), device = open(data, O_RDWR)
        guard logFD >= 0, device >= 0 else { throw RigError("cannot open \(logDevice) and \(data): errno \(errno)") }
        defer { close(logFD); close(device) }
        let log = try WriteLog { offset, count in try readBytes(logFD, at: offset, count: count) }
        var random = SeededRandom(seed: seed)
        let all = log.crashStates(tornEvery: tornEvery, random: &random)
        // Split up for Debian's Swift 6.2 (the arm64 cross build), which cannot type-check it whole in release.
        let spread: [WriteLog.CrashState] = points > 0 && points < all.count
            ? (0..<points).map { (k: Int) -> WriteLog.CrashState in all[k * (all.count - 1) / max(points - 1, 1)] } : all
        let chosen: [WriteLog.CrashState] = only.map { n in all.filter { $0.through == n } } ?? spread
        let marks: [String] = log.entries.compactMap(\.mark)
        let presses = marks.filter { $0.hasPrefix("s:") }.count, edits = marks.filter { $0.hasPrefix("e:") }.count
        let torn = all.filter { !$0.torn.isEmpty }.count
        say("# log: \(log.entries.count) entries, \(log.durabilityPoints.count) flush and FUA points, \(presses) presses"
            + " and \(edits) edits acknowledged; \(all.count) states (\(torn) torn), checking \(chosen.count)")
        let sectors = try system("blockdev", ["--getsz", data]).trimmingCharacters(in: .whitespacesAndNewlines)
        let config = "/tmp/rig-flushpoints/config.toml"
        for path in ["/tmp/rig-flushpoints", folder] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        // No RTC reading: one waits for the edge of a second, which held up each daemon's stop
        // by up to a second (a minute over 60 states), and the RTC is not what is checked here.
        for (key, value) in [("sound.device", "plughw:Loopback,0"), ("button.grab", "false"), ("clock.trust_system", "false"), ("clock.rtc", "")] {
            _ = try runCommand(marktime, ["config", "set", key, value, "--config", config], environment: environment)
        }
        var phases = Phases()
        var applied = -1, checkedPoints = 0, checkedTorn = 0, sightsChecked = 0, lost = 0, failures = 0
        for state in chosen {
            var t = monotonicNow()
            while applied < state.through {
                applied += 1
                try apply(log.entries[applied], from: logFD, sectorSize: log.sectorSize, to: device)
            }
            guard fsync(device) == 0 else { throw RigError("fsync \(data): errno \(errno)") }
            try system("dmsetup", ["create", "replayed", "--table", "0 \(sectors) snapshot \(data) \(cow) N 8"])
            defer { try? removeDevice("replayed") }
            if !state.torn.isEmpty {
                let snapshot = open("/dev/mapper/replayed", O_RDWR)
                guard snapshot >= 0 else { throw RigError("cannot open the snapshot: errno \(errno)") }
                for index in state.torn { try apply(log.entries[index], from: logFD, sectorSize: log.sectorSize, to: snapshot) }
                fsync(snapshot)
                close(snapshot)
            }
            let name = "entry \(state.through)" + (state.torn.isEmpty ? "" : " and \(state.torn.count) torn writes after it")
            phases.replay += monotonicNow() - t
            t = monotonicNow()
            let result = try checkState(state, marktime: marktime, config: config, phases: &phases)
            phases.total += monotonicNow() - t
            sightsChecked += result.sights
            lost += result.lost.count
            if state.torn.isEmpty { checkedPoints += 1 } else { checkedTorn += 1 }
            if result.problems.isEmpty {
                say("ok - \(name): \(result.sights) sights and \(result.edits) edits there\(result.pending > 0 ? ", \(result.pending) from the pending-presses file" : "")")
            } else {
                failures += 1
                say("not ok - \(name): " + result.problems.joined(separator: "; "))
            }
        }
        let n = Double(max(chosen.count, 1)) * 1e9
        say(String(format: "# seconds a state: %.2f to replay and snapshot, %.2f to mount and check, %.2f for the daemon's start and %.2f for its stop",
                   Double(phases.replay) / n, Double(phases.total - phases.daemon) / n, Double(phases.daemon - phases.stop) / n, Double(phases.stop) / n))
        say("RIG-FLUSHPOINTS flush points: \(checkedPoints)  torn states: \(checkedTorn)  sights checked: \(sightsChecked)  lost: \(lost)")
        return failures == 0 && !chosen.isEmpty ? 0 : 1
    }

    /// Where a check's time goes, in nanoseconds summed over the states.
    struct Phases { var replay: Int64 = 0, total: Int64 = 0, daemon: Int64 = 0, stop: Int64 = 0 }

    struct StateResult {
        var sights = 0, edits = 0, pending = 0
        var lost: [String] = []
        var problems: [String] = []
    }

    /// Mounts the snapshot (ext4 recovers its journal), checks the store against the
    /// marks, starts the daemon there and checks again.
    static func checkState(_ state: WriteLog.CrashState, marktime: String, config: String, phases: inout Phases) throws -> StateResult {
        var result = StateResult()
        let mounted = try runCommand("/bin/mount", ["-t", "ext4", "/dev/mapper/replayed", folder], environment: environment)
        guard mounted.status == 0 else {
            let kernel = (try? system("dmesg", []))?.split(separator: "\n").suffix(3).joined(separator: " | ") ?? ""
            result.problems.append("ext4 does not mount: \(mounted.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) (kernel: \(kernel))")
            return result
        }
        defer { _ = try? system("umount", [folder]) }
        let presses = state.marks.filter { $0.hasPrefix("s:") }
        let edits = state.marks.filter { $0.hasPrefix("e:") }
        result.sights = presses.count
        result.edits = edits.count
        let exists = FileManager.default.fileExists(atPath: store)
        let pending = PendingPresses(storePath: store).load()
        result.pending = pending.count
        if exists {
            compare(try AppDatabase(path: store, createDirectory: false), presses: presses, edits: edits, pending: pending, into: &result)
        } else if !presses.isEmpty {
            result.lost = presses.filter { p in !pending.contains { sightMark($0) == p } }
            if !result.lost.isEmpty { result.problems.append("no store, and \(result.lost.count) acknowledged presses are not pending") }
        }
        // The daemon starts on this disk, and what waited in the pending-presses file lands.
        let daemonStarted = monotonicNow()
        defer { phases.daemon += monotonicNow() - daemonStarted }
        let daemon = try Child(marktime, ["daemon", "--no-web", "--store", store, "--config", config, "--gpsd", "127.0.0.1:9"],
                               log: "/tmp/rig-flushpoints/daemon.log", environment: environment)
        let started = eventually(within: 120) {
            daemon.output.contains("marktime daemon started") && PendingPresses(storePath: store).isEmpty || !daemon.isRunning
        }
        let stopping = monotonicNow()
        daemon.stop()
        phases.stop += monotonicNow() - stopping
        guard started, daemon.exitedCleanly else {
            let left = PendingPresses(storePath: store).load().map(sightMark)
            result.problems.append("the daemon did not start, land its pending presses (\(left.joined(separator: ", "))) and stop cleanly: "
                + daemon.output.split(separator: "\n").suffix(12).joined(separator: " | "))
            return result
        }
        var after = StateResult()
        compare(try AppDatabase(path: store, createDirectory: false), presses: presses, edits: edits, pending: [], into: &after)
        result.problems += after.problems.map { "after the daemon ran: " + $0 }
        if result.lost.isEmpty { result.lost = after.lost }
        return result
    }

    /// Every acknowledged press is in the store (or in `pending`) with its exact instant and
    /// position, every acknowledged edit is there, and SQLite finds the file sound.
    static func compare(_ db: AppDatabase, presses: [String], edits: [String], pending: [Sight], into result: inout StateResult) {
        do {
            let integrity = try db.integrityCheck()
            if integrity != "ok" { result.problems.append("PRAGMA integrity_check: \(integrity)") }
            let sights = try db.sights()
            let instants = sights.map(\.instant)
            if Set(instants).count != instants.count { result.problems.append("a press is stored twice") }
            let stored = Set((sights + pending).map(sightMark))
            result.lost = presses.filter { !stored.contains($0) }
            if !result.lost.isEmpty { result.problems.append("\(result.lost.count) acknowledged presses lost: \(result.lost.prefix(3).joined(separator: ", "))") }
            let notes = Dictionary(sights.compactMap { s in s.id.map { ($0, s.note) } }, uniquingKeysWith: { a, _ in a })
            for edit in edits {
                let parts = edit.split(separator: ":")
                let there = parts.count == 3 && Int64(parts[1]).map { notes[$0] == String(parts[2]) } == true
                if !there { result.problems.append("the acknowledged edit \(edit) is not there") }
            }
        } catch {
            result.problems.append("the store cannot be read: \(error)")
        }
    }

    // MARK: the devices

    /// Writes `entry`'s data (zeros for a discard) where it wrote on the device.
    static func apply(_ entry: WriteLog.Entry, from log: Int32, sectorSize: Int, to device: Int32) throws {
        guard entry.sectors > 0, !entry.flags.contains(.mark) else { return }
        let count = Int(entry.sectors) * sectorSize
        let bytes = entry.flags.contains(.discard) ? [UInt8](repeating: 0, count: count) : try readBytes(log, at: entry.dataOffset, count: count)
        let written = bytes.withUnsafeBytes { pwrite(device, $0.baseAddress, count, off_t(entry.sector) * off_t(sectorSize)) }
        guard written == count else { throw RigError("replaying entry \(entry.index): wrote \(written) of \(count) bytes, errno \(errno)") }
    }

    static func readBytes(_ fd: Int32, at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            guard n > 0 else { throw RigError("reading the log at byte \(offset): errno \(errno)") }
            done += n
        }
        return bytes
    }

    /// `dmsetup remove`, again while the device is still busy after an unmount.
    static func removeDevice(_ name: String) throws {
        for _ in 0..<50 {
            if (try? system("dmsetup", ["remove", name])) != nil { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        try system("dmsetup", ["remove", name])
    }

    /// What the tools run with: no udev in the guest, so libdevmapper makes /dev/mapper's nodes.
    static let environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "DM_DISABLE_UDEV": "1"]

    /// Runs a system tool; its standard output, or an error with its standard error.
    @discardableResult
    static func system(_ tool: String, _ args: [String]) throws -> String {
        let path = ["/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"].map { $0 + tool }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? tool
        let r = try runCommand(path, args, environment: environment)
        guard r.status == 0 else { throw RigError("\(tool) \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout
    }
}
