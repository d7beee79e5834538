import Glibc
import SystemPackage

/// A connected TCP socket with send and receive timeouts, closed on deinit: for a probe
/// that needs the raw descriptor (an OpenSSL handshake of our own).
public final class TCPSocket {
    public let fd: Int32

    /// Connects to the first of `host`'s addresses that answers on `port`, each try and
    /// every later read and write limited to `seconds`.
    public init(host: String, port: Int, seconds: Int) throws(SystemError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else { throw SystemError("resolve \(host)", .noSuchAddressOrDevice) }
        defer { freeaddrinfo(list) }
        let timeout = timeval(tv_sec: seconds, tv_usec: 0)
        var last = SystemError("connect \(host):\(port)", .connectionRefused)
        var next = list
        while let a = next {
            next = a.pointee.ai_next
            do throws(SystemError) {
                let fd = try Kernel.socket(for: a.pointee, flags: Int32(SOCK_CLOEXEC.rawValue))
                do throws(SystemError) {
                    for option in [SO_SNDTIMEO, SO_RCVTIMEO] { try Kernel.setOption(fd, option, timeout) }
                    try Kernel.connect(fd, a.pointee, "\(host):\(port)")
                } catch {
                    Kernel.close(fd)
                    throw error
                }
                self.fd = fd
                return
            } catch {
                last = error
            }
        }
        throw last
    }

    deinit { Kernel.close(fd) }

    /// Why `host` names no address this machine can listen on (`getaddrinfo(3)` with
    /// `AI_PASSIVE`), in the resolver's words; nil when it names one.
    public static func unresolvable(_ host: String) -> String? {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        if code == 0 { freeaddrinfo(list); return nil }
        return String(cString: gai_strerror(code))
    }
}
