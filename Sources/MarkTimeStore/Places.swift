import GRDB
import MarkTimeCore
import MarkTimePlaces

extension AppDatabase: PlaceRepository {
    typealias M = MemberRecord.CodingKeys

    /// The family clock: each member's hand in the sector of the kind of place they are at.
    public func familyClock() throws(StoreError) -> FamilyClockBoard {
        FamilyClockBoard(members: try members(), places: try places())
    }

    // MARK: Places

    public func addPlace(_ place: Place, now: UTCTime) throws(StoreError) {
        try write { db in
            if let other = try String.fetchOne(db, sql: "SELECT name FROM place WHERE name = ? COLLATE NOCASE", arguments: [place.name]) {
                throw StoreError.refused("a place named '\(other)' already exists; choose another name, or `marktime place remove \(other)` first")
            }
            try PlaceRecord(place, createdAt: now).insert(db)
        }
    }

    public func places() throws(StoreError) -> [Place] {
        try read { db in try Self.places(db) }
    }

    /// The places by name; a row that does not make a valid place (edited by hand) is left out.
    static func places(_ db: Database) throws -> [Place] {
        try PlaceRecord.order(PlaceRecord.CodingKeys.name.collating(.nocase)).fetchAll(db).compactMap(\.place)
    }

    /// Removes a place; members at it become "unknown" (their history stays).
    public func removePlace(named name: String) throws(StoreError) {
        try write { db in
            let canonical = try Self.placeName(name, db)
            try PlaceRecord.filter(PlaceRecord.CodingKeys.name == canonical).deleteAll(db)
            try MemberRecord.filter(M.place == canonical).updateAll(db, [M.place.set(to: nil), M.sinceNs.set(to: nil)])
            try MemberRecord.filter(M.candidate == canonical).updateAll(db, [M.candidate.set(to: nil), M.streak.set(to: 0)])
        }
    }

