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
    /// Stores a new sight durably and returns it with its id: one INSERT in SQLite's
    /// autocommit (no BEGIN or COMMIT statements) and no read-back. Inserting the same
    /// key-down again (a retry) returns the sight already stored.
    public func insert(_ sight: Sight) throws(StoreError) -> Sight {
        // Encoded before the write (the provenance is JSON), to keep the writer's hold short.
        var record = SightRecord(sight)
        return try writeWithoutTransaction { db in
            do {
                try record.insert(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                record.id = try Int64.fetchOne(db, SightRecord.select(SightRecord.Columns.id)
                    .filter(SightRecord.Columns.bootID == sight.instant.bootID && SightRecord.Columns.monotonicNs == sight.instant.nanoseconds))
            }
            var stored = sight
            stored.id = record.id
            return stored
        }
    }

    /// Whether the sight pressed at `instant` is stored (current or archived).
    public func contains(_ instant: MonotonicInstant) throws(StoreError) -> Bool {
        try read { db in
            try SightRecord.filter(SightRecord.Columns.bootID == instant.bootID && SightRecord.Columns.monotonicNs == instant.nanoseconds)
                .fetchCount(db) > 0
        }
    }

    /// One sight, current or archived.
    public func sight(id: Int64) throws(StoreError) -> (sight: Sight, archived: Bool) {
        let found = try read { db in try SightRecord.fetchOne(db, key: id) }
        guard let found else { throw .unknownSight(id) }
        return (found.sight, found.archivedAtNs != nil)
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
        return try read { db in try SightRecord.fetchAll(db, sql: q, arguments: a).map(\.sight) }
    }

    /// Applies the navigator's edits in one transaction; unknown ids change nothing.
    public func edit(id: Int64, _ edit: SightEdit, now: UTCTime) throws(StoreError) -> Sight {
        try write { db in
            guard var record = try SightRecord.fetchOne(db, key: id) else {
                throw StoreError.unknownSight(id)
            }
            let edited = edit.apply(to: record.sight, at: now)
            let archivedAt = record.archivedAtNs
            record = SightRecord(edited)
            record.archivedAtNs = archivedAt
            try record.update(db)
            return edited
        }
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
            try SightRecord.filter(SightRecord.Columns.bootID == bootID && [TimeSource.unsynced, .gps].contains(SightRecord.Columns.source))
                .fetchAll(db).map(\.sight)
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
            typealias C = SightRecord.Columns
            for (s, was) in planned {
                let r = SightRecord(s)
                let changed = try SightRecord.filter(C.id == s.id && C.source == was).updateAll(db, [
                    C.utcNs.set(to: r.utcNs), C.source.set(to: r.source), C.uncertaintyS.set(to: r.uncertaintyS),
                    C.provenance.set(to: r.provenance), C.originalUtcNs.set(to: r.originalUtcNs),
                    C.originalSource.set(to: r.originalSource), C.originalUncertaintyS.set(to: r.originalUncertaintyS),
                    C.correctedAtNs.set(to: r.correctedAtNs),
                ])
                if changed == 1 { done.append(s) }
            }
            return done
        }
    }
}

