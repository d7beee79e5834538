import CSystemClock
import Foundation
import MarkTimeCore

/// A Unix datagram socket beside the store (`marktime.sqlite-wake`): the CLI rings it
/// after changing tasks, and the daemon's reminder thread, asleep until the next
/// reminder, wakes up to read the store again. The phone page rings it with
/// `beep TONE` after storing a sight, for the daemon, which owns the sound card, to beep.
public final class Doorbell: @unchecked Sendable {
    public let path: String
    public let fd: Int32

    public static func path(forStore store: String) -> String { store + "-wake" }

    /// Listens at `path`, replacing a socket a previous daemon left behind.
    public init(path: String) throws(InputError) {
        self.path = path
        var address = try Self.address(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw InputError("cannot make the wake socket: \(String(cString: strerror(errno)))") }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw InputError("cannot listen at \(path): \(reason)")
        }
        // Anyone who may write the store may ring.
        chmod(path, 0o666)
    }

    /// Empties the socket: the messages rung since the last drain.
    @discardableResult
    public func drain() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 64), messages: [String] = []
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n >= 0 else { return messages }
            messages.append(String(decoding: buffer[..<n], as: UTF8.self))
        }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Rings the daemon of the store at `store` with `message`; silent when no daemon listens.
    public static func ring(store: String, message: String = "tasks") {
        guard var address = try? address(path(forStore: store)) else { return }
        let s = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return }
        defer { close(s) }
        let bytes = Array(message.utf8.prefix(64))
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(s, bytes, bytes.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    static func address(_ path: String) throws(InputError) -> sockaddr_un {
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: a.sun_path)
        guard bytes.count < capacity else {
            throw InputError("the store's path is too long for its wake socket (\(bytes.count) bytes, at most \(capacity - 1)): use a shorter --store path")
        }
        withUnsafeMutableBytes(of: &a.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return a
    }
}

/// A timer on the wall clock (CLOCK_REALTIME) that fires at an absolute time, and
/// also when someone sets the clock (TFD_TIMER_CANCEL_ON_SET): a reminder is for a
/// time of day, so a clock step must reschedule it.
public final class WallTimer: @unchecked Sendable {
    public let fd: Int32

    public init() throws(InputError) {
        fd = csystemclock_timer_create()
        guard fd >= 0 else { throw InputError("cannot make a timer: \(String(cString: strerror(errno)))") }
    }

    /// Fires at `nanoseconds` since the epoch; never when nil.
    public func arm(at nanoseconds: Int64?) {
        _ = csystemclock_timer_arm(fd, nanoseconds.map { max($0, 0) } ?? -1)
    }

    /// Clears an expiry (or a clock-set cancellation).
    public func drain() {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
    }

    deinit { close(fd) }
}

/// The beeper of a process without the sound card (`marktime mark`, the phone page): it
/// asks the store's daemon to play the tone, through its doorbell. Silent without a daemon.
public struct DaemonBeeper: Beeper {
    public let store: String

    public init(store: String) { self.store = store }

    public func play(_ tone: Tone) { Doorbell.ring(store: store, message: "beep \(tone.rawValue)") }
    public func stop() {}
    public var state: String { "through the daemon" }
}
