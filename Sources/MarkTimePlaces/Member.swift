import MarkTimeCore

/// A member of the crew or family, and where the geofence has them.
public struct Member: Hashable, Sendable {
    public var id: Int64?
    public var name: String
    public var color: MemberColor
    public var isMe: Bool
    public var geofence: Geofence
    /// The last reported position, and when (UTC).
    public var position: Position?
    public var reportedAt: UTCTime?
    /// The OwnTracks device whose locations move this member (`member link`).
    public var shareTopic: String?

    public init(name: String, color: MemberColor, isMe: Bool = false) {
        self.name = name
        self.color = color
        self.isMe = isMe
        geofence = Geofence()
    }
}

/// A stored enter or leave, with whose it was.
public struct StoredPlaceEvent: Hashable, Sendable {
    public var member: String
    public var event: PlaceEvent

    public init(member: String, event: PlaceEvent) {
        self.member = member
        self.event = event
    }
}

/// The family clock as stored now: its hands, and a line per member saying where they are.
public struct FamilyClockBoard: Sendable {
    public var clock: FamilyClock
    public var members: [Member]
    /// `Anna: at Home since 10:02 UTC`, or `Ben: unknown`, one per hand, in order.
    public var legend: [String]

    public init(clock: FamilyClock, members: [Member], legend: [String]) {
        self.clock = clock
        self.members = members
        self.legend = legend
    }
}

extension Member {
    /// A location no newer than the member's last report changes nothing (a retained
    /// message the broker delivers again after a reconnect has the same time); a
    /// transition may share its location's time, and only an older one is stale.
    public func isStale(_ fix: GeoFix, transition: Bool = false) -> Bool {
        reportedAt.map { transition ? fix.time < $0 : fix.time <= $0 } ?? false
    }
}

extension Member {
    /// The member a report without a name moves when no member is marked as me yet.
    public static let defaultMe = Member(name: "Me", color: .red, isMe: true)

    /// Whether `fix` matters enough to write (the quiet-report rule for the daemon's own
    /// fixes): it does when the geofence would change or raise an event, when there is no
    /// stored position, or when it is `quietDistance` metres or more from the stored one.
    public func reportMatters(_ fix: GeoFix, places: [Place], rules: GeofenceRules, quietDistance: Double) -> Bool {
        var geofence = self.geofence
        let events = geofence.handle(fix, places: places, rules: rules)
        guard events.isEmpty, geofence == self.geofence, let position else { return true }
        return GreatCircle.distance(position, fix.position) >= quietDistance
    }
}

extension FamilyClockBoard {
    /// The board for `members` at `places`: each hand in the sector of the kind of place
    /// its member is at, and a legend line per hand.
    public init(members: [Member], places: [Place]) {
        let kinds = Dictionary(places.map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
        let clock = FamilyClock(members: members.map { m in (m.name, m.color, m.geofence.place.flatMap { kinds[$0] }) })
        let legend = members.prefix(FamilyClock.maximumHands).map { m in
            "\(m.name): " + (m.geofence.place.map { "at \($0)\(m.geofence.since.map { " since \($0.isoTimeOfDay.prefix(5)) UTC" } ?? "")" } ?? "unknown")
        }
        self.init(clock: clock, members: members, legend: legend)
    }
}

extension Member {
    /// A new member of a crew of `existing` ones: its name trimmed, refused when blank or
    /// taken (without case) or when the clock's hands are all used; its colour `color`, else
    /// the first no one has.
    public static func joining(_ existing: [Member], name: String, color: MemberColor?, isMe: Bool) throws(InputError) -> Member {
        let name = try Text.name(name, what: "a member", example: "Skipper")
        if let other = existing.first(where: { $0.name.lowercased() == name.lowercased() }) {
            throw InputError("a member named '\(other.name)' already exists")
        }
        guard existing.count < FamilyClock.maximumHands else {
            throw InputError("the clock has six hands: remove a member before adding another")
        }
        let taken = Set(existing.map(\.color))
        return Member(name: name, color: color ?? MemberColor.allCases.first { !taken.contains($0) } ?? .white, isMe: isMe)
    }
}
