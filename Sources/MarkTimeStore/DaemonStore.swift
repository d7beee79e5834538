import Foundation
import GRDB
import MarkTimeCore

extension AppDatabase {
    /// A write whose commit does not sync on its own (`synchronous=NORMAL` for one
    /// transaction): for batches that can wait for the next durable commit or checkpoint,
    /// such as the clock track. Sights never go through here.
    func lazyWrite<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        try writeWithoutTransaction { db in
            try Self.unsynced(db) {
                var result: T?
                try db.inTransaction {
                    result = try updates(db)
                    return .commit
                }
                return result!
            }
        }
    }

    /// Runs `body` with the connection's commits unsynced (`synchronous=NORMAL`), then
    /// puts FULL back: they become durable with the next synced commit or checkpoint.
    static func unsynced<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
        return try body()
    }

    // MARK: The WAL

    /// Grows the WAL file, once, to the size at which SQLite checkpoints it
    /// (`wal_autocheckpoint` frames), and returns the bytes added; 0 when it is that size
    /// already. SQLite then restarts the log after each checkpoint and keeps the file (the
    /// WAL is persistent), so a sight's commit overwrites blocks the file already has: ext4
    /// syncs such a write without a journal commit for the file's new size. On the rig a
    /// bare sight insert took 3.29 ms into a grown WAL against 5.13 ms into a fresh one.
    ///
    /// The filler is a scratch table rewritten until the file is long enough, then dropped:
    /// its pages (about a quarter of the WAL's size) stay in the store's free list for later
    /// rows.
    @discardableResult
    public func reserveWAL() throws(StoreError) -> Int {
        let wal = path + "-wal"
        func size() -> Int { ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int) ?? 0 }
        return try writeWithoutTransaction { db in
            guard db.configuration.readonly == false, try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else { return 0 }
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let frames = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 0
            let target = 32 + frames * (pageSize + 24)
            let before = size()
            guard frames > 0, before < target else {
                // A reserve cut short by a crash leaves its table behind.
                try db.execute(sql: "DROP TABLE IF EXISTS wal_reserve")
                return 0
            }
            // Durable at the checkpoint that ends it, like the clock track's batches.
            try Self.unsynced(db) {
                let chunk = (frames / 8) * pageSize
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS wal_reserve (filler BLOB)")
                try db.execute(sql: "INSERT INTO wal_reserve VALUES (zeroblob(?))", arguments: [chunk])
                // Each rewrite appends an eighth of the target, or a quarter where SQLite also
                // zeroes the pages it frees (secure_delete); the bound only guards the loop. The
                // length changes each time: SQLite rewrites a value of the same length in place
                // and skips the pages whose bytes did not change.
                for round in 1...16 where size() < target {
                    try db.execute(sql: "UPDATE wal_reserve SET filler = zeroblob(?)", arguments: [chunk + round])
                }
                try db.execute(sql: "DROP TABLE wal_reserve")
                try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
            }
            return max(size() - before, 0)
        }
    }

    // MARK: The clock track

    /// Saves a batch of track samples (see `lazyWrite`).
    public func saveTrack(_ entries: [ClockTrack.Entry], bootID: String) throws(StoreError) {
        try lazyWrite { db in
            for e in entries where e.sample.source != .unsynced {
                try ClockSampleRecord(bootID: bootID, e).insert(db, onConflict: .ignore)
            }
        }
    }

    /// The track saved for `bootID`, oldest first.
    public func track(bootID: String) throws(StoreError) -> [ClockTrack.Entry] {
        try read { db in
            try ClockSampleRecord.filter(ClockSampleRecord.CodingKeys.bootID == bootID)
                .order(ClockSampleRecord.CodingKeys.monotonicNs).fetchAll(db).map(\.entry)
        }
    }

    // MARK: Input gaps

    /// Records a window in which the kernel dropped input events; the same drop twice is stored once.
    @discardableResult
    public func recordGap(_ gap: InputGap) throws(StoreError) -> InputGap {
        try write { db in
            typealias G = InputGapRecord.CodingKeys
            if let existing = try InputGapRecord.filter(G.bootID == gap.bootID && G.toMonoNs == gap.toNanoseconds).fetchOne(db) {
                var stored = gap
                stored.id = existing.id
                return stored
            }
            var record = InputGapRecord(gap)
            try record.insert(db)
            return record.gap
        }
    }

    /// Every recorded gap, oldest first.
    public func inputGaps() throws(StoreError) -> [InputGap] {
        try read { db in
            try InputGapRecord.order(InputGapRecord.CodingKeys.toUtcNs ?? 0, InputGapRecord.CodingKeys.id).fetchAll(db).map(\.gap)
        }
    }
}

