import Foundation
import GRDB
import MarkTimeCore
import MarkTimeSystem

/// Presses the store could not take yet, in a small append-only file beside it
/// (`<store>-pending.jsonl`, one `SightRecord` as JSON a line).
///
/// Each append is fsynced before it returns, and the folder is synced when the file is
/// made, so a press that buzzed survives a crash or a power cut. The daemon reads it at
/// start, stores what it holds, and empties it once every press has landed. A torn last
/// line (a cut during an append) is skipped.
public struct PendingPresses: Sendable {
    public let path: String

    public init(storePath: String) { path = storePath + "-pending.jsonl" }

    /// Appends one sight and syncs it (and the folder, when the file is new).
    public func append(_ sight: Sight) throws(StoreError) {
        guard let data = try? JSONEncoder().encode(SightRecord(sight)) else { throw .failed(path: path, reason: "cannot encode the sight") }
        do { try SideFile.appendAndSync(Array(data) + [UInt8(ascii: "\n")], to: path) } catch {
            throw .failed(path: path, reason: error.description)
        }
    }

    /// Every whole line's sight, oldest first.
    public func load() -> [Sight] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let decoder = JSONDecoder()
            return (try? decoder.decode(SightRecord.self, from: Data(line)))?.sight
                ?? (try? decoder.decode(EarlierLine.self, from: Data(line)))?.sight
        }
    }

    /// Removes the file once its sights are in the store.
    public func clear() {
        guard (try? SideFile.remove(path)) == true else { return }
        SideFile.syncFolder(of: path)
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
