import MarkTimeCore
import MarkTimePlaces

/// What the journal needs of a store: entries kept and found, photos kept by their
/// content. It keeps; `Journal` checks and composes. MarkTimeStore's `AppDatabase` is the
/// one on SQLite (photos in the media folder beside it).
public protocol JournalRepository: Sendable {
    /// Keeps a moment or check-in with its text and position; its id.
    func insertJournal(_ note: JournalNote, time: UTCTime, text: String, position: Position?, now: UTCTime) throws -> Int64
    /// Keeps a photo's bytes under their SHA-256 and its entry; its id, and false when the
    /// same image was already kept (then nothing is added).
    func keepPhoto(_ bytes: [UInt8], info: ImageInfo, caption: String, at time: UTCTime, now: UTCTime) throws -> (id: Int64, added: Bool)
    /// Everything kept between two instants as day entries, in no set order.
    func dayEntries(from: UTCTime, to: UTCTime) throws -> [DayEntry]
    /// The places, for naming a check-in and the home's Sun.
    func places() throws -> [Place]
}

/// The journal's entries that are words: a moment, or a check-in's name (a photo is kept
/// by `keepPhoto`; sights, places and tasks come from their own tables).
public enum JournalNote: String, Sendable {
    case moment, checkin
}

/// A photo as it went into the journal: its id, whether it is new (else the same image
/// was already in), what the file is, and the time it was filed under.
public struct PhotoAdded: Sendable {
    public var id: Int64
    public var added: Bool
    public var info: ImageInfo
    public var time: UTCTime
}

/// The day journal over a `JournalRepository`: moments, check-ins and photos checked
/// before they are kept, and a day's or a month's page gathered from everything kept.
public struct Journal<Repository: JournalRepository>: Sendable {
    public let repository: Repository

    public init(_ repository: Repository) { self.repository = repository }

    /// Keeps a moment's words, trimmed; refused when there are none.
    public func addMoment(_ text: String, at time: UTCTime, now: UTCTime) throws -> Int64 {
        let text = text.trimmingWhitespace()
        guard !text.isEmpty else { throw InputError("a moment needs some words") }
        return try repository.insertJournal(.moment, time: time, text: text, position: nil, now: now)
    }

    /// A check-in at `position`: named `name`, else after the place whose radius holds it,
    /// else "Check-in". Returns its id and name, and the places by distance.
    public func checkIn(at position: Position, name: String?, time: UTCTime, now: UTCTime) throws
        -> (id: Int64, name: String, inside: Place?, nearest: [(place: Place, metres: Double)]) {
        let (inside, nearest) = Place.ranked(try repository.places(), from: position)
        let label = try Text.name(name ?? inside?.name ?? "Check-in", what: "a check-in", example: "--name \"Fuel dock\"")
        return (try repository.insertJournal(.checkin, time: time, text: label, position: position, now: now), label, inside, nearest)
    }

    /// Adds a photo from its bytes: refused unless they are a JPEG or PNG image; the same
    /// image again is not kept twice. Its time is `given`, else its EXIF capture time (exact
    /// with the camera's offset, else read in `zone`), else `now`. `name` says where it came
    /// from, for errors.
    public func addPhoto(_ bytes: [UInt8], name: String, caption: String, given: UTCTime?, zone: any ZoneRules, now: UTCTime) throws -> PhotoAdded {
        guard let info = ImageInfo(bytes) else {
            throw ImageInfo.notAnImage(name)
        }
        let time = try given ?? info.filingTime(zone: zone, now: now)
        let (id, added) = try repository.keepPhoto(bytes, info: info, caption: caption.trimmingWhitespace(), at: time, now: now)
        return PhotoAdded(id: id, added: added, info: info, time: time)
    }

    /// A day's page: its entries, with the Sun's events at the day's position (else `fix`,
    /// else the place of kind home).
    public func dayPage(_ date: CivilDate, zone: any ZoneRules, fix: Position?) throws -> DayPage {
        let span = DayPage.span(of: date, in: zone)
        let entries = try repository.dayEntries(from: UTCTime(wholeSeconds: span.lowerBound), to: UTCTime(wholeSeconds: span.upperBound))
        let home = try repository.places().first { $0.kind == .home }.map { (name: $0.name, position: $0.center) }
        return DayPage(date: date, zone: zone, entries: entries, sun: DaySun(entries: entries, fix: fix, home: home, span: span))
    }

    /// How many entries each day of a month has, by day of the month, in `zone`.
    public func entryCounts(_ month: MonthGrid, zone: any ZoneRules) throws -> [Int: Int] {
        let from = DayPage.start(of: month.first, in: zone), to = DayPage.start(of: month.first.adding(days: month.days), in: zone)
        var counts: [Int: Int] = [:]
        for e in try repository.dayEntries(from: UTCTime(wholeSeconds: from), to: UTCTime(wholeSeconds: to)) {
            counts[zone.local(at: e.time).0.date.day, default: 0] += 1
        }
        return counts
    }
}
