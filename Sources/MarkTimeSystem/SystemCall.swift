import CSystemClock
import Foundation
import Glibc
import Synchronization
import SystemPackage

/// A system call that failed: which call, on what, and swift-system's `Errno`.
public struct SystemError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The call and its subject, e.g. `open /dev/input/marktime`.
    public var call: String
    public var errno: Errno

    public init(_ call: String, _ errno: Errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno.rawValue)))" }
}

/// Runs a C call that returns -1 and sets errno on failure (`open`, `poll`, `read`,
/// `inotify_init1`, `eventfd`, …), retrying on EINTR unless told not to, and throws the
/// failure as a `SystemError` naming `call`.
@discardableResult
public func systemCall<T: FixedWidthInteger>(_ call: @autoclosure () -> String, retryOnInterrupt: Bool = true,
                                             _ body: () -> T) throws(SystemError) -> T {
    while true {
        let rc = body()
        if rc != -1 { return rc }
        let e = Glibc.errno
        if e == EINTR, retryOnInterrupt { continue }
        throw SystemError(call(), Errno(rawValue: e))
    }
}

/// Runs a C call that returns a negative errno on failure (libevdev, ALSA), retrying on
/// -EINTR; returns its non-negative result.
@discardableResult
public func negativeErrnoCall(_ call: @autoclosure () -> String, _ body: () -> Int32) throws(SystemError) -> Int32 {
    while true {
        let rc = body()
        if rc >= 0 { return rc }
        if rc == -EINTR { continue }
        throw SystemError(call(), Errno(rawValue: -rc))
    }
}

/// An eventfd (`eventfd(2)`, close-on-exec, non-blocking): a counter another thread can
/// signal to wake one sleeping in poll(2).
public final class EventFD: Sendable {
    public let fd: Int32

    public init() throws(SystemError) {
        let fd = try systemCall("eventfd") { csystemclock_eventfd() }
        self.fd = fd
        let flags = try Kernel.fcntl(fd, F_GETFL, 0, "F_GETFL eventfd")
        try Kernel.fcntl(fd, F_SETFL, flags | O_NONBLOCK, "F_SETFL eventfd")
    }

    /// Adds one (`write`); the sleeper's poll returns.
    public func signal() {
        let one: UInt64 = 1
        _ = try? withUnsafeBytes(of: one) { bytes throws(SystemError) in try Kernel.write(fd, bytes, "eventfd") }
    }

    /// Resets the counter (`read`); whether it had been signalled.
    @discardableResult
    public func drain() -> Bool {
        var count: UInt64 = 0
        return (try? withUnsafeMutableBytes(of: &count) { bytes throws(SystemError) in try Kernel.read(fd, into: bytes, "eventfd") }) == 8
    }

    deinit { Kernel.close(fd) }
}

/// What woke a `PollThread`.
public enum Wake: Equatable, Sendable {
    /// These file descriptors (in the order given) have events: their `revents`.
    case ready([Int16])
    case timedOut
    case stopped
}

/// A named thread that sleeps in poll(2) on its adapter's file descriptors and on an
/// eventfd that `stop()` signals. Every adapter (the button, gpsd, the beeper, the
/// reminders) runs on one, so each stops the same way: promptly, and waited for.
public final class PollThread: Sendable {
    public let name: String
    private let stopEvent: EventFD
    private let finished = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)

    /// `name`, at most `ThreadName.maxLength` bytes, is what `ps -T` shows.
    public init(name: String) throws(SystemError) {
        assert(name.utf8.count <= ThreadName.maxLength, "a thread name the kernel refuses: \(name)")
        self.name = name
        stopEvent = try EventFD()
    }

    /// Runs `body` on the thread; it should return when `wait` says `.stopped`.
    public func start(_ body: @escaping @Sendable (PollThread) -> Void) {
        Thread { [self] in
            ThreadName.setCurrent(name)
            body(self)
            finished.signal()
        }.start()
    }

    /// Wakes the thread and waits for it to end.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        stopEvent.signal()
        finished.wait()
    }

    public var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Sleeps until one of `fds` has `events`, `timeout` passes (nil: forever), or `stop()`.
    public func wait(_ fds: [Int32], events: Int16 = Int16(POLLIN), timeout: Duration? = nil) throws(SystemError) -> Wake {
        if isStopping { return .stopped }
        var polled = [pollfd(fd: stopEvent.fd, events: Int16(POLLIN), revents: 0)]
            + fds.map { pollfd(fd: $0, events: events, revents: 0) }
        let ms = timeout.map { Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? -1
        let n = try Kernel.poll(&polled, milliseconds: ms, "(\(name))")
        if polled[0].revents != 0 || isStopping { return .stopped }
        return n == 0 ? .timedOut : .ready(polled.dropFirst().map(\.revents))
    }
}

