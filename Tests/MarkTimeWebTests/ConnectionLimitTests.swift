import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeSystem
import NIOCore
import NIOPosix
import RigSupport
import Testing
@testable import MarkTimeWeb

/// Runs blocking socket work on a thread of its own: on the test's cooperative threads it
/// would keep the server (whose accept loop is async) from taking the connections.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { done in Thread { done.resume(with: Result { try body() }) }.start() }
}

/// A raw TCP connection to the page, as a careless or hostile client makes one.
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            sent += n
        }
    }

    /// Whether something (data or the end) arrived within `seconds`.
    func ready(within seconds: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(seconds * 1000)) == 1
    }

    /// What the server sends until it closes the connection (or `seconds` pass).
    func readAll(within seconds: Double = 600) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ready(within: seconds) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

@Suite("The page under many or careless connections")
struct ConnectionLimitTests {
    /// Runs `body` against the whole server (the connection guard, the HTTP decoder's
    /// limits) on a free port, with `limits`.
    func serve(_ t: TestSite, limits: ConnectionGuard.Limits = .init(), counter: ConnectionGuard.Counter = .init(),
               eventLoops: (any EventLoopGroup)? = nil,
               _ body: @escaping @Sendable (any TestClientProtocol, Int) async throws -> Void) async throws {
        var configuration = WebServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.limits = limits
        configuration.connections = counter
        configuration.eventLoops = eventLoops
        try await WebServer.application(t.site, configuration: configuration).test(.live) { client in
            try await body(client, try #require(client.port))
        }
    }

    @Test("A request whose head is larger than 16 KB is answered 431 with a sentence, and closed")
    func anOversizedHeadIsAnswered431() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await serve(t) { _, port in
            // Given a request with 20 KB of cookies
            let answer = try await blocking {
                let c = try RawConnection(port: port)
                c.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: a=" + String(repeating: "x", count: 20 * 1024) + "\r\n\r\n")
                return c.readAll()
            }
            // Then the answer is 431 with what to do, and the connection closes
            #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(answer.prefix(200))")
            #expect(answer.hasSuffix("The request's header fields are larger than the Pi's page takes (16 KB): clear this site's cookies and try again.\n"))
        }
    }

