import Foundation
import MarkTimeCore
import MarkTimeJournal
import MarkTimeSystem

/// A photo as it went into the journal: its id, whether it is new (else the same image
/// was already in), what the file is, and the time it was filed under.
public struct PhotoAdded: Sendable {
    public var id: Int64
    public var added: Bool
    public var info: ImageInfo
    public var time: UTCTime
}

extension AppDatabase {
    /// A day's page: its entries, with the Sun's events at the day's position (else `fix`,
    /// else the place of kind home).
    public func dayPage(_ date: CivilDate, zone: any ZoneRules, fix: Position?) throws(StoreError) -> DayPage {
        let span = DayPage.span(of: date, in: zone)
        let entries = try dayEntries(from: UTCTime(wholeSeconds: span.lowerBound), to: UTCTime(wholeSeconds: span.upperBound))
        let home = try places().first { $0.kind == .home }.map { (name: $0.name, position: $0.center) }
        return DayPage(date: date, zone: zone, entries: entries, sun: DaySun(entries: entries, fix: fix, home: home, span: span))
    }

    /// How many entries each day of a month has, by day of the month, in `zone`.
    public func entryCounts(_ month: MonthGrid, zone: any ZoneRules) throws(StoreError) -> [Int: Int] {
        let from = DayPage.start(of: month.first, in: zone), to = DayPage.start(of: month.first.adding(days: month.days), in: zone)
        var counts: [Int: Int] = [:]
        for e in try dayEntries(from: UTCTime(wholeSeconds: from), to: UTCTime(wholeSeconds: to)) {
            counts[zone.local(at: e.time).0.date.day, default: 0] += 1
        }
        return counts
    }

    /// Adds the photo in `file`: its type and size are checked before it is read (a FIFO, a
    /// 2 GB video or a text file is refused from its first bytes, with memory kept small),
    /// then as `addPhoto(_:name:…)`.
    public func addPhoto(file: String, caption: String, given: UTCTime?, zone: any ZoneRules, now: UTCTime) throws -> PhotoAdded {
        let size: Int
        switch FileKind(file) {
        case .regular(let bytes): size = Int(bytes)
        case .missing: throw InputError("cannot read \(file): there is no such file; check the path")
        case .nameTooLong: throw InputError("cannot read \(file): its name is too long (\(FileKind.nameLimits)); check the path")
        case .loop: throw InputError("cannot read \(file): its symbolic links go round in a loop; check the path")
        case .unknown(let reason): throw InputError("cannot read \(file): \(reason); check the path and its permissions")
        case .folder, .fifo, .socket, .device: throw InputError("\(file) is not a regular file: give a JPEG or PNG photo's file")
        }
        guard size <= ImageInfo.maximumBytes else {
            throw InputError("\(file) is \(size / 1_048_576) MB: marktime keeps photos up to \(ImageInfo.maximumBytes / 1_048_576) MB; "
                + "make it smaller (e.g. `convert \(file) -resize 50% smaller.jpg`) and add that: nothing added")
        }
        guard let handle = FileHandle(forReadingAtPath: file) else { throw InputError("cannot read \(file): check its permissions") }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
        guard ImageInfo.startsAnImage(head) else {
            throw InputError("\(file) is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added")
        }
        let rest = [UInt8]((try? handle.read(upToCount: ImageInfo.maximumBytes)) ?? Data())
        return try addPhoto(head + rest, name: file, caption: caption, given: given, zone: zone, now: now)
    }

    /// Adds a photo from its bytes: refused unless its first bytes say JPEG or PNG; kept once
    /// in the media folder by its SHA-256 (the same image again is not added twice). Its time
    /// is `given`, else its EXIF capture time (exact with the camera's offset, else read in
    /// `zone`), else `now`. `name` says where it came from, for errors.
    public func addPhoto(_ bytes: [UInt8], name: String, caption: String, given: UTCTime?, zone: any ZoneRules, now: UTCTime) throws -> PhotoAdded {
        guard let info = ImageInfo(bytes) else {
            throw InputError("\(name) is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added")
        }
        let time = try given ?? info.filingTime(zone: zone, now: now)
        guard let sha = SHA256.hex(bytes) else { throw StoreError.refused(SHA256.failure) }
        let photo = StoredPhoto(sha256: sha, fileExtension: info.fileExtension, width: info.width, height: info.height)
        do { try SideFile.keep(bytes, as: photo.fileName, in: mediaFolder) } catch {
            throw InputError("cannot store the photo in \(mediaFolder): \(String(cString: strerror(error.errno.rawValue)))")
        }
        let (id, added) = try addPhoto(photo, caption: caption, at: time, now: now)
        return PhotoAdded(id: id, added: added, info: info, time: time)
    }

    /// Deletes a photo's entry and its file.
    public func removePhoto(_ id: Int64) throws(StoreError) {
        if let photo = try removeJournal(kind: "photo", id: id) {
            try? FileManager.default.removeItem(atPath: mediaFolder + "/" + photo.fileName)
        }
    }
}
