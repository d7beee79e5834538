import Foundation
import GRDB
import MarkTimeCore

/// Which sights a listing wants.
public struct SightQuery: Sendable {
    /// Refuses a range that ends before it starts: nothing could match.
    public func check() throws(StoreError) {
        if let since, let until, until < since {
            throw .refused("the range ends (\(until.iso8601)) before it starts (\(since.iso8601)), so no sight can match: swap --since and --until")
        }
    }

    /// Newest first, at most this many; `nil` for all.
    public var limit: Int?
    /// Inclusive lower bound on UTC.
    public var since: UTCTime?
    /// Exclusive upper bound on UTC.
    public var until: UTCTime?
    /// The archived sights instead of the current ones.
    public var archived = false
    /// Oldest first (for export) instead of newest first.
    public var oldestFirst = false

    public init(limit: Int? = nil, since: UTCTime? = nil, until: UTCTime? = nil, archived: Bool = false, oldestFirst: Bool = false) {
        self.limit = limit
        self.since = since
        self.until = until
        self.archived = archived
        self.oldestFirst = oldestFirst
    }
}

extension AppDatabase {
    /// Stores a new sight durably and returns it with its id: one cached, prepared
    /// INSERT in SQLite's autocommit (no BEGIN or COMMIT statements) and no read-back.
    /// A fresh mark binds only the columns a press sets. Inserting the same key-down
    /// again (a retry) returns the sight already stored.
    public func insert(_ sight: Sight) throws(StoreError) -> Sight {
        // Encoded before the write (the provenance is JSON), to keep the writer's hold short.
        var columns = SightColumns.encode(sight)
        let mark = columns[SightColumns.markCount...].allSatisfy { $0.1 == nil }
        if mark { columns.removeSubrange(SightColumns.markCount...) }
        let arguments = StatementArguments(columns.map(\.1))
        return try writeWithoutTransaction { db in
            try db.cachedStatement(sql: mark ? SightColumns.insertMarkSQL : SightColumns.insertSQL).execute(arguments: arguments)
            var stored = sight
            if db.changesCount == 1 {
                stored.id = db.lastInsertedRowID
            } else {
                stored.id = try Int64.fetchOne(db, sql: "SELECT id FROM sight WHERE boot_id = ? AND monotonic_ns = ?",
                                               arguments: [sight.instant.bootID, sight.instant.nanoseconds])
            }
            return stored
        }
    }

    /// One sight, current or archived.
    public func sight(id: Int64) throws(StoreError) -> (sight: Sight, archived: Bool) {
        let found = try read { db in try Row.fetchOne(db, sql: "SELECT * FROM sight WHERE id = ?", arguments: [id]) }
        guard let found else { throw .unknownSight(id) }
        return (SightColumns.decode(found), found["archived_at_ns"] as Int64? != nil)
    }

    public func sights(_ query: SightQuery = SightQuery()) throws(StoreError) -> [Sight] {
        try query.check()
        var sql = "SELECT * FROM sight WHERE archived_at_ns IS \(query.archived ? "NOT NULL" : "NULL")"
        var arguments: StatementArguments = []
        if let since = query.since { sql += " AND utc_ns >= ?"; arguments += [since.nanosecondsSinceEpoch] }
        if let until = query.until { sql += " AND utc_ns < ?"; arguments += [until.nanosecondsSinceEpoch] }
        let order = query.oldestFirst ? "ASC" : "DESC"
        sql += " ORDER BY utc_ns \(order), id \(order)"
        if let limit = query.limit { sql += " LIMIT ?"; arguments += [limit] }
        let q = sql, a = arguments
        return try read { db in try Row.fetchAll(db, sql: q, arguments: a).map(SightColumns.decode) }
    }

