import GRDB
import MarkTimeCore
import MarkTimePlaces
import MarkTimeSystem

extension AppDatabase {
    /// The family clock: each member's hand in the sector of the kind of place they are at.
    public func familyClock() throws(StoreError) -> FamilyClockBoard {
        FamilyClockBoard(members: try members(), places: try places())
    }

    // MARK: Places

    public func addPlace(_ place: Place, now: UTCTime) throws(StoreError) {
        try changing(.placesChanged) { () throws(StoreError) in try write { db in
            if let other = try String.fetchOne(db, sql: "SELECT name FROM place WHERE name = ? COLLATE NOCASE", arguments: [place.name]) {
                throw StoreError.refused("a place named '\(other)' already exists; choose another name, or `marktime place remove \(other)` first")
            }
            try PlaceRecord(place, createdAt: now).insert(db)
        } }
    }

    public func places() throws(StoreError) -> [Place] {
        try read { db in try Self.places(db) }
    }

    /// The places by name; a row that does not make a valid place (edited by hand) is left out.
    static func places(_ db: Database) throws -> [Place] {
        try PlaceRecord.order(Column("name").collating(.nocase)).fetchAll(db).compactMap(\.place)
    }

    /// Removes a place; members at it become "unknown" (their history stays).
    public func removePlace(named name: String) throws(StoreError) {
        try changing(.placesChanged) { () throws(StoreError) in try write { db in
            let canonical = try Self.placeName(name, db)
            try db.execute(sql: "DELETE FROM place WHERE name = ?", arguments: [canonical])
            try db.execute(sql: "UPDATE member SET place = NULL, since_ns = NULL WHERE place = ?", arguments: [canonical])
            try db.execute(sql: "UPDATE member SET candidate = NULL, streak = 0 WHERE candidate = ?", arguments: [canonical])
        } }
    }

