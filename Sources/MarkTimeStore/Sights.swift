import Foundation
import GRDB
import GRDBSQLite
import MarkTimeCore

extension AppDatabase {
    /// Stores a new sight durably and returns it with its id: one INSERT in SQLite's
    /// autocommit (no BEGIN or COMMIT statements) and no read-back. Inserting the same
    /// key-down again (a retry) returns the sight already stored.
    public func insert(_ sight: Sight) throws(StoreError) -> Sight {
        // Encoded before the write (the provenance is JSON), to keep the writer's hold short.
        var record = SightRecord(sight)
        return try writeWithoutTransaction { db in
            do {
                // One cached statement, bound and stepped through SQLite's C API: GRDB's
                // record encoding cost more than SQLite's own insert, and its argument
                // arrays a fifth of it (Tests/bench/press-instructions).
                // Kept here rather than in GRDB's cache, whose key is the statement's 600 characters.
                let connection = ObjectIdentifier(db)
                if sightInsert?.connection != connection {
                    sightInsert = (connection, try db.makeStatement(sql: SightRecord.insertSQL))
                }
                try record.insert(with: sightInsert!.statement, in: db)
                record.id = db.lastInsertedRowID
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

    /// The sights with these IDs (current or archived), in the order given; an ID given
    /// twice is refused (`SightQuery.checkDistinct`), and an unknown one named.
    public func sights(ids: [Int64]) throws(StoreError) -> [Sight] {
        do { try SightQuery.checkDistinct(ids) } catch { throw .refused(error.description) }
        return try ids.map { id throws(StoreError) in try sight(id: id).sight }
    }

    public func sights(_ query: SightQuery = SightQuery()) throws(StoreError) -> [Sight] {
        do { try query.check() } catch { throw .refused(error.description) }
        var (sql, arguments) = Self.range(query)
        sql = "SELECT \(SightRecord.selectionSQL) FROM sight WHERE \(sql) ORDER BY "
            + (query.oldestFirst ? "utc_ns ASC, id ASC" : "utc_ns DESC, id DESC")
        if let limit = query.limit {
            sql += " LIMIT ? OFFSET ?"
            arguments += [limit, query.offset]
        }
        // A cached statement: the log's pages ask the same few queries again and again.
        let fetch = sql, values = arguments
        return try read { db in try SightRecord.fetchAll(db.cachedStatement(sql: fetch), arguments: values).map(\.sight) }
    }

    /// How many sights `query`'s range holds (its limit and offset aside).
    public func countSights(_ query: SightQuery) throws(StoreError) -> Int {
        do { try query.check() } catch { throw .refused(error.description) }
        let (sql, arguments) = Self.range(query)
        return try read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM sight WHERE " + sql), arguments: arguments) ?? 0 }
    }

    /// The WHERE clause of `query`'s range (current or archived, since, until), and its arguments.
    static func range(_ query: SightQuery) -> (sql: String, arguments: StatementArguments) {
        var sql = query.archived ? "archived_at_ns IS NOT NULL" : "archived_at_ns IS NULL"
        var arguments: StatementArguments = []
        if let since = query.since {
            sql += " AND utc_ns >= ?"
            arguments += [since.nanosecondsSinceEpoch]
        }
        if let until = query.until {
            sql += " AND utc_ns < ?"
            arguments += [until.nanosecondsSinceEpoch]
        }
        return (sql, arguments)
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
        try write { db in try SightRecord.filter(SightRecord.Columns.archivedAtNs == nil).updateAll(db, SightRecord.Columns.archivedAtNs.set(to: now.nanosecondsSinceEpoch)) }
    }

    /// Brings every archived sight back; returns how many.
    public func restoreArchived() throws(StoreError) -> Int {
        try write { db in try SightRecord.filter(SightRecord.Columns.archivedAtNs != nil).updateAll(db, SightRecord.Columns.archivedAtNs.set(to: nil)) }
    }

    /// Deletes every sight, current and archived, for good; returns how many.
    public func purgeSights() throws(StoreError) -> Int {
        try write { db in try SightRecord.deleteAll(db) }
    }

    public func sightCounts() throws(StoreError) -> (current: Int, archived: Int) {
        try read { db in
            (try SightRecord.filter(SightRecord.Columns.archivedAtNs == nil).fetchCount(db),
             try SightRecord.filter(SightRecord.Columns.archivedAtNs != nil).fetchCount(db))
        }
    }

    /// Re-stamps this boot's `unsynced`, `lunar`, `rtc`, `signal` and `gps` sights wherever `better` gives a
    /// better stamp (the caller decides what is better); returns the sights that changed.
    public func backfill(bootID: String, now: UTCTime,
                         better: (Sight) -> UTCEstimate?) throws(StoreError) -> [Sight] {
        // Read first: most heartbeats find nothing to change and need no write.
        let candidates = try read { db in
            try SightRecord.filter(SightRecord.Columns.bootID == bootID && [TimeSource.unsynced, .lunar, .rtc, .signal, .gps].contains(SightRecord.Columns.source))
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
    var bootID: String, monotonicNs: Int64, utcNs: Int64, source: TimeSource, createdAtNs: Int64
    var uncertaintyS: Double? = nil, gpsLat: Double? = nil, gpsLon: Double? = nil, fixMode: Int? = nil, fixAgeS: Double? = nil
    /// `StampProvenance` as JSON text.
    var provenance: String? = nil, trigger: SightTrigger? = nil
    var originalUtcNs: Int64? = nil, originalSource: TimeSource? = nil, originalUncertaintyS: Double? = nil, correctedAtNs: Int64? = nil
    var body: String? = nil, limb: Limb? = nil, hsDeg: Double? = nil, ieArcmin: Double? = nil, eyeHeightM: Double? = nil
    var temperatureC: Double? = nil, pressureHpa: Double? = nil, drLat: Double? = nil, drLon: Double? = nil, note: String? = nil
    var editedAtNs: Int64? = nil, archivedAtNs: Int64? = nil, positionFlag: String? = nil

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, source, provenance, trigger, body, limb, note
        case bootID = "boot_id", monotonicNs = "monotonic_ns", utcNs = "utc_ns", uncertaintyS = "uncertainty_s"
        case gpsLat = "gps_lat", gpsLon = "gps_lon", fixMode = "fix_mode", fixAgeS = "fix_age_s", createdAtNs = "created_at_ns"
        case originalUtcNs = "original_utc_ns", originalSource = "original_source", originalUncertaintyS = "original_uncertainty_s"
        case correctedAtNs = "corrected_at_ns", hsDeg = "hs_deg", ieArcmin = "ie_arcmin", eyeHeightM = "eye_height_m"
        case temperatureC = "temperature_c", pressureHpa = "pressure_hpa", drLat = "dr_lat", drLon = "dr_lon"
        case editedAtNs = "edited_at_ns", archivedAtNs = "archived_at_ns", positionFlag = "position_flag"
    }

    /// The table's columns, for queries.
    typealias Columns = CodingKeys

    /// Every column but the id, in the order of `insertArguments`.
    static let insertColumns: [CodingKeys] = [
        .bootID, .monotonicNs, .utcNs, .source, .createdAtNs, .uncertaintyS, .gpsLat, .gpsLon, .fixMode, .fixAgeS, .provenance,
        .trigger, .originalUtcNs, .originalSource, .originalUncertaintyS, .correctedAtNs, .body, .limb, .hsDeg, .ieArcmin,
        .eyeHeightM, .temperatureC, .pressureHpa, .drLat, .drLon, .note, .editedAtNs, .archivedAtNs, .positionFlag,
    ]

    static let insertSQL = "INSERT INTO sight (\(insertColumns.map(\.rawValue).joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: insertColumns.count).joined(separator: ", ") + ")"

    /// Binds the values of `insertColumns` to `statement` (of `insertSQL`) and runs it once.
    func insert(with statement: Statement, in db: Database) throws {
        let handle = statement.sqliteStatement
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var index: Int32 = 0
        func bind(_ v: Int64?) { index += 1; if let v { sqlite3_bind_int64(handle, index, v) } else { sqlite3_bind_null(handle, index) } }
        func bind(_ v: Int?) { bind(v.map(Int64.init)) }
        func bind(_ v: Double?) { index += 1; if let v { sqlite3_bind_double(handle, index, v) } else { sqlite3_bind_null(handle, index) } }
        func bind(_ v: String?) { index += 1; if let v { sqlite3_bind_text(handle, index, v, -1, transient) } else { sqlite3_bind_null(handle, index) } }
        bind(bootID); bind(monotonicNs); bind(utcNs); bind(source.rawValue); bind(createdAtNs); bind(uncertaintyS); bind(gpsLat)
        bind(gpsLon); bind(fixMode); bind(fixAgeS); bind(provenance); bind(trigger?.rawValue); bind(originalUtcNs)
        bind(originalSource?.rawValue); bind(originalUncertaintyS); bind(correctedAtNs); bind(body); bind(limb?.rawValue); bind(hsDeg)
        bind(ieArcmin); bind(eyeHeightM); bind(temperatureC); bind(pressureHpa); bind(drLat); bind(drLon); bind(note); bind(editedAtNs)
        bind(archivedAtNs); bind(positionFlag)
        assert(index == Int32(Self.insertColumns.count))
        let code = sqlite3_step(handle)
        // The error as the step left it, before the reset.
        let error = code == SQLITE_DONE ? nil : DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                                                              message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: Self.insertSQL)
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        if let error { throw error }
    }

    /// What every fetch of a record selects: the id, then `insertColumns`, so that
    /// `init(row:)` reads by position.
    static var databaseSelection: [any SQLSelectable] { selectedColumns }
    static let selectedColumns: [Columns] = [.id] + insertColumns
    /// `selectedColumns` as a SELECT's list, each name quoted.
    static let selectionSQL = selectedColumns.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    /// A fetched row, read by position in `databaseSelection`'s order: through the
    /// record's Codable conformance, decoding by name took 30 % of the phone page's time
    /// serving the sight log (`Tests/bench/web`).
    init(row: Row) throws {
        guard row.count == Self.selectedColumns.count else {
            throw DatabaseError(message: "a sight row has \(row.count) columns, not \(Self.selectedColumns.count)")
        }
        var i = -1
        func next<V: DatabaseValueConvertible & StatementColumnConvertible>(_: V.Type = V.self) throws -> V {
            i += 1
            return try row.decode(V.self, atIndex: i)
        }
        func next<V: RawRepresentable<String>>(_: V.Type = V.self) throws -> V? {
            guard let raw: String = try next() else { return nil }
            guard let value = V(rawValue: raw) else { throw DatabaseError(message: "'\(raw)' in column \(i) of a sight is not a \(V.self)") }
            return value
        }
        id = try next()
        (bootID, monotonicNs, utcNs) = (try next(), try next(), try next())
        guard let source: TimeSource = try next() else { throw DatabaseError(message: "a sight without a source") }
        self.source = source
        (createdAtNs, uncertaintyS, gpsLat, gpsLon, fixMode) = (try next(), try next(), try next(), try next(), try next(Int64?.self).map(Int.init))
        (fixAgeS, provenance, trigger, originalUtcNs) = (try next(), try next(), try next(), try next())
        (originalSource, originalUncertaintyS, correctedAtNs, body, limb) = (try next(), try next(), try next(), try next(), try next())
        (hsDeg, ieArcmin, eyeHeightM, temperatureC, pressureHpa) = (try next(), try next(), try next(), try next(), try next())
        (drLat, drLon, note, editedAtNs, archivedAtNs) = (try next(), try next(), try next(), try next(), try next())
        positionFlag = try next()
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public init(_ s: Sight) {
        id = s.id
        (bootID, monotonicNs) = (s.instant.bootID, s.instant.nanoseconds)
        (utcNs, source, uncertaintyS) = (s.estimate.utc.nanosecondsSinceEpoch, s.estimate.source, s.estimate.uncertainty)
        provenance = s.estimate.provenance?.json
        (gpsLat, gpsLon, fixMode, fixAgeS, positionFlag) = (s.position?.latitude, s.position?.longitude, s.fixMode, s.fixAge, s.positionFlag)
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
                                            provenance: provenance.flatMap { try? JSONDecoder().decode(StampProvenance.self, from: Data($0.utf8)) }),
                      createdAt: UTCTime(nanosecondsSinceEpoch: createdAtNs))
        if let utc = time(originalUtcNs), let originalSource {
            s.original = UTCEstimate(utc: utc, source: originalSource, uncertainty: originalUncertaintyS)
        }
        s.correctedAt = time(correctedAtNs)
        s.position = position(gpsLat, gpsLon)
        (s.fixMode, s.fixAge, s.trigger, s.positionFlag) = (fixMode, fixAgeS, trigger, positionFlag)
        (s.body, s.limb, s.hs, s.indexError, s.eyeHeight) = (body, limb, hsDeg, ieArcmin, eyeHeightM)
        (s.temperature, s.pressure, s.dr) = (temperatureC, pressureHpa, position(drLat, drLon))
        (s.note, s.editedAt) = (note, time(editedAtNs))
        return s
    }
}

/// The columns of a sight that the CSV export reads, fetched by position for speed.
public struct SightExportRecord: FetchableRecord, Sendable {
    public var id: Int64
    public var utc: Int64
    public var source: String
    public var uncertainty, hs, indexError, eyeHeight, temperature, pressure, drLat, drLon, lat, lon, fixAge: Double?
    public var body, limb, note, positionFlag: String?
    public var fixMode: Int64?

