import CMosquitto
import Foundation
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// What an MQTT connection reports to the share service.
public enum TransportEvent: Hashable, Sendable {
    case connected
    /// The broker refused the connection (a wrong password, an ACL): its reason.
    case refused(String)
    case disconnected(String)
    /// The broker acknowledged (PUBACK) the message with this id.
    case acknowledged(Int32)
    /// A message the broker delivered, with the QoS it came at, and whether it is the
    /// retained copy a subscription is handed.
    case message(topic: String, payload: [UInt8], qos: Int32 = 1, retained: Bool = false)
}

/// An MQTT connection, as the share service needs it; tests pass a fake.
public protocol ShareTransport: AnyObject, Sendable {
    /// Connects in the background, reconnecting with a backoff, and reports on `events`.
    func start(_ events: @escaping @Sendable (TransportEvent) -> Void) throws(InputError)
    /// Sends with QoS 1; the message id its acknowledgement will carry.
    func publish(topic: String, payload: [UInt8], retain: Bool) throws(InputError) -> Int32
    func stop()
}

/// libmosquitto, driven by a thread of ours (`marktime-mqtt`). Each connection is a new
/// client with the same id and a persistent session (clean session off), so the broker
/// keeps the boat's subscriptions and queues friends' messages while it is away. Whatever
/// ends a connection (the network, TLS, a protocol error such as a captive portal answering
/// on the broker's port, a broker restart, a refusal), the thread waits a `Backoff` (1 s,
/// doubling to a minute) and connects again, until `stop`. A new client never resends
/// what the last one had in flight: the share service sends again from its outbox, in order.
public final class MosquittoClient: ShareTransport, @unchecked Sendable {
    /// Where and how to connect.
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var clientID: String
        public var username: String?
        public var password: String?
        /// A PEM CA file: TLS, with the broker's certificate and host name checked.
        public var caFile: String?
        /// Subscribed at each connection, QoS 1.
        public var subscriptions: [String]
        /// The last will: topic and payload, sent at QoS 0 and not retained, so that it never
        /// takes the place of the boat's retained position.
        public var will: (topic: String, payload: [UInt8])?
        /// MQTT's keepalive, in seconds (5 at least): a broker silent this long is gone, and
        /// one that never answers CONNECT is given up after it.
        public var keepalive: Int

