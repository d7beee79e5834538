import GRDB
import MarkTimeCore
import MarkTimePlaces

extension AppDatabase {
    /// Sets a new watch, replacing any other.
    public func dropAnchor(at position: Position, radius: Double, now: UTCTime) throws(StoreError) {
        try write { db in
            try AnchorWatchRecord.deleteAll(db)
            try AnchorWatchRecord(lat: position.latitude, lon: position.longitude, radiusM: radius, state: AnchorWatch.State.watching.rawValue,
                                  outside: 0, droppedAtNs: now.nanosecondsSinceEpoch).insert(db)
        }
    }

    /// The watch; with `live`, the running daemon's distance, bearing and last fix laid over the row.
    public func anchorWatch(settings: Settings, live: Bool = true) throws(StoreError) -> StoredAnchorWatch? {
        guard var stored = try read({ db in try Self.anchorWatch(db, settings) }) else { return nil }
        if live, let status = try daemonStatus(), !status.stopped, let a = status.anchor,
           a.droppedAt == stored.droppedAt, a.state == stored.watch.state.rawValue {
            let w = stored.watch
            stored.watch = AnchorWatch(anchor: w.anchor, radius: w.radius, confirmations: w.confirmations, staleAfter: w.staleAfter,
                                       droppedAt: a.lastFix ?? 0, state: w.state, outside: w.outside, lastFix: a.lastFix,
                                       lastFixTime: a.lastFixTime, distance: a.distance, bearing: a.bearing)
        }
        return stored
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
}

extension AnchorKeeper {
    /// Reads the row, lets the keeper apply `fixes` and the time `now`, and writes the row
    /// back only when the keeper says so; nil when no watch is set.
    public mutating func update(_ fixes: [GeoFix], now: Int64, bootID: String, settings: Settings,
                                store: AppDatabase) throws(StoreError) -> (watch: StoredAnchorWatch, actions: [AnchorWatch.Action])? {
        let fresh = try store.anchorWatch(settings: settings, live: false)
        guard let step = advance(row: fresh, fixes: fixes, now: now, bootID: bootID) else { return nil }
        if step.write {
            let w = step.watch.watch
            try store.write { db in
                _ = try AnchorWatchRecord.filter(key: 1).filter(AnchorWatchRecord.CodingKeys.droppedAtNs == step.watch.droppedAt.nanosecondsSinceEpoch)
                    .updateAll(db, AppDatabase.anchorColumns(w, bootID: bootID))
            }
            written(try store.anchorWatch(settings: settings, live: false))
        }
        return (step.watch, step.actions)
    }
}
