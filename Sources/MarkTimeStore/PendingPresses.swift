import Foundation
import GRDB
import MarkTimeConfig
import MarkTimeCore
import MarkTimeSystem

/// Presses the store could not take yet, in a small append-only file beside it
/// (`<store>-pending.jsonl`, one `SightRecord` as JSON a line).
///
/// Each append is fsynced before it returns, and the folder is synced when the file is
/// made, so a press that buzzed survives a crash or a power cut. Any process that records
/// (the daemon, `marktime mark`, the phone page) appends; the daemon reads the file at
/// start and whenever it finds it, stores what it holds, and lets go of each press once
/// it is in the store. Appends and that rewrite take turns under a lock
/// (`<store>-pending.lock`). A torn last line (a cut during an append) is skipped.
public struct PendingPresses: Sendable {
    public let path: String
    /// The lock file that appends and rewrites hold.
    public let lockPath: String

    public init(storePath: String) {
        path = storePath + "-pending.jsonl"
        lockPath = storePath + "-pending.lock"
    }

    /// Appends one sight and syncs it (and the folder, when the file is new).
    public func append(_ sight: Sight) throws(StoreError) {
        guard let data = try? JSONEncoder().encode(SightRecord(sight)) else { throw .failed(path: path, reason: "cannot encode the sight") }
        do {
            try FileLock.withExclusive(lockPath) { try SideFile.appendAndSync(Array(data) + [UInt8(ascii: "\n")], to: path) }
        } catch {
            throw .failed(path: path, reason: "\(error)")
        }
    }

    /// Whether the file holds anything (one `stat`, for the daemon's heartbeat).
    public var isEmpty: Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0
    }

    /// Lets go of the presses that `landed` says are in the store: the file keeps the
    /// others (rewritten durably), or is removed when none is left.
    public func settle(landed: (Sight) -> Bool) throws(StoreError) {
        do {
            try FileLock.withExclusive(lockPath) {
                let all = load()
                let left = all.filter { !landed($0) }
                if left.isEmpty {
                    if try SideFile.remove(path) { SideFile.syncFolder(of: path) }
                } else if left.count < all.count {
                    var bytes: [UInt8] = []
                    for sight in left { bytes += Array(try JSONEncoder().encode(SightRecord(sight))) + [UInt8(ascii: "\n")] }
                    try SideFile.replaceDurably(path, with: bytes)
                }
            }
        } catch {
            throw .failed(path: path, reason: "\(error)")
        }
    }

    /// Every whole line's sight, oldest first.
    public func load() -> [Sight] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            // An earlier line names its position lat/lon (a record, gps_lat/gps_lon) and
            // holds its provenance as an object (a record, as text).
            let earlier = try? decoder.decode(EarlierLine.self, from: Data(line))
            if let earlier, earlier.lat != nil || earlier.lon != nil { return earlier.sight }
            return (try? decoder.decode(SightRecord.self, from: Data(line)))?.sight ?? earlier?.sight
        }
    }

    /// A line as marktime 0.150 and earlier wrote it, so presses kept across an upgrade still land.
    struct EarlierLine: Decodable {
        var boot_id: String
        var monotonic_ns: Int64
        var utc_ns: Int64
        var source: TimeSource
        var uncertainty_s: Double?
        var provenance: StampProvenance?
        var lat: Double?
        var lon: Double?
        var fix_mode: Int?
        var fix_age_s: Double?
        var note: String?
        var created_at_ns: Int64

        var sight: Sight {
            var s = Sight(instant: MonotonicInstant(bootID: boot_id, nanoseconds: monotonic_ns),
                          estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: utc_ns), source: source, uncertainty: uncertainty_s,
                                                provenance: provenance),
                          createdAt: UTCTime(nanosecondsSinceEpoch: created_at_ns))
            if let lat, let lon { s.position = try? Position(latitude: lat, longitude: lon) }
            (s.fixMode, s.fixAge, s.note) = (fix_mode, fix_age_s, note)
            return s
        }
    }
}

extension AppDatabase {
    /// The store `explicit` (`--store`) names, else the one every command finds
    /// (`StorePath`), its folder made when it is the default one; refused when it is gone
    /// while a daemon still runs on it.
    public static func resolving(_ explicit: String?, environment: [String: String]) throws -> AppDatabase {
        let (path, isDefault) = StorePath.resolve(explicit: explicit, environment: environment, exists: FileManager.default.fileExists(atPath:))
        try checkNotVanished(path)
        return try AppDatabase(path: path, createDirectory: isDefault)
    }

    /// Refuses a store that is gone from its path while a daemon still runs on it: a new
    /// file made there now would take the old one's WAL, and the daemon's presses wait for
    /// the old store to come back.
    public static func checkNotVanished(_ path: String) throws(InputError) {
        guard FileKind(path) == .missing, case .daemon(let pid) = DaemonLock.holder(store: path) else { return }
        throw InputError("the store \(path) is gone while the daemon\(pid.map { " (pid \($0))" } ?? "") still runs on it: presses wait in "
            + "\(PendingPresses(storePath: path).path); restore the store from a backup, or restart the daemon (`sudo systemctl restart marktime`) to start a new one")
    }
}
