import Foundation
import MarkTimeCore
import MarkTimePlaces

/// What `marktime share status` shows: the daemon's connection, the outbox, the devices seen.
public struct ShareStatus: Hashable, Sendable {
    /// Nil when no daemon is sharing.
    public var state: ShareState?
    public var outbox: Int
    public var seen: [SeenDevice]

    public init(state: ShareState?, outbox: Int, seen: [SeenDevice]) {
        self.state = state
        self.outbox = outbox
        self.seen = seen
    }
}
/// The share service's connection, as the daemon last wrote it beside its status.
public struct ShareState: Hashable, Sendable {
    public var connection: String
    public var connected: Bool
    public var broker: String
    public var topic: String
    public var lastSent: UTCTime?
    public var lastReceived: UTCTime?
    /// When one of the boat's own messages last came back from the broker: proof that it
    /// keeps what the boat publishes.
    public var lastReturned: UTCTime?

    public init(connection: String, connected: Bool, broker: String, topic: String, lastSent: UTCTime?, lastReceived: UTCTime?,
                lastReturned: UTCTime? = nil) {
        (self.connection, self.connected, self.broker, self.topic, self.lastSent, self.lastReceived) = (connection, connected, broker, topic, lastSent, lastReceived)
        self.lastReturned = lastReturned
    }

    struct Coded: Codable {
        var connection: String, connected: Bool, broker: String, topic: String
        var last_sent_ns: Int64?, last_received_ns: Int64?, last_returned_ns: Int64?
    }

    public var json: [UInt8] {
        let coded = Coded(connection: connection, connected: connected, broker: broker, topic: topic,
                          last_sent_ns: lastSent?.nanosecondsSinceEpoch, last_received_ns: lastReceived?.nanosecondsSinceEpoch,
                          last_returned_ns: lastReturned?.nanosecondsSinceEpoch)
        return Array((try? JSONEncoder().encode(coded)) ?? Data())
    }

    /// The state from the JSON the daemon wrote; nil when it is not that JSON.
    public init?(json: [UInt8]) {
        guard let c = try? JSONDecoder().decode(Coded.self, from: Data(json)) else { return nil }
        self.init(connection: c.connection, connected: c.connected, broker: c.broker, topic: c.topic,
                  lastSent: c.last_sent_ns.map(UTCTime.init(nanosecondsSinceEpoch:)),
                  lastReceived: c.last_received_ns.map(UTCTime.init(nanosecondsSinceEpoch:)),
                  lastReturned: c.last_returned_ns.map(UTCTime.init(nanosecondsSinceEpoch:)))
    }
}
/// A message for the broker, waiting in the outbox until the broker acknowledges it.
public struct ShareMessage: Hashable, Sendable {
    public enum Kind: String, Sendable { case location, transition, card, waypoints }
    public var id: Int64?
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool
    public var kind: Kind

    public init(topic: String, payload: [UInt8], retain: Bool, kind: Kind) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.kind = kind
    }
}

/// An OwnTracks device seen on the broker: its topic, its card's name, and the member linked to it.
public struct SeenDevice: Hashable, Sendable {
    public var topic: String
    public var name: String?
    public var lastSeen: UTCTime
    public var messages: Int
    public var member: String?

    public init(topic: String, name: String?, lastSeen: UTCTime, messages: Int, member: String?) {
        (self.topic, self.name, self.lastSeen, self.messages, self.member) = (topic, name, lastSeen, messages, member)
    }
}

/// What a phone's message did.
public enum SharedOutcome: Hashable, Sendable {
    /// A linked member moved: the geofence's events, if any.
    case moved(member: String, events: [PlaceEvent])
    /// Older than the member's last report: ignored.
    case stale(member: String)
    /// From a topic no member is linked to: recorded as seen.
    case unlinked
    /// A card, or a message kind marktime does not apply.
    case noted
}


extension ShareMessage {
    /// The most messages the outbox keeps: about a week of positions at one every five
    /// minutes, and a few thousand more.
    public static let outboxLimit = 5_000

    /// What a full outbox drops to keep `limit` of its `count` messages (`locations` of them
    /// positions): the oldest positions first (a newer one supersedes them), then the oldest
    /// messages of any kind.
    public static func drops(count: Int, locations: Int, limit: Int = outboxLimit) -> (locations: Int, oldest: Int) {
        let excess = max(0, count - limit)
        let positions = min(excess, locations)
        return (positions, excess - positions)
    }
}
