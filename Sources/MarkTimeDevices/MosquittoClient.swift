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
    case message(topic: String, payload: [UInt8])
}

/// An MQTT connection, as the share service needs it; tests pass a fake.
public protocol ShareTransport: AnyObject, Sendable {
    /// Connects in the background, reconnecting with a backoff, and reports on `events`.
    func start(_ events: @escaping @Sendable (TransportEvent) -> Void) throws(InputError)
    /// Sends with QoS 1; the message id its acknowledgement will carry.
    func publish(topic: String, payload: [UInt8], retain: Bool) throws(InputError) -> Int32
    func stop()
}

/// libmosquitto, on its own network thread (`mosquitto_loop_start`), which reconnects a
/// lost connection after 1 s, doubling up to a minute. A broker that is not there at the
/// start is tried on the same schedule by a thread of ours, since libmosquitto's loop only
/// takes over once a connection has begun.
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
        /// Retained last will: topic and payload.
        public var will: (topic: String, payload: [UInt8])?

        public init(host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil, caFile: String? = nil,
                    subscriptions: [String], will: (topic: String, payload: [UInt8])? = nil) {
            (self.host, self.port, self.clientID, self.username, self.password) = (host, port, clientID, username, password)
            (self.caFile, self.subscriptions, self.will) = (caFile, subscriptions, will)
        }
    }

    private static let library: Void = { mosquitto_lib_init() }()

    let configuration: Configuration
    private var handle: OpaquePointer?
    private var connector: PollThread?
    private let sink = Mutex<(@Sendable (TransportEvent) -> Void)?>(nil)
    /// The broker refused the last connection: the disconnection that follows says nothing new.
    private let refused = Atomic<Bool>(false)

    public init(_ configuration: Configuration) {
        Self.library
        self.configuration = configuration
    }

    static func check(_ rc: Int32, _ what: String) throws(InputError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw InputError("\(what): \(String(cString: mosquitto_strerror(rc)))")
        }
    }

    public func start(_ events: @escaping @Sendable (TransportEvent) -> Void) throws(InputError) {
        sink.withLock { $0 = events }
        guard let m = mosquitto_new(configuration.clientID, true, Unmanaged.passUnretained(self).toOpaque()) else {
            throw InputError("cannot make an MQTT client: \(String(cString: strerror(errno)))")
        }
        handle = m
        let c = configuration
        if c.username != nil || c.password != nil {
            try Self.check(mosquitto_username_pw_set(m, c.username, c.password), "MQTT username")
        }
        if let ca = c.caFile {
            try Self.check(mosquitto_tls_set(m, ca, nil, nil, nil, nil), "MQTT TLS with CA \(ca)")
            try Self.check(mosquitto_tls_opts_set(m, 1, nil, nil), "MQTT TLS options")
        }
        if let will = c.will {
            try Self.check(will.payload.withUnsafeBytes { mosquitto_will_set(m, will.topic, Int32($0.count), $0.baseAddress, 1, true) }, "MQTT last will")
        }
        mosquitto_reconnect_delay_set(m, 1, 60, true)
        mosquitto_connect_callback_set(m) { _, me, rc in
            guard let me else { return }
            let client = Unmanaged<MosquittoClient>.fromOpaque(me).takeUnretainedValue()
            client.connected(rc)
        }
        mosquitto_disconnect_callback_set(m) { _, me, rc in
            guard let me else { return }
            let client = Unmanaged<MosquittoClient>.fromOpaque(me).takeUnretainedValue()
            guard !client.refused.load(ordering: .relaxed) else { return }
            client.emit(.disconnected(rc == 0 ? "disconnected" : String(cString: mosquitto_strerror(rc))))
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
            Unmanaged<MosquittoClient>.fromOpaque(me).takeUnretainedValue().emit(.message(topic: topic, payload: payload))
        }
        let connector: PollThread
        do { connector = try PollThread(name: "marktime-mqtt") } catch { throw InputError("\(error)") }
        self.connector = connector
        connector.start { [self] t in
            var backoff = Backoff()
            while true {
                let rc = mosquitto_connect_async(handle, c.host, Int32(c.port), 30)
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    let loop = mosquitto_loop_start(handle)
                    if loop != MOSQ_ERR_SUCCESS.rawValue { emit(.disconnected(String(cString: mosquitto_strerror(loop)))) }
                    return
                }
                emit(.disconnected(rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))))
                if (try? t.wait([], timeout: backoff.next(after: .zero))) != .timedOut { return }
            }
        }
    }

    func emit(_ event: TransportEvent) { sink.withLock { $0 }?(event) }

    func connected(_ rc: Int32) {
        refused.store(rc != 0, ordering: .relaxed)
        guard rc == 0 else {
            emit(.refused(String(cString: mosquitto_connack_string(rc))))
            return
        }
        for topic in configuration.subscriptions { _ = mosquitto_subscribe(handle, nil, topic, 1) }
        emit(.connected)
    }

    public func publish(topic: String, payload: [UInt8], retain: Bool) throws(InputError) -> Int32 {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { mosquitto_publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, 1, retain) }
        try Self.check(rc, "MQTT publish on \(topic)")
        return mid
    }

    public func stop() {
        connector?.stop()
        connector = nil
        guard let m = handle else { return }
        mosquitto_disconnect(m)
        mosquitto_loop_stop(m, false)
        sink.withLock { $0 = nil }
        mosquitto_destroy(m)
        handle = nil
    }
}
