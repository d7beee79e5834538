import MarkTimeCore

/// Everyone's clocks from the user's point of view: the user's own, the selected people's,
/// and the ship's on zone time. Both the `people` command and the phone's Align screen use it.
public struct PeopleBoard: Sendable {
    /// One person on the board: their zone's rules and where the Sun is worked for them.
    public struct Entry: Sendable {
        public var name: String
        public var rules: any ZoneRules
        public var city: Position?

        public init(name: String, rules: any ZoneRules, city: Position?) {
            self.name = name
            self.rules = rules
            self.city = city
        }
    }

    /// The user's zone.
    public var zone: any ZoneRules
    /// Where the user's zone's city is.
    public var home: Position?
    /// The selected people.
    public var people: [Entry]
    /// The daemon's position, when it has a recent fix.
    public var ship: Position?

    public init(zone: any ZoneRules, home: Position?, people: [Entry], ship: Position?) {
        self.zone = zone
        self.home = home
        self.people = people
        self.ship = ship
    }

    public func you(at seconds: Int64) -> PersonTime {
        PersonTime(name: "You", zone: zone, at: seconds, userDate: zone.local(atSecondsSinceEpoch: seconds).0.date, position: home)
    }

    /// The selected people, then the ship, at `seconds`.
    public func rows(at seconds: Int64) -> [PersonTime] {
        let date = you(at: seconds).local.date
        var rows = people.map { PersonTime(name: $0.name, zone: $0.rules, at: seconds, userDate: date, position: $0.city) }
        if let ship { rows.append(PersonTime(shipAt: ship, at: seconds, userDate: date)) }
        return rows
    }

    /// `2026-11-27 09:30 AEST (UTC+10:00), Australia/Brisbane`.
    public static func header(_ you: PersonTime) -> String {
        "\(you.local) \(you.offset.abbreviation) (UTC\(you.offset.iso))\(you.offset.isDST ? " DST" : ""), \(you.zone)"
    }

    /// The instant at `minute` of the user's `date`. A minute the clocks skip reads on the
    /// offset before the change (02:30 in a gap is the instant the clocks showed 03:30);
    /// a minute that happens twice is the earlier.
    public func instant(on date: CivilDate, minute: Int) -> Int64 {
        let local = LocalDateTime(date: date, minuteOfDay: minute)
        switch zone.resolve(local) {
        case .unique(let t, _): return t
        case .repeated(let t, _, _, _): return t
        case .skipped(let before, _): return local.secondsAsUTC - Int64(before.seconds)
        }
    }

    /// The whole of the user's `date`, for a slider over its 1440 minutes.
    public func day(_ date: CivilDate) -> AlignDay {
        let instants = (0..<AlignDay.minutes).map { instant(on: date, minute: $0) }
        func row(_ name: String, zone: String, city: String, offset: (Int64) -> ZoneOffset, position: Position?) -> AlignDay.Row {
            var segments: [AlignDay.Segment] = []
            for (m, t) in instants.enumerated() {
                let o = offset(t)
                let shift = Int((LocalDateTime(secondsSinceEpoch: t, offset: o.seconds).secondsAsUTC
                    - LocalDateTime(date: date, minuteOfDay: m).secondsAsUTC) / 60)
                let s = AlignDay.Segment(from: m, shift: shift, abbreviation: o.abbreviation, offset: "UTC" + o.iso, dst: o.isDST)
                if let last = segments.last, last.shift == s.shift, last.abbreviation == s.abbreviation, last.dst == s.dst { continue }
                segments.append(s)
            }
            let sky = stride(from: 0, to: AlignDay.minutes, by: AlignDay.skyStep).map { m in
                position.flatMap { SkyLight(at: instants[m], position: $0) }.map(AlignDay.Sky.init)
            }
            return AlignDay.Row(name: name, zone: zone, city: city, segments: segments, sky: sky)
        }
        return AlignDay(
            date: date,
            you: row("You", zone: zone.identifier, city: ZoneCatalogue.city(zone.identifier), offset: zone.offset(atSecondsSinceEpoch:), position: home),
            rows: people.map { p in
                row(p.name, zone: p.rules.identifier, city: ZoneCatalogue.city(p.rules.identifier), offset: p.rules.offset(atSecondsSinceEpoch:), position: p.city)
            } + (ship.map { at in
                let z = NauticalZone(longitude: at.longitude)
                return [row("Ship", zone: z.text, city: "at sea", offset: { _ in z.offset }, position: at)]
            } ?? []))
    }
}

/// One day of the user's, minute by minute, for everyone on the board: what a slider
/// over the day needs to move every clock and every sky without asking the Pi again.
public struct AlignDay: Hashable, Sendable {
    public static let minutes = 1440
    /// Minutes between sky samples.
    public static let skyStep = 10

    /// From the user's minute `from` on, until the next segment, this person's clock reads
    /// the user's minute plus `shift` minutes (a negative shift, or one past midnight,
    /// crosses into the day before or after).
    public struct Segment: Hashable, Sendable {
        public var from: Int
        public var shift: Int
        public var abbreviation: String
        /// `UTC+10:00`.
        public var offset: String
        public var dst: Bool

        public init(from: Int, shift: Int, abbreviation: String, offset: String, dst: Bool) {
            self.from = from
            self.shift = shift
            self.abbreviation = abbreviation
            self.offset = offset
            self.dst = dst
        }
    }

    /// The sky at one sample: its shade's name and its colour, `#rrggbb`.
    public struct Sky: Hashable, Sendable {
        public var shade: String
        public var color: String

        init(_ light: SkyLight) {
            shade = light.shade.rawValue
            let (r, g, b) = light.color
            color = "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    public struct Row: Hashable, Sendable {
        public var name: String
        public var zone: String
        public var city: String
        public var segments: [Segment]
        /// One sample every `skyStep` minutes of the user's day; nil where the zone has no place.
        public var sky: [Sky?]

        /// The segment in force at the user's `minute`.
        public func segment(at minute: Int) -> Segment { segments.last { $0.from <= minute } ?? segments[0] }

        /// Their wall clock at the user's `minute`: `HH:MM`, and their day minus the user's.
        public func clock(at minute: Int) -> (time: String, dayOffset: Int) {
            let t = minute + segment(at: minute).shift
            let day = t >= 0 ? t / AlignDay.minutes : -((AlignDay.minutes - 1 - t) / AlignDay.minutes)
            return (LocalDateTime(date: CivilDate(daysSinceEpoch: 0), minuteOfDay: t - day * AlignDay.minutes).timeText, day)
        }

        /// The sky sample for the user's `minute`.
        public func sky(at minute: Int) -> Sky? { sky[min(max(minute, 0), AlignDay.minutes - 1) / AlignDay.skyStep] }
    }

    public var date: CivilDate
    public var you: Row
    public var rows: [Row]
}
