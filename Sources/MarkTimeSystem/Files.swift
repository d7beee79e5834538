import CSystemClock
import Foundation
import Glibc
import Synchronization
import SystemPackage

/// Questions about files that the store and the daemon ask before they act.
public enum Files {
    /// Whether this process may write `path` (`access(2)` with W_OK).
    public static func isWritable(_ path: String) -> Bool {
        (try? Kernel.access(path.isEmpty ? "." : path, W_OK)) != nil
    }

    /// This process's executable (`/proc/self/exe`, its symbolic links followed), else the
    /// name it was started by.
    public static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Whether `path` is a regular file this process may execute (`stat(2)`, `access(2)`).
    public static func isExecutable(_ path: String) -> Bool {
        guard case .regular = FileKind(path) else { return false }
        return (try? Kernel.access(path, X_OK)) != nil
    }

    /// The folder for files that matter only while marktime runs (tmpfs, never the SD card),
    /// made if missing: `$RUNTIME_DIRECTORY` (systemd's `RuntimeDirectory=`), else
    /// `$XDG_RUNTIME_DIR/marktime`, else `/run/marktime`; nil when none can be written.
    public static func runtimeFolder(_ environment: [String: String]) -> String? {
        var folders: [String] = []
        if let d = environment["RUNTIME_DIRECTORY"], !d.isEmpty { folders.append(String(d.split(separator: ":").first ?? "")) }
        if let d = environment["XDG_RUNTIME_DIR"], !d.isEmpty { folders.append(d + "/marktime") }
        folders.append("/run/marktime")
        return folders.first { folder in
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return isWritable(folder)
        }
    }

    /// Whether every user may read `path` (`stat(2)`: the others' read bit).
    public static func isReadableByOthers(_ path: String) throws(SystemError) -> Bool {
        try Kernel.status(path).st_mode & S_IROTH != 0
    }
}

/// Signals to other processes.
public enum Signals {
    /// Sends `signal` to `pid` (`kill(2)`).
    public static func send(_ signal: Int32, to pid: pid_t) throws(SystemError) {
        try Kernel.kill(pid, signal)
    }
}

/// SQLite's shared memory (`-shm`) made immutable under the process (`chattr +i`): ext4
/// answers SQLite's next write to it with SIGBUS, and no check before a write closes the
/// window between the check and the write. Once installed, such a fault moves the mapping
/// to private memory with the same bytes and the write goes on; what commits is in the WAL,
/// from which the next process to open the store alone rebuilds the index. Any other
/// SIGBUS goes to the handler that was there before.
public enum SharedMemoryGuard {
    /// Installs the SIGBUS handler (once per process; again is harmless).
    public static func install() throws(SystemError) {
        _ = try systemCall("sigaction SIGBUS") { csystemclock_guard_shared_memory() }
    }

    /// How many mappings have been moved to private memory in this process.
    public static var diverted: Int { Int(csystemclock_shared_memory_diverted()) }
}

/// How many files (and sockets) this process may have open.
public enum OpenFileLimit {
    /// Raises the soft limit toward `wanted`, as far as the hard limit allows (an
    /// unprivileged process may); returns the soft limit now in force.
    @discardableResult
    public static func raise(to wanted: Int) -> Int {
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        guard var limit = try? Kernel.limit(resource) else { return 0 }
        let target = min(rlim_t(wanted), limit.rlim_max)
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            if (try? Kernel.setLimit(resource, raised)) != nil { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}

/// Raw file descriptors that the adapters hold.
public enum Descriptor {
    /// Closes `fd` (`Kernel.close`: once, never retried).
    public static func close(_ fd: Int32) {
        Kernel.close(fd)
    }
}

/// The kernel's clocks.
public enum Clocks {
    /// CLOCK_MONOTONIC now, in nanoseconds (`clock_gettime(2)`, which cannot fail for it).
    public static func monotonicNanoseconds() -> Int64 {
        let t = Kernel.time(CLOCK_MONOTONIC)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}

/// An exclusive advisory lock (`flock(2)`) on a small lock file, held while a body runs,
/// so that processes that append to a file and one that rewrites it take turns.
public enum FileLock {
    /// Runs `body` holding the lock on `path` (made if missing; never removed, so every
    /// process locks the same file). Waits for another holder; EINTR retried.
    public static func withExclusive<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let fd = try Kernel.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o664)
        defer { Kernel.close(fd) }
        try Kernel.lock(fd, LOCK_EX, path)
        return try body()
    }
}

/// One daemon per store: an exclusive `flock(2)` on `<store>-daemon.lock`, held for the
/// daemon's life, with its pid written inside. The kernel lets go of it when the daemon
/// exits, however it exits, so whether it is held is the truth about a running daemon,
/// which no status file that another process can overwrite is.
public final class DaemonLock: Sendable {
    public let path: String
    let fd: Int32