    /// Applies the navigator's edits in one transaction; unknown ids change nothing.
    public func edit(id: Int64, _ edit: SightEdit, now: UTCTime) throws(StoreError) -> Sight {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sight WHERE id = ?", arguments: [id]) else {
                throw StoreError.unknownSight(id)
            }
            let edited = edit.apply(to: SightColumns.decode(row), at: now)
            try update(edited, in: db)
            return edited
        }
    }

    func update(_ sight: Sight, in db: Database) throws {
        let columns = SightColumns.encode(sight)
        try db.execute(
            sql: "UPDATE sight SET \(columns.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE id = ?",
            arguments: StatementArguments(columns.map(\.1) + [sight.id]))
    }

    /// Archives every current sight; returns how many.
    public func archiveAll(now: UTCTime) throws(StoreError) -> Int {
        try write { db in
            try db.execute(sql: "UPDATE sight SET archived_at_ns = ? WHERE archived_at_ns IS NULL", arguments: [now.nanosecondsSinceEpoch])
            return db.changesCount
        }
    }

    /// Brings every archived sight back; returns how many.
    public func restoreArchived() throws(StoreError) -> Int {
        try write { db in
            try db.execute(sql: "UPDATE sight SET archived_at_ns = NULL WHERE archived_at_ns IS NOT NULL")
            return db.changesCount
        }
    }

    /// Deletes every sight, current and archived, for good; returns how many.
    public func purgeSights() throws(StoreError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM sight")
            return db.changesCount
        }
    }

    public func sightCounts() throws(StoreError) -> (current: Int, archived: Int) {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*) FILTER (WHERE archived_at_ns IS NULL), COUNT(*) FILTER (WHERE archived_at_ns IS NOT NULL) FROM sight")!
            return (row[0], row[1])
        }
    }

    /// Re-stamps this boot's `unsynced` and `gps` sights wherever `better` gives a
    /// better stamp (the caller decides what is better); returns the sights that changed.
    public func backfill(bootID: String, now: UTCTime,
                         better: (Sight) -> UTCEstimate?) throws(StoreError) -> [Sight] {
        // Read first: most heartbeats find nothing to change and need no write.
        let candidates = try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sight WHERE boot_id = ? AND source IN ('unsynced', 'gps')", arguments: [bootID])
                .map(SightColumns.decode)
        }
        var updates: [(sight: Sight, was: TimeSource)] = []
        for var sight in candidates {
            guard let estimate = better(sight) else { continue }
            let was = sight.estimate.source
            sight.correct(to: estimate, at: now)
            updates.append((sight, was))
        }
        guard !updates.isEmpty else { return [] }
        let planned = updates
        return try write { db in
            // Only the time columns, and only if no one re-stamped it meanwhile: edits to other fields stay.
            var done: [Sight] = []
            for (s, was) in planned {
                try db.execute(sql: """
                    UPDATE sight SET utc_ns = ?, source = ?, uncertainty_s = ?, provenance = ?, original_utc_ns = ?, original_source = ?,
                        original_uncertainty_s = ?, corrected_at_ns = ? WHERE id = ? AND source = ?
                    """, arguments: [s.estimate.utc.nanosecondsSinceEpoch, s.estimate.source.rawValue, s.estimate.uncertainty,
                                     SightColumns.provenanceJSON(s.estimate.provenance),
                                     s.original?.utc.nanosecondsSinceEpoch, s.original?.source.rawValue, s.original?.uncertainty,
                                     s.correctedAt?.nanosecondsSinceEpoch, s.id, was.rawValue])
                if db.changesCount == 1 { done.append(s) }
            }
            return done
        }
    }
}

