import Foundation
import GRDB
import MarkTimeCore
import MarkTimeJournal
import MarkTimePlaces
import MarkTimeSystem

extension AppDatabase: JournalRepository {
    typealias J = JournalRecord.CodingKeys

    /// The folder the store is in.
    public var folder: String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    /// The folder beside the store where photos are kept.
    public var mediaFolder: String { folder + "/media" }

    /// Keeps a moment or check-in; its id. `Journal` checks it first.
    public func insertJournal(_ note: JournalNote, time: UTCTime, text: String, position: Position?, now: UTCTime) throws(StoreError) -> Int64 {
        try write { db in
            var record = JournalRecord(kind: note.rawValue, timeNs: time.nanosecondsSinceEpoch, text: text, createdAtNs: now.nanosecondsSinceEpoch,
                                       lat: position?.latitude, lon: position?.longitude)
            try record.insert(db)
            return record.id ?? db.lastInsertedRowID
        }
    }

    /// Keeps a photo: its bytes in the media folder under their SHA-256 (written before the
    /// entry, so an entry never names a missing file), then its entry; the same image
    /// again keeps nothing and returns the first one's id with `false`.
    public func keepPhoto(_ bytes: [UInt8], info: ImageInfo, caption: String, at time: UTCTime, now: UTCTime) throws(StoreError) -> (id: Int64, added: Bool) {
        guard let sha = SHA256.hex(bytes) else { throw .refused(SHA256.failure) }
        let photo = StoredPhoto(sha256: sha, fileExtension: info.fileExtension, width: info.width, height: info.height)
        do { try SideFile.keep(bytes, as: photo.fileName, in: mediaFolder) } catch {
            throw .refused("cannot store the photo in \(mediaFolder): \(String(cString: strerror(error.errno.rawValue)))")
        }
        return try write { db in
            if let id = try JournalRecord.filter(J.sha256 == photo.sha256).fetchOne(db)?.id { return (id, false) }
            var record = JournalRecord(kind: "photo", timeNs: time.nanosecondsSinceEpoch, text: caption, createdAtNs: now.nanosecondsSinceEpoch,
                                       sha256: photo.sha256, ext: photo.fileExtension, width: photo.width, height: photo.height)
            try record.insert(db)
            return (record.id ?? db.lastInsertedRowID, true)
        }
    }

    /// Deletes a photo's entry and its file.
    public func removePhoto(_ id: Int64) throws(StoreError) {
        if let photo = try removeJournal(kind: "photo", id: id) {
            try? FileManager.default.removeItem(atPath: mediaFolder + "/" + photo.fileName)
        }
    }

    /// The text of a journal entry of `kind`, or a refusal naming what exists.
    public func journalText(kind: String, id: Int64) throws(StoreError) -> String {
        try read { db in
            guard let text = try JournalRecord.filter(J.id == id && J.kind == kind).fetchOne(db)?.text else {
                throw StoreError.refused("no \(kind) with id \(id): `marktime day DATE` lists the day's entries with their ids")
            }
            return text
        }
    }

    /// Deletes a moment, check-in or photo; for a photo, its file's name (the caller deletes the file).
    @discardableResult
    public func removeJournal(kind: String, id: Int64) throws(StoreError) -> StoredPhoto? {
        try write { db in
            guard let record = try JournalRecord.filter(J.id == id && J.kind == kind).fetchOne(db) else {
                throw StoreError.refused("no \(kind) with id \(id): `marktime day DATE` lists the day's entries with their ids")
            }
            try record.delete(db)
            return record.photo
        }
    }

    /// Everything the store knows between two instants, as day entries: the journal,
    /// sights, places entered and left, tasks done and reminders fired.
    public func dayEntries(from: UTCTime, to: UTCTime) throws(StoreError) -> [DayEntry] {
        let media = mediaFolder
        var entries: [DayEntry] = try read { db in
            let (from, to) = (from.nanosecondsSinceEpoch, to.nanosecondsSinceEpoch)
            var out = try JournalRecord.filter(J.timeNs >= from && J.timeNs < to).fetchAll(db).map { $0.entry(media: media) }
            for e in try PlaceEventRecord.filter(PlaceEventRecord.CodingKeys.timeNs >= from && PlaceEventRecord.CodingKeys.timeNs < to).fetchAll(db) {
                out.append(DayEntry(kind: .place, time: UTCTime(nanosecondsSinceEpoch: e.timeNs), id: e.id, text: e.place,
                                    position: try? Position(latitude: e.lat, longitude: e.lon), detail: "\(e.event) \(e.member)"))
            }
            typealias T = TaskRecord.CodingKeys
            for t in try TaskRecord.filter(T.doneAtNs >= from && T.doneAtNs < to).fetchAll(db) {
                out.append(DayEntry(kind: .task, time: UTCTime(nanosecondsSinceEpoch: t.doneAtNs ?? 0), id: t.id, text: t.title))
            }
            for t in try TaskRecord.filter(T.remindedAtNs >= from && T.remindedAtNs < to).fetchAll(db) {
                out.append(DayEntry(kind: .reminder, time: UTCTime(nanosecondsSinceEpoch: t.remindedAtNs ?? 0), id: t.id, text: t.title,
                                    detail: t.remindedLate ? "late" : nil))
            }
            return out
        }
        for s in try sights(SightQuery(since: from, until: to, oldestFirst: true)) {
            entries.append(DayEntry(kind: .sight, time: s.estimate.utc, id: s.id, text: s.body ?? "", position: s.trustedPosition,
                                    hs: s.hs.map(SextantAngle.format)))
        }
        return entries
    }
}
