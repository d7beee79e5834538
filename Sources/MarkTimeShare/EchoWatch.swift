import MarkTimeCore

/// Whether the broker drops what the boat publishes. MQTT 3.1.1 acknowledges a message an
/// ACL drops, so the boat subscribes to its own topics and watches for its messages to come
/// back. A missing echo alone proves nothing: after a reconnection the broker may first
/// hand over a long backlog of friends' messages, queued ahead of the echo. So a message is
/// called dropped only on evidence that the broker has delivered everything queued before
/// it, while it has not come back:
///
/// - **newer traffic, in order**: a friend's QoS 1 message (not a retained copy) that was
///   sent after the boat's message was acknowledged. The broker queues a client's QoS 1
///   messages in the order it takes them in, so the echo would have come first. "Sent
///   after" is told by its `tst`: later than the acknowledgement by more than a phone's
///   clock may be ahead (`OwnTracks.maximumAhead`). QoS 0 messages do not count: a broker
///   may send them past its queue.
/// - **or silence**: nothing at all came from the broker for `patience` since the later
///   of the acknowledgement and the last message; a broker with a backlog keeps sending.
///
/// Times are monotonic nanoseconds (the caller reads the clock); pure.
public struct EchoWatch: Hashable, Sendable {
    /// How long the broker must have sent nothing before a missing echo counts as dropped.
    public static let patience: Int64 = 20_000_000_000

    /// The boat's message the broker acknowledged and has not delivered back since.
    public private(set) var awaiting: Awaited?
    /// The last of the boat's own messages that came back.
    public private(set) var lastEcho: [UInt8]?
    /// When anything last came from the broker.
    public private(set) var lastArrival: Int64?
    /// A friend's QoS 1 message sent after the awaited one came, and the echo has not.
    public private(set) var overtaken = false
    /// The broker drops what the boat publishes (until an echo comes back).
    public private(set) var missing = false

    public struct Awaited: Hashable, Sendable {
        public var payload: [UInt8]
        /// When the acknowledgement came: monotonic, and the boat's clock.
        public var at: Int64
        public var time: UTCTime
    }

    public init() {}

    /// The broker acknowledged one of the boat's messages on one of its own topics.
    public mutating func acknowledged(_ payload: [UInt8], at: Int64, time: UTCTime) {
        // The broker may deliver it back before it acknowledges it.
        guard awaiting == nil, payload != lastEcho else { return }
        awaiting = Awaited(payload: payload, at: at, time: time)
    }

    /// A message from the broker on another topic than the boat's own: `sent` is the `tst`
    /// of a friend's checked QoS 1 message that is not a retained copy, nil for anything else.
    public mutating func arrived(at: Int64, sent: UTCTime?) {
        lastArrival = at
        if let awaiting, let sent,
           sent.nanosecondsSinceEpoch - awaiting.time.nanosecondsSinceEpoch > OwnTracks.maximumAhead * 1_000_000_000 {
            overtaken = true
        }
    }

    /// One of the boat's own messages came back; true when it ends a `missing`.
    public mutating func echoed(_ payload: [UInt8], at: Int64) -> Bool {
        lastArrival = at
        lastEcho = payload
        if awaiting?.payload == payload { (awaiting, overtaken) = (nil, false) }
        guard missing, awaiting == nil else { return false }
        missing = false
        return true
    }

    /// The heartbeat: true when the evidence now says the broker drops the boat's messages.
    public mutating func check(at now: Int64) -> Bool {
        guard !missing, let awaiting else { return false }
        let quietSince = max(awaiting.at, lastArrival ?? awaiting.at)
        guard overtaken || now - quietSince > Self.patience else { return false }
        missing = true
        return true
    }

    /// The connection ended: what was awaited goes again on the next one.
    public mutating func disconnected() {
        (awaiting, overtaken, missing, lastArrival) = (nil, false, false, nil)
    }
}

extension OwnTracks.Incoming {
    /// When the phone says it was sent (`tst`), for a location or a transition.
    public var sent: UTCTime? {
        switch self {
        case .location(let fix), .transition(_, _, let fix): fix.time
        case .card, .ignored: nil
        }
    }
}