    /// Renames a place everywhere: the place, members at it, and its history.
    public func renamePlace(_ old: String, to new: String) throws(StoreError) {
        let trimmed = try StoreError.name(new, what: "a place", example: "Home")
        try changing(.placesChanged) { () throws(StoreError) in try write { db in
            let canonical = try Self.placeName(old, db)
            if let other = try String.fetchOne(db, sql: "SELECT name FROM place WHERE name = ? COLLATE NOCASE AND name != ?",
                                               arguments: [trimmed, canonical]) {
                throw StoreError.refused("a place named '\(other)' already exists; choose another name")
            }
            for (table, column) in [("place", "name"), ("member", "place"), ("member", "candidate"), ("place_event", "place")] {
                try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [trimmed, canonical])
            }
        } }
    }

    static func placeName(_ name: String, _ db: Database) throws -> String {
        try stored(name, of: "place", order: "name COLLATE NOCASE", db, unknown: "no place named '\(name)'", none: "`marktime place add` makes one",
                   listed: "known places")
    }

    // MARK: Members

    /// Adds a member with `color`, or else the first colour no member has. Returns the member.
    @discardableResult
    public func addMember(name: String, color: MemberColor?, isMe: Bool) throws(StoreError) -> Member {
        let name = try StoreError.name(name, what: "a member", example: "Skipper")
        return try write { db in
            let taken = Set(try String.fetchAll(db, sql: "SELECT color FROM member"))
            let member = Member(name: name, color: color ?? MemberColor.allCases.first { !taken.contains($0.rawValue) } ?? .white, isMe: isMe)
            if let other = try String.fetchOne(db, sql: "SELECT name FROM member WHERE name = ? COLLATE NOCASE", arguments: [member.name]) {
                throw StoreError.refused("a member named '\(other)' already exists")
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM member") ?? 0
            guard count < 6 else { throw StoreError.refused("the clock has six hands: remove a member before adding another") }
            if member.isMe { try db.execute(sql: "UPDATE member SET is_me = 0") }
            try db.execute(sql: "INSERT INTO member (name, color, is_me) VALUES (?, ?, ?)", arguments: [member.name, member.color.rawValue, member.isMe])
            return member
        }
    }

    public func members() throws(StoreError) -> [Member] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM member ORDER BY id").map(Self.member) }
    }

    static func member(_ row: Row) -> Member {
        // A colour the store should not hold draws the hand white, never a crash.
        var m = Member(name: row["name"], color: MemberColor(rawValue: row["color"]) ?? .white, isMe: row["is_me"])
        m.id = row["id"]
        m.geofence = Geofence(place: row["place"], since: (row["since_ns"] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)),
                              candidate: row["candidate"], streak: row["streak"])
        if let lat: Double = row["lat"], let lon: Double = row["lon"] { m.position = try? Position(latitude: lat, longitude: lon) }
        m.reportedAt = (row["reported_at_ns"] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:))
        m.shareTopic = row["share_topic"]
        return m
    }

    public func removeMember(named name: String) throws(StoreError) {
        try write { db in
            let canonical = try Self.memberName(name, db)
            try db.execute(sql: "DELETE FROM member WHERE name = ?", arguments: [canonical])
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
                let row = try name == nil ? Row.fetchOne(db, sql: "SELECT * FROM member WHERE is_me = 1")
                    : Row.fetchOne(db, sql: "SELECT * FROM member WHERE name = ? COLLATE NOCASE", arguments: [name])
                guard let row else { return false }
                return !Self.member(row).reportMatters(fix, places: try Self.places(db), rules: rules, quietDistance: quietDistance)
            }
            if unchanged { return [] }
        }
        return try write { db in
            let row: Row
            if let name {
                let canonical = try Self.memberName(name, db)
                row = try Row.fetchOne(db, sql: "SELECT * FROM member WHERE name = ?", arguments: [canonical])!
            } else if let me = try Row.fetchOne(db, sql: "SELECT * FROM member WHERE is_me = 1") {
                row = me
            } else {
                let me = Member.defaultMe
                try db.execute(sql: "INSERT INTO member (name, color, is_me) VALUES (?, ?, 1) ON CONFLICT (name) DO UPDATE SET is_me = 1",
                               arguments: [me.name, me.color.rawValue])
                row = try Row.fetchOne(db, sql: "SELECT * FROM member WHERE is_me = 1")!
            }
            var member = Self.member(row)
            let events = member.geofence.handle(fix, places: try Self.places(db), rules: rules)
            try Self.save(member, at: fix, events: events, db)
            return events
        }
    }

    /// Stores a member's geofence state and position after `fix`, and the events it caused.
    static func save(_ member: Member, at fix: GeoFix, events: [PlaceEvent], _ db: Database) throws {
        let g = member.geofence
        try db.execute(sql: """
            UPDATE member SET place = ?, since_ns = ?, candidate = ?, streak = ?, lat = ?, lon = ?, reported_at_ns = ? WHERE id = ?
            """, arguments: [g.place, g.since?.nanosecondsSinceEpoch, g.candidate, g.streak,
                             fix.position.latitude, fix.position.longitude, fix.time.nanosecondsSinceEpoch, member.id])
        for e in events {
            try db.execute(sql: "INSERT INTO place_event (member, place, event, time_ns, lat, lon) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [member.name, e.place, e.kind.rawValue, e.time.nanosecondsSinceEpoch,
                                       e.position.latitude, e.position.longitude])
        }
    }

    /// Enter and leave events, oldest first, from `since` on.
    public func placeEvents(since: UTCTime? = nil, member: String? = nil) throws(StoreError) -> [StoredPlaceEvent] {
        try read { db in
            var sql = "SELECT * FROM place_event WHERE time_ns >= ?"
            var arguments: StatementArguments = [since?.nanosecondsSinceEpoch ?? Int64.min]
            if let member { sql += " AND member = ? COLLATE NOCASE"; arguments += [try Self.memberName(member, db)] }
            return try Row.fetchAll(db, sql: sql + " ORDER BY time_ns, id", arguments: arguments).compactMap { row in
                guard let p = try? Position(latitude: row["lat"], longitude: row["lon"]),
                      let kind = PlaceEvent.Kind(rawValue: row["event"]) else { return nil }
                return StoredPlaceEvent(member: row["member"], event: PlaceEvent(
                    place: row["place"], kind: kind, time: UTCTime(nanosecondsSinceEpoch: row["time_ns"]), position: p))
            }
        }
    }
}

/// A row of the `place` table, read and written by its coding keys.
struct PlaceRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "place"

    var name: String
    var kind: String
    var lat: Double
    var lon: Double
    var radiusM: Double
    var createdAtNs: Int64

    enum CodingKeys: String, CodingKey {
        case name, kind, lat, lon
        case radiusM = "radius_m", createdAtNs = "created_at_ns"
    }

    init(_ place: Place, createdAt: UTCTime) {
        (name, kind, lat, lon) = (place.name, place.kind.rawValue, place.center.latitude, place.center.longitude)
        (radiusM, createdAtNs) = (place.radius, createdAt.nanosecondsSinceEpoch)
    }

    var place: Place? {
        guard let center = try? Position(latitude: lat, longitude: lon) else { return nil }
        return try? Place(name: name, kind: PlaceKind(rawValue: kind) ?? .other, center: center, radius: radiusM)
    }
}
