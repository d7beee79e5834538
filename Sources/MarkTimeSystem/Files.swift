import Foundation
import Glibc
import SystemPackage

/// Questions about files that the store and the daemon ask before they act.
public enum Files {
    /// Whether this process may write `path` (`access(2)` with W_OK).
    public static func isWritable(_ path: String) -> Bool {
        access(path.isEmpty ? "." : path, W_OK) == 0
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
        var info = stat()
        try systemCall("stat \(path)") { stat(path, &info) }
        return info.st_mode & S_IROTH != 0
    }
}

/// Signals to other processes.
public enum Signals {
    /// Sends `signal` to `pid` (`kill(2)`).
    public static func send(_ signal: Int32, to pid: pid_t) throws(SystemError) {
        try systemCall("kill \(pid)") { kill(pid, signal) }
    }
}

/// Raw file descriptors that the adapters hold.
public enum Descriptor {
    /// Closes `fd` (`close(2)`), once: Linux releases the descriptor even when close is
    /// interrupted, so a retry could close another thread's new descriptor.
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}

/// The kernel's clocks.
public enum Clocks {
    /// CLOCK_MONOTONIC now, in nanoseconds (`clock_gettime(2)`, which cannot fail for it).
    public static func monotonicNanoseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}

/// An exclusive advisory lock (`flock(2)`) on a small lock file, held while a body runs,
/// so that processes that append to a file and one that rewrites it take turns.
public enum FileLock {
    /// Runs `body` holding the lock on `path` (made if missing; never removed, so every
    /// process locks the same file). Waits for another holder; EINTR retried.
    public static func withExclusive<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let fd = try systemCall("open \(path)") { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o664) }
        defer { Descriptor.close(fd) }
        try systemCall("flock \(path)") { flock(fd, LOCK_EX) }
        return try body()
    }
}
