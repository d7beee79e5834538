import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// Keeps the page up for the phones that use it whatever else connects. First in each
/// connection's pipeline, on the raw bytes (before any HTTP decoding, which Hummingbird
/// sets up only once a request's head has come): at most `limits.connections` open at once
/// (the next is answered 503 and closed); the first request's head must come within
/// `limits.headerSeconds` (else the connection is closed) and within `limits.headBytes`
/// (else it is answered 431 and closed). Then it steps aside: later requests on the
/// connection meet the decoder's own limit of the same size, and idle connections
/// Hummingbird's idle timeout (`limits.idleSeconds`).
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The page's limits.
    struct Limits: Sendable {
        var connections = 4_096
        var headerSeconds: Int64 = 10
        /// The most bytes of a request's head (its line and header fields).
        var headBytes = 16 * 1024
        /// An HTTP connection with no request for this long is closed (a live page's
        /// connection, a WebSocket, is pinged far more often).
        var idleSeconds: Int64 = 30
    }

    /// The connections open now, shared by every connection's guard.
    final class Counter: Sendable {
        let open = Atomic<Int>(0)
        /// Every connection the guard has seen, refused ones too.
        let accepted = Atomic<Int>(0)
        init() {}
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
            headTimer = context.eventLoop.scheduleTask(in: .seconds(limits.headerSeconds)) { channel.close(promise: nil) }
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
            headTimer?.cancel()
            return answer(context, "431 Request Header Fields Too Large",
                          "The request's header fields are larger than the Pi's page takes (\(limits.headBytes / 1024) KB): clear this site's cookies and try again.\n")
        }
        context.fireChannelRead(data)
        if end != nil {
            headTimer?.cancel()
            headTimer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
    }

    /// A whole plain-text response, then the connection closes.
    private func answer(_ context: ChannelHandlerContext, _ status: String, _ text: String) {
        let body = Array(text.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Array(head.utf8) + body))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Hummingbird's HTTP/1 and WebSocket channel with `ConnectionGuard` first in each connection.
struct GuardedChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let inner: HTTP1WebSocketUpgradeChannel
    let limits: ConnectionGuard.Limits
    let counter: ConnectionGuard.Counter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(limits: limits, counter: counter), position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
