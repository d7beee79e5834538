import MarkTimeCore
import MarkTimePlaces

/// What a checked message from a family phone does, decided before anything is written:
/// a card names its device; a location, or a transition with the place it names, moves
/// the member linked to its topic through the geofence; anything else is only seen.
public enum SharedEffect: Hashable, Sendable {
    case name(String)
    case move(SharedMove)
    case nothing

    public init(_ incoming: OwnTracks.Incoming) {
        switch incoming {
        case .card(let name): self = .name(name)
        case .ignored: self = .nothing
        case .location(let fix): self = .move(SharedMove(fix: fix))
        case .transition(let place, let kind, let fix): self = .move(SharedMove(fix: fix, transition: .init(place: place, kind: kind)))
        }
    }
}

/// A member's move from a shared message: the fix, and the place a transition names.
public struct SharedMove: Hashable, Sendable {
    public struct Transition: Hashable, Sendable {
        public var place: String
        public var kind: PlaceEvent.Kind
    }

    public var fix: GeoFix
    public var transition: Transition?

    public init(fix: GeoFix, transition: Transition? = nil) {
        self.fix = fix
        self.transition = transition
    }

    /// The move applied to `member`: `stale` (and nothing changed) when it is older than
    /// the member's last report (`Member.isStale`), else `moved` with the geofence's
    /// events. `places` is read only for a move that is not stale.
    public func apply(to member: inout Member, places: () throws -> [Place], rules: GeofenceRules) rethrows -> SharedOutcome {
        if member.isStale(fix, transition: transition != nil) { return .stale(member: member.name) }
        let events = member.geofence.apply(transition: transition.map { ($0.place, $0.kind) }, fix: fix, places: try places(), rules: rules)
        return .moved(member: member.name, events: events)
    }
}

/// What the share service writes: the boat's outbox, and what a friend's message does.
/// MarkTimeStore's `AppDatabase` is the one on SQLite, and its `ShareBatch` the same
/// writes inside one transaction (the daemon's batches of them).
public protocol ShareRepository {
    /// Adds messages to the outbox; over `ShareMessage.outboxLimit`, drops what
    /// `ShareMessage.drops` says. What was dropped: (positions, others).
    @discardableResult
    func enqueue(_ messages: [ShareMessage], now: UTCTime) throws -> (locations: Int, oldest: Int)
    /// Removes a message the broker acknowledged.
    func acknowledged(_ id: Int64) throws
    /// Records the topic as seen and writes what the message does (`SharedEffect`,
    /// `SharedMove.apply`), together.
    func applyShared(_ incoming: OwnTracks.Incoming, topic: OwnTracks.Topic, rules: GeofenceRules, now: UTCTime) throws -> SharedOutcome
}