        public init(host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil, caFile: String? = nil,
                    subscriptions: [String], will: (topic: String, payload: [UInt8])? = nil, keepalive: Int = 30) {
            (self.host, self.port, self.clientID, self.username, self.password) = (host, port, clientID, username, password)
            (self.caFile, self.subscriptions, self.will, self.keepalive) = (caFile, subscriptions, will, max(5, keepalive))
        }
    }

    private static let library: Void = { mosquitto_lib_init() }()

    let configuration: Configuration
    /// A libmosquitto client, which is thread-safe for publishing.
    struct Client: @unchecked Sendable { var pointer: OpaquePointer? }
    /// The current connection's client; nil between connections.
    private let handle = Mutex(Client())
    private var thread: PollThread?
    private let stopping = Atomic<Bool>(false)
    private let sink = EventSink()
    /// The broker refused the last connection: the disconnection that follows says nothing new.
    private let refused = Atomic<Bool>(false)
    /// The broker answered this connection's CONNECT (accepting or refusing it).
    private let answered = Atomic<Bool>(false)

    public init(_ configuration: Configuration) {
        Self.library
        self.configuration = configuration
    }

    static func check(_ rc: Int32, _ what: String) throws(InputError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw InputError("\(what): \(String(cString: mosquitto_strerror(rc)))")
        }
    }

    /// The reason a libmosquitto call gave, in words.
    static func reason(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
    }

    public func start(_ events: @escaping @Sendable (TransportEvent) -> Void) throws(InputError) {
        sink.set(events)
        // Checked once here, so that a wrong setting is an error at start, not a retry loop.
        if let ca = configuration.caFile, !FileManager.default.isReadableFile(atPath: ca) {
            throw InputError("share.tls_ca \(ca) cannot be read: give the broker's CA certificate as a PEM file")
        }
        let thread: PollThread
        do { thread = try PollThread(name: "marktime-mqtt") } catch { throw InputError("\(error)") }
        self.thread = thread
        thread.start { [self] t in run(t) }
    }

    /// Connects, runs the connection until it ends, waits, and again, until `stop`.
    private func run(_ t: PollThread) {
        var backoff = Backoff()
        while !stopping.load(ordering: .relaxed) {
            let began = ContinuousClock.now
            var reason: String
            answered.store(false, ordering: .relaxed)
            do {
                let m = try client()
                handle.withLock { $0.pointer = m }
                refused.store(false, ordering: .relaxed)
                // Without blocking on the TCP handshake, so that a stop is heard within the loop's 0.5 s.
                let rc = mosquitto_connect_async(m, configuration.host, Int32(configuration.port), Int32(configuration.keepalive))
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    var loop = MOSQ_ERR_SUCCESS.rawValue
                    while loop == MOSQ_ERR_SUCCESS.rawValue, !stopping.load(ordering: .relaxed) {
                        loop = mosquitto_loop(m, 500, 1)
                    }
                    reason = loop == MOSQ_ERR_SUCCESS.rawValue ? "stopped"
                        : loop == MOSQ_ERR_KEEPALIVE.rawValue && !answered.load(ordering: .relaxed) ? silentBroker
                        : Self.reason(loop)
                } else {
                    reason = Self.reason(rc)
                }
                handle.withLock { $0.pointer = nil }
                mosquitto_disconnect(m)
                mosquitto_destroy(m)
            } catch {
                reason = error.description
            }
            // Ended before the broker answered: a handshake of our own may say why.
            if !answered.load(ordering: .relaxed), !stopping.load(ordering: .relaxed) {
                let c = configuration
                let outcome = TLSProbe.handshake(host: c.host, port: c.port, caFile: c.caFile)
                if let words = TLSProbe.words(outcome, host: c.host, port: c.port, caFile: c.caFile) { reason = words }
            }
            if stopping.load(ordering: .relaxed) { return }
            if !refused.load(ordering: .relaxed) { emit(.disconnected(reason)) }
            if (try? t.wait([], timeout: backoff.next(after: ContinuousClock.now - began))) != .timedOut { return }
        }
    }

    /// The connection was taken, CONNECT sent, and nothing came back within the keepalive
    /// (libmosquitto says only "Unknown error.").
    var silentBroker: String {
        let c = configuration
        return "\(c.host):\(c.port) took the connection but never answered MQTT's CONNECT (\(c.keepalive) s): "
            + "it is not an MQTT broker, or a stuck one; check share.broker (MQTT is usually port 1883, 8883 with TLS)"
    }

    /// A new client for one connection, with its settings and callbacks.
    private func client() throws(InputError) -> OpaquePointer {
        let c = configuration
        guard let m = mosquitto_new(c.clientID, false, Unmanaged.passUnretained(self).toOpaque()) else {
            throw InputError("cannot make an MQTT client: \(String(cString: strerror(errno)))")
        }
        do {
            // Other threads publish while this one runs the loop: they queue, and the loop
            // does every read and write on the socket (and its TLS session).
            try Self.check(mosquitto_threaded_set(m, true), "MQTT threads")
            if c.username != nil || c.password != nil {
                try Self.check(mosquitto_username_pw_set(m, c.username, c.password), "MQTT username")
            }
            if let ca = c.caFile {
                try Self.check(mosquitto_tls_set(m, ca, nil, nil, nil, nil), "MQTT TLS with CA \(ca)")
                try Self.check(mosquitto_tls_opts_set(m, 1, nil, nil), "MQTT TLS options")
            }
            if let will = c.will {
                try Self.check(will.payload.withUnsafeBytes { mosquitto_will_set(m, will.topic, Int32($0.count), $0.baseAddress, 0, false) }, "MQTT last will")
            }
        } catch {
            mosquitto_destroy(m)
            throw error
        }
        mosquitto_connect_callback_set(m) { _, me, rc in
            guard let me else { return }
            Unmanaged<MosquittoClient>.fromOpaque(me).takeUnretainedValue().connected(rc)
        }
        mosquitto_publish_callback_set(m) { _, me, mid in
            guard let me else { return }
            Unmanaged<MosquittoClient>.fromOpaque(me).takeUnretainedValue().emit(.acknowledged(mid))
        }
        mosquitto_message_callback_set(m) { _, me, message in
            guard let me, let message else { return }
            let topic = String(cString: message.pointee.topic)
            let count = Int(message.pointee.payloadlen)
            let payload = count > 0 ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: count)) : []
            let event = TransportEvent.message(topic: topic, payload: payload, qos: message.pointee.qos, retained: message.pointee.retain)
            Unmanaged<MosquittoClient>.fromOpaque(me).takeUnretainedValue().emit(event)
        }
        return m
    }

    func emit(_ event: TransportEvent) { sink.emit(event) }

    /// On the connection's thread, in `mosquitto_loop`.
    func connected(_ rc: Int32) {
        answered.store(true, ordering: .relaxed)
        refused.store(rc != 0, ordering: .relaxed)
        guard rc == 0 else {
            emit(.refused(String(cString: mosquitto_connack_string(rc))))
            return
        }
        if let m = handle.withLock({ $0.pointer }) {
            for topic in configuration.subscriptions { _ = mosquitto_subscribe(m, nil, topic, 1) }
        }
        emit(.connected)
    }

    public func publish(topic: String, payload: [UInt8], retain: Bool) throws(InputError) -> Int32 {
        var mid: Int32 = 0
        // Under the lock, so that the connection's client is not destroyed meanwhile.
        let rc = handle.withLock { client -> Int32 in
            guard let m = client.pointer else { return MOSQ_ERR_NO_CONN.rawValue }
            return payload.withUnsafeBytes { mosquitto_publish(m, &mid, topic, Int32($0.count), $0.baseAddress, 1, retain) }
        }
        try Self.check(rc, "MQTT publish on \(topic)")
        return mid
    }

    public func stop() {
        stopping.store(true, ordering: .relaxed)
        thread?.stop()
        thread = nil
        sink.clear()
    }
}