/// Whole-file writes for the store's side files.
public enum SideFile {
    /// Appends `bytes` to `path` (made with `permissions` if missing), then `fsync`s it,
    /// and its folder when the file is new, before returning.
    public static func appendAndSync(_ bytes: [UInt8], to path: String,
                                     permissions: FilePermissions = [.ownerReadWrite, .groupRead]) throws(SystemError) {
        let created = (try? Kernel.access(path, F_OK)) == nil
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.append, .create, .closeOnExec], permissions: permissions)
        } catch { throw SystemError("open \(path)", error as? Errno ?? .ioError) }
        defer { try? fd.close() }
        do { _ = try fd.writeAll(bytes) } catch { throw SystemError("write \(path)", error as? Errno ?? .ioError) }
        try Kernel.fsync(fd.rawValue, path)
        if created { syncFolder(of: path) }
    }

    /// Replaces `path` with `bytes`: a new file written beside it and renamed over it,
    /// never synced (for files on tmpfs, such as the daemon's status).
    public static func replace(_ path: String, with bytes: [UInt8]) throws(SystemError) {
        do { try rewrite(path, permissions: [.ownerReadWrite, .groupRead, .otherRead], sync: false) { write in try write(bytes) } } catch {
            throw error as? SystemError ?? SystemError("write \(path)", .ioError)
        }
    }

    /// Replaces `path` with `bytes` durably (`replaceDurably(_:permissions:_:)`).
    public static func replaceDurably(_ path: String, with bytes: some Sequence<UInt8>,
                                      permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]) throws(SystemError) {
        do { try replaceDurably(path, permissions: permissions) { write in try write(Array(bytes)) } } catch {
            throw error as? SystemError ?? SystemError("write \(path)", .ioError)
        }
    }

    /// Replaces `path` with what `body` writes, durably: a new file beside it, written
    /// chunk by chunk and `fsync`ed, renamed over it, and the folder `fsync`ed, so a power
    /// cut leaves the old file or the new one whole, never a part. The new file keeps the
    /// old one's permissions, else takes `permissions`. Every call is retried on EINTR; on
    /// any error the new file is removed and the old one is left as it was.
    public static func replaceDurably<T>(_ path: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead],
                                         _ body: (_ write: ([UInt8]) throws -> Void) throws -> T) throws -> T {
        try rewrite(path, permissions: permissions, sync: true, body)
    }

    /// How long an output FIFO may wait for its reader (`cat FIFO` started a moment after).
    public static let fifoReaderWait = Duration.seconds(5)

    /// Writes a command's output file with what `body` writes. `-` is standard output; a
    /// symbolic link is followed to its target; a FIFO, a device or a socket is written
    /// through as it is, never replaced (a FIFO that no program reads within
    /// `fifoReaderWait` is refused, ENXIO, rather than waited on for ever); only a regular
    /// file (or a new one) is replaced durably (`replaceDurably`). A folder, or a path ending in `/`, is refused (EISDIR).
    public static func writeOutput<T>(_ path: String, _ body: (_ write: ([UInt8]) throws -> Void) throws -> T) throws -> T {
        if path == "-" { return try writeThrough(.standardOutput, name: "standard output", body) }
        // An empty name would write `.tmp` in the working folder before failing.
        guard !path.isEmpty else { throw SystemError("open ''", .noSuchFileOrDirectory) }
        guard !path.hasSuffix("/") else { throw SystemError("open \(path)", .isDirectory) }
        let target = try followLinks(path)
        guard let info = try? Kernel.status(target), info.st_mode & S_IFMT != S_IFREG else {
            return try rewrite(target, permissions: [.ownerReadWrite, .groupRead, .otherRead], sync: true, body)
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw SystemError("open \(path)", .isDirectory) }
        // A FIFO is opened without blocking: while no program reads it the open fails (ENXIO),
        // and it is tried again for `fifoReaderWait`, then refused rather than waited on for
        // ever; once open it is written with the usual waits.
        let fifo = info.st_mode & S_IFMT == S_IFIFO
        let deadline = ContinuousClock.now + fifoReaderWait
        var opened: FileDescriptor?
        while opened == nil {
            do {
                opened = try FileDescriptor.open(FilePath(target), .writeOnly, options: fifo ? [.closeOnExec, .nonBlocking] : [.closeOnExec], retryOnInterrupt: true)
            } catch {
                let errno = error as? Errno ?? .ioError
                guard fifo, errno == .noSuchAddressOrDevice, ContinuousClock.now < deadline else { throw SystemError("open \(target)", errno) }
                Kernel.pause(.milliseconds(20))
            }
        }
        let fd = opened!
        defer { try? fd.close() }
        if fifo {
            let flags = try Kernel.fcntl(fd.rawValue, F_GETFL, 0, target)
            try Kernel.fcntl(fd.rawValue, F_SETFL, flags & ~O_NONBLOCK, target)
        }
        return try writeThrough(fd, name: target, body)
    }

    private static func writeThrough<T>(_ fd: FileDescriptor, name: String, _ body: (_ write: ([UInt8]) throws -> Void) throws -> T) throws -> T {
        try body { chunk in
            do { _ = try fd.writeAll(chunk) } catch { throw SystemError("write \(name)", error as? Errno ?? .ioError) }
        }
    }

    /// `path` with its symbolic links followed (40 at most, as the kernel allows), to a
    /// target that may not exist yet.
    static func followLinks(_ path: String) throws(SystemError) -> String {
        var current = path
        for _ in 0..<40 {
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = link.hasPrefix("/") ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        throw SystemError("open \(path)", .tooManySymbolicLinkLevels)
    }

    /// The one way a file is replaced: a new file beside it (`path.tmp`), renamed over it;
    /// with `sync`, the new file is `fsync`ed before the rename and the folder after it.
    static func rewrite<T>(_ path: String, permissions: FilePermissions, sync: Bool,
                           _ body: (_ write: ([UInt8]) throws -> Void) throws -> T) throws -> T {
        let temporary = temporaryName(path)
        let permissions = (try? Kernel.status(path)).map { FilePermissions(rawValue: $0.st_mode & 0o777) } ?? permissions
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .truncate, .closeOnExec],
                                         permissions: permissions, retryOnInterrupt: true)
        } catch { throw SystemError("open \(temporary)", error as? Errno ?? .ioError) }
        var open = true
        let result: T
        do {
            result = try body { chunk in
                do { _ = try fd.writeAll(chunk) } catch { throw SystemError("write \(temporary)", error as? Errno ?? .ioError) }
            }
            if sync { try Kernel.fsync(fd.rawValue, temporary) }
            open = false
            do { try fd.close() } catch { throw SystemError("close \(temporary)", error as? Errno ?? .ioError) }
            try Kernel.rename(temporary, to: path)
        } catch {
            // Closed once only: a second close could close another thread's new descriptor.
            if open { try? fd.close() }
            try? Kernel.unlink(temporary)
            throw error
        }
        if sync { syncFolder(of: path) }
        return result
    }

    /// `path.tmp`; for a name within 4 bytes of the longest a file may have, the name cut
    /// short (at a whole character) before `.tmp`, so that a name the system takes is written.
    static func temporaryName(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        guard name.utf8.count + 4 > NAME_MAX else { return path + ".tmp" }
        var cut = Substring(name)
        // Never the name itself (a 255-byte name that ends in .tmp).
        while cut.utf8.count + 4 > NAME_MAX || cut + ".tmp" == name { cut = cut.dropLast() }
        return String(path.dropLast(name.count)) + cut + ".tmp"
    }

    /// Keeps `bytes` as the file `name` in `folder` (made if missing), written whole and
    /// durably (`replaceDurably`), unless a file of that name is there already: for files
    /// named by their content, such as photos by their hash.
    public static func keep(_ bytes: [UInt8], as name: String, in folder: String) throws(SystemError) {
        let target = folder + "/" + name
        guard !FileManager.default.fileExists(atPath: target) else { return }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw SystemError("mkdir \(folder)", (error as NSError).code == NSFileWriteNoPermissionError ? .permissionDenied : .ioError)
        }
        try replaceDurably(target, with: bytes)
    }

    /// Removes `path` (`unlink(2)`); false when there was no such file.
    @discardableResult
    public static func remove(_ path: String) throws(SystemError) -> Bool {
        do { try Kernel.unlink(path) } catch {
            if error.errno == .noSuchFileOrDirectory { return false }
            throw error
        }
        return true
    }

    /// `fsync`s the folder holding `path`, so a new or removed name in it is durable.
    public static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        guard let fd = try? FileDescriptor.open(FilePath(folder.isEmpty ? "." : folder), .readOnly, options: [.directory, .closeOnExec])
        else { return }
        try? Kernel.fsync(fd.rawValue, folder)
        try? fd.close()
    }
}