    /// Renames a place everywhere: the place, members at it, and its history (`new` as `PlaceBook` checked it).
    public func renamePlace(_ old: String, to trimmed: String) throws(StoreError) {
        try write { db in
            let canonical = try Self.placeName(old, db)
            if let other = try String.fetchOne(db, sql: "SELECT name FROM place WHERE name = ? COLLATE NOCASE AND name != ?",
                                               arguments: [trimmed, canonical]) {
                throw StoreError.refused("a place named '\(other)' already exists; choose another name")
            }
            for (table, column) in [("place", "name"), ("member", "place"), ("member", "candidate"), ("place_event", "place")] {
                try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [trimmed, canonical])
            }
        }
    }

    static func placeName(_ name: String, _ db: Database) throws -> String {
        try stored(name, of: "place", order: "name COLLATE NOCASE", db, unknown: "no place named '\(name)'", none: "`marktime place add` makes one",
                   listed: "known places")
    }

    // MARK: Members

    /// Adds a member with `color`, or else the first colour no member has. Returns the member.
    @discardableResult
    public func addMember(name: String, color: MemberColor?, isMe: Bool) throws(StoreError) -> Member {
        try write { db in
            let existing = try MemberRecord.fetchAll(db).map(\.member)
            let member = try Member.joining(existing, name: name, color: color, isMe: isMe)
            if member.isMe { try MemberRecord.updateAll(db, M.isMe.set(to: false)) }
            try MemberRecord(name: member.name, color: member.color.rawValue, isMe: member.isMe, streak: 0).insert(db)
            return member
        }
    }

    public func members() throws(StoreError) -> [Member] {
        try read { db in try MemberRecord.order(M.id).fetchAll(db).map(\.member) }
    }

    public func removeMember(named name: String) throws(StoreError) {
        try write { db in
            let canonical = try Self.memberName(name, db)
            try MemberRecord.filter(M.name == canonical).deleteAll(db)
        }
    }

    static func memberName(_ name: String, _ db: Database) throws -> String {
        try stored(name, of: "member", order: "id", db, unknown: "no member named '\(name)'", none: "`marktime member add NAME` adds one",
                   listed: "members")
    }

    /// Runs one fix for a member through the geofence, in one transaction: the member's
    /// state, position and any enter or leave events are written together. `name` nil
    /// means the member marked as me, made ("Me") if there is none.
    ///
    /// With `quiet` (the daemon's own fixes), a fix that changes nothing that matters
    /// writes nothing: no event, the same geofence state, and within `quietDistance`
    /// metres of the stored position. It is decided on a read, so an idle boat makes no
    /// write at all.
    @discardableResult
    public func report(_ fix: GeoFix, member name: String?, rules: GeofenceRules, quiet: Bool = false,
                       quietDistance: Double = 100) throws(StoreError) -> [PlaceEvent] {
        if quiet {
            let unchanged = try read { db -> Bool in
                let found = try MemberRecord.filter(name.map { M.name.collating(.nocase) == $0 } ?? (M.isMe == true)).fetchOne(db)
                guard let found else { return false }
                return !found.member.reportMatters(fix, places: try Self.places(db), rules: rules, quietDistance: quietDistance)
            }
            if unchanged { return [] }
        }
        return try write { db in
            let found: MemberRecord?
            if let name {
                found = try MemberRecord.filter(M.name == (try Self.memberName(name, db))).fetchOne(db)
            } else if let me = try MemberRecord.filter(M.isMe == true).fetchOne(db) {
                found = me
            } else {
                let me = Member.defaultMe
                found = try MemberRecord(name: me.name, color: me.color.rawValue, isMe: true, streak: 0)
                    .upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified, doUpdate: { _ in [M.isMe.set(to: true)] })
            }
            guard var member = found?.member else { throw StoreError.refused("no member to report for") }
            let events = member.geofence.handle(fix, places: try Self.places(db), rules: rules)
            try Self.save(member, at: fix, events: events, db)
            return events
        }
    }

    /// Stores a member's geofence state and position after `fix`, and the events it caused.
    static func save(_ member: Member, at fix: GeoFix, events: [PlaceEvent], _ db: Database) throws {
        let g = member.geofence
        // A cached statement: this runs for every fix and every friend's message.
        try db.cachedStatement(sql: """
            UPDATE member SET place = ?, since_ns = ?, candidate = ?, streak = ?, lat = ?, lon = ?, reported_at_ns = ?
            WHERE id = ?
            """).execute(arguments: [g.place, g.since?.nanosecondsSinceEpoch, g.candidate, g.streak,
                                       fix.position.latitude, fix.position.longitude, fix.time.nanosecondsSinceEpoch, member.id])
        for e in events { try PlaceEventRecord(member: member.name, e).insert(db) }
    }

    /// Enter and leave events, oldest first, from `since` on.
    public func placeEvents(since: UTCTime? = nil, member: String? = nil) throws(StoreError) -> [StoredPlaceEvent] {
        try read { db in
            typealias E = PlaceEventRecord.CodingKeys
            var events = PlaceEventRecord.filter(E.timeNs >= (since?.nanosecondsSinceEpoch ?? Int64.min))
            if let member { events = events.filter(E.member.collating(.nocase) == (try Self.memberName(member, db))) }
            return try events.order(E.timeNs, E.id).fetchAll(db).compactMap(\.stored)
        }
    }
}

/// A row of the `place` table, read and written by its coding keys.
struct PlaceRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "place"

    var name: String, kind: String, lat: Double, lon: Double, radiusM: Double, createdAtNs: Int64

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case name, kind, lat, lon
        case radiusM = "radius_m", createdAtNs = "created_at_ns"
    }

    init(_ place: Place, createdAt: UTCTime) {
        (name, kind, lat, lon) = (place.name, place.kind.rawValue, place.center.latitude, place.center.longitude)
        (radiusM, createdAtNs) = (place.radius, createdAt.nanosecondsSinceEpoch)
    }

    var place: Place? {
        guard let center = try? Position(latitude: lat, longitude: lon) else { return nil }
        return try? Place(name: name, kind: PlaceKind(rawValue: kind) ?? .other, center: center, radius: radiusM,
                       created: UTCTime(nanosecondsSinceEpoch: createdAtNs))
    }
}
