import MarkTimeCore

/// The kinds of place, which are also the sectors of the family clock.
public enum PlaceKind: String, CaseIterable, Sendable, Codable {
    case home, work, school, harbour, anchorage, other

    public static func parse(_ text: String) throws(InputError) -> PlaceKind {
        guard let k = PlaceKind(rawValue: text.trimmingWhitespace().lowercased()) else {
            throw InputError("unknown kind of place '\(Text.escaped(text))': use \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return k
    }
}

/// A named circle on the Earth.
public struct Place: Hashable, Sendable {
    public var name: String
    public var kind: PlaceKind
    public var center: Position
    /// Metres, greater than 0 and at most 100 km.
    public var radius: Double
    /// When the store took it; nil for a place not stored yet.
    public var created: UTCTime?

    public static let maximumRadius = 100_000.0

    public init(name: String, kind: PlaceKind, center: Position, radius: Double, created: UTCTime? = nil) throws(InputError) {
        let trimmed = try Text.name(name, what: "a place", example: "Home")
        guard radius.isFinite, radius > 0 else { throw InputError("radius \(radius.isFinite ? Position.plain(radius) : String(radius)) m is not positive: give the place's radius in metres, e.g. --radius 150") }
        guard radius >= 1 else { throw InputError("radius \(Quantity.metres(radius)) is under 1 m: a fix is never that exact; give the place's radius in metres, e.g. --radius 150") }
        guard radius <= Self.maximumRadius else { throw InputError("radius \(Quantity.metres(radius)) is over the 100 km limit") }
        self.name = trimmed
        self.kind = kind
        self.center = center
        self.radius = radius
        self.created = created
    }
}

/// One GPS fix as the geofence sees it.
public struct GeoFix: Hashable, Sendable {
    public var position: Position
    /// Horizontal error estimate, metres (gpsd `eph`), when known.
    public var error: Double?
    public var time: UTCTime

    public init(position: Position, error: Double?, time: UTCTime) {
        self.position = position
        self.error = error
        self.time = time
    }

    /// A fix a user reports: its error, when given, is 0 to 100 km.
    public static func reported(position: Position, error: Double?, time: UTCTime) throws(InputError) -> GeoFix {
        let error = try error.map { e throws(InputError) in try Quantity.check(e, in: 0...100_000, what: "--error", unit: "m") }
        return GeoFix(position: position, error: error, time: time)
    }
}

/// An arrival at or a departure from a place.
public struct PlaceEvent: Hashable, Sendable {
    public enum Kind: String, Sendable { case enter, leave }
    public var place: String
    public var kind: Kind
    public var time: UTCTime
    public var position: Position

    public init(place: String, kind: Kind, time: UTCTime, position: Position) {
        self.place = place
        self.kind = kind
        self.time = time
        self.position = position
    }
}

/// The geofence's tuning: how many fixes confirm a change, and the leave margin.
public struct GeofenceRules: Hashable, Sendable {
    /// Consecutive fixes inside (to enter) or outside radius + margin (to leave).
    public var confirmations: Int
    /// The leave margin: this fraction of the radius, or `marginMinimum` metres if larger.
    public var marginFraction: Double
    public var marginMinimum: Double

    public init(confirmations: Int = 3, marginFraction: Double = 0.10, marginMinimum: Double = 20) {
        self.confirmations = max(1, confirmations)
        self.marginFraction = marginFraction
        self.marginMinimum = marginMinimum
    }

    public func margin(for place: Place) -> Double { max(place.radius * marginFraction, marginMinimum) }
}

extension Place {
    /// The places by distance from `position`, nearest first, and the nearest whose radius
    /// holds it: the one rule for naming where someone is.
    public static func ranked(_ places: [Place], from position: Position) -> (inside: Place?, nearest: [(place: Place, metres: Double)]) {
        let ranked = places.map { (place: $0, metres: GreatCircle.distance($0.center, position)) }.sorted { $0.metres < $1.metres }
        return (ranked.first { $0.metres <= $0.place.radius }?.place, ranked)
    }
}

extension Settings {
    /// `places.confirm_fixes`, `places.margin_percent` and `places.margin_min_m`.
    public var geofenceRules: GeofenceRules {
        get throws(InputError) {
            let p = try places
            return GeofenceRules(confirmations: p.confirmations, marginFraction: p.marginPercent / 100, marginMinimum: p.marginMinimum)
        }
    }
}

/// Where one person is, as a state machine over fixes: `(fix, places) → events`.
///
/// A fix whose error is larger than a place's radius says nothing about that place.
/// Entering needs `confirmations` consecutive fixes inside; leaving needs as many
/// outside the radius plus the margin, so jitter at the edge does not flap. Where
/// places overlap, the person is at the nearest one whose radius contains them.
public struct Geofence: Hashable, Sendable {
    /// The place the person is at, and since when.
    public private(set) var place: String?
    public private(set) var since: UTCTime?
    /// The place the last fixes pointed to (nil: nowhere), and how many in a row.
    public private(set) var candidate: String?
    public private(set) var streak: Int

    public init(place: String? = nil, since: UTCTime? = nil, candidate: String? = nil, streak: Int = 0) {
        self.place = place
        self.since = since
        self.candidate = candidate
        self.streak = streak
    }

    /// Feeds one fix; returns the events it confirms (a leave comes before an enter).
    public mutating func handle(_ fix: GeoFix, places: [Place], rules: GeofenceRules = GeofenceRules()) -> [PlaceEvent] {
        let usable = places.filter { p in fix.error.map { $0 <= p.radius } ?? true }
        let current = places.first { $0.name == place }
        // A fix too vague for the current place cannot move the person off it.
        if let current, !usable.contains(current) { return [] }
        let containing = usable
            .map { ($0, GreatCircle.distance(fix.position, $0.center)) }
            .filter { $0.1 <= $0.0.radius }
            .min { $0.1 < $1.1 }?.0
        // Where this fix says the person is. Inside the current place's margin band,
        // and not inside a nearer place, they stay where they are.
        var target = containing?.name
        if let current, target == nil,
           GreatCircle.distance(fix.position, current.center) <= current.radius + rules.margin(for: current) {
            target = current.name
        }
        if target == place {
            candidate = place
            streak = 0
            return []
        }
        if target == candidate {
            streak += 1
        } else {
            candidate = target
            streak = 1
        }
        guard streak >= rules.confirmations else { return [] }
        var events: [PlaceEvent] = []
        if let place { events.append(PlaceEvent(place: place, kind: .leave, time: fix.time, position: fix.position)) }
        if let target { events.append(PlaceEvent(place: target, kind: .enter, time: fix.time, position: fix.position)) }
        place = target
        since = fix.time
        streak = 0
        return events
    }

    /// Forgets a place that was removed or renamed away.
    public mutating func forget(_ name: String) {
        if place == name { place = nil; since = nil }
        if candidate == name { candidate = nil; streak = 0 }
    }
}

extension Geofence {
    /// Applies a report from a friend's phone: an OwnTracks transition naming one of
    /// `places` moves the person at once (entering a place, leaving the one they were at
    /// first; or leaving the one they are at); any other report is a fix for the state
    /// machine. An `enter` whose position is not at the place (beyond its radius, its leave
    /// margin and the fix's own error) is only a fix: a phone's region is matched by name,
    /// and a name is not a position. Returns the events.
    public mutating func apply(transition: (place: String, kind: PlaceEvent.Kind)?, fix: GeoFix, places: [Place],
                               rules: GeofenceRules) -> [PlaceEvent] {
        guard let transition, let named = places.first(where: { $0.name.lowercased() == transition.place.lowercased() }) else {
            return handle(fix, places: places, rules: rules)
        }
        let event = PlaceEvent(place: named.name, kind: transition.kind, time: fix.time, position: fix.position)
        switch transition.kind {
        case .enter where place != named.name:
            let reach = named.radius + rules.margin(for: named) + (fix.error ?? 0)
            guard GreatCircle.distance(named.center, fix.position) <= reach else { return handle(fix, places: places, rules: rules) }
            let left = place.map { PlaceEvent(place: $0, kind: .leave, time: fix.time, position: fix.position) }
            self = Geofence(place: named.name, since: fix.time)
            return (left.map { [$0] } ?? []) + [event]
        case .leave where place == named.name:
            self = Geofence()
        default:
            return []
        }
        return [event]
    }
}
