import Foundation
import GRDB
import MarkTimeCore
import MarkTimeJournal
import MarkTimePlaces

extension AppDatabase {
    typealias J = JournalRecord.CodingKeys

    /// The folder the store is in.
    public var folder: String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    /// The folder beside the store where photos are kept.
    public var mediaFolder: String { folder + "/media" }

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
            if let id = try JournalRecord.filter(J.sha256 == photo.sha256).fetchOne(db)?.id { return (id, false) }
            var record = JournalRecord(kind: "photo", timeNs: time.nanosecondsSinceEpoch, text: caption.trimmingWhitespace(), createdAtNs: now.nanosecondsSinceEpoch,
                                       sha256: photo.sha256, ext: photo.fileExtension, width: photo.width, height: photo.height)
            try record.insert(db)
            return (record.id ?? db.lastInsertedRowID, true)
        }
    }

    func insertJournal(kind: String, time: UTCTime, text: String, position: Position?, now: UTCTime) throws(StoreError) -> Int64 {
        try write { db in
            var record = JournalRecord(kind: kind, timeNs: time.nanosecondsSinceEpoch, text: text, createdAtNs: now.nanosecondsSinceEpoch,
                                       lat: position?.latitude, lon: position?.longitude)
            try record.insert(db)
            return record.id ?? db.lastInsertedRowID
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