/// A line of the `rate_book` table.
struct RateBookRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "rate_book"
    var bootID: String, day: String, clock: String, gainSPerDay: Double, scatterSPerDay: Double, source: TimeSource
    var spanS: Double, samples: Int, learnedAtNs: Int64, learnedUtcNs: Int64, errorS: Double?, errorUncertaintyS: Double?
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case day, clock, source, samples
        case bootID = "boot_id", gainSPerDay = "gain_s_per_day", scatterSPerDay = "scatter_s_per_day", spanS = "span_s"
        case learnedAtNs = "learned_at_ns", learnedUtcNs = "learned_utc_ns", errorS = "error_s", errorUncertaintyS = "error_uncertainty_s"
    }

    init(_ e: RateBookEntry) {
        (bootID, day, clock, source) = (e.bootID, e.day, e.clock, e.rate.source)
        (gainSPerDay, scatterSPerDay, spanS, samples) = (e.rate.gain, e.rate.scatter, e.rate.span, e.rate.samples)
        (learnedAtNs, learnedUtcNs, errorS, errorUncertaintyS) = (e.rate.learnedAt, e.learnedUTC.nanosecondsSinceEpoch, e.error, e.errorUncertainty)
    }

    var entry: RateBookEntry {
        RateBookEntry(bootID: bootID, clock: clock,
                      rate: ClockRate(gain: gainSPerDay, scatter: scatterSPerDay, source: source, span: spanS, samples: samples, learnedAt: learnedAtNs),
                      learnedUTC: UTCTime(nanosecondsSinceEpoch: learnedUtcNs), error: errorS, errorUncertainty: errorUncertaintyS)
    }
}

extension AppDatabase {
    /// Writes a line of the rate book, replacing that boot's line of the same day and clock.
    public func saveRate(_ entry: RateBookEntry) throws(StoreError) {
        try lazyWrite { db in try RateBookRecord(entry).insert(db, onConflict: .replace) }
    }

    /// The rate book, oldest line first.
    public func rateBook() throws(StoreError) -> [RateBookEntry] {
        try read { db in try RateBookRecord.order(RateBookRecord.CodingKeys.learnedUtcNs).fetchAll(db).map(\.entry) }
    }

    /// The newest line of `clock` from boot `bootID` (a restarted daemon's own).
    public func rateLine(of bootID: String, clock: String) throws(StoreError) -> RateBookEntry? {
        try read { db in
            try RateBookRecord.filter(RateBookRecord.CodingKeys.bootID == bootID && RateBookRecord.CodingKeys.clock == clock)
                .order(RateBookRecord.CodingKeys.learnedUtcNs.desc).fetchOne(db)?.entry
        }
    }

    /// The newest line of `clock` from a boot other than `bootID`: what a new boot carries
    /// time at (the monotonic line) and corrects the RTC by (the rtc line).
    public func lastRate(before bootID: String, clock: String = RateBookEntry.monotonic) throws(StoreError) -> RateBookEntry? {
        try read { db in
            try RateBookRecord.filter(RateBookRecord.CodingKeys.bootID != bootID && RateBookRecord.CodingKeys.clock == clock)
                .order(RateBookRecord.CodingKeys.learnedUtcNs.desc).fetchOne(db)?.entry
        }
    }
}
