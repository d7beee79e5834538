import Foundation

/// A child process in its own session (posix_spawn with POSIX_SPAWN_SETSID), so that
/// stopping it also stops what it started (gpsfake's gpsd). Signals start at their
/// defaults whatever the test runner's threads block. Output goes to a file.
public final class Child {
    public let pid: pid_t
    public let log: String
    public private(set) var exitStatus: Int32?

    public init(_ executable: String, _ arguments: [String], log: String, environment: [String: String]) throws {
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

    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    public var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exitStatus = status
        return false
    }

    /// Sends `signal` to the child's session and waits for the child, at most 10 s
    /// before SIGKILL. Returns the seconds it took.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM) -> Double {
        let start = ContinuousClock.now
        guard isRunning else { return 0 }
        kill(-pid, signal)
        if !eventually(within: 10, { !isRunning }) {
            kill(-pid, SIGKILL)
            _ = eventually(within: 10, { !isRunning })
        }
        let took = (ContinuousClock.now - start).components
        return Double(took.seconds) + Double(took.attoseconds) / 1e18
    }

    /// Whether it exited by itself with status 0.
    public var exitedCleanly: Bool { exitStatus.map { $0 & 0x7f == 0 && ($0 >> 8) & 0xff == 0 } ?? false }

    deinit { stop(SIGKILL) }
}

/// What a finished command printed, and how it ended.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `executable ARGS` to the end with stdin from `input` (else /dev/null), collecting
/// both outputs (standard error on its own thread, so neither pipe can fill up and stall the child).
public func runCommand(_ executable: String, _ arguments: [String], environment: [String: String],
                       input: String? = nil) throws -> CommandResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    p.environment = environment
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let stdin = input.map { _ in Pipe() }
    p.standardInput = stdin ?? FileHandle.nullDevice
    try p.run()
    if let input, let stdin {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let errors = FileHandleReader(err.fileHandleForReading)
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = errors.wait()
    p.waitUntilExit()
    return CommandResult(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
}

/// Reads a file handle to its end on a thread of its own.
private final class FileHandleReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// How many times longer than its nominal limit a wait may take: a loaded machine (a Pi
/// running gpsd, chrony and a page; CI beside other work) is slow, and a condition that
/// holds ends the wait at once, so only a failing check pays for it.
/// `MARKTIME_TEST_PATIENCE` sets it (default 3).
public let patience = Double(ProcessInfo.processInfo.environment["MARKTIME_TEST_PATIENCE"] ?? "") ?? 3

/// Polls `condition` every 100 ms until it holds or `seconds` (times `patience`) pass on
/// the monotonic clock (chrony may step the wall clock meanwhile); returns whether it held.
public func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * patience * 1000))
    repeat {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.1)
    } while ContinuousClock.now < deadline
    return try condition()
}

/// A TCP socket connected to 127.0.0.1:`port` (reads time out after 2 s), or nil; the caller closes it.
public func connectedSocket(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = port.bigEndian
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else {
        close(fd)
        return nil
    }
    return fd
}

/// Whether something on 127.0.0.1 accepts a TCP connection on `port` (closed at once).
public func tcpAccepts(port: UInt16) -> Bool {
    guard let fd = connectedSocket(port: port) else { return false }
    close(fd)
    return true
}

/// gpsd's answer to `?DEVICES;` on `port` (its DEVICES line), or nil when none came within 2 s.
public func gpsdDevices(port: UInt16) -> String? {
    guard let fd = connectedSocket(port: port) else { return nil }
    defer { close(fd) }
    let ask = Array("?DEVICES;\n".utf8)
    guard send(fd, ask, ask.count, 0) == ask.count else { return nil }
    var text = "", buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        text += String(decoding: buffer[..<n], as: UTF8.self)
        if let line = text.split(separator: "\n").first(where: { $0.contains("\"class\":\"DEVICES\"") }) { return String(line) }
    }
}
