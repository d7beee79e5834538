/// A zone's offset from UTC at one instant, as the tz database gives it.
public struct ZoneOffset: Hashable, Sendable {
    /// Seconds east of UTC.
    public var seconds: Int
    /// The tz database's abbreviation: `EST`, `IST`, `+0545`.
    public var abbreviation: String
    public var isDST: Bool

    public init(seconds: Int, abbreviation: String, isDST: Bool) {
        self.seconds = seconds
        self.abbreviation = abbreviation
        self.isDST = isDST
    }

    /// `+05:30`, `-05:00`, `+00:00`.
    public var iso: String {
        let m = abs(seconds) / 60
        return "\(seconds < 0 ? "-" : "+")\(pad(m / 60)):\(pad(m % 60))"
    }
}

/// One time zone's rules: the offset in force at any instant. The machine's tz
/// database implements it; tests use fixed rules.
public protocol ZoneRules: Sendable {
    /// The zone's identifier, `America/New_York`.
    var identifier: String { get }
    func offset(atSecondsSinceEpoch seconds: Int64) -> ZoneOffset
}

/// A wall-clock minute: a date and a time of day, in no zone in particular.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: CivilDate
    /// Minutes since midnight, 0..<1440.
    public var minuteOfDay: Int

    public init(date: CivilDate, minuteOfDay: Int) {
        self.date = date
        self.minuteOfDay = minuteOfDay
    }

    /// The wall clock at `seconds` since the epoch, `offset` seconds east of UTC.
    public init(secondsSinceEpoch seconds: Int64, offset: Int) {
        let local = seconds + Int64(offset)
        let (days, rest) = UTCTime.floorDivMod(local, 86_400)
        date = CivilDate(daysSinceEpoch: Int(days))
        minuteOfDay = Int(rest / 60)
    }

    /// Seconds since the epoch of this wall clock read as if it were UTC.
    public var secondsAsUTC: Int64 { Int64(date.daysSinceEpoch) * 86_400 + Int64(minuteOfDay) * 60 }

    public var hour: Int { minuteOfDay / 60 }
    public var minute: Int { minuteOfDay % 60 }
    /// `HH:MM`.
    public var timeText: String { "\(pad(hour)):\(pad(minute))" }
    /// `YYYY-MM-DD HH:MM`.
    public var description: String { "\(date) \(timeText)" }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.secondsAsUTC < b.secondsAsUTC }

    /// `HH:MM` (or `H:MM`) as minutes since midnight; `nil` when it is not a time of day.
    public static func minuteOfDay(_ text: String) -> Int? {
        let p = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, (1...2).contains(p[0].count), p[1].count == 2,
              p.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let h = Int(p[0]), let m = Int(p[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
        return h * 60 + m
    }
}

/// What a wall-clock minute is in a zone: one instant, two (the clocks went back),
/// or none (the clocks went forward over it).
public enum LocalTimeResolution: Hashable, Sendable {
    case unique(seconds: Int64, offset: ZoneOffset)
    case repeated(earlier: Int64, earlierOffset: ZoneOffset, later: Int64, laterOffset: ZoneOffset)
    case skipped(before: ZoneOffset, after: ZoneOffset)
}

extension ZoneRules {
    /// The wall clock here at an instant.
    public func local(atSecondsSinceEpoch seconds: Int64) -> (LocalDateTime, ZoneOffset) {
        let o = offset(atSecondsSinceEpoch: seconds)
        return (LocalDateTime(secondsSinceEpoch: seconds, offset: o.seconds), o)
    }

    /// The wall clock here at an instant.
    public func local(at t: UTCTime) -> (LocalDateTime, ZoneOffset) { local(atSecondsSinceEpoch: t.wholeSeconds) }

    /// The instant of `date` at `time` (HH:MM) here, each defaulting to now's; a time the
    /// clocks skip is refused, and one they repeat is the earlier, with a note. `timeName`
    /// names the time's field in errors (`--time`).
    public func instant(date: CivilDate?, time: String?, now: UTCTime, timeName: String = "the time") throws(InputError)
        -> (time: UTCTime, note: String?) {
        guard date != nil || time != nil else { return (now, nil) }
        var local = self.local(at: now).0
        if let date { local.date = date }
        if let time {
            guard let m = LocalDateTime.minuteOfDay(time) else { throw InputError("\(timeName) '\(time)' is not a time of day: use HH:MM, 24-hour") }
            local.minuteOfDay = m
        }
        let (seconds, note) = try instant(of: local)
        return (try UTCTime(validWholeSeconds: seconds), note)
    }

    /// The wall clock here at an instant, with the zone's abbreviation: `2026-11-27 17:00 AEST`.
    public func localText(_ t: UTCTime) -> String {
        let (local, offset) = local(at: t)
        return "\(local) \(offset.abbreviation)"
    }

    /// The instants at which this zone's clocks read `local`. Offsets change at most
    /// once a day, so the candidates are the offsets a day either side.
    public func resolve(_ local: LocalDateTime) -> LocalTimeResolution {
        let asUTC = local.secondsAsUTC
        let before = offset(atSecondsSinceEpoch: asUTC - 86_400), after = offset(atSecondsSinceEpoch: asUTC + 86_400)
        var found: [(Int64, ZoneOffset)] = []
        for candidate in [before, after] where !found.contains(where: { $0.1.seconds == candidate.seconds }) {
            let t = asUTC - Int64(candidate.seconds)
            let actual = offset(atSecondsSinceEpoch: t)
            if actual.seconds == candidate.seconds { found.append((t, actual)) }
        }
        found.sort { $0.0 < $1.0 }
        switch found.count {
        case 0: return .skipped(before: before, after: after)
        case 1: return .unique(seconds: found[0].0, offset: found[0].1)
        default: return .repeated(earlier: found[0].0, earlierOffset: found[0].1, later: found[1].0, laterOffset: found[1].1)
        }
    }

    /// The instant of `local` here: the earlier one when the minute happens twice,
    /// with a note saying so; an error giving the reason when it never happens.
    public func instant(of local: LocalDateTime) throws(InputError) -> (seconds: Int64, note: String?) {
        switch resolve(local) {
        case .unique(let t, _): return (t, nil)
        case .repeated(let t, let o, _, let later):
            return (t, "\(local.timeText) happens twice on \(local.date) in \(identifier) (clocks go back); "
                + "taking the first, \(o.abbreviation) UTC\(o.iso), not the second, \(later.abbreviation) UTC\(later.iso)")
        case .skipped(let before, let after):
            throw InputError("\(local.timeText) does not exist on \(local.date) in \(identifier): the clocks go forward "
                + "\((after.seconds - before.seconds) / 60) minutes there, from \(before.abbreviation) to \(after.abbreviation); "
                + "choose a time outside the gap")
        }
    }
}

/// Rules with one fixed offset: UTC, and zones in tests.
public struct FixedZone: ZoneRules {
    public var identifier: String
    public var fixed: ZoneOffset

    public init(_ identifier: String = "UTC", offset: ZoneOffset = ZoneOffset(seconds: 0, abbreviation: "UTC", isDST: false)) {
        self.identifier = identifier
        self.fixed = offset
    }

    public func offset(atSecondsSinceEpoch seconds: Int64) -> ZoneOffset { fixed }
}
