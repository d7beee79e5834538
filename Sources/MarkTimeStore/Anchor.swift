import GRDB
import MarkTimeCore
import MarkTimePlaces

extension AppDatabase {
    /// Sets a new watch, replacing any other.
    public func dropAnchor(at position: Position, radius: Double, now: UTCTime) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM anchor_watch")
            try db.execute(sql: "INSERT INTO anchor_watch (id, lat, lon, radius_m, state, dropped_at_ns) VALUES (1, ?, ?, ?, 'watching', ?)",
                           arguments: [position.latitude, position.longitude, radius, now.nanosecondsSinceEpoch])
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
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM anchor_watch WHERE id = 1"),
              let anchor = try? Position(latitude: row["lat"], longitude: row["lon"]) else { return nil }
        let watch = AnchorWatch(anchor: anchor, radius: row["radius_m"], confirmations: try settings.anchor.confirmations,
                                staleAfter: try settings.anchor.staleAfter, droppedAt: row["last_fix_mono_ns"] ?? 0,
                                state: AnchorWatch.State(rawValue: row["state"]) ?? .watching, outside: row["outside"],
                                lastFix: row["last_fix_mono_ns"],
                                lastFixTime: (row["last_fix_utc_ns"] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)),
                                distance: row["distance_m"], bearing: row["bearing_deg"])
        return StoredAnchorWatch(watch: watch, droppedAt: UTCTime(nanosecondsSinceEpoch: row["dropped_at_ns"]), bootID: row["boot_id"])
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
            try db.execute(sql: """
                UPDATE anchor_watch SET state = ?, outside = ?, boot_id = coalesce(?, boot_id), last_fix_mono_ns = ?,
                    last_fix_utc_ns = ?, distance_m = ?, bearing_deg = ? WHERE id = 1
                """, arguments: [w.state.rawValue, w.outside, bootID, w.lastFix, w.lastFixTime?.nanosecondsSinceEpoch, w.distance, w.bearing])
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
                try db.execute(sql: """
                    UPDATE anchor_watch SET state = ?, outside = ?, boot_id = ?, last_fix_mono_ns = ?,
                        last_fix_utc_ns = ?, distance_m = ?, bearing_deg = ? WHERE id = 1 AND dropped_at_ns = ?
                    """, arguments: [w.state.rawValue, w.outside, bootID, w.lastFix, w.lastFixTime?.nanosecondsSinceEpoch,
                                     w.distance, w.bearing, step.watch.droppedAt.nanosecondsSinceEpoch])
            }
            written(try store.anchorWatch(settings: settings, live: false))
        }
        return (step.watch, step.actions)
    }
}
