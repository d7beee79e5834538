/// An instant on the UTC time line, in nanoseconds since 1970-01-01T00:00:00Z.
///
/// Calendar maths is exact integer arithmetic (proleptic Gregorian, no leap
/// seconds, as POSIX time), so formatting never drifts through floating point.
public struct UTCTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanosecondsSinceEpoch: Int64

    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// Seconds as a double, rounded to the nanosecond; `nil` when not finite or outside `range`.
    public init?(secondsSinceEpoch: Double) {
        let nanos = (secondsSinceEpoch * 1e9).rounded()
        guard nanos.isFinite, nanos >= Double(Self.range.lowerBound.nanosecondsSinceEpoch),
              nanos <= Double(Self.range.upperBound.nanosecondsSinceEpoch) else { return nil }
        self.nanosecondsSinceEpoch = Int64(nanos)
    }

    /// Builds an instant from civil UTC fields; `nil` when a field is out of range
    /// or the instant is outside `range`.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0) {
        guard (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              (0..<1_000_000_000).contains(nanosecond), Self.years.contains(year)
        else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        self.init(checkedWholeSeconds: Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second), nanosecond: nanosecond)
    }

    public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) / 1e9 }

    /// A whole second since the epoch, clamped into `range`. For instants the machine
    /// made; a user's instant goes through `init(validWholeSeconds:)`.
    public init(wholeSeconds: Int64) {
        let clamped = min(max(wholeSeconds, Self.range.lowerBound.wholeSeconds), Self.range.upperBound.wholeSeconds)
        nanosecondsSinceEpoch = clamped * 1_000_000_000
    }

    /// A whole second since the epoch, refused with `rangeMessage` outside `range`.
    public init(validWholeSeconds seconds: Int64) throws(InputError) {
        guard let t = UTCTime(checkedWholeSeconds: seconds, nanosecond: 0) else { throw InputError(Self.rangeMessage) }
        self = t
    }

    private init?(checkedWholeSeconds seconds: Int64, nanosecond: Int) {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, scaled >= Self.range.lowerBound.nanosecondsSinceEpoch - Int64(nanosecond),
              scaled <= Self.range.upperBound.nanosecondsSinceEpoch - Int64(nanosecond) else { return nil }
        self.nanosecondsSinceEpoch = scaled + Int64(nanosecond)
    }

    /// The years marktime stores: nanoseconds since 1970 in 64 bits reach 1677-09-21 to
    /// 2262-04-11, and every whole year inside that is kept.
    public static let years = 1678...2261

    /// 1678-01-01T00:00:00Z to 2261-12-31T23:59:59.999999999Z.
    public static let range = UTCTime(nanosecondsSinceEpoch: -9_214_560_000_000_000_000)
        ... UTCTime(nanosecondsSinceEpoch: 9_214_646_399_999_999_999)

    /// The sentence for an instant outside `range`.
    public static let rangeMessage = "marktime keeps times from the year \(years.lowerBound) to \(years.upperBound) (UTC)"

    /// The whole seconds since the epoch, rounded down.
    public var wholeSeconds: Int64 { Self.floorDivMod(nanosecondsSinceEpoch, 1_000_000_000).0 }

    public static func < (a: UTCTime, b: UTCTime) -> Bool { a.nanosecondsSinceEpoch < b.nanosecondsSinceEpoch }

    /// The instant `nanoseconds` later, saturating at the ends of Int64 rather than trapping.
    public func adding(nanoseconds: Int64) -> UTCTime {
        let (sum, overflow) = nanosecondsSinceEpoch.addingReportingOverflow(nanoseconds)
        return UTCTime(nanosecondsSinceEpoch: overflow ? (nanoseconds > 0 ? .max : .min) : sum)
    }

    /// Civil fields after rounding to the nearest millisecond, so that
    /// 23:59:59.9996 shows as the next day's 00:00:00.000.
    public var millisecondFields: Fields {
        let ms = Self.roundedDivide(nanosecondsSinceEpoch, 1_000_000)
        let (days, msOfDay) = Self.floorDivMod(ms, 86_400_000)
        let date = CivilDate(daysSinceEpoch: Int(days))
        let m = Int(msOfDay)
        return Fields(year: date.year, month: date.month, day: date.day,
                      hour: m / 3_600_000, minute: m / 60_000 % 60, second: m / 1000 % 60, millisecond: m % 1000)
    }

    /// Civil UTC fields, to the millisecond.
    public struct Fields: Hashable, Sendable {
        public var year, month, day, hour, minute, second, millisecond: Int
    }

    /// Mark Time's sight format: `21d 13h 01m 46.654s`.
    public var sightFormat: String {
        let f = millisecondFields
        return "\(pad(f.day))d \(pad(f.hour))h \(pad(f.minute))m \(pad(f.second)).\(pad(f.millisecond, 3))s"
    }

    /// The time of day alone: `13h 01m 46.654s`.
    public var sightTimeOfDay: String {
        let f = millisecondFields
        return "\(pad(f.hour))h \(pad(f.minute))m \(pad(f.second)).\(pad(f.millisecond, 3))s"
    }

    /// ISO-8601 with milliseconds and `Z`: `2026-11-21T13:01:46.654Z`.
    public var iso8601: String {
        let f = millisecondFields
        return "\(isoDate)T\(pad(f.hour)):\(pad(f.minute)):\(pad(f.second)).\(pad(f.millisecond, 3))Z"
    }

    /// `2026-11-21`.
    public var isoDate: String {
        let f = millisecondFields
        return "\(pad(f.year, 4))-\(pad(f.month))-\(pad(f.day))"
    }

    /// `13:01:46.654`.
    /// `14:05`, for a sentence or a label.
    public var isoTimeOfDayMinutes: String { String(isoTimeOfDay.prefix(5)) }

    public var isoTimeOfDay: String {
        let f = millisecondFields
        return "\(pad(f.hour)):\(pad(f.minute)):\(pad(f.second)).\(pad(f.millisecond, 3))"
    }

    public var description: String { iso8601 }

    static func roundedDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let (q, r) = floorDivMod(value, divisor)
        return r * 2 >= divisor ? q + 1 : q
    }

    static func floorDivMod(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        var q = value / divisor
        var r = value % divisor
        if r < 0 { q -= 1; r += divisor }
        return (q, r)
    }
}

