import Glibc

/// `sd_notify` without libsystemd: one datagram to `$NOTIFY_SOCKET`.
public enum SystemdNotify {
    /// Sends `message` (such as `READY=1`) when `socketPath` is set; returns whether it was sent.
    @discardableResult
    public static func send(_ message: String, socketPath: String?) -> Bool {
        guard var path = socketPath, !path.isEmpty else { return false }
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count + (abstract ? 1 : 0) < capacity else { return false }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let start = abstract ? 1 : 0
            for (i, b) in bytes.enumerated() { raw[start + i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 1 : 0))
        let sent = message.withCString { text in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, text, strlen(text), 0, $0, length) }
            }
        }
        return sent >= 0
    }
}
