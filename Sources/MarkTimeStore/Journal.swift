import Foundation
import GRDB
import MarkTimeCore
import MarkTimeJournal
import MarkTimePlaces

/// A photo as the journal keeps it: its file's hash and extension, and pixel size.
public struct StoredPhoto: Hashable, Sendable {
    public var sha256: String
    public var fileExtension: String
    public var width: Int
    public var height: Int

    public init(sha256: String, fileExtension: String, width: Int, height: Int) {
        self.sha256 = sha256
        self.fileExtension = fileExtension
        self.width = width
        self.height = height
    }

    /// `<sha256>.jpg`, in the media folder.
    public var fileName: String { "\(sha256).\(fileExtension)" }
}

extension AppDatabase {
    /// The folder beside the store where photos are kept.
    public var mediaFolder: String {
        let dir = (path as NSString).deletingLastPathComponent
        return (dir.isEmpty ? "." : dir) + "/media"
    }

    public func addMoment(_ text: String, at time: UTCTime, now: UTCTime) throws(StoreError) -> Int64 {
        let text = text.trimmingWhitespace()
        guard !text.isEmpty else { throw .refused("a moment needs some words") }
        return try insertJournal(kind: "moment", time: time, text: text, position: nil, now: now)
    }

    /// A check-in at `position`: named `name`, else after the place whose radius holds it,
    /// else "Check-in". Returns its id and name, and the places by distance.
    public func checkIn(at position: Position, name: String?, time: UTCTime, now: UTCTime) throws(StoreError)
        -> (id: Int64, name: String, inside: Place?, nearest: [(place: Place, metres: Double)]) {
        let (inside, nearest) = Place.ranked(try places(), from: position)
        let label = name ?? inside?.name ?? "Check-in"
        return (try addCheckin(label, at: time, position: position, now: now), label, inside, nearest)
    }

    public func addCheckin(_ name: String, at time: UTCTime, position: Position, now: UTCTime) throws(StoreError) -> Int64 {
        try insertJournal(kind: "checkin", time: time, text: try StoreError.name(name, what: "a check-in", example: "--name \"Fuel dock\""),
                          position: position, now: now)
    }

    /// Adds a photo; when the same file is already in, its id and `false`.
    public func addPhoto(_ photo: StoredPhoto, caption: String, at time: UTCTime, now: UTCTime) throws(StoreError) -> (id: Int64, added: Bool) {
        try write { db in
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM journal WHERE sha256 = ?", arguments: [photo.sha256]) { return (id, false) }
            try db.execute(sql: """
                INSERT INTO journal (kind, time_ns, text, sha256, ext, width, height, created_at_ns) VALUES ('photo', ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [time.nanosecondsSinceEpoch, caption.trimmingWhitespace(), photo.sha256, photo.fileExtension,
                                 photo.width, photo.height, now.nanosecondsSinceEpoch])
            return (db.lastInsertedRowID, true)
        }
    }

    func insertJournal(kind: String, time: UTCTime, text: String, position: Position?, now: UTCTime) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(sql: "INSERT INTO journal (kind, time_ns, text, lat, lon, created_at_ns) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [kind, time.nanosecondsSinceEpoch, text, position?.latitude, position?.longitude, now.nanosecondsSinceEpoch])
            return db.lastInsertedRowID
        }
    }

    /// The text of a journal entry of `kind`, or a refusal naming what exists.
    public func journalText(kind: String, id: Int64) throws(StoreError) -> String {
        try read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT text FROM journal WHERE id = ? AND kind = ?", arguments: [id, kind]) else {
                throw StoreError.refused("no \(kind) with id \(id): `marktime day DATE` lists the day's entries with their ids")
            }
            return text
        }
    }

    /// Deletes a moment, check-in or photo; for a photo, its file's name (the caller deletes the file).
    @discardableResult
    public func removeJournal(kind: String, id: Int64) throws(StoreError) -> StoredPhoto? {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM journal WHERE id = ? AND kind = ?", arguments: [id, kind]) else {
                throw StoreError.refused("no \(kind) with id \(id): `marktime day DATE` lists the day's entries with their ids")
            }
            try db.execute(sql: "DELETE FROM journal WHERE id = ?", arguments: [id])
            guard let sha: String = row["sha256"] else { return nil }
            return StoredPhoto(sha256: sha, fileExtension: row["ext"], width: row["width"], height: row["height"])
        }
    }

    /// Everything the store knows between two instants, as day entries: the journal,
    /// sights, places entered and left, tasks done and reminders fired.
    public func dayEntries(from: UTCTime, to: UTCTime) throws(StoreError) -> [DayEntry] {
        let media = mediaFolder
        let range: StatementArguments = [from.nanosecondsSinceEpoch, to.nanosecondsSinceEpoch]
        var entries: [DayEntry] = try read { db in
            var out: [DayEntry] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM journal WHERE time_ns >= ? AND time_ns < ?", arguments: range) {
                let kind = DayEntry.Kind(rawValue: row["kind"]) ?? .moment
                let position: Position? = (row["lat"] as Double?).flatMap { lat in (row["lon"] as Double?).flatMap { try? Position(latitude: lat, longitude: $0) } }
                let file = (row["sha256"] as String?).map { "\(media)/\($0).\(row["ext"] as String? ?? "")" }
                out.append(DayEntry(kind: kind, time: UTCTime(nanosecondsSinceEpoch: row["time_ns"]), id: row["id"], text: row["text"],
                                    position: position, file: file, width: row["width"], height: row["height"]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM place_event WHERE time_ns >= ? AND time_ns < ?", arguments: range) {
                out.append(DayEntry(kind: .place, time: UTCTime(nanosecondsSinceEpoch: row["time_ns"]), id: row["id"], text: row["place"],
                                    position: try? Position(latitude: row["lat"], longitude: row["lon"]),
                                    detail: "\(row["event"] as String) \(row["member"] as String)"))
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, title, done_at_ns FROM task WHERE done_at_ns >= ? AND done_at_ns < ?", arguments: range) {
                out.append(DayEntry(kind: .task, time: UTCTime(nanosecondsSinceEpoch: row["done_at_ns"]), id: row["id"], text: row["title"]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, title, reminded_at_ns, reminded_late FROM task WHERE reminded_at_ns >= ? AND reminded_at_ns < ?",
                                        arguments: range) {
                out.append(DayEntry(kind: .reminder, time: UTCTime(nanosecondsSinceEpoch: row["reminded_at_ns"]), id: row["id"], text: row["title"],
                                    detail: (row["reminded_late"] as Bool) ? "late" : nil))
            }
            return out
        }
        for s in try sights(SightQuery(since: from, until: to, oldestFirst: true)) {
            entries.append(DayEntry(kind: .sight, time: s.estimate.utc, id: s.id, text: s.body ?? "", position: s.position,
                                    hs: s.hs.map(SextantAngle.format)))
        }
        return entries
    }
}
