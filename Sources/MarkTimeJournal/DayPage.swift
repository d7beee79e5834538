import MarkTimeCore
import MarkTimeSky

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

/// The Sun's day at the day's position: the twilights, sunrise and sunset, and where
/// they were worked and why there.
public struct DaySun: Hashable, Sendable {
    /// Where the position came from.
    public enum Source: Hashable, Sendable {
        /// The day's last recorded position: a sight's GPS fix, a check-in, a place.
        case entry(DayEntry.Kind)
        /// The daemon's current GPS fix.
        case fix
        /// A place of kind `home`, by name.
        case home(String)

        public var text: String {
            switch self {
            case .entry(let kind): "the day's last \(kind.rawValue)"
            case .fix: "the GPS fix"
            case .home(let name): "home place \(name)"
            }
        }
    }

    public var position: Position
    public var source: Source
    public var events: SunEvents.Day

    /// The day's position: its last recorded one, else the current fix, else the home
    /// place; nil when there is none of them.
    public init?(entries: [DayEntry], fix: Position?, home: (name: String, position: Position)?, span: Range<Int64>) {
        if let last = entries.last(where: { $0.position != nil }) {
            position = last.position!
            source = .entry(last.kind)
        } else if let fix {
            position = fix
            source = .fix
        } else if let home {
            position = home.position
            source = .home(home.name)
        } else {
            return nil
        }
        events = SunEvents.day(from: UTCTime(wholeSeconds: span.lowerBound), at: position,
                               hours: Double(span.upperBound - span.lowerBound) / 3600)
    }

    /// The events in the day's order, each with its name; nil where the Sun does not cross.
    public var named: [(name: String, time: UTCTime?)] {
        [("astronomical dawn", events.astronomicalDawn), ("nautical dawn", events.nauticalDawn), ("civil dawn", events.civilDawn),
         ("sunrise", events.sunrise), ("sunset", events.sunset), ("civil dusk", events.civilDusk),
         ("nautical dusk", events.nauticalDusk), ("astronomical dusk", events.astronomicalDusk)]
    }
}

/// A day in the home zone: which instants it spans, and its entries as a Markdown page.
public struct DayPage: Sendable {
    public var date: CivilDate
    public var zone: any ZoneRules
    public var entries: [DayEntry]
    /// The Sun's events; nil when the page has no position to work them from.
    public var sun: DaySun?

    public init(date: CivilDate, zone: any ZoneRules, entries: [DayEntry], sun: DaySun? = nil) {
        self.date = date
        self.zone = zone
        self.entries = entries.sorted { ($0.time, $0.kind.rawValue, $0.id ?? 0) < ($1.time, $1.kind.rawValue, $1.id ?? 0) }
        self.sun = sun
    }

    /// The Sun's line: `Sun at … (home place Home): civil dawn 04:52, sunrise 05:17, …`; a
    /// hint when there is no position.
    public var sunLine: String {
        guard let sun else {
            return "Sun: no position for this day; add a home place (`marktime place add Home --kind home --position POS`)"
        }
        // Rounded to the nearest minute, as almanacs print them.
        let crossed = sun.named.compactMap { e in e.time.map { "\(e.name) \(clock($0.adding(nanoseconds: 30_000_000_000)))" } }
        if let outside = sun.events.outsideAlmanac {
            // Past the almanac's end the Sun is unknown, not down: never "does not rise" at the equator.
            let rest = crossed.isEmpty ? "no times for this day: \(outside.text)" : crossed.joined(separator: ", ") + "; no later times: \(outside.text)"
            return "Sun at \(sun.position.ddm) (\(sun.source.text)): \(rest)"
        }
        let times = crossed.isEmpty
            ? (SunEvents.altitude(at: UTCTime(wholeSeconds: Self.start(of: date, in: zone)), from: sun.position).map { $0 > 0 } == true
                ? "the Sun does not set" : "the Sun does not rise")
            : crossed.joined(separator: ", ")
        return "Sun at \(sun.position.ddm) (\(sun.source.text)): \(times)"
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
        var out = "# \(title)\n\nTimes are \(zone.identifier) (\(offset.abbreviation), UTC\(offset.iso)); sights in UTC.\n\n\(sunLine)\n\n"
        out += entries.isEmpty ? "Nothing recorded.\n" : entries.map(line).joined(separator: "\n") + "\n"
        return out
    }
}
