import MarkTimeCore

/// The stored anchor watch and when it was set.
public struct StoredAnchorWatch: Hashable, Sendable {
    public var watch: AnchorWatch
    public var droppedAt: UTCTime
    /// The boot whose monotonic clock `watch.lastFix` counts on.
    public var bootID: String?

    public init(watch: AnchorWatch, droppedAt: UTCTime, bootID: String?) {
        self.watch = watch
        self.droppedAt = droppedAt
        self.bootID = bootID
    }
}

/// The daemon's own copy of the anchor watch, and when its row must be written.
///
/// Each heartbeat reads the row (a read costs the SD card nothing), takes any change
/// made from the command line (drop, ack, lift), applies the fixes and the time, and
/// writes the row back only when the state or the alarm's streak changed. Distance,
/// bearing and the last fix change with every fix: they travel in the daemon's status
/// file instead (`DaemonStatus.anchor`), laid over the row when it is shown.
public struct AnchorKeeper: Sendable {
    private var cached: StoredAnchorWatch?
    /// The row as this keeper last read or wrote it.
    private var row: StoredAnchorWatch?

    public init() {}

    /// One heartbeat's decision.
    public struct Step: Sendable {
        /// The watch after the fixes and the time.
        public var watch: StoredAnchorWatch
        public var actions: [AnchorWatch.Action]
        /// Whether the row must be written (then hand the row as written to `written(_:)`).
        public var write: Bool
    }

    /// The watch after `fixes` and the time `now`, given the `row` as read now; nil when no watch is set.
    public mutating func advance(row fresh: StoredAnchorWatch?, fixes: [GeoFix], now: Int64, bootID: String) -> Step? {
        guard let fresh else {
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
        let write = w.state != before.state || streak(w) != streak(before) || fresh.bootID != bootID
        if write { stored.bootID = bootID } else { row = fresh }
        cached = stored
        return Step(watch: stored, actions: actions, write: write)
    }

    /// The row as it was written after a step that asked for a write.
    public mutating func written(_ written: StoredAnchorWatch?) {
        row = written
    }
}

/// What the daemon's anchor keeper needs of a store: the watch's row, read and written.
/// MarkTimeStore's `AppDatabase` is the one on SQLite.
public protocol AnchorRepository: Sendable {
    /// The watch as its row holds it (its alarm's settings from `settings`); nil when none is set.
    func anchorWatch(settings: Settings) throws -> StoredAnchorWatch?
    /// Writes `watch`'s state into the row of the watch dropped at `droppedAt`, its last fix
    /// counted on `bootID`'s clock; nothing when another watch has replaced that one.
    func saveAnchorState(_ watch: AnchorWatch, droppedAt: UTCTime, bootID: String) throws
}

extension AnchorKeeper {
    /// Reads the row, lets the keeper apply `fixes` and the time `now`, and writes the row
    /// back only when the keeper says so; nil when no watch is set.
    public mutating func update(_ fixes: [GeoFix], now: Int64, bootID: String, settings: Settings,
                                store: some AnchorRepository) throws -> (watch: StoredAnchorWatch, actions: [AnchorWatch.Action])? {
        guard let step = advance(row: try store.anchorWatch(settings: settings), fixes: fixes, now: now, bootID: bootID) else { return nil }
        if step.write {
            try store.saveAnchorState(step.watch.watch, droppedAt: step.watch.droppedAt, bootID: bootID)
            written(try store.anchorWatch(settings: settings))
        }
        return (step.watch, step.actions)
    }
}

extension StoredAnchorWatch {
    /// The watch with the running daemon's distance, bearing and last fix laid over the
    /// row's, when `status` is a running daemon's and its watch is this one in the same state.
    public func live(_ status: DaemonStatus?) -> StoredAnchorWatch {
        guard let status, !status.stopped, let a = status.anchor, a.droppedAt == droppedAt, a.state == watch.state.rawValue else { return self }
        var shown = self
        let w = watch
        shown.watch = AnchorWatch(anchor: w.anchor, radius: w.radius, confirmations: w.confirmations, staleAfter: w.staleAfter,
                                  droppedAt: a.lastFix ?? 0, state: w.state, outside: w.outside, lastFix: a.lastFix,
                                  lastFixTime: a.lastFixTime, distance: a.distance, bearing: a.bearing)
        return shown
    }
}