    typealias C = SightRecord.Columns
    /// The columns the export reads.
    static let selection: [C] = [.id, .utcNs, .source, .uncertaintyS, .body, .limb, .hsDeg, .ieArcmin, .eyeHeightM, .temperatureC,
                                 .pressureHpa, .drLat, .drLon, .gpsLat, .gpsLon, .fixMode, .fixAgeS, .note, .positionFlag]

    public init(row: Row) {
        (id, utc, source, uncertainty, body, limb) = (row[C.id], row[C.utcNs], row[C.source], row[C.uncertaintyS], row[C.body], row[C.limb])
        (hs, indexError, eyeHeight, temperature, pressure) = (row[C.hsDeg], row[C.ieArcmin], row[C.eyeHeightM], row[C.temperatureC], row[C.pressureHpa])
        (drLat, drLon, lat, lon, fixMode, fixAge, note) = (row[C.drLat], row[C.drLon], row[C.gpsLat], row[C.gpsLon], row[C.fixMode], row[C.fixAgeS], row[C.note])
        positionFlag = row[C.positionFlag]
    }
}

extension AppDatabase {
    /// Reads the current sights that `query` selects, oldest first, in one read transaction,
    /// handing each to `each`, then runs `finally` inside the same read; returns how many.
    public func exportSights(_ query: SightQuery, _ each: (SightExportRecord) throws -> Void,
                             finally: () throws -> Void) throws(StoreError) -> Int {
        do { try query.check() } catch { throw .refused(error.description) }
        typealias C = SightRecord.Columns
        var request = SightRecord.select(SightExportRecord.selection).filter(C.archivedAtNs == nil)
        if let since = query.since { request = request.filter(C.utcNs >= since.nanosecondsSinceEpoch) }
        if let until = query.until { request = request.filter(C.utcNs < until.nanosecondsSinceEpoch) }
        let ordered = request.order(C.utcNs.asc, C.id.asc).asRequest(of: SightExportRecord.self)
        return try read { db in
            var count = 0
            let records = try ordered.fetchCursor(db)
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
