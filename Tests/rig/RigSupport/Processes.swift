import Foundation
import MarkTimeSystem

/// A child process in its own session (posix_spawn with POSIX_SPAWN_SETSID), so that
/// stopping it also stops what it started (gpsfake's gpsd). Signals start at their
/// defaults whatever the test runner's threads block. Output goes to a file.
public final class Child {
    public let pid: pid_t
    public let log: String
    public private(set) var exitStatus: Int32?

    public init(_ executable: String, _ arguments: [String], log: String, environment: [String: String]) throws {
        self.log = log
        pid = try ChildProcess.spawn([executable] + arguments, environment: environment,
                                     input: .file("/dev/null", flags: O_RDONLY),
                                     output: .file(log, flags: O_WRONLY | O_CREAT | O_TRUNC | O_APPEND),
                                     error: .descriptor(1), newSession: true).pid
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
/// both outputs (each on its own thread, so neither pipe can fill up and stall the child).
public func runCommand(_ executable: String, _ arguments: [String], environment: [String: String],
                       input: String? = nil) throws -> CommandResult {
    let out = try PipeEnds(), err = try PipeEnds()
    let stdin = try input.map { _ in try PipeEnds() }
    let child: ChildProcess
    do {
        child = try ChildProcess.spawn([executable] + arguments, environment: environment,
                                       input: stdin.map { .descriptor($0.read) } ?? .file("/dev/null", flags: O_RDONLY),
                                       output: .descriptor(out.write), error: .descriptor(err.write))
    } catch {
        [out, err].forEach { $0.closeBoth() }
        stdin?.closeBoth()
        throw error
    }
    close(out.write)
    close(err.write)
    if let stdin {
        close(stdin.read)
        let bytes = Array((input ?? "").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(stdin.write, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            sent += n
        }
        close(stdin.write)
    }
    let errors = DescriptorReader(err.read)
    let o = readToEnd(out.read)
    let e = errors.wait()
    return CommandResult(status: child.waitForExit(), stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
}

/// Both ends of a close-on-exec pipe.
private struct PipeEnds {
    let read: Int32
    let write: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        read = fds[0]
        write = fds[1]
        // Children spawned meanwhile close it anyway (ChildProcess closes every descriptor above 2).
        _ = fcntl(read, F_SETFD, FD_CLOEXEC)
        _ = fcntl(write, F_SETFD, FD_CLOEXEC)
    }

    func closeBoth() {
        close(read)
        close(write)
    }
}

/// Reads `fd` to its end and closes it.
private func readToEnd(_ fd: Int32) -> [UInt8] {
    defer { close(fd) }
    var data: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return data }
        data += buffer[..<n]
    }
}

/// Reads a descriptor to its end on a thread of its own.
private final class DescriptorReader: @unchecked Sendable {
    private var data: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ fd: Int32) {
        Thread { [self] in
            data = readToEnd(fd)
            done.signal()
        }.start()
    }

    func wait() -> [UInt8] {
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

/// `eventually` for async code: polls every `period` (default 10 ms) by suspending, never
/// blocking a thread of the cooperative pool that the code under test may need.
public func waitUntil(within seconds: Double, every period: Duration = .milliseconds(10),
                      _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * patience * 1000))
    repeat {
        if try await condition() { return true }
        try await Task.sleep(for: period)
    } while ContinuousClock.now < deadline
    return try await condition()
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
