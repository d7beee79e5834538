import Foundation
import GRDB
import RigSupport
import Testing

/// The real daemon under a second daemon, signals and a hard kill: one daemon per store,
/// and `status` tells running from stopped by the daemon's lock. No gpsd, button or sound.
@Suite("The daemon's lock and signals", .serialized, .tags(.daemonProcess))
struct DaemonSignalTests {
    let cli = CLI()

    init() throws {
        let r = try cli.run(["config", "set", "sound.enabled", "false"], storeFlag: false)
        precondition(r.status == 0, r.stderr)
    }

    func startDaemon() throws -> DaemonProcess {
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        #expect(try eventually(within: 20) { daemon.log.contains("marktime daemon started") }, "\(daemon.log)")
        return daemon
    }

    func status() throws -> [String: Any] { try cli.json(["status"]) as? [String: Any] ?? [:] }

    func daemonLine() throws -> String {
        try cli.run(["status"]).stdout.split(separator: "\n").first { $0.hasPrefix("daemon") }.map(String.init) ?? ""
    }

    @Test("A second daemon on the same store is refused by the first one's pid, and the first runs on")
    func aSecondDaemonIsRefused() throws {
        // Given a daemon on the store
        let first = try startDaemon()
        // When a second one starts on it
        let second = try cli.run(["daemon", "--no-web", "--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        // Then it exits 1 naming the first and the store, and the first still runs
        #expect(second.status == 1)
        #expect(second.stderr == "Error: another marktime daemon (pid \(first.child.pid)) runs on store \(cli.store): "
            + "stop it first (`sudo systemctl stop marktime`), or give this one another --store\n")
        let s = try status()
        #expect(s["daemon_running"] as? Bool == true)
        #expect(s["daemon_pid"] as? Int == Int(first.child.pid))
        first.stop()
    }

    @Test("After a kill -9, status says the daemon is not running, though its status file was never closed")
    func aKilledDaemonIsNotRunning() throws {
        let daemon = try startDaemon()
        #expect(try status()["daemon_running"] as? Bool == true)
        daemon.child.stop(SIGKILL)
        #expect(try status()["daemon_running"] as? Bool == false)
        #expect(try daemonLine().hasPrefix("daemon    not running: it ended without stopping (last heartbeat "))
    }

    @Test("A daemon stopped with SIGSTOP is running but silent, and says so")
    func aStoppedDaemonIsSilent() throws {
        let daemon = try startDaemon()
        kill(daemon.child.pid, SIGSTOP)
        defer { kill(daemon.child.pid, SIGCONT); daemon.stop() }
        #expect(try eventually(within: 30) { try daemonLine().hasPrefix("daemon    running but silent: no heartbeat for ") }, "\((try? daemonLine()) ?? "")")
        #expect(try status()["daemon_running"] as? Bool == true)
    }

    @Test("SIGHUP reloads the config: the button's debounce at once, gpsd's address after a restart")
    func sighupReloads() throws {
        // Given a daemon, and two keys changed in its config
        let daemon = try startDaemon()
        #expect(try cli.run(["config", "set", "button.debounce_ms", "50"], storeFlag: false).status == 0)
        #expect(try cli.run(["config", "set", "gpsd.address", "localhost:2948"], storeFlag: false).status == 0)
        // When it gets SIGHUP
        kill(daemon.child.pid, SIGHUP)
        // Then it logs what it took and what waits, and runs on
        #expect(try eventually(within: 10) {
            daemon.log.contains("after_restart=gpsd.address applied=button.debounce_ms [MarkTimeDaemon] config reloaded; some changes wait for a restart")
        }, "\(daemon.log)")
        #expect(daemon.child.isRunning)
        #expect(try status()["daemon_running"] as? Bool == true)
        daemon.stop()
    }

    @Test("SIGHUP with a config that does not load keeps the daemon's settings")
    func sighupWithABrokenConfig() throws {
        let daemon = try startDaemon()
        try "[button]\ndebounce_ms = \"fast\n".write(toFile: cli.config, atomically: true, encoding: .utf8)
        kill(daemon.child.pid, SIGHUP)
        #expect(try eventually(within: 10) { daemon.log.contains("config not reloaded; the daemon keeps its settings") }, "\(daemon.log)")
        #expect(daemon.child.isRunning)
        daemon.stop()
    }

    @Test("SIGUSR1 is logged and ignored; SIGQUIT stops the daemon as SIGTERM does, without a backtrace")
    func sigusr1AndSigquit() throws {
        let daemon = try startDaemon()
        kill(daemon.child.pid, SIGUSR1)
        #expect(try eventually(within: 10) { daemon.log.contains("SIGUSR1 ignored: SIGHUP reloads the config, SIGTERM stops the daemon") }, "\(daemon.log)")
        #expect(daemon.child.isRunning)
        kill(daemon.child.pid, SIGQUIT)
        #expect(eventually(within: 10) { !daemon.child.isRunning })
        #expect(daemon.child.exitedCleanly)
        #expect(daemon.log.contains("marktime daemon stopped"))
        #expect(!daemon.log.contains("Crash"))
        #expect(try status()["daemon_running"] as? Bool == false)
        #expect(try daemonLine().hasPrefix("daemon    stopped ("))
    }

    @Test("SIGTERM while the daemon is still starting (waiting for the store's write lock) stops it cleanly once it can")
    func aStopDuringTheStart() throws {
        // Given a store whose write lock this test holds, and a daemon starting on it
        _ = try cli.database()
        let queue = try DatabaseQueue(path: cli.store)
        let daemon = try queue.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
            #expect(eventually(within: 20) { !daemon.log.isEmpty })
            // When SIGTERM comes while it waits for the lock
            kill(daemon.child.pid, SIGTERM)
            #expect(eventually(within: 20) { !daemon.child.isRunning || Self.noSignalPending(daemon.child.pid) })
            return daemon
        }
        // Then, the lock released, it starts, stops as it always does, and exits 0
        #expect(eventually(within: 30) { !daemon.child.isRunning })
        #expect(daemon.child.exitedCleanly, "\(daemon.log)")
        #expect(daemon.log.contains("marktime daemon stopped"), "\(daemon.log)")
    }

    /// Whether the kernel has delivered every signal sent to `pid` (none pending).
    static func noSignalPending(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let pending = status.split(separator: "\n").filter { $0.hasPrefix("SigPnd:") || $0.hasPrefix("ShdPnd:") }
        return pending.count == 2 && pending.allSatisfy { $0.split(separator: "\t").last.map { Int($0, radix: 16) == 0 } ?? false }
    }

    @Test("A store moved away under the daemon is reported, refused to the CLI, and used again when it is back")
    func aStoreMovedAwayAndBack() throws {
        // Given a daemon on a store with one sight
        #expect(try cli.run(["mark"]).status == 0)
        let daemon = try startDaemon()
        // When the store is moved away
        let aside = cli.folder + "/aside.sqlite"
        try FileManager.default.moveItem(atPath: cli.store, toPath: aside)
        // Then the daemon says so, and the CLI neither lists an empty store nor makes a new one
        #expect(try eventually(within: 10) { daemon.log.contains("the store is gone from its path") }, "\(daemon.log)")
        let refusal = "Error: the store \(cli.store) is gone while the daemon (pid \(daemon.child.pid)) still runs on it: presses wait in "
            + "\(cli.store)-pending.jsonl; restore the store from a backup, or restart the daemon (`sudo systemctl restart marktime`) to start a new one\n"
        let shown = try cli.run(["status"]), marked = try cli.run(["mark"])
        #expect(shown.status == 1)
        #expect(shown.stderr == refusal)
        #expect(marked.status == 1)
        #expect(marked.stderr == refusal)
        #expect(!FileManager.default.fileExists(atPath: cli.store))
        // When it is moved back, the daemon runs on with it
        try FileManager.default.moveItem(atPath: aside, toPath: cli.store)
        #expect(try eventually(within: 10) { try cli.run(["status"]).status == 0 })
        #expect(try status()["daemon_running"] as? Bool == true)
        #expect(try status()["sights"] as? Int == 1)
        daemon.stop()
        #expect(daemon.child.exitedCleanly)
    }

    @Test("Another file put at the store's path stops the daemon with a non-zero status, to be started on it")
    func aReplacedStoreStopsTheDaemon() throws {
        #expect(try cli.run(["mark"]).status == 0)
        let daemon = try startDaemon()
        // When a copy replaces the store (a restore from a backup)
        let copy = cli.folder + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: cli.store, toPath: copy)
        try FileManager.default.removeItem(atPath: cli.store)
        try FileManager.default.moveItem(atPath: copy, toPath: cli.store)
        // Then the daemon says so and exits 1, which systemd's Restart=on-failure restarts
        #expect(eventually(within: 20) { !daemon.child.isRunning }, "\(daemon.log)")
        #expect(daemon.log.contains("another file is at the store's path: the daemon stops"))
        #expect(daemon.log.contains("Error: the store at \(cli.store) was replaced while the daemon ran"))
        #expect(daemon.child.exitStatus.map { ($0 >> 8) & 0xff } == 1)
    }

    /// Whether this machine lets the test mark a file immutable (root, on ext4 and the like).
    static let canFreeze: Bool = {
        let probe = NSTemporaryDirectory() + "marktime-chattr-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: probe, contents: nil)
        defer { _ = try? runCommand("/usr/bin/chattr", ["-i", probe], environment: [:]); try? FileManager.default.removeItem(atPath: probe) }
        return (try? runCommand("/usr/bin/chattr", ["+i", probe], environment: [:]).status) == 0
    }()

    @Test("A store whose shared memory is made immutable is written no more, and the daemon stops without SIGBUS",
          .enabled(if: canFreeze, "needs chattr +i: root on ext4"))
    func anImmutableSharedMemoryFile() throws {
        #expect(try cli.run(["mark"]).status == 0)
        let daemon = try startDaemon()
        let shm = cli.store + "-shm"
        #expect(try runCommand("/usr/bin/chattr", ["+i", shm], environment: [:]).status == 0)
        defer { _ = try? runCommand("/usr/bin/chattr", ["-i", shm], environment: [:]) }
        #expect(try eventually(within: 10) { daemon.log.contains("the store's files are immutable or append-only (chattr)") }, "\(daemon.log)")
        daemon.stop()
        #expect(daemon.child.exitedCleanly, "status \(daemon.child.exitStatus.map(String.init) ?? "none"): \(daemon.log.suffix(400))")
        _ = try runCommand("/usr/bin/chattr", ["-i", shm], environment: [:])
        #expect(try status()["sights"] as? Int == 1)
    }

    /// Whether this machine lets the test mount a small tmpfs (root).
    static let canMount: Bool = {
        let probe = NSTemporaryDirectory() + "marktime-mount-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { _ = try? runCommand("/bin/umount", [probe], environment: [:]); try? FileManager.default.removeItem(atPath: probe) }
        return (try? runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], environment: [:]).status) == 0
    }()

    @Test("With the status file's disk full, status still says the daemon runs, and why it is silent",
          .enabled(if: canMount, "needs to mount a tmpfs: root"))
    func aFullStatusDisk() throws {
        // Given the runtime folder on a 64 KiB tmpfs, filled up
        let runtime = cli.folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        #expect(try runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", runtime], environment: [:]).status == 0)
        defer { _ = try? runCommand("/bin/umount", ["-l", runtime], environment: [:]) }
        let filler = runtime + "/filler"
        _ = try? runCommand("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4k", "count=64"], environment: [:])
        // When the daemon runs there
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"],
                                       environment: ["RUNTIME_DIRECTORY": runtime])
        defer { daemon.stop() }
        // Then it logs the failure once, and status says it runs but is silent, naming the full disk
        #expect(try eventually(within: 20) { daemon.log.contains("cannot write the status file") }, "\(daemon.log)")
        #expect(try eventually(within: 30) { try daemonLine().contains("running but silent") }, "\((try? daemonLine()) ?? "")")
        #expect(try daemonLine().contains("or cannot write its status file (a full disk)"))
        #expect(daemon.log.components(separatedBy: "cannot write the status file").count == 2, "\(daemon.log)")
        // When space is freed, the status file is written again and status shows the heartbeat
        try FileManager.default.removeItem(atPath: filler)
        #expect(try eventually(within: 20) { daemon.log.contains("the status file is written again") }, "\(daemon.log)")
        #expect(try eventually(within: 20) { try daemonLine().hasPrefix("daemon    running (heartbeat ") }, "\((try? daemonLine()) ?? "")")
    }
}

