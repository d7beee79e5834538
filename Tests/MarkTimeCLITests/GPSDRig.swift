import Foundation

/// A child process in its own session (posix_spawn with POSIX_SPAWN_SETSID), so that
/// stopping it also stops what it started (gpsfake's gpsd). Signals start at their
/// defaults whatever the test runner's threads block. Output goes to a file.
final class Child {
    let pid: pid_t
    let log: String
    private(set) var exitStatus: Int32?

    init(_ executable: String, _ arguments: [String], log: String, environment: [String: String]) throws {
        self.log = log
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID, glibc 2.26+; not imported into Swift
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setsid))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
        self.pid = pid
    }

    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exitStatus = status
        return false
    }

    /// Sends `signal` to the child's session and waits for the child, at most 10 s
    /// before SIGKILL. Returns the seconds it took.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Double {
        let start = Date()
        guard isRunning else { return 0 }
        kill(-pid, signal)
        if !eventually(within: 10, { !isRunning }) {
            kill(-pid, SIGKILL)
            _ = eventually(within: 10, { !isRunning })
        }
        return Date().timeIntervalSince(start)
    }

    /// Whether it exited by itself with status 0.
    var exitedCleanly: Bool { exitStatus.map { $0 & 0x7f == 0 && ($0 >> 8) & 0xff == 0 } ?? false }

    deinit { stop(SIGKILL) }
}

/// gpsd fed by gpsfake on a private port, looping an NMEA log the test wrote.
final class FakeGPS {
    let port: UInt16
    let child: Child

    /// A log of RMC and GGA sentences, one pair per second from `start` (hhmmss),
    /// dated `date` (ddmmyy), at 27° 22'.84 S 153° 22'.84 E.
    static func log(date: String = "140325", seconds: Int = 60) -> String {
        (0..<seconds).map { i in
            let t = String(format: "10%02d%02d.00", i / 60, i % 60)
            return [
                "GPRMC,\(t),A,2722.840,S,15322.840,E,000.0,000.0,\(date),,,A",
                "GPGGA,\(t),2722.840,S,15322.840,E,1,08,0.9,12.0,M,39.0,M,,",
            ].map(sentence).joined()
        }.joined()
    }

    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$\(body)*\(String(format: "%02X", sum))\r\n"
    }

    /// Starts gpsfake on `port` (a free one when nil) with `log` written to `folder`, at two
    /// sentences a second, so that log time runs at the real rate.
    init(folder: String, port: UInt16? = nil, log: String = FakeGPS.log()) throws {
        self.port = try port ?? FakeGPS.freePort()
        let file = folder + "/gps-\(self.port).nmea"
        try log.write(toFile: file, atomically: true, encoding: .utf8)
        child = try Child("/usr/bin/gpsfake", ["-q", "-c", "0.5", "-P", "\(self.port)", file],
                          log: folder + "/gpsfake-\(self.port).log",
                          environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"])
    }

    var address: String { "127.0.0.1:\(port)" }

    /// Kills gpsfake and its gpsd at once, as a crash would.
    func kill() { child.stop(SIGKILL) }

    /// A TCP port nobody listens on right now.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return UInt16(bigEndian: addr.sin_port)
    }
}

/// `marktime daemon` on a test's store, config and gpsd.
final class DaemonProcess {
    let child: Child

    init(cli: CLI, arguments: [String], environment: [String: String] = [:]) throws {
        child = try Child(CLI.binary, ["daemon", "--store", cli.store] + arguments,
                          log: cli.folder + "/daemon.log", environment: cli.environment.merging(environment) { $1 })
    }

    var log: String { child.output }

    /// SIGTERM, as systemd stops it; returns the seconds it took to exit.
    @discardableResult
    func stop() -> Double { child.stop(SIGTERM) }
}

/// Polls `condition` every 100 ms until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.1)
    } while Date() < deadline
    return try condition()
}
