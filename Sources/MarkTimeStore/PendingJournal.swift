import Foundation
import MarkTimeCore

/// Presses the store could not take yet, in a small append-only file beside it
/// (`<store>-pending.jsonl`, one JSON object a line).
///
/// Each append is fsynced before it returns, and the folder is synced when the file is
/// made, so a press that buzzed survives a crash or a power cut. The daemon reads it at
/// start, stores what it holds, and empties it once every press has landed. A torn last
/// line (a cut during an append) is skipped.
public struct PendingJournal: Sendable {
    public let path: String

    public init(storePath: String) { path = storePath + "-pending.jsonl" }

    /// Appends one sight and syncs it.
    public func append(_ sight: Sight) throws(StoreError) {
        guard let data = try? JSONEncoder().encode(Record(sight)) else { throw .failed(path: path, reason: "cannot encode the sight") }
        let created = access(path, F_OK) != 0
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw .failed(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let line = data + Data("\n".utf8)
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == line.count, fsync(fd) == 0 else { throw .failed(path: path, reason: String(cString: strerror(errno))) }
        if created { Self.syncFolder(of: path) }
    }

    /// Every whole line's sight, oldest first.
    public func load() -> [Sight] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(Record.self, from: Data($0)).sight }
    }

    /// Removes the file once its sights are in the store.
    public func clear() {
        guard unlink(path) == 0 else { return }
        Self.syncFolder(of: path)
    }

    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// A pending sight's fields.
    struct Record: Codable {
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

        init(_ s: Sight) {
            boot_id = s.instant.bootID
            monotonic_ns = s.instant.nanoseconds
            utc_ns = s.estimate.utc.nanosecondsSinceEpoch
            source = s.estimate.source
            uncertainty_s = s.estimate.uncertainty
            provenance = s.estimate.provenance
            lat = s.position?.latitude
            lon = s.position?.longitude
            fix_mode = s.fixMode
            fix_age_s = s.fixAge
            note = s.note
            created_at_ns = s.createdAt.nanosecondsSinceEpoch
        }

        var sight: Sight {
            var s = Sight(instant: MonotonicInstant(bootID: boot_id, nanoseconds: monotonic_ns),
                          estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: utc_ns), source: source, uncertainty: uncertainty_s,
                                                provenance: provenance),
                          createdAt: UTCTime(nanosecondsSinceEpoch: created_at_ns))
            if let lat, let lon { s.position = try? Position(latitude: lat, longitude: lon) }
            s.fixMode = fix_mode
            s.fixAge = fix_age_s
            s.note = note
            return s
        }
    }
}
