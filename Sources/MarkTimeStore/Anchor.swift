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

/// The daemon's own copy of the anchor watch.
///
/// Each heartbeat reads the row (a read costs the SD card nothing), takes any change
/// made from the command line (drop, ack, lift), applies the fixes and the time, and
/// writes the row back only when the state or the alarm's streak changed. Distance,
/// bearing and the last fix change with every fix: they travel in the daemon's status
/// file instead (`DaemonStatus.anchor`), which `anchorWatch(settings:)` lays over the row.
public struct AnchorKeeper: Sendable {
    private var cached: StoredAnchorWatch?
    /// The row as this keeper last read or wrote it.
    private var row: StoredAnchorWatch?

    public init() {}

    /// The watch after `fixes` and the time `now`, and its actions; nil when no watch is set.
    public mutating func update(_ fixes: [GeoFix], now: Int64, bootID: String, settings: Settings,
                                store: AppDatabase) throws(StoreError) -> (watch: StoredAnchorWatch, actions: [AnchorWatch.Action])? {
        guard let fresh = try store.anchorWatch(settings: settings, live: false) else {
            cached = nil
            row = nil
            return nil
        }
        // Ours, unless the command line changed the row since we last saw it.
        var stored = fresh
        if let cached, row == fresh {
            stored = cached
        } else if fresh.bootID != bootID {
            stored.watch.rebase(now: now)
        }
        let before = stored.watch
        let actions = fixes.flatMap { stored.watch.handle($0, now: now) } + stored.watch.tick(now: now)
        let w = stored.watch
        let streak = { (a: AnchorWatch) in min(a.outside, a.confirmations) }
        if w.state != before.state || streak(w) != streak(before) || fresh.bootID != bootID {
            try store.write { db in
                try db.execute(sql: """
                    UPDATE anchor_watch SET state = ?, outside = ?, boot_id = ?, last_fix_mono_ns = ?,
                        last_fix_utc_ns = ?, distance_m = ?, bearing_deg = ? WHERE id = 1 AND dropped_at_ns = ?
                    """, arguments: [w.state.rawValue, w.outside, bootID, w.lastFix, w.lastFixTime?.nanosecondsSinceEpoch,
                                     w.distance, w.bearing, stored.droppedAt.nanosecondsSinceEpoch])
            }
            stored.bootID = bootID
            row = try store.anchorWatch(settings: settings, live: false)
        } else {
            row = fresh
        }
        cached = stored
        return (stored, actions)
    }
}
