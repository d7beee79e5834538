import GRDB
import MarkTimeCore

/// A row of `sight_memo`.
struct MemoRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sight_memo"
    var sightId: Int64
    var format: String
    var sampleRate: Int
    var frames: Int
    var cut: Bool
    var data: [UInt8]
    var createdAtNs: Int64

    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    init(_ m: SightMemo) {
        (sightId, format, sampleRate, frames, cut, data, createdAtNs) =
            (m.sightID, m.format, m.sampleRate, m.frames, m.cut, m.data, m.createdAt.nanosecondsSinceEpoch)
    }

    var memo: SightMemo {
        SightMemo(sightID: sightId, format: format, sampleRate: sampleRate, frames: frames, cut: cut, data: data,
                  createdAt: UTCTime(nanosecondsSinceEpoch: createdAtNs))
    }
}

extension AppDatabase {
    /// Keeps `memo` with the sight pressed at `press` (its `sightID` is set here); a memo
    /// already kept with that sight is replaced. Refused when no sight has that press.
    @discardableResult
    public func keepMemo(_ memo: SightMemo, pressedAt press: MonotonicInstant) throws(StoreError) -> SightMemo {
        try write { db in
            guard let id = try Int64.fetchOne(db, SightRecord.select(SightRecord.Columns.id)
                .filter(SightRecord.Columns.bootID == press.bootID && SightRecord.Columns.monotonicNs == press.nanoseconds)) else {
                throw StoreError.refused("no sight in the store has the memo's press (it may wait in the pending-presses file): the memo is not kept")
            }
            var kept = memo
            kept.sightID = id
            try MemoRecord(kept).save(db)
            return kept
        }
    }

    /// The memo kept with sight `id`, if any.
    public func memo(sightID id: Int64) throws(StoreError) -> SightMemo? {
        try read { db in try MemoRecord.fetchOne(db, key: id)?.memo }
    }

}