    /// Another daemon holds the lock (its pid, when it wrote one).
    public struct Held: Error, Sendable {
        public let pid: Int32?
    }

    /// Who holds the lock of a store.
    public enum Holder: Hashable, Sendable {
        case none
        case daemon(pid: Int32?)
    }

    public static func path(forStore store: String) -> String { store + "-daemon.lock" }

    init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { Descriptor.close(fd) }

    /// Takes the lock of `store` without waiting, and writes this process's pid into it.
    /// Throws `Held` when another daemon has it.
    public static func acquire(store: String) throws -> DaemonLock {
        let path = path(forStore: store)
        let fd = try Kernel.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        do {
            try Kernel.lock(fd, LOCK_EX | LOCK_NB, path)
        } catch {
            defer { Kernel.close(fd) }
            if error.errno == .resourceTemporarilyUnavailable { throw Held(pid: readPID(fd)) }
            throw error
        }
        let text = Array("\(Kernel.processID())\n".utf8)
        try Kernel.truncate(fd, to: 0, path)
        _ = try text.withUnsafeBytes { bytes throws(SystemError) in try Kernel.write(fd, at: 0, bytes, path) }
        return DaemonLock(path: path, fd: fd)
    }

    /// Who holds the lock of `store`, asked without taking it for longer than the question.
    public static func holder(store: String) -> Holder {
        let path = path(forStore: store)
        guard let fd = try? Kernel.open(path, O_RDONLY | O_CLOEXEC) else { return .none }
        defer { Kernel.close(fd) }
        do { try Kernel.lock(fd, LOCK_SH | LOCK_NB, path) } catch {
            return error.errno == .wouldBlock ? .daemon(pid: readPID(fd)) : .none
        }
        try? Kernel.lock(fd, LOCK_UN, path)
        return .none
    }

