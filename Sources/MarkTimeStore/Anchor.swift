import GRDB
import MarkTimeCore
import MarkTimePlaces

/// The stored anchor watch and when it was set.
public struct StoredAnchorWatch: Hashable, Sendable {
    public var watch: AnchorWatch
    public var droppedAt: UTCTime
    /// The boot whose monotonic clock `watch.lastFix` counts on.
    public var bootID: String?
}

extension AppDatabase {
    /// Sets a new watch, replacing any other.
    public func dropAnchor(at position: Position, radius: Double, now: UTCTime) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM anchor_watch")
            try db.execute(sql: "INSERT INTO anchor_watch (id, lat, lon, radius_m, state, dropped_at_ns) VALUES (1, ?, ?, ?, 'watching', ?)",
                           arguments: [position.latitude, position.longitude, radius, now.nanosecondsSinceEpoch])
        }
    }

    public func anchorWatch(settings: Settings) throws(StoreError) -> StoredAnchorWatch? {
        try read { db in try Self.anchorWatch(db, settings) }
    }

    static func anchorWatch(_ db: Database, _ settings: Settings) throws -> StoredAnchorWatch? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM anchor_watch WHERE id = 1"),
              let anchor = try? Position(latitude: row["lat"], longitude: row["lon"]) else { return nil }
        let watch = AnchorWatch(anchor: anchor, radius: row["radius_m"], confirmations: settings.anchorConfirmations,
                                staleAfter: settings.anchorStaleAfter, droppedAt: row["last_fix_mono_ns"] ?? 0,
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
