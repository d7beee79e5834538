import HTTPTypes
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Keeps the page up for the phones that use it whatever else connects. In each
/// connection's pipeline on the bytes of HTTP: after TLS when the page serves HTTPS (so it
/// reads the request, not the encrypted records, and its answers go out encrypted), before
/// any HTTP decoding (which Hummingbird sets up only once a request's head has come): at
/// most `limits.connections` open at once (the next is answered 503 and closed); the first
/// request's head must come within `limits.headDeadline` (else the connection is closed) and
/// within `limits.headBytes` (else it is answered 431 and closed). Then it steps aside:
/// later requests meet the decoder's own limit of the same size, idle connections
/// Hummingbird's idle timeout (`limits.idleTimeout`), and bodies `BodyDeadline`.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The page's limits.
    struct Limits: Sendable {
        var connections = 4_096
        /// From the connection's start (its TLS handshake too) to the end of its first request's head.
        var headDeadline: TimeAmount = .seconds(10)
        /// The most bytes of a request's head (its line and header fields).
        var headBytes = 16 * 1024
        /// An HTTP connection with no request for this long is closed (a live page's
        /// connection, a WebSocket, is pinged far more often).
        var idleTimeout: TimeAmount = .seconds(30)
        /// A request's body must have come whole within this of its head, plus a second for
        /// each `bodyBytesPerSecond` it has sent: a photo that keeps coming is never cut
        /// off, a trickle is.
        var bodyDeadline: TimeAmount = .seconds(30)
        var bodyBytesPerSecond = 8 * 1024
    }

    /// The connections open now, shared by every connection's guard.
    final class Counter: Sendable {
        let open = Atomic<Int>(0)
        /// Every connection the guard has seen, refused ones too.
        let accepted = Atomic<Int>(0)
        /// The connections still waiting for their first head, each with its deadline's action.
        let waiting = Mutex<[ObjectIdentifier: @Sendable () -> Void]>([:])
        init() {}

        /// Ends the head deadline of every connection still waiting for its first head, at
        /// once, as if it had passed (a test need not wait for it).
        func expireHeads() {
            for expire in waiting.withLock({ Array($0.values) }) { expire() }
        }
    }

    let limits: Limits
    let counter: Counter
    private var headTimer: Scheduled<Void>?
    /// Bytes of the first head so far, and the last three of them (a head ends at CRLF CRLF).
    private var seen = 0
    private var tail: [UInt8] = []
    private var refused = false

    init(limits: Limits, counter: Counter) {
        self.limits = limits
        self.counter = counter
    }

    func channelActive(context: ChannelHandlerContext) {
        counter.accepted.wrappingAdd(1, ordering: .relaxed)
        let open = counter.open.wrappingAdd(1, ordering: .relaxed).newValue
        context.channel.closeFuture.whenComplete { [counter] _ in counter.open.wrappingSubtract(1, ordering: .relaxed) }
        if open > limits.connections {
            refused = true
            answer(context, "503 Service Unavailable", "The Pi's page has \(limits.connections) connections open, its most: try again in a minute.\n")
        } else {
            let channel = context.channel
            headTimer = context.eventLoop.scheduleTask(in: limits.headDeadline) { channel.close(promise: nil) }
            counter.waiting.withLock { $0[ObjectIdentifier(self)] = { channel.close(promise: nil) } }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let bytes = unwrapInboundIn(data)
        // Where the head ends in this read, if it does.
        var end: Int?
        for (i, byte) in bytes.readableBytesView.enumerated() {
            tail.append(byte)
            if tail.count > 4 { tail.removeFirst() }
            if tail == [13, 10, 13, 10] { end = i + 1; break }
        }
        seen += end ?? bytes.readableBytes
        if seen > limits.headBytes {
            refused = true
            stopWaiting()
            return answer(context, "431 Request Header Fields Too Large",
                          "The request's header fields are larger than the Pi's page takes (\(limits.headBytes / 1024) KB): clear this site's cookies and try again.\n")
        }
        context.fireChannelRead(data)
        if end != nil {
            stopWaiting()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopWaiting()
    }

    /// The first head has come, or the connection is done: no deadline for it.
    private func stopWaiting() {
        headTimer?.cancel()
        headTimer = nil
        counter.waiting.withLock { $0[ObjectIdentifier(self)] = nil }
    }

    /// A whole plain-text response, then the connection closes.
    private func answer(_ context: ChannelHandlerContext, _ status: String, _ text: String) {
        let body = Array(text.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Array(head.utf8) + body))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// A request's body must come in time: within `limits.bodyDeadline` of its head, and a second
/// more for each `limits.bodyBytesPerSecond` that has come. Past that, the request is
/// answered 408 with a sentence (unless its answer has begun) and the connection closed, so
/// that bodies sent a byte at a time cannot keep the page's connections from the phones.
/// After the HTTP decoder, on each request of a connection that stays HTTP (an upgrade to
/// the live WebSocket never has it).
final class BodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let refusal = "The request's body came too slowly, so the Pi's page stopped waiting for it: send it again (on a weak Wi-Fi, from nearer the boat's access point).\n"

    let limits: ConnectionGuard.Limits
    /// The request being read: when its head came, the bytes of body since, and the timer.
    private var started: NIODeadline?
    private var received = 0
    private var timer: Scheduled<Void>?
    /// Whether the answer to the request being read has begun.
    private var answering = false

    init(limits: ConnectionGuard.Limits) {
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            timer?.cancel()
            (started, received, answering) = (.now(), 0, false)
            schedule(context)
        case .body(let bytes):
            received += bytes.readableBytes
        case .end:
            timer?.cancel()
            (timer, started) = (nil, nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data), started != nil { answering = true }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    /// When the body is due, by what has come so far.
    private var due: NIODeadline? {
        started.map { $0 + limits.bodyDeadline + .nanoseconds(Int64(received) * 1_000_000_000 / Int64(max(1, limits.bodyBytesPerSecond))) }
    }

    private func schedule(_ context: ChannelHandlerContext) {
        guard let due else { return }
        let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
        timer = loop.scheduleTask(deadline: due) { [self] in
            timer = nil
            // More came since this was scheduled: it is due later.
            if let later = self.due, later > .now() { return schedule(context) }
            late(context)
        }
    }

    /// The body is late: say so if the answer has not begun, and close.
    private func late(_ context: ChannelHandlerContext) {
        started = nil
        guard !answering else { return context.close(promise: nil) }
        let body = ByteBuffer(string: Self.refusal)
        let head = HTTPResponse(status: .requestTimeout, headerFields: [
            .contentType: "text/plain; charset=utf-8", .contentLength: "\(body.readableBytes)", .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Hummingbird's HTTP/1 and WebSocket channel with `ConnectionGuard` in front of each
/// connection's HTTP (after TLS, when there is TLS).
struct GuardedChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let inner: HTTP1WebSocketUpgradeChannel
    let limits: ConnectionGuard.Limits
    let counter: ConnectionGuard.Counter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Last so far: after the TLS handler `TLSChannel` adds before this setup, and before
        // the HTTP handlers `inner` adds after it.
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(limits: limits, counter: counter), position: .last)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
