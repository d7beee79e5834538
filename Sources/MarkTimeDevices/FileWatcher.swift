import Foundation
import MarkTimeSystem

/// Says when files change, by inotify on their folders: the phone page watches the
/// store, its WAL and the daemon's status file, and never polls the store.
public final class FileWatcher: @unchecked Sendable {
    private let fd: Int32
    private let thread: PollThread
    private let lock = NSLock()
    /// Watched folder descriptors → the names in them that matter.
    private var names: [Int32: Set<String>] = [:]

    public init() throws(DeviceError) {
        do {
            fd = try Kernel.inotify()
            thread = try PollThread(name: "marktime-watch")
        } catch { throw DeviceError(error) }
    }

    /// Also reports changes to `path` (made, written, or renamed over).
    public func watch(_ path: String) throws(DeviceError) {
        let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        let wd: Int32
        do { wd = try Kernel.watch(fd, folder.isEmpty ? "." : folder, mask: mask) } catch {
            throw DeviceError(error)
        }
        lock.withLock { _ = names[wd, default: []].insert(name) }
    }

    /// Calls `changed` on the watcher's thread after each batch of changes.
    public func start(_ changed: @escaping @Sendable () -> Void) {
        thread.start { [self] t in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while (try? t.wait([fd])) ?? .stopped != .stopped {
                var hit = false
                while true {
                    // EAGAIN: every event is read.
                    guard let n = try? Kernel.read(fd, into: &buffer, "inotify"), n > 0
                    else { break }
                    hit = hit || matches(buffer[..<n])
                }
                if hit { changed() }
            }
        }
    }

    public func stop() { thread.stop() }

    deinit { Descriptor.close(fd) }

    /// Whether any event in `events` (inotify_event records) names a watched file.
    private func matches(_ events: ArraySlice<UInt8>) -> Bool {
        let header = MemoryLayout<inotify_event>.size
        var offset = events.startIndex, found = false
        let watched = lock.withLock { names }
        while offset + header <= events.endIndex {
            let (wd, length) = events[offset..<(offset + header)].withUnsafeBytes {
                ($0.loadUnaligned(fromByteOffset: 0, as: Int32.self), Int($0.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            }
            let nameBytes = events[(offset + header)..<min(offset + header + length, events.endIndex)].prefix { $0 != 0 }
            if watched[wd]?.contains(String(decoding: nameBytes, as: UTF8.self)) == true { found = true }
            offset += header + length
        }
        return found
    }
}