/// A row of the `sight` table, and a line of the pending-presses file: GRDB and
/// `JSONEncoder` both read and write it by its coding keys, the column names.
struct SightRecord: Codable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "sight"

    var id: Int64?
    var bootID: String
    var monotonicNs: Int64
    var utcNs: Int64
    var source: TimeSource
    var uncertaintyS: Double?
    /// `StampProvenance` as JSON text.
    var provenance: String?
    var gpsLat: Double?
    var gpsLon: Double?
    var fixMode: Int?
    var fixAgeS: Double?
    var trigger: SightTrigger?
    var createdAtNs: Int64
    var originalUtcNs: Int64?
    var originalSource: TimeSource?
    var originalUncertaintyS: Double?
    var correctedAtNs: Int64?
    var body: String?
    var limb: Limb?
    var hsDeg: Double?
    var ieArcmin: Double?
    var eyeHeightM: Double?
    var temperatureC: Double?
    var pressureHpa: Double?
    var drLat: Double?
    var drLon: Double?
    var note: String?
    var editedAtNs: Int64?
    var archivedAtNs: Int64?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, source, provenance, trigger, body, limb, note
        case bootID = "boot_id", monotonicNs = "monotonic_ns", utcNs = "utc_ns", uncertaintyS = "uncertainty_s"
        case gpsLat = "gps_lat", gpsLon = "gps_lon", fixMode = "fix_mode", fixAgeS = "fix_age_s", createdAtNs = "created_at_ns"
        case originalUtcNs = "original_utc_ns", originalSource = "original_source", originalUncertaintyS = "original_uncertainty_s"
        case correctedAtNs = "corrected_at_ns", hsDeg = "hs_deg", ieArcmin = "ie_arcmin", eyeHeightM = "eye_height_m"
        case temperatureC = "temperature_c", pressureHpa = "pressure_hpa", drLat = "dr_lat", drLon = "dr_lon"
        case editedAtNs = "edited_at_ns", archivedAtNs = "archived_at_ns"
    }

    /// The table's columns, for queries.
    typealias Columns = CodingKeys

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public init(_ s: Sight) {
        id = s.id
        (bootID, monotonicNs) = (s.instant.bootID, s.instant.nanoseconds)
        (utcNs, source, uncertaintyS) = (s.estimate.utc.nanosecondsSinceEpoch, s.estimate.source, s.estimate.uncertainty)
        provenance = Self.provenanceJSON(s.estimate.provenance)
        (gpsLat, gpsLon, fixMode, fixAgeS) = (s.position?.latitude, s.position?.longitude, s.fixMode, s.fixAge)
        (trigger, createdAtNs) = (s.trigger, s.createdAt.nanosecondsSinceEpoch)
        (originalUtcNs, originalSource) = (s.original?.utc.nanosecondsSinceEpoch, s.original?.source)
        (originalUncertaintyS, correctedAtNs) = (s.original?.uncertainty, s.correctedAt?.nanosecondsSinceEpoch)
        (body, limb, hsDeg, ieArcmin, eyeHeightM) = (s.body, s.limb, s.hs, s.indexError, s.eyeHeight)
        (temperatureC, pressureHpa, drLat, drLon) = (s.temperature, s.pressure, s.dr?.latitude, s.dr?.longitude)
        (note, editedAtNs) = (s.note, s.editedAt?.nanosecondsSinceEpoch)
    }

    public var sight: Sight {
        func time(_ ns: Int64?) -> UTCTime? { ns.map(UTCTime.init(nanosecondsSinceEpoch:)) }
        func position(_ lat: Double?, _ lon: Double?) -> Position? {
            guard let lat, let lon else { return nil }
            return try? Position(latitude: lat, longitude: lon)
        }
        var s = Sight(id: id, instant: MonotonicInstant(bootID: bootID, nanoseconds: monotonicNs),
                      estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: utcNs), source: source, uncertainty: uncertaintyS,
                                            provenance: Self.provenance(provenance)),
                      createdAt: UTCTime(nanosecondsSinceEpoch: createdAtNs))
        if let utc = time(originalUtcNs), let originalSource {
            s.original = UTCEstimate(utc: utc, source: originalSource, uncertainty: originalUncertaintyS)
        }
        s.correctedAt = time(correctedAtNs)
        s.position = position(gpsLat, gpsLon)
        (s.fixMode, s.fixAge, s.trigger) = (fixMode, fixAgeS, trigger)
        (s.body, s.limb, s.hs, s.indexError, s.eyeHeight) = (body, limb, hsDeg, ieArcmin, eyeHeightM)
        (s.temperature, s.pressure, s.dr) = (temperatureC, pressureHpa, position(drLat, drLon))
        (s.note, s.editedAt) = (note, time(editedAtNs))
        return s
    }

    /// The provenance as JSON, by Core's `JSON` writer: it is on every press's path, where
    /// Foundation's `JSONEncoder` took about a millisecond on the rig. A non-finite number
    /// (which JSON cannot hold) gives nil, as the encoder's error did.
    static func provenanceJSON(_ p: StampProvenance?) -> String? {
        guard let p else { return nil }
        var samples: [JSON] = []
        for s in p.samples {
            guard s.distance.isFinite, s.uncertainty?.isFinite ?? true else { return nil }
            var fields: [(String, JSON)] = [("source", .string(s.source.rawValue)), ("monotonic_ns", .int(s.monotonicNanoseconds)),
                                            ("utc_ns", .int(s.utcNanoseconds))]
            if let u = s.uncertainty { fields.append(("uncertainty_s", .number(u))) }
            fields.append(("distance_s", .number(s.distance)))
            samples.append(.object(fields))
        }
        var fields: [(String, JSON)] = [("method", .string(p.method.rawValue)), ("samples", .array(samples))]
        if let trip = p.phoneRoundTrip {
            guard trip.isFinite else { return nil }
            fields.append(("phone_round_trip_s", .number(trip)))
        }
        return JSON.object(fields).compact
    }

    static func provenance(_ text: String?) -> StampProvenance? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(StampProvenance.self, from: Data(text.utf8))
    }
}