func pad(_ value: Int, _ width: Int = 2) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// A proleptic Gregorian date, converted to and from days since 1970-01-01.
/// The algorithm is Howard Hinnant's `days_from_civil`.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year; self.month = month; self.day = day
    }

    public init(daysSinceEpoch z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DD`, or `nil` when it is not a real date (2026-02-30).
    public init?(iso text: String) {
        let d = text.trimmingWhitespace().split(separator: "-", omittingEmptySubsequences: false)
        guard d.count == 3, d[0].count == 4, d[1].count == 2, d[2].count == 2, d.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let y = Int(d[0]), y >= 1, let m = Int(d[1]), let day = Int(d[2]),
              (1...12).contains(m), (1...Self.daysIn(month: m, year: y)).contains(day) else { return nil }
        self.init(year: y, month: m, day: day)
    }

    /// 0 is Sunday … 6 Saturday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 4) % 7 }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// `YYYY-MM-DD`.
    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension UTCTime {
    /// Parses `YYYY-MM-DD` (midnight UTC) or ISO-8601 date-time in UTC:
    /// `YYYY-MM-DDTHH:MM[:SS[.fff]][Z]` (a space may stand for `T`).
    /// Returns the instant and whether only a date was given; `nil` when unreadable or
    /// outside `range` (`read` tells the two apart).
    ///
    /// `23:59:60` is read only at the end of a day that had a leap second, as the kernel's
    /// clock shows it: second 59 again.
    public static func parse(_ text: String) -> (time: UTCTime, dateOnly: Bool)? {
        guard let f = fields(text), f.second < 60 || f.isLeapSecond else { return nil }
        return UTCTime(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: min(f.second, 59),
                       nanosecond: f.nanosecond).map { ($0, f.dateOnly) }
    }

    /// The days that ended with a leap second (IERS Bulletin C), 1972 to 2016; none since.
    public static let leapSecondDays: [CivilDate] = [
        (1972, 6, 30), (1972, 12, 31), (1973, 12, 31), (1974, 12, 31), (1975, 12, 31), (1976, 12, 31), (1977, 12, 31),
        (1978, 12, 31), (1979, 12, 31), (1981, 6, 30), (1982, 6, 30), (1983, 6, 30), (1985, 6, 30), (1987, 12, 31),
        (1989, 12, 31), (1990, 12, 31), (1992, 6, 30), (1993, 6, 30), (1994, 6, 30), (1995, 12, 31), (1997, 6, 30),
        (1998, 12, 31), (2005, 12, 31), (2008, 12, 31), (2012, 6, 30), (2015, 6, 30), (2016, 12, 31),
    ].map { CivilDate(year: $0.0, month: $0.1, day: $0.2) }

    /// As `parse`, with one sentence for each way it can fail; `what` names the value
    /// (`--since`).
    public static func read(_ text: String, what: String) throws(InputError) -> (time: UTCTime, dateOnly: Bool) {
        guard let f = fields(text) else {
            throw InputError("cannot read \(what) '\(text)': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)")
        }
        guard f.second < 60 || f.isLeapSecond else {
            throw InputError("\(what) '\(text)' has second 60, which only a leap second has: at 23:59:60 UTC on the days the IERS "
                + "added one (the last was 2016-12-31); write second 59 or less")
        }
        guard let t = parse(text) else {
            throw InputError("\(what) '\(text)' is out of range: \(rangeMessage)")
        }
        return t
    }

    /// A user's date bound: as `read`, and a bare date as an upper bound includes that whole day.
    public static func bound(_ text: String, upper: Bool, what: String) throws(InputError) -> UTCTime {
        let (time, dateOnly) = try read(text, what: what)
        return upper && dateOnly ? time.adding(nanoseconds: 86_400 * 1_000_000_000) : time
    }

    struct ParsedFields {
        var year, month, day, hour, minute, second, nanosecond: Int
        var dateOnly: Bool
        /// 23:59:60 at the end of a day that had a leap second.
        var isLeapSecond: Bool {
            second == 60 && hour == 23 && minute == 59 && UTCTime.leapSecondDays.contains(CivilDate(year: year, month: month, day: day))
        }
    }

    /// The same forms as `parse`, for any year from 0001 to 9999, as whole seconds since
    /// the epoch (which never overflow) and the nanoseconds past them.
    public static func civilSeconds(_ text: String) -> (seconds: Int64, nanosecond: Int, dateOnly: Bool)? {
        guard let f = fields(text), f.second < 60 || f.isLeapSecond else { return nil }
        let days = Int64(CivilDate(year: f.year, month: f.month, day: f.day).daysSinceEpoch)
        return (days * 86_400 + Int64(f.hour * 3600 + f.minute * 60 + min(f.second, 59)), f.nanosecond, f.dateOnly)
    }

    /// Syntax and field ranges only; the year may be anything from 0001 to 9999.
    static func fields(_ text: String) -> ParsedFields? {
        var s = Substring(text.trimmingWhitespace())
        if s.hasSuffix("Z") || s.hasSuffix("z") { s = s.dropLast() }
        let parts = s.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "T" || $0 == "t" || $0 == " " })
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let d = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard d.count == 3, d[0].count == 4, d[1].count == 2, d[2].count == 2, d.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let y = Int(d[0]), y >= 1, let mo = Int(d[1]), let da = Int(d[2]) else { return nil }
        guard (1...12).contains(mo), (1...CivilDate.daysIn(month: mo, year: y)).contains(da) else { return nil }
        if parts.count == 1 {
            return ParsedFields(year: y, month: mo, day: da, hour: 0, minute: 0, second: 0, nanosecond: 0, dateOnly: true)
        }
        let t = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard t.count == 2 || t.count == 3, t[0].count == 2, t[1].count == 2, t.allSatisfy({ $0.allSatisfy { $0.isASCIIDigit || $0 == "." } }),
              let h = Int(t[0]), let mi = Int(t[1]) else { return nil }
        var sec = 0, nanos = 0
        if t.count == 3 {
            let sp = t[2].split(separator: ".", omittingEmptySubsequences: false)
            guard sp.count <= 2, sp[0].count == 2, let sv = Int(sp[0]) else { return nil }
            sec = sv
            if sp.count == 2 {
                let frac = sp[1]
                guard (1...9).contains(frac.count), frac.allSatisfy(\.isASCIIDigit), let fv = Int(frac) else { return nil }
                nanos = fv * Int(pow10(9 - frac.count))
            }
        }
        guard (0...23).contains(h), (0...59).contains(mi), (0...60).contains(sec) else { return nil }
        return ParsedFields(year: y, month: mo, day: da, hour: h, minute: mi, second: sec, nanosecond: nanos, dateOnly: false)
    }
}

func pow10(_ n: Int) -> Int64 { (0..<n).reduce(Int64(1)) { acc, _ in acc * 10 } }

extension Character {
    public var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension StringProtocol {
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension UTCTime: Codable {
    /// Nanoseconds since the epoch, as one integer.
    public init(from decoder: any Decoder) throws {
        self.init(nanosecondsSinceEpoch: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(nanosecondsSinceEpoch)
    }
}

extension CivilDate {
    /// A user's `YYYY-MM-DD`, with one sentence for a date that is not real and another for
    /// one outside `UTCTime.years`; `what` names the value (`--date`).
    public static func read(_ text: String, what: String) throws(InputError) -> CivilDate {
        guard let date = CivilDate(iso: text) else {
            throw InputError("\(what) '\(text)' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21")
        }
        return try date.inRange(what: "\(what) '\(text)'")
    }

    /// The date itself, refused with `UTCTime.rangeMessage` outside `UTCTime.years`.
    public func inRange(what: String) throws(InputError) -> CivilDate {
        guard UTCTime.years.contains(year) else { throw InputError("\(what) is out of range: \(UTCTime.rangeMessage)") }
        return self
    }
}