/// The mapping between `Sight` and the `sight` table's columns.
enum SightColumns {
    static let names = encode(Sight(instant: MonotonicInstant(bootID: "", nanoseconds: 0),
                                    estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 0), source: .unsynced, uncertainty: nil),
                                    createdAt: UTCTime(nanosecondsSinceEpoch: 0))).map(\.0)
    static let insertSQL = insert(names)
    /// A fresh mark sets only the first `markCount` columns.
    static let markCount = 12
    static let insertMarkSQL = insert(Array(names.prefix(markCount)))

    static func insert(_ columns: [String]) -> String {
        "INSERT INTO sight (\(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count))) ON CONFLICT (boot_id, monotonic_ns) DO NOTHING"
    }

    /// The provenance as JSON, written by hand: it is on every press's path, where
    /// Foundation's `JSONEncoder` took about a millisecond on the rig. Its fields are
    /// enum names and numbers, so nothing needs escaping; a non-finite number (which
    /// JSON cannot hold) gives nil, as the encoder's error did.
    static func provenanceJSON(_ p: StampProvenance?) -> String? {
        guard let p else { return nil }
        var text = "{\"method\":\"\(p.method.rawValue)\",\"samples\":["
        for (i, s) in p.samples.enumerated() {
            guard s.distance.isFinite, s.uncertainty?.isFinite ?? true else { return nil }
            if i > 0 { text += "," }
            text += "{\"source\":\"\(s.source.rawValue)\",\"monotonic_ns\":\(s.monotonicNanoseconds),\"utc_ns\":\(s.utcNanoseconds),"
            if let u = s.uncertainty { text += "\"uncertainty_s\":\(u)," }
            text += "\"distance_s\":\(s.distance)}"
        }
        guard let trip = p.phoneRoundTrip else { return text + "]}" }
        guard trip.isFinite else { return nil }
        return text + "],\"phone_round_trip_s\":\(trip)}"
    }

    static func provenance(_ text: String?) -> StampProvenance? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(StampProvenance.self, from: Data(text.utf8))
    }

    static func encode(_ s: Sight) -> [(String, (any DatabaseValueConvertible)?)] {
        [
            ("boot_id", s.instant.bootID),
            ("monotonic_ns", s.instant.nanoseconds),
            ("utc_ns", s.estimate.utc.nanosecondsSinceEpoch),
            ("source", s.estimate.source.rawValue),
            ("uncertainty_s", s.estimate.uncertainty),
            ("provenance", provenanceJSON(s.estimate.provenance)),
            ("gps_lat", s.position?.latitude),
            ("gps_lon", s.position?.longitude),
            ("fix_mode", s.fixMode),
            ("fix_age_s", s.fixAge),
            ("trigger", s.trigger?.rawValue),
            ("created_at_ns", s.createdAt.nanosecondsSinceEpoch),
            // What a press sets ends here (`markCount`).
            ("original_utc_ns", s.original?.utc.nanosecondsSinceEpoch),
            ("original_source", s.original?.source.rawValue),
            ("original_uncertainty_s", s.original?.uncertainty),
            ("corrected_at_ns", s.correctedAt?.nanosecondsSinceEpoch),
            ("body", s.body),
            ("limb", s.limb?.rawValue),
            ("hs_deg", s.hs),
            ("ie_arcmin", s.indexError),
            ("eye_height_m", s.eyeHeight),
            ("temperature_c", s.temperature),
            ("pressure_hpa", s.pressure),
            ("dr_lat", s.dr?.latitude),
            ("dr_lon", s.dr?.longitude),
            ("note", s.note),
            ("edited_at_ns", s.editedAt?.nanosecondsSinceEpoch),
        ]
    }

    static func decode(_ row: Row) -> Sight {
        func time(_ column: String) -> UTCTime? { (row[column] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)) }
        func position(_ lat: String, _ lon: String) -> Position? {
            guard let la: Double = row[lat], let lo: Double = row[lon] else { return nil }
            return try? Position(latitude: la, longitude: lo)
        }
        var s = Sight(
            id: row["id"],
            instant: MonotonicInstant(bootID: row["boot_id"], nanoseconds: row["monotonic_ns"]),
            estimate: UTCEstimate(utc: time("utc_ns")!, source: TimeSource(rawValue: row["source"]) ?? .unsynced,
                                  uncertainty: row["uncertainty_s"], provenance: provenance(row["provenance"])),
            createdAt: time("created_at_ns")!)
        if let utc = time("original_utc_ns"), let source = (row["original_source"] as String?).flatMap(TimeSource.init) {
            s.original = UTCEstimate(utc: utc, source: source, uncertainty: row["original_uncertainty_s"])
        }
        s.correctedAt = time("corrected_at_ns")
        s.position = position("gps_lat", "gps_lon")
        s.fixMode = row["fix_mode"]
        s.fixAge = row["fix_age_s"]
        s.trigger = (row["trigger"] as String?).flatMap(SightTrigger.init)
        s.body = row["body"]
        s.limb = (row["limb"] as String?).flatMap(Limb.init)
        s.hs = row["hs_deg"]
        s.indexError = row["ie_arcmin"]
        s.eyeHeight = row["eye_height_m"]
        s.temperature = row["temperature_c"]
        s.pressure = row["pressure_hpa"]
        s.dr = position("dr_lat", "dr_lon")
        s.note = row["note"]
        s.editedAt = time("edited_at_ns")
        return s
    }
}
