import MarkTimeCore

/// One entry of a day's page, from whichever part of marktime made it.
public struct DayEntry: Hashable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case moment, checkin, photo, sight, place, task, reminder
    }

    public var kind: Kind
    public var time: UTCTime
    /// The row's id in its own table.
    public var id: Int64?
    /// The moment's text, the check-in's name, the photo's caption, the sight's body,
    /// the place's name, the task's title.
    public var text: String
    public var position: Position?
    /// `enter`/`leave` for a place (with whose it was), `late` for a reminder.
    public var detail: String?
    /// A photo's file, and its size in pixels.
    public var file: String?
    public var width: Int?
    public var height: Int?
    /// A sight's altitude, as stored (`45° 12'.3`).
    public var hs: String?

    public init(kind: Kind, time: UTCTime, id: Int64? = nil, text: String, position: Position? = nil, detail: String? = nil,
                file: String? = nil, width: Int? = nil, height: Int? = nil, hs: String? = nil) {
        self.kind = kind
        self.time = time
        self.id = id
        self.text = text
        self.position = position
        self.detail = detail
        self.file = file
        self.width = width
        self.height = height
        self.hs = hs
    }
}

/// A day in the home zone: which instants it spans, and its entries as a Markdown page.
public struct DayPage: Sendable {
    public var date: CivilDate
    public var zone: any ZoneRules
    public var entries: [DayEntry]

    public init(date: CivilDate, zone: any ZoneRules, entries: [DayEntry]) {
        self.date = date
        self.zone = zone
        self.entries = entries.sorted { ($0.time, $0.kind.rawValue, $0.id ?? 0) < ($1.time, $1.kind.rawValue, $1.id ?? 0) }
    }

    /// The first instant of a day in `zone` (seconds): local midnight, or the first
    /// minute after it when the clocks skip midnight.
    public static func start(of date: CivilDate, in zone: any ZoneRules) -> Int64 {
        switch zone.resolve(LocalDateTime(date: date, minuteOfDay: 0)) {
        case .unique(let t, _): return t
        case .repeated(let t, _, _, _): return t
        case .skipped(_, let after): return LocalDateTime(date: date, minuteOfDay: 0).secondsAsUTC - Int64(after.seconds)
        }
    }

    /// The day's instants: [start, next day's start), in seconds.
    public static func span(of date: CivilDate, in zone: any ZoneRules) -> Range<Int64> {
        start(of: date, in: zone)..<start(of: date.adding(days: 1), in: zone)
    }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `Saturday 21 November 2026`.
    public var title: String { "\(Self.weekdays[date.weekday]) \(date.day) \(MonthGrid.monthNames[date.month - 1]) \(date.year)" }

    /// `HH:MM` of an instant in the home zone.
    public func clock(_ t: UTCTime) -> String { zone.local(at: t).0.timeText }

    /// One line of the page for an entry: its time in bold, then its body.
    public func line(_ e: DayEntry) -> String { "- **\(clock(e.time))** \(body(e))" }

    /// What an entry says, without its time.
    public func body(_ e: DayEntry) -> String {
        let at = e.position.map { " at \($0.ddm)" } ?? ""
        return switch e.kind {
        case .moment: e.text
        case .checkin: "Checked in at \(e.text)" + (e.position.map { " (\($0.ddm))" } ?? "")
        case .photo: "Photo\(e.text.isEmpty ? "" : ": \(e.text)")" + (e.width.map { w in " (\(w)×\(e.height ?? 0))" } ?? "")
            + " ![\(e.text.isEmpty ? "photo" : e.text)](\(e.file ?? ""))"
        case .sight: "Sight \(e.id.map { "#\($0)" } ?? "") at \(e.time.sightTimeOfDay) UTC"
            + (e.text.isEmpty ? "" : ", \(e.text)") + (e.hs.map { ", Hs \($0)" } ?? "") + at
        case .place: "\(e.detail?.hasPrefix("leave") == true ? "Left" : "Arrived at") \(e.text)" + at
        case .task: "Done: \(e.text)"
        case .reminder: "Reminder: \(e.text)\(e.detail == "late" ? " (late)" : "")"
        }
    }

    /// The page in Markdown: a title, the zone, and one line per entry in time order.
    public var markdown: String {
        let offset = zone.offset(atSecondsSinceEpoch: Self.start(of: date, in: zone))
        var out = "# \(title)\n\nTimes are \(zone.identifier) (\(offset.abbreviation), UTC\(offset.iso)); sights in UTC.\n\n"
        out += entries.isEmpty ? "Nothing recorded.\n" : entries.map(line).joined(separator: "\n") + "\n"
        return out
    }
}
