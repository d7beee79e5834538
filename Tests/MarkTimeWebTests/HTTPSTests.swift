import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import NIOCore
import NIOPosix
import NIOSSL
import RigSupport
import Testing
@testable import MarkTimeWeb

/// A certificate for `localhost` and 127.0.0.1, self-signed, made with openssl: its PEM files.
struct TestCertificate {
    let certificate: String
    let key: String

    init(in folder: String) throws {
        certificate = folder + "/web.pem"
        key = folder + "/web.key"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                             "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                             "-keyout", key, "-out", certificate]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw TestFailure("openssl req exited \(openssl.terminationStatus)") }
    }
}

/// A browser's connection to the page, over HTTPS a real TLS client (BoringSSL, through
/// swift-nio-ssl) that checks the page's certificate: read and written as the plain bytes
/// of HTTP (inside TLS).
final class PageStream {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    /// What has come and is not read yet.
    private var buffered: [UInt8] = []
    private(set) var ended = false

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// Runs `body` on a new connection to `port`: over TLS trusting only `certificate`, else plain.
    static func with<T>(port: Int, trusting certificate: TestCertificate? = nil, _ body: (PageStream) async throws -> T) async throws -> T {
        let context = try certificate.map { certificate in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(certificate.certificate)
            return try NIOSSLContext(configuration: tls)
        }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                if let context {
                    try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: "localhost"))
                }
                return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(PageStream(inbound, outbound))
        }
    }

    /// Asks for the live connection at `path` (as a page of `origin` asks); the answer's head.
    func upgrade(_ path: String, port: Int, cookie: String, origin: String) async throws -> String {
        try await send("GET \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: \(origin)\r\nCookie: \(cookie)\r\n"
                       + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return try await response().head
    }

    /// The next text message on the live connection, as JSON (other frames are skipped).
    func message() async throws -> [String: Any] {
        while true {
            let f = try await frame()
            if f.opcode == 1, let m = try JSONSerialization.jsonObject(with: Data(f.payload)) as? [String: Any] { return m }
        }
    }

    func send(_ bytes: [UInt8]) async throws { try await outbound.write(ByteBuffer(bytes: bytes)) }
    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    /// Reads what comes next; false once the server has closed the connection (or broken TLS).
    private func fill() async -> Bool {
        guard !ended else { return false }
        do {
            if let chunk = try await inbound.next() {
                buffered += chunk.readableBytesView
                return true
            }
        } catch {}
        ended = true
        return false
    }

    /// All the server sends until it closes the connection.
    func readToEnd() async -> String {
        while await fill() {}
        defer { buffered = [] }
        return String(decoding: buffered, as: UTF8.self)
    }

    /// Waits until the server closes the connection, reading and dropping what it sends.
    func waitForClose() async {
        while await fill() { buffered = [] }
    }

    /// Where the head in `buffered` ends (after its CRLF CRLF), if it has come.
    private var headEnd: Int? {
        guard buffered.count >= 4 else { return nil }
        return (0...(buffered.count - 4)).first { buffered[$0..<($0 + 4)] == [13, 10, 13, 10] }.map { $0 + 4 }
    }

    /// The next response: its head and its body (by its Content-Length).
    func response() async throws -> (head: String, body: String) {
        while headEnd == nil {
            guard await fill() else { throw TestFailure("closed before a whole head: \(String(decoding: buffered, as: UTF8.self).prefix(300))") }
        }
        let end = headEnd!
        let head = String(decoding: buffered[..<end], as: UTF8.self)
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        while buffered.count < end + length {
            guard await fill() else { throw TestFailure("closed in the body of \(head.prefix(200))") }
        }
        let body = String(decoding: buffered[end..<(end + length)], as: UTF8.self)
        buffered.removeFirst(end + length)
        return (head, body)
    }

    /// The next WebSocket frame from the server (unmasked): its opcode and payload.
    func frame() async throws -> (opcode: UInt8, payload: [UInt8]) {
        func need(_ n: Int) async throws {
            while buffered.count < n {
                guard await fill() else { throw TestFailure("the live connection closed") }
            }
        }
        try await need(2)
        var length = Int(buffered[1] & 0x7F), at = 2
        if length == 126 {
            try await need(4)
            length = Int(buffered[2]) << 8 | Int(buffered[3])
            at = 4
        } else if length == 127 {
            try await need(10)
            length = buffered[2..<10].reduce(0) { $0 << 8 | Int($1) }
            at = 10
        }
        try await need(at + length)
        let frame = (buffered[0] & 0x0F, Array(buffered[at..<(at + length)]))
        buffered.removeFirst(at + length)
        return frame
    }

    /// A masked frame, as a browser sends one.
    func sendFrame(opcode: UInt8, _ payload: [UInt8]) async throws {
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        let length: [UInt8] = payload.count < 126 ? [0x80 | UInt8(payload.count)] : [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        try await send([0x80 | opcode] + length + mask + payload.enumerated().map { $1 ^ mask[$0 % 4] })
    }

    /// A text message on the live connection.
    func sendText(_ text: String) async throws { try await sendFrame(opcode: 1, Array(text.utf8)) }
}

@Suite("The page over HTTPS")
struct HTTPSTests {
    /// Runs `body` against the whole server over TLS (the connection guard, the HTTP decoder's
    /// limits) on a free port, with `limits`: the port, and the certificate to trust.
    func serve(_ t: TestSite, limits: ConnectionGuard.Limits = .init(), counter: ConnectionGuard.Counter = .init(),
               _ body: @escaping @Sendable (Int, TestCertificate) async throws -> Void) async throws {
        let certificate = try TestCertificate(in: t.folder)
        let settings = Settings(values: ["web.tls_cert": .string(certificate.certificate), "web.tls_key": .string(certificate.key)])
        var configuration = WebServer.Configuration(host: "127.0.0.1", port: 0, tls: try settings.web.tls)
        configuration.limits = limits
        configuration.connections = counter
        try await WebServer.application(t.site, configuration: configuration).test(.live) { client in
            try await body(try #require(client.port), certificate)
        }
    }

    /// Logs in over its own HTTPS connection; the session cookie and the CSRF token.
    static func logIn(port: Int, _ certificate: TestCertificate) async throws -> (cookie: String, csrf: String) {
        try await PageStream.with(port: port, trusting: certificate) { tls in
            let form = "name=skipper&password=correct+horse"
            try await tls.send("POST /login HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: https://localhost:\(port)\r\n"
                               + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n" + form)
            let login = try await tls.response()
            guard let set = login.head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("set-cookie: marktime_session=") }) else {
                throw TestFailure("no session cookie: \(login.head)")
            }
            let cookie = String(set.dropFirst("set-cookie: ".count).split(separator: ";")[0])
            try await tls.send("GET /settings HTTP/1.1\r\nHost: localhost:\(port)\r\nCookie: \(cookie)\r\n\r\n")
            let page = try await tls.response().body
            guard let range = page.range(of: "name=\"csrf\" content=\""), let end = page[range.upperBound...].firstIndex(of: "\"") else {
                throw TestFailure("no CSRF token on the settings page")
            }
            return (cookie, String(page[range.upperBound..<end]))
        }
    }

    /// Opens a connection that sends nothing and, once the server waits for its first head,
    /// ends the head deadline of every connection still waiting (as if it had passed); waits
    /// until that silent connection is closed by it.
    static func passHeadDeadline(_ counter: ConnectionGuard.Counter, port: Int, _ certificate: TestCertificate) async throws {
        let before = counter.waiting.withLock { $0.count }
        try await PageStream.with(port: port, trusting: certificate) { silent in
            let waiting = (try? await waitUntil(within: 20) { counter.waiting.withLock { $0.count } > before }) == true
            #expect(waiting)
            counter.expireHeads()
            await silent.waitForClose()
        }
    }

    @Test("Over HTTPS, a live page's connection outlives the first head's deadline and still answers")
    func theLiveConnectionStaysUp() async throws {
        // Given a page over HTTPS (its head deadline ended by the test, not by the clock)
        let t = try TestSite()
        defer { t.remove() }
        let counter = ConnectionGuard.Counter()
        try await serve(t, limits: .init(headDeadline: .seconds(600)), counter: counter) { port, certificate in
            let (cookie, _) = try await Self.logIn(port: port, certificate)
            try await PageStream.with(port: port, trusting: certificate) { live in
                // When a logged-in page opens its live connection and gets the Now snapshot
                let upgrade = try await live.upgrade("/live", port: port, cookie: cookie, origin: "https://localhost:\(port)")
                #expect(upgrade.hasPrefix("HTTP/1.1 101 "), "\(upgrade)")
                let first = try await live.frame()
                #expect(first.opcode == 1 && String(decoding: first.payload, as: UTF8.self).contains("\"type\":\"now\""))
                // And the head deadline passes: a silent HTTPS connection is closed by it
                try await Self.passHeadDeadline(counter, port: port, certificate)
                // Then the live connection is still open and answers a ping with its pong
                try await live.sendFrame(opcode: 0x9, Array("still there?".utf8))
                var pong: [UInt8]?
                while pong == nil {
                    let f = try await live.frame()
                    if f.opcode == 0xA { pong = f.payload }
                }
                #expect(pong == Array("still there?".utf8))
            }
        }
    }

    @Test("Over HTTPS, a keep-alive connection serves requests after the first head's deadline")
    func aKeptConnectionOutlivesTheHeadDeadline() async throws {
        // Given a page over HTTPS (its head deadline ended by the test, not by the clock)
        let t = try TestSite()
        defer { t.remove() }
        let counter = ConnectionGuard.Counter()
        try await serve(t, limits: .init(headDeadline: .seconds(600)), counter: counter) { port, certificate in
            try await PageStream.with(port: port, trusting: certificate) { tls in
                // When a browser asks for the login page, keeps the connection, and the head
                // deadline passes (a silent connection is closed by it)
                try await tls.send("GET /login HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n")
                #expect(try await tls.response().head.hasPrefix("HTTP/1.1 200 OK\r\n"))
                try await Self.passHeadDeadline(counter, port: port, certificate)
                // Then the same connection serves the next request
                try await tls.send("GET /signup HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n")
                let next = try await tls.response()
                #expect(next.head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(next.head)")
                #expect(next.body.contains("<h1>Create account</h1>"))
            }
        }
    }

    @Test("Over HTTPS, a form of 60 KB and a photo of the full 16 MB are taken")
    func largeFormsAndPhotosPass() async throws {
        // Given a logged-in page over HTTPS (no head deadline to meet: under a loaded suite
        // the handshake and the first head may take longer than the page's 10 s)
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await serve(t, limits: .init(headDeadline: .seconds(600))) { port, certificate in
            let (cookie, csrf) = try await Self.logIn(port: port, certificate)
            try await PageStream.with(port: port, trusting: certificate) { tls in
                // When it posts a moment of 60 KB
                let form = "csrf=\(csrf)&time=10%3A00&text=" + String(repeating: "x", count: 60_000)
                try await tls.send("POST /journal/2026-11-21/moment HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: https://localhost:\(port)\r\n"
                                   + "Cookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n" + form)
                let moment = try await tls.response()
                // And, on the same connection, a photo of exactly 16 MB
                let photo = pngHeader(width: 3, height: 2) + [UInt8](repeating: 0, count: (16 << 20) - 33)
                try await tls.send("POST /journal/2026-11-21/photo?name=big.png HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: https://localhost:\(port)\r\n"
                                   + "Cookie: \(cookie)\r\nX-CSRF-Token: \(csrf)\r\nContent-Type: image/png\r\nContent-Length: \(photo.count)\r\n\r\n")
                try await tls.send(photo)
                let kept = try await tls.response()
                // Then both are kept (the journal numbers its entries together)
                #expect(moment.head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(moment.head)")
                #expect(moment.body.contains("Moment 1 added."))
                #expect(kept.head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(kept.head)")
                #expect(kept.body.contains("Photo 2 added: 3×2 png,"), "\(kept.body.prefix(300))")
            }
        }
    }

    @Test("Over HTTPS, a connection past the most is answered 503 inside TLS")
    func pastTheCapTheAnswerIsInsideTLS() async throws {
        // Given a page over HTTPS that takes one connection at most, and the test's own client holding it
        let t = try TestSite()
        defer { t.remove() }
        let counter = ConnectionGuard.Counter()
        try await serve(t, limits: .init(connections: 1), counter: counter) { port, certificate in
            #expect(try await waitUntil(within: 20) { counter.open.load(ordering: .relaxed) >= 1 })
            // When a browser connects
            let answer = try await PageStream.with(port: port, trusting: certificate) { await $0.readToEnd() }
            // Then it reads, through TLS, the 503 with what to do
            #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(answer.prefix(200))")
            #expect(answer.hasSuffix("The Pi's page has 1 connections open, its most: try again in a minute.\n"))
        }
    }

    @Test("Over HTTPS, a head over 16 KB is answered 431 inside TLS")
    func anOversizedHeadIsAnsweredInsideTLS() async throws {
        // Given a page over HTTPS
        let t = try TestSite()
        defer { t.remove() }
        try await serve(t) { port, certificate in
            // When a browser sends 20 KB of cookies
            let answer = try await PageStream.with(port: port, trusting: certificate) { tls in
                try await tls.send("GET / HTTP/1.1\r\nHost: localhost:\(port)\r\nCookie: a=" + String(repeating: "x", count: 20 * 1024) + "\r\n\r\n")
                return await tls.readToEnd()
            }
            // Then it reads, through TLS, the 431 with what to do
            #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(answer.prefix(200))")
            #expect(answer.hasSuffix("The request's header fields are larger than the Pi's page takes (16 KB): clear this site's cookies and try again.\n"))
        }
    }
}

/// A PNG's signature and IHDR, `width` × `height`: 33 bytes.
func pngHeader(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) } }
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header: [UInt8] = be32(13) + Array("IHDR".utf8)
    let size: [UInt8] = be32(width) + be32(height)
    let rest: [UInt8] = [8, 2, 0, 0, 0, 0, 0, 0, 0]
    return signature + header + size + rest
}
