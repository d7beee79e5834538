import Glibc

/// Every system call marktime's own Swift code makes, each once, through `systemCall`: the
/// one file of ours whose object code calls the kernel (a layout test checks the symbols
/// every other object file calls against the kernel's own table). The rest of
/// MarkTimeSystem builds its files, sockets and threads on these, and the adapters on
/// MarkTimeSystem. The other roads are the libraries' own: the C shims, swift-system's
/// `FileDescriptor` (a funnel of the same kind, which SideFile uses), Foundation's
/// `FileManager`, and the C libraries (SQLite, ALSA, libgps…).
///
/// Each failure is a `SystemError` naming the call and its subject (`what`); EINTR is
/// retried, except for `close`, which Linux completes even when interrupted.
public enum Kernel {
    // MARK: Files

    /// `open(2)`; the new descriptor.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(SystemError) -> Int32 {
        try systemCall("open \(path)") { Glibc.open(path, flags, mode) }
    }

    /// `close(2)`, once: Linux releases the descriptor even when close is interrupted, so
    /// a retry could close another thread's new descriptor. Its failure has nothing to undo.
    public static func close(_ fd: Int32) {
        _ = try? systemCall("close", retryOnInterrupt: false) { Glibc.close(fd) }
    }

    /// `read(2)` into `buffer`, as much as it holds; the bytes read (0 at the end).
    public static func read(_ fd: Int32, into buffer: inout [UInt8], _ what: @autoclosure () -> String) throws(SystemError) -> Int {
        try systemCall("read \(what())") { Glibc.read(fd, &buffer, buffer.count) }
    }

    /// `read(2)` into `buffer`; the bytes read (0 at the end).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ what: @autoclosure () -> String) throws(SystemError) -> Int {
        try systemCall("read \(what())") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// `pread(2)` at `offset` into `buffer`; the bytes read.
    public static func read(_ fd: Int32, at offset: off_t, into buffer: UnsafeMutableRawBufferPointer, _ what: @autoclosure () -> String) throws(SystemError) -> Int {
        try systemCall("pread \(what())") { Glibc.pread(fd, buffer.baseAddress, buffer.count, offset) }
    }

    /// `write(2)` of `text` from a signal handler: once, its failure ignored, nothing
    /// allocated (the error is typed and names the call with a literal).
    public static func writeFromSignalHandler(_ fd: Int32, _ text: StaticString) {
        _ = try? systemCall("write from a signal handler", retryOnInterrupt: false) { Glibc.write(fd, text.utf8Start, text.utf8CodeUnitCount) }
    }

    /// `write(2)` of `bytes`; the bytes written.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ what: @autoclosure () -> String) throws(SystemError) -> Int {
        try systemCall("write \(what())") { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// `pwrite(2)` of `bytes` at `offset`; the bytes written.
    public static func write(_ fd: Int32, at offset: off_t, _ bytes: UnsafeRawBufferPointer, _ what: @autoclosure () -> String) throws(SystemError) -> Int {
        try systemCall("pwrite \(what())") { Glibc.pwrite(fd, bytes.baseAddress, bytes.count, offset) }
    }

    /// `fcntl(2)` with an argument; its result.
    @discardableResult
    public static func fcntl(_ fd: Int32, _ command: Int32, _ argument: Int32, _ what: @autoclosure () -> String) throws(SystemError) -> Int32 {
        try systemCall("fcntl \(what())") { Glibc.fcntl(fd, command, argument) }
    }

    /// `fsync(2)`.
    public static func fsync(_ fd: Int32, _ what: @autoclosure () -> String) throws(SystemError) {
        try systemCall("fsync \(what())") { Glibc.fsync(fd) }
    }

    /// `ftruncate(2)`.
    public static func truncate(_ fd: Int32, to length: off_t, _ what: @autoclosure () -> String) throws(SystemError) {
        try systemCall("ftruncate \(what())") { Glibc.ftruncate(fd, length) }
    }

    /// `flock(2)` with `operation` (`LOCK_EX`, `LOCK_SH`, `LOCK_UN`, with `LOCK_NB`).
    public static func lock(_ fd: Int32, _ operation: Int32, _ what: @autoclosure () -> String) throws(SystemError) {
        try systemCall("flock \(what())") { flock(fd, operation) }
    }

    /// `rename(2)`.
    public static func rename(_ from: String, to: String) throws(SystemError) {
        try systemCall("rename \(from)") { Glibc.rename(from, to) }
    }

    /// `unlink(2)`.
    public static func unlink(_ path: String) throws(SystemError) {
        try systemCall("unlink \(path)") { Glibc.unlink(path) }
    }

    /// `chmod(2)`.
    public static func chmod(_ path: String, _ mode: mode_t) throws(SystemError) {
        try systemCall("chmod \(path)") { Glibc.chmod(path, mode) }
    }

    /// `access(2)`: whether this process may reach `path` as `mode` asks (`F_OK`, `W_OK`).
    public static func access(_ path: String, _ mode: Int32) throws(SystemError) {
        try systemCall("access \(path)") { Glibc.access(path, mode) }
    }

    /// `stat(2)`, its symbolic links followed.
    public static func status(_ path: String) throws(SystemError) -> Glibc.stat {
        var info = Glibc.stat()
        try systemCall("stat \(path)") { stat(path, &info) }
        return info
    }

    /// `statvfs(3)` (the kernel's `statfs`).
    public static func fileSystem(_ path: String) throws(SystemError) -> Glibc.statvfs {
        var info = Glibc.statvfs()
        try systemCall("statvfs \(path)") { statvfs(path, &info) }
        return info
    }

    // MARK: Waiting

    /// `poll(2)` on `fds` for up to `milliseconds` (-1: forever); how many have events.
    /// Retried after a signal with the whole wait again, unless `retryOnInterrupt` is false
    /// (then EINTR is thrown, for a caller that keeps its own deadline).
    public static func poll(_ fds: inout [pollfd], milliseconds: Int32, retryOnInterrupt: Bool = true,
                            _ what: @autoclosure () -> String) throws(SystemError) -> Int32 {
        try systemCall("poll \(what())", retryOnInterrupt: retryOnInterrupt) { Glibc.poll(&fds, nfds_t(fds.count), milliseconds) }
    }

    /// `nanosleep(2)` for `duration`; a signal ends it early.
    public static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        _ = try? systemCall("nanosleep", retryOnInterrupt: false) { Glibc.nanosleep(&wanted, nil) }
    }

    /// `clock_gettime(2)` of `clock` (`CLOCK_MONOTONIC`, `CLOCK_REALTIME`), which cannot fail for those.
    public static func time(_ clock: clockid_t) -> timespec {
        var t = timespec()
        _ = try? systemCall("clock_gettime") { Glibc.clock_gettime(clock, &t) }
        return t
    }

    // MARK: Processes

    /// `getpid(2)`, which cannot fail.
    public static func processID() -> pid_t {
        (try? systemCall("getpid") { Glibc.getpid() }) ?? 0
    }

    /// `getppid(2)`, which cannot fail.
    public static func parentProcessID() -> pid_t {
        (try? systemCall("getppid") { Glibc.getppid() }) ?? 0
    }

    /// `posix_spawn(3)` (the kernel's `clone` and `execve`) of `path`; the child's pid.
    public static func spawn(_ path: String, _ actions: inout posix_spawn_file_actions_t, _ attributes: inout posix_spawnattr_t,
                             _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]) throws(SystemError) -> pid_t {
        var pid: pid_t = 0
        // posix_spawn answers its error rather than setting errno.
        try systemCall("posix_spawn \(path)") { () -> Int32 in
            let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            if rc != 0 { errno = rc }
            return rc == 0 ? 0 : -1
        }
        return pid
    }

    /// `execv(3)`: this process becomes `path` with `arguments` (its name first), the same
    /// environment, and every signal unblocked. Signals this process catches go back to their
    /// default, as exec does; ignored ones stay ignored (systemd's `IgnoreSIGPIPE=`, `nohup`).
    /// Returns only by throwing.
    public static func exec(_ path: String, _ arguments: [String]) throws(SystemError) -> Never {
        var none = sigset_t()
        sigemptyset(&none)
        _ = try? systemCall("sigprocmask") { sigprocmask(SIG_SETMASK, &none, nil) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        _ = try systemCall("execv \(path)", retryOnInterrupt: false) { execv(path, argv) }
        fatalError("execv returned without an error")
    }

    /// `waitpid(3)` (the kernel's `wait4`) for `pid` to end, reaping it; its wait status.
    public static func wait(for pid: pid_t) throws(SystemError) -> Int32 {
        var status: Int32 = 0
        try systemCall("waitpid \(pid)") { waitpid(pid, &status, 0) }
        return status
    }

    /// `kill(2)`.
    public static func kill(_ pid: pid_t, _ signal: Int32) throws(SystemError) {
        try systemCall("kill \(pid)") { Glibc.kill(pid, signal) }
    }

    /// `raise(3)` (the kernel's `tgkill` to this thread).
    public static func raise(_ signal: Int32) {
        _ = try? systemCall("raise") { Glibc.raise(signal) }
    }

    /// `sigaction(2)`: `handler` for `signal`, with interrupted calls restarted (as `signal(3)` sets it).
    public static func handle(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = SA_RESTART
        _ = try? systemCall("sigaction") { sigaction(signal, &action, nil) }
    }

    /// `sigaction(2)`: the default action for `signal` again.
    public static func handleByDefault(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        _ = try? systemCall("sigaction") { sigaction(signal, &action, nil) }
    }

    /// `getrlimit(2)` of `resource`.
    public static func limit(_ resource: Int32) throws(SystemError) -> rlimit {
        var limit = rlimit()
        try systemCall("getrlimit") { getrlimit(resource, &limit) }
        return limit
    }

    /// `setrlimit(2)` of `resource`.
    public static func setLimit(_ resource: Int32, _ limit: rlimit) throws(SystemError) {
        var limit = limit
        try systemCall("setrlimit") { setrlimit(resource, &limit) }
    }

    // MARK: Sockets

    /// `socket(2)`; the new descriptor.
    public static func socket(_ domain: Int32, _ type: Int32, _ what: @autoclosure () -> String) throws(SystemError) -> Int32 {
        try systemCall("socket \(what())") { Glibc.socket(domain, type, 0) }
    }

    /// `socket(2)` for one of `getaddrinfo(3)`'s answers.
    public static func socket(for address: addrinfo, flags: Int32) throws(SystemError) -> Int32 {
        try systemCall("socket") { Glibc.socket(address.ai_family, address.ai_socktype | flags, address.ai_protocol) }
    }

    /// `bind(2)` to `address` (`length` bytes of it).
    public static func bind<A>(_ fd: Int32, _ address: A, length: Int, _ what: @autoclosure () -> String) throws(SystemError) {
        var address = address
        try systemCall("bind \(what())") {
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(length)) } }
        }
    }

    /// `connect(2)` to one of `getaddrinfo(3)`'s answers.
    public static func connect(_ fd: Int32, _ address: addrinfo, _ what: @autoclosure () -> String) throws(SystemError) {
        try systemCall("connect \(what())") { Glibc.connect(fd, address.ai_addr, address.ai_addrlen) }
    }

    /// `setsockopt(2)` of a `timeval` option (`SO_SNDTIMEO`, `SO_RCVTIMEO`).
    public static func setOption(_ fd: Int32, _ option: Int32, _ value: timeval) throws(SystemError) {
        var value = value
        try systemCall("setsockopt") { Glibc.setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size)) }
    }

    /// `sendto(2)` of `bytes` to `address` (`length` bytes of it); the bytes sent.
    @discardableResult
    public static func send<A>(_ fd: Int32, _ bytes: [UInt8], flags: Int32, to address: A, length: Int,
                               _ what: @autoclosure () -> String) throws(SystemError) -> Int {
        var address = address
        return try systemCall("sendto \(what())") {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.sendto(fd, bytes, bytes.count, flags, $0, socklen_t(length)) }
            }
        }
    }

    /// `recvfrom(2)` into `buffer`; the bytes received, the sender's address and its length.
    public static func receive(_ fd: Int32, into buffer: inout [UInt8], flags: Int32,
                               _ what: @autoclosure () -> String) throws(SystemError) -> (count: Int, from: sockaddr_un, length: Int) {
        var from = sockaddr_un(), length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let n = try systemCall("recvfrom \(what())") {
            withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.recvfrom(fd, &buffer, buffer.count, flags, $0, &length) }
            }
        }
        return (n, from, Int(length))
    }

    // MARK: Devices

    /// `ioctl(2)` that fills `value`.
    public static func ioctl<V>(_ fd: Int32, _ request: UInt, _ value: inout V, _ what: @autoclosure () -> String) throws(SystemError) {
        try systemCall("ioctl \(what())") { Glibc.ioctl(fd, request, &value) }
    }

    /// `isatty(3)` (the kernel's `ioctl` TCGETS): whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        (try? systemCall("isatty") { Glibc.isatty(fd) == 1 ? 0 : -1 }) != nil
    }

    /// `tcgetattr(3)` (an `ioctl`).
    public static func terminalSettings(_ fd: Int32) throws(SystemError) -> termios {
        var settings = termios()
        try systemCall("tcgetattr") { tcgetattr(fd, &settings) }
        return settings
    }

    /// `tcsetattr(3)` (an `ioctl`), after what was written has gone out and with unread input dropped.
    public static func setTerminalSettings(_ fd: Int32, _ settings: termios) {
        var settings = settings
        _ = try? systemCall("tcsetattr") { tcsetattr(fd, TCSAFLUSH, &settings) }
    }

    /// `inotify_init1(2)`, non-blocking and close-on-exec.
    public static func inotify() throws(SystemError) -> Int32 {
        try systemCall("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
    }

    /// `inotify_add_watch(2)` on `folder` for `mask`; the watch's descriptor.
    @discardableResult
    public static func watch(_ fd: Int32, _ folder: String, mask: UInt32) throws(SystemError) -> Int32 {
        try systemCall("inotify_add_watch \(folder)") { inotify_add_watch(fd, folder, mask) }
    }
}
