import Foundation
import Glibc
import SystemPackage

/// A Unix datagram socket beside the store (`marktime.sqlite-wake`): the task list and
/// the places ring it after a change (`TaskList`, `PlaceBook`), and the daemon's reminder
/// thread, asleep until the next reminder, wakes up to read the store again. A process without the sound card rings
/// it with `beep TONE` for the daemon, which owns the card, to play the tone. A process
/// that needs an answer (`marktime mark`) asks from a socket of its own, and the daemon
/// answers to that sender.
public final class Doorbell: @unchecked Sendable {
    /// One datagram: its text, and who sent it when the sender can be answered (a socket
    /// with an address; its `sun_path` bytes as hex).
    public struct Message: Hashable, Sendable {
        public var text: String
        public var sender: String?

        public init(text: String, sender: String?) {
            self.text = text
            self.sender = sender
        }
    }

    /// The largest datagram read; a longer one is cut there.
    public static let maxMessage = 65_536

    public let path: String
    public let fd: Int32

    public static func path(forStore store: String) -> String { store + "-wake" }

    /// Listens at `path`, replacing a socket a previous daemon left behind.
    public init(path: String) throws(SystemError) {
        self.path = path
        let address = try Self.address(path)
        let fd = try Kernel.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), path)
        try? Kernel.unlink(path)
        do { try Kernel.bind(fd, address, length: MemoryLayout<sockaddr_un>.size, path) } catch {
            Kernel.close(fd)
            throw error
        }
        self.fd = fd
        // Those who may write the store may ring, and no one else: a ring can mark a sight
        // or set a reading. The store's own read and write bits (0600 without a store file).
        try? Kernel.chmod(path, Self.mode(forStoreOf: path))
    }

    /// The socket's permission bits: its store file's read and write bits (a socket is
    /// written to connect), else the owner's alone.
    static func mode(forStoreOf path: String) -> mode_t {
        let suffix = "-wake"
        guard path.hasSuffix(suffix), let st = try? Kernel.status(String(path.dropLast(suffix.count))) else { return 0o600 }
        return st.st_mode & 0o666
    }

    /// Empties the socket: the messages rung since the last drain.
    @discardableResult
    public func drain() -> [Message] {
        var buffer = [UInt8](repeating: 0, count: Self.maxMessage), messages: [Message] = []
        while true {
            guard let got = try? Kernel.receive(fd, into: &buffer, flags: 0, path) else { return messages }
            var from = got.from
            let n = got.count, pathLength = got.length - MemoryLayout<sa_family_t>.size
            let sender = pathLength > 0 ? withUnsafeBytes(of: &from.sun_path) { raw in
                raw.prefix(pathLength).map { String(format: "%02x", $0) }.joined()
            } : nil
            messages.append(Message(text: String(decoding: buffer[..<n], as: UTF8.self), sender: sender))
        }
    }

    /// Sends `text` to the sender of a message; false when it is gone.
    @discardableResult
    public func answer(_ text: String, to sender: String) -> Bool {
        var bytes: [UInt8] = []
        var i = sender.startIndex
        while i < sender.endIndex, let j = sender.index(i, offsetBy: 2, limitedBy: sender.endIndex), let b = UInt8(sender[i..<j], radix: 16) {
            bytes.append(b)
            i = j
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard !bytes.isEmpty, bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (k, b) in bytes.enumerated() { raw[k] = b } }
        let payload = Array(text.utf8)
        let length = MemoryLayout<sa_family_t>.size + bytes.count
        return (try? Kernel.send(fd, payload, flags: Int32(MSG_DONTWAIT), to: address, length: length, "an answer")) != nil
    }

    /// What came of asking the daemon.
    public enum Answer: Hashable, Sendable {
        case answered(String)
        /// No daemon listens (no socket, or nobody behind it).
        case notSent
        /// The question went, and no answer came in time.
        case noAnswer
    }

    /// Asks the daemon of the store at `store` and waits up to `timeout` for its answer,
    /// from a socket of this process's own (an abstract address the kernel picks).
    public static func ask(store: String, message: String, timeout: Duration) -> Answer {
        guard let address = try? address(path(forStore: store)),
              let s = try? Kernel.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), "to ask")
        else { return .notSent }
        defer { Kernel.close(s) }
        // Autobind: an address of the family alone gets a unique abstract name.
        var own = sockaddr_un()
        own.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(message.utf8)
        guard (try? Kernel.bind(s, own, length: MemoryLayout<sa_family_t>.size, "an abstract address")) != nil,
              bytes.count <= maxMessage,
              (try? Kernel.send(s, bytes, flags: Int32(MSG_DONTWAIT), to: address, length: MemoryLayout<sockaddr_un>.size, store)) != nil
        else { return .notSent }
        let deadline = Clocks.monotonicNanoseconds() + Int64(timeout.components.seconds) * 1_000_000_000
            + timeout.components.attoseconds / 1_000_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - Clocks.monotonicNanoseconds()
            guard left > 0 else { return .noAnswer }
            var p = [pollfd(fd: s, events: Int16(POLLIN), revents: 0)]
            let n: Int32
            // A signal ends the wait early; the loop waits again for what is left of it.
            do { n = try Kernel.poll(&p, milliseconds: Int32(clamping: (left + 999_999) / 1_000_000), retryOnInterrupt: false, "the answer") } catch {
                if error.errno == .interrupted { continue }
                return .noAnswer
            }
            guard n > 0 else { return .noAnswer }
            do {
                let got = try Kernel.receive(s, into: &buffer, flags: Int32(MSG_DONTWAIT), "the answer")
                return .answered(String(decoding: buffer[..<got.count], as: UTF8.self))
            } catch {
                if error.errno != .wouldBlock { return .noAnswer }
            }
        }
    }


    deinit {
        Kernel.close(fd)
        try? Kernel.unlink(path)
    }

    /// Rings the daemon of the store at `store` with `message`; silent when no daemon listens.
    public static func ring(store: String, message: String = "tasks") {
        guard let address = try? address(path(forStore: store)),
              let s = try? Kernel.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), "to ring")
        else { return }
        defer { Kernel.close(s) }
        _ = try? Kernel.send(s, Array(message.utf8.prefix(maxMessage)), flags: Int32(MSG_DONTWAIT), to: address, length: MemoryLayout<sockaddr_un>.size, store)
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
