import Foundation
import Glibc
import SystemPackage

/// A Unix datagram socket beside the store (`marktime.sqlite-wake`): the store rings it
/// after a change to tasks, and the daemon's reminder thread, asleep until the next
/// reminder, wakes up to read the store again. A process without the sound card rings
/// it with `beep TONE` for the daemon, which owns the card, to play the tone.
public final class Doorbell: @unchecked Sendable {
    public let path: String
    public let fd: Int32

    public static func path(forStore store: String) -> String { store + "-wake" }

    /// Listens at `path`, replacing a socket a previous daemon left behind.
    public init(path: String) throws(SystemError) {
        self.path = path
        var address = try Self.address(path)
        let fd = try systemCall("socket \(path)") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        unlink(path)
        do {
            try systemCall("bind \(path)") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
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
        guard var address = try? address(path(forStore: store)),
              let s = try? systemCall("socket", { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) })
        else { return }
        defer { close(s) }
        let bytes = Array(message.utf8.prefix(64))
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(s, bytes, bytes.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// The socket address of `path`; ENAMETOOLONG when it does not fit in `sun_path`.
    static func address(_ path: String) throws(SystemError) -> sockaddr_un {
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: a.sun_path) else {
            throw SystemError("wake socket \(path) (use a shorter --store path)", .fileNameTooLong)
        }
        withUnsafeMutableBytes(of: &a.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return a
    }
}
