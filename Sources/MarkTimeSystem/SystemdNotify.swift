import Glibc

/// `sd_notify` without libsystemd: one datagram to `$NOTIFY_SOCKET`.
public enum SystemdNotify {
    /// Sends `message` (such as `READY=1`) when `socketPath` is set; returns whether it was sent.
    @discardableResult
    public static func send(_ message: String, socketPath: String?) -> Bool {
        guard var path = socketPath, !path.isEmpty else { return false }
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        guard let fd = try? Kernel.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), "NOTIFY_SOCKET") else { return false }
        defer { Kernel.close(fd) }
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
        return (try? Kernel.send(fd, Array(message.utf8), flags: 0, to: addr, length: Int(length), "NOTIFY_SOCKET")) != nil
    }
}