/// Where a connection's events go: the share service's callback, set at `start`, cleared at
/// `stop`, and called for every event (each message, acknowledgement, connection).
///
/// The callback is kept in a class, and the lock guards only that class's reference. A
/// closure kept directly in a `Mutex` and read with `withLock { $0 }` is wrapped in two more
/// reabstraction thunks at every read, and the wrapped copy is written back (the generic
/// `inout` writeback, swiftlang/swift#91348, at -Onone and -O alike): each event made the
/// next one's call two frames deeper and about 100 bytes bigger, until, after about 105,000
/// events, the `marktime-mqtt` thread overflowed its stack. A class reference has one
/// representation, so reading it wraps nothing.
final class EventSink: Sendable {
    final class Receiver: Sendable {
        let call: @Sendable (TransportEvent) -> Void
        init(_ call: @escaping @Sendable (TransportEvent) -> Void) { self.call = call }
    }

    private let receiver = Mutex<Receiver?>(nil)

    func set(_ call: @escaping @Sendable (TransportEvent) -> Void) {
        let new = Receiver(call)
        receiver.withLock { $0 = new }
    }

    func clear() { receiver.withLock { $0 = nil } }

    /// Calls the callback outside the lock: it may take its time, and `stop` is not held up.
    func emit(_ event: TransportEvent) { receiver.withLock { $0 }?.call(event) }
}