    static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        guard let n = try? buffer.withUnsafeMutableBytes({ bytes throws(SystemError) in try Kernel.read(fd, at: 0, into: bytes, "a lock file") }),
              n > 0 else { return nil }
        return Int32(String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Which file a path names (its device and inode), to notice that a file a process holds
/// open was deleted or replaced under it: writes through the old descriptor would then
/// go to a file that no one will read again.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// What the path names now, compared with the file that was opened.
    public enum Change: Hashable, Sendable {
        case same
        /// No file at the path any more (deleted or moved away).
        case gone
        /// Another file at the path (restored, copied or moved over it).
        case replaced
        /// The file, or its `-wal` or `-shm`, is immutable or append-only.
        case frozen
    }

    /// Whether the file at `path` is marked immutable or append-only (`chattr +i`, `+a`),
    /// asked with `statx(2)`, which opens nothing: a process that mapped it for writing
    /// (SQLite's `-shm`) would get SIGBUS on its next write to it.
    public static func isFrozen(_ path: String) -> Bool {
        csystemclock_is_frozen(path) == 1
    }

    /// The file `path` names now; nil when there is none.
    public static func of(_ path: String) -> FileIdentity? {
        guard let info = try? Kernel.status(path) else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether `path` still names this file (one `stat(2)`), and whether it or its SQLite
    /// side files can be written (a `statx(2)` each).
    public func check(_ path: String) -> Change {
        check(path, sideFiles: Self.sideFiles(of: path))
    }

    /// `check(_:)` with the side files' paths made once (it runs before each write).
    public func check(_ path: String, sideFiles: [String]) -> Change {
        guard let now = Self.of(path) else { return .gone }
        guard now == self else { return .replaced }
        return Self.isFrozen(path) || sideFiles.contains(where: Self.isFrozen) ? .frozen : .same
    }

    /// SQLite's side files of the store at `path`: its `-wal` and `-shm`.
    public static func sideFiles(of path: String) -> [String] { [path + "-wal", path + "-shm"] }
}

extension Files {
    /// Every byte of `path`, read until the end: a `/proc` file reports size 0, and
    /// Foundation's readers stop after their first read (4,049 of /proc/self/maps's 25,210
    /// bytes in a test here), which lost lock holders when `/proc/locks` was long.
    public static func readToEnd(_ path: String) throws(SystemError) -> [UInt8] {
        let fd = try Kernel.open(path, O_RDONLY | O_CLOEXEC)
        defer { Kernel.close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = try Kernel.read(fd, into: &chunk, path)
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }
}

/// Who holds a file's POSIX write locks, read from `/proc/locks` without opening the file
/// (closing any descriptor on a SQLite file would drop this process's own locks on it).
public enum LockHolders {
    /// The other processes holding a POSIX write lock on any of `paths`: each one's pid
    /// and command line (as `/proc/PID/cmdline` gives it; empty when it cannot be read).
    public static func writers(of paths: [String]) -> [(pid: Int32, command: String)] {
        let inodes = Set(paths.compactMap { FileIdentity.of($0)?.inode })
        guard !inodes.isEmpty, let bytes = try? Files.readToEnd("/proc/locks") else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        var pids: [Int32] = []
        for line in text.split(separator: "\n") {
            // `1: POSIX  ADVISORY  WRITE 12345 fe:00:16220731 120 120`
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 6, f[1] == "POSIX", f[3] == "WRITE", let pid = Int32(f[4]), pid != Kernel.processID(), !pids.contains(pid),
                  let inode = f[5].split(separator: ":").last.flatMap({ UInt64($0) }), inodes.contains(inode) else { continue }
            pids.append(pid)
        }
        return pids.map { pid in
            let raw = (try? Files.readToEnd("/proc/\(pid)/cmdline")) ?? []
            let command = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            return (pid, command)
        }
    }
}

extension Files {
    /// Why a Foundation file operation failed, in words: the system's reason (its errno)
    /// when Foundation carries one, else the file error's meaning, never
    /// "NSCocoaErrorDomain error 256".
    public static func reason(_ error: any Error) -> String {
        if let e = error as? SystemError { return String(cString: strerror(e.errno.rawValue)) }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch ns.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "there is no such file"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "the disk is full"
        case NSFileWriteVolumeReadOnlyError: return "the disk is read-only"
        case NSFileReadInapplicableStringEncodingError, NSFileReadCorruptFileError: return "it is not UTF-8 text"
        case NSFileWriteFileExistsError: return "a file of that name is in the way"
        default: return "file error \(ns.code)"
        }
    }
}

/// A file without a name, for a request body as it arrives (`open(2)` with `O_TMPFILE`):
/// written as it comes, read back once whole, and gone when closed, even if the process
/// dies first, so a refused or broken upload leaves nothing behind.
public final class SpoolFile: Sendable {
    private let fd: FileDescriptor
    private let written = Mutex(0)
    /// The bytes written so far.
    public var count: Int { written.withLock { $0 } }

    /// A spool file on the file system of `folder`, which must exist and be writable.
    public init(in folder: String) throws(SystemError) {
        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY, which the C importer does not bring in.
        let tmpfile: Int32 = 0o20000000 | O_DIRECTORY
        do { fd = FileDescriptor(rawValue: try Kernel.open(folder, tmpfile | O_RDWR | O_CLOEXEC, 0o600)) } catch {
            throw SystemError("open a nameless file in \(folder)", error.errno)
        }
    }

    deinit { try? fd.close() }

    /// Appends `bytes` at the end.
    public func append(_ bytes: some Sequence<UInt8>) throws(SystemError) {
        try written.withLock { (count: inout Int) throws(SystemError) in
            do { count += try fd.writeAll(toAbsoluteOffset: Int64(count), bytes) } catch {
                throw SystemError("write a spool file", error as? Errno ?? .ioError)
            }
        }
    }

    /// Reads the whole file back, `size` bytes at a time, from the start.
    public func forEachChunk(of size: Int = 1 << 16, _ body: ([UInt8]) throws -> Void) throws {
        var offset: Int64 = 0
        var chunk = [UInt8](repeating: 0, count: size)
        let count = count
        while offset < count {
            let n = try chunk.withUnsafeMutableBytes { buffer in
                do { return try fd.read(fromAbsoluteOffset: offset, into: buffer) } catch {
                    throw SystemError("read a spool file", error as? Errno ?? .ioError)
                }
            }
            guard n > 0 else { break }
            try body(Array(chunk[..<n]))
            offset += Int64(n)
        }
    }

    /// The whole file, read back.
    public func bytes() throws -> [UInt8] {
        var all: [UInt8] = []
        all.reserveCapacity(count)
        try forEachChunk { all += $0 }
        return all
    }
}
