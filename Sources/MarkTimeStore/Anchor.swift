import GRDB
import MarkTimeCore
import MarkTimePlaces

extension AppDatabase: AnchorRepository {
    /// Sets a new watch, replacing any other.
    public func dropAnchor(at position: Position, radius: Double, now: UTCTime) throws(StoreError) {
        try write { db in
            try AnchorWatchRecord.deleteAll(db)
            try AnchorWatchRecord(lat: position.latitude, lon: position.longitude, radiusM: radius, state: AnchorWatch.State.watching.rawValue,
                                  outside: 0, droppedAtNs: now.nanosecondsSinceEpoch).insert(db)
        }
    }

    /// The watch as its row holds it (`StoredAnchorWatch.live` lays the running daemon's over it).
    public func anchorWatch(settings: Settings) throws(StoreError) -> StoredAnchorWatch? {
        try read { db in try Self.anchorWatch(db, settings) }
    }

    static func anchorWatch(_ db: Database, _ settings: Settings) throws -> StoredAnchorWatch? {
        try AnchorWatchRecord.fetchOne(db, key: 1)?.stored(settings)
    }

    /// What a watch's state changes in its row.
    static func anchorColumns(_ w: AnchorWatch, bootID: String?) -> [ColumnAssignment] {
        typealias C = AnchorWatchRecord.CodingKeys
        return [C.state.set(to: w.state.rawValue), C.outside.set(to: w.outside), C.bootID.set(to: bootID), C.lastFixMonoNs.set(to: w.lastFix),
                C.lastFixUtcNs.set(to: w.lastFixTime?.nanosecondsSinceEpoch), C.distanceM.set(to: w.distance), C.bearingDeg.set(to: w.bearing)]
    }

    /// Reads the watch, lets `change` act on it, and writes it back, in one transaction.
    /// Returns the watch after the change and the actions, or nil when no watch is set.
    @discardableResult
    public func updateAnchorWatch(settings: Settings, bootID: String? = nil,
                                  _ change: (inout AnchorWatch, _ sameBoot: Bool) -> [AnchorWatch.Action]) throws(StoreError) -> (AnchorWatch, [AnchorWatch.Action])? {
        try write { db in
            guard var stored = try Self.anchorWatch(db, settings) else { return nil }
            let actions = change(&stored.watch, bootID == nil || stored.bootID == bootID)
            let w = stored.watch
            try AnchorWatchRecord.filter(key: 1).updateAll(db, Self.anchorColumns(w, bootID: bootID ?? stored.bootID))
            return (w, actions)
        }
    }

    public func saveAnchorState(_ watch: AnchorWatch, droppedAt: UTCTime, bootID: String) throws(StoreError) {
        try write { db in
            _ = try AnchorWatchRecord.filter(key: 1).filter(AnchorWatchRecord.CodingKeys.droppedAtNs == droppedAt.nanosecondsSinceEpoch)
                .updateAll(db, Self.anchorColumns(watch, bootID: bootID))
        }
    }
}