    @Test("A connection that sends no request is closed after the head timeout")
    func aSilentConnectionIsClosed() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await serve(t, limits: .init(headDeadline: .seconds(1))) { _, port in
            // Given a connection that never sends a request
            let said = try await blocking { try RawConnection(port: port).readAll() }
            // Then the server closes it, having said nothing
            #expect(said == "")
        }
    }

    @Test("A connection left idle after its request is closed after the idle timeout")
    func anIdleConnectionIsClosed() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await serve(t, limits: .init(idleTimeout: .seconds(1))) { _, port in
            // Given a connection that asked for the login page, then stays open saying nothing
            let said = try await blocking { () -> String in
                let c = try RawConnection(port: port)
                c.send("GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return c.readAll()
            }
            // Then it got the page, and the server closed the connection after it
            #expect(said.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(said.contains("<h1>Log in</h1>"))
        }
    }

    @Test("A body that trickles in is answered 408 with a sentence once past its deadline, and closed")
    func aTricklingBodyIsCutOff() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await serve(t, limits: .init(bodyDeadline: .milliseconds(300))) { _, port in
            // Given a request whose head says 200 bytes of body follow
            let (sent, answer) = try await blocking { () -> (Int, String) in
                let c = try RawConnection(port: port)
                c.send("POST /login HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                       + "Content-Length: 200\r\n\r\n")
                // When the body comes a byte at a time (each within the idle timeout), until the server answers
                var sent = 0
                while sent < 200, !c.ready(within: 0.05) {
                    c.send("x")
                    sent += 1
                }
                return (sent, c.readAll())
            }
            // Then it is answered 408 with what to do before the body was whole, and closed
            #expect(sent < 200)
            #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer.prefix(200))")
            #expect(answer.hasSuffix(BodyDeadline.refusal))
        }
    }

    @Test("Past the most connections, the next is answered 503 and closed; those open are kept")
    func pastTheCapTheNextIsAnswered503() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let counter = ConnectionGuard.Counter()
        try await serve(t, limits: .init(connections: 20, headDeadline: .seconds(600)), counter: counter) { _, port in
            // Given 25 idle connections, and at most 20 open (the test's own client may hold one)
            // When the server has seen all 25, answered those past its most, and holds 20
            let (answered, waiting, held) = try await blocking { () -> ([String], Int, Int) in
                let before = counter.accepted.load(ordering: .relaxed)
                var waiting = try (0..<25).map { _ in try RawConnection(port: port) }
                var answered: [String] = []
                while counter.accepted.load(ordering: .relaxed) < before + 25 || counter.open.load(ordering: .relaxed) != 20
                    || waiting.contains(where: { $0.ready(within: 0.05) }) {
                    if let ready = waiting.firstIndex(where: { $0.ready(within: 0) }) { answered.append(waiting.remove(at: ready).readAll()) }
                }
                // Read while the connections are still open: they close when this returns.
                return (answered, waiting.count, counter.open.load(ordering: .relaxed))
            }
            // Then 5 or more were answered (one more if the client was connected), each 503 with
            // the sentence, and every other one is kept open, waiting for its request
            #expect(answered.count >= 5 && answered.count <= 6, "\(answered.count)")
            #expect(answered.count + waiting == 25)
            for answer in answered {
                #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(answer.prefix(200))")
                #expect(answer.hasSuffix("The Pi's page has 20 connections open, its most: try again in a minute.\n"))
            }
            #expect(held == 20)
        }
    }

    @Test("With 2,000 idle connections open, a logged-in phone is still served")
    func twoThousandIdleConnectionsLeaveRoomForThePhone() async throws {
        OpenFileLimit.raise(to: 4_500)
        let t = try TestSite()
        defer { t.remove() }
        // A head timeout of 600 s: the usual 10 s would close the 2,000 before the check on a loaded machine.
        let counter = ConnectionGuard.Counter()
        // Loops of its own: accepting 2,000 connections on NIO's shared loops held up every
        // other test's server and client in this process for two minutes on a loaded machine.
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        try await serve(t, limits: .init(headDeadline: .seconds(600)), counter: counter, eventLoops: loops) { _, port in
            // Given 2,000 connections that send nothing, all taken from the kernel's accept queue
            // (on a loaded machine a full queue would drop the phone's SYN, not the server)
            let (idle, accepted) = try await blocking { () -> ([RawConnection], Bool) in
                let before = counter.accepted.load(ordering: .relaxed)
                let idle = try (0..<2_000).map { _ in try RawConnection(port: port) }
                return (idle, eventually(within: 100) { counter.accepted.load(ordering: .relaxed) >= before + 2_000 })
            }
            #expect(accepted)
            // When a phone connects only now, logs in and asks for the Now page (the test
            // framework's own client connected at the start, while the 2,000 did, and on a
            // loaded machine its SYN could wait out that client's 5 s connect timeout)
            let (page, elapsed) = try await blocking { () -> (String, Duration) in
                let started = ContinuousClock.now
                let form = "name=skipper&password=correct+horse"
                let login = try RawConnection(port: port)
                login.send("POST /login HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                           + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n" + form)
                let answer = login.readAll()
                guard let set = answer.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("set-cookie: marktime_session=") }) else {
                    throw TestFailure("no session cookie: \(answer.prefix(300))")
                }
                let cookie = set.dropFirst("set-cookie: ".count).split(separator: ";")[0]
                let now = try RawConnection(port: port)
                now.send("GET / HTTP/1.1\r\nHost: localhost\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
                return (now.readAll(), ContinuousClock.now - started)
            }
            // Then it is served, and the idle connections are still open
            #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(page.prefix(300))")
            #expect(page.contains("id=\"mark\""))
            #expect(counter.accepted.load(ordering: .relaxed) >= 2_000)
            #expect(try await blocking { idle.filter { !$0.ready(within: 0) }.count } == 2_000)
            print("with \(idle.count) idle connections: a login and the Now page took \(elapsed)")
        }
        try await loops.shutdownGracefully()
    }
}