/// The columns of a sight that the CSV export reads, fetched by position for speed.
public struct SightExportRecord: FetchableRecord, Sendable {
    public var id: Int64
    public var utc: Int64
    public var source: String
    public var uncertainty, hs, indexError, eyeHeight, temperature, pressure, drLat, drLon, lat, lon, fixAge: Double?
    public var body, limb, note: String?
    public var fixMode: Int64?

    static let columns = "id, utc_ns, source, uncertainty_s, body, limb, hs_deg, ie_arcmin, eye_height_m, temperature_c, "
        + "pressure_hpa, dr_lat, dr_lon, gps_lat, gps_lon, fix_mode, fix_age_s, note"

    public init(row: Row) {
        (id, utc, source, uncertainty, body, limb) = (row[0], row[1], row[2], row[3], row[4], row[5])
        (hs, indexError, eyeHeight, temperature, pressure) = (row[6], row[7], row[8], row[9], row[10])
        (drLat, drLon, lat, lon, fixMode, fixAge, note) = (row[11], row[12], row[13], row[14], row[15], row[16], row[17])
    }
}

extension AppDatabase {
    /// Reads the current sights that `query` selects, oldest first, in one read transaction,
    /// handing each to `each`, then runs `finally` inside the same read; returns how many.
    public func exportSights(_ query: SightQuery, _ each: (SightExportRecord) throws -> Void,
                             finally: () throws -> Void) throws(StoreError) -> Int {
        try query.check()
        var sql = "SELECT \(SightExportRecord.columns) FROM sight WHERE archived_at_ns IS NULL"
        var arguments: StatementArguments = []
        if let since = query.since { sql += " AND utc_ns >= ?"; arguments += [since.nanosecondsSinceEpoch] }
        if let until = query.until { sql += " AND utc_ns < ?"; arguments += [until.nanosecondsSinceEpoch] }
        sql += " ORDER BY utc_ns ASC, id ASC"
        let q = sql, a = arguments
        return try read { db in
            var count = 0
            let records = try SightExportRecord.fetchCursor(db, sql: q, arguments: a)
            while let record = try records.next() {
                try each(record)
                count += 1
            }
            try finally()
            return count
        }
    }
}

extension TimeSource: DatabaseValueConvertible {}
extension Limb: DatabaseValueConvertible {}
extension SightTrigger: DatabaseValueConvertible {}
