import GRDB
import MarkTimeCore

extension AppDatabase {
    /// A write whose commit does not sync on its own (`synchronous=NORMAL` for one
    /// transaction): for batches that can wait for the next durable commit or checkpoint,
    /// such as the clock track. Sights never go through here.
    func lazyWrite<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        try writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
            var result: T?
            try db.inTransaction {
                result = try updates(db)
                return .commit
            }
            return result!
        }
    }

    // MARK: The clock track

    /// Saves a batch of track samples (see `lazyWrite`).
    public func saveTrack(_ entries: [ClockTrack.Entry], bootID: String) throws(StoreError) {
        try lazyWrite { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO clock_sample (boot_id, source, monotonic_ns, utc_ns, uncertainty_s, segment)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            for e in entries where e.sample.source != .unsynced {
                try statement.execute(arguments: [bootID, e.sample.source.rawValue, e.sample.monotonicNanoseconds,
                                                  e.sample.utc.nanosecondsSinceEpoch, e.sample.uncertainty, e.segment])
            }
        }
    }

    /// The track saved for `bootID`, oldest first.
    public func track(bootID: String) throws(StoreError) -> [ClockTrack.Entry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM clock_sample WHERE boot_id = ? ORDER BY monotonic_ns", arguments: [bootID])
                .compactMap { row in
                    guard let source = TimeSource(rawValue: row["source"]) else { return nil }
                    return ClockTrack.Entry(sample: ClockSample(source: source, monotonicNanoseconds: row["monotonic_ns"],
                                                                utc: UTCTime(nanosecondsSinceEpoch: row["utc_ns"]),
                                                                uncertainty: row["uncertainty_s"]),
                                            segment: row["segment"])
                }
        }
    }

    // MARK: Input gaps

    /// Records a window in which the kernel dropped input events; the same drop twice is stored once.
    @discardableResult
    public func recordGap(_ gap: InputGap) throws(StoreError) -> InputGap {
        try write { db in
            try db.execute(sql: """
                INSERT INTO input_gap (boot_id, from_mono_ns, to_mono_ns, from_utc_ns, to_utc_ns) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (boot_id, to_mono_ns) DO NOTHING
                """, arguments: [gap.bootID, gap.fromNanoseconds, gap.toNanoseconds, gap.from?.nanosecondsSinceEpoch,
                                 gap.to?.nanosecondsSinceEpoch])
            var stored = gap
            stored.id = try Int64.fetchOne(db, sql: "SELECT id FROM input_gap WHERE boot_id = ? AND to_mono_ns = ?",
                                           arguments: [gap.bootID, gap.toNanoseconds])
            return stored
        }
    }

    /// Every recorded gap, oldest first.
    public func inputGaps() throws(StoreError) -> [InputGap] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM input_gap ORDER BY coalesce(to_utc_ns, 0), id").map { row in
                InputGap(id: row["id"], bootID: row["boot_id"], fromNanoseconds: row["from_mono_ns"], toNanoseconds: row["to_mono_ns"],
                         from: (row["from_utc_ns"] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)),
                         to: (row["to_utc_ns"] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)))
            }
        }
    }
}
