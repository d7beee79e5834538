import MarkTimeCore

/// A zone's rules as its tz database file holds them (TZif, RFC 8536): the transitions and
/// their local time types, then, past the last transition, the footer's POSIX TZ rule.
/// Read from the file's bytes, with no process-wide state: what glibc's `localtime_r`
/// would say under `TZ=:zone`, without setting `TZ` in a process of many threads.
public struct TZif: Hashable, Sendable {
    struct LocalType: Hashable, Sendable {
        var offset: Int
        var isDST: Bool
        var abbreviation: String
    }

    var transitions: [Int64] = []
    var typeOfTransition: [Int] = []
    var types: [LocalType] = []
    var footer: POSIXRule?

    /// Why a file is not a zone.
    public struct Unreadable: Error, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Parses `bytes`: version 1 files by their 32-bit data, later ones by the 64-bit data
    /// and the footer.
    public init(_ bytes: [UInt8]) throws(Unreadable) {
        var r = Reader(bytes: bytes)
        guard try r.take(4) == Array("TZif".utf8) else { throw Unreadable(description: "not a TZif file") }
        let version = try r.take(1)[0]
        r.at += 15
        var counts = try r.counts()
        var wide = false
        if version >= UInt8(ascii: "2") {
            // Past the version 1 data to the second header and its 64-bit data.
            r.at += counts.timecnt * 5 + counts.typecnt * 6 + counts.charcnt + counts.leapcnt * 8 + counts.isstdcnt + counts.isutcnt
            guard try r.take(4) == Array("TZif".utf8) else { throw Unreadable(description: "no second header") }
            r.at += 16
            counts = try r.counts()
            wide = true
        }
        for _ in 0..<counts.timecnt { transitions.append(wide ? try r.int64() : Int64(try r.int32())) }
        for _ in 0..<counts.timecnt { typeOfTransition.append(Int(try r.take(1)[0])) }
        var raw: [(offset: Int, isDST: Bool, index: Int)] = []
        for _ in 0..<counts.typecnt {
            let offset = Int(try r.int32())
            let flags = try r.take(2)
            raw.append((offset, flags[0] != 0, Int(flags[1])))
        }
        let chars = try r.take(counts.charcnt)
        for t in raw {
            guard t.index < chars.count else { throw Unreadable(description: "an abbreviation outside the file's") }
            let end = chars[t.index...].firstIndex(of: 0) ?? chars.endIndex
            types.append(LocalType(offset: t.offset, isDST: t.isDST, abbreviation: String(decoding: chars[t.index..<end], as: UTF8.self)))
        }
        guard !types.isEmpty, typeOfTransition.allSatisfy({ $0 < types.count }) else { throw Unreadable(description: "a transition to no local time type") }
        r.at += counts.leapcnt * (wide ? 12 : 8) + counts.isstdcnt + counts.isutcnt
        if wide, r.at < bytes.count, bytes[r.at] == UInt8(ascii: "\n"), let end = bytes[(r.at + 1)...].firstIndex(of: UInt8(ascii: "\n")) {
            let text = String(decoding: bytes[(r.at + 1)..<end], as: UTF8.self)
            footer = text.isEmpty ? nil : POSIXRule(text)
        }
    }

    /// The offset in force at `seconds` since the epoch.
    public func offset(at seconds: Int64) -> ZoneOffset {
        if let last = transitions.last, seconds >= last, let footer { return footer.offset(at: seconds) }
        if transitions.isEmpty, let footer { return footer.offset(at: seconds) }
        // The last transition at or before `seconds`; before the first, the first type.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid] <= seconds { lo = mid + 1 } else { hi = mid }
        }
        let t = lo == 0 ? types[0] : types[typeOfTransition[lo - 1]]
        return ZoneOffset(seconds: t.offset, abbreviation: t.abbreviation, isDST: t.isDST)
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func take(_ n: Int) throws(Unreadable) -> [UInt8] {
            guard n >= 0, at + n <= bytes.count else { throw Unreadable(description: "the file ends early") }
            defer { at += n }
            return Array(bytes[at..<(at + n)])
        }

        mutating func int32() throws(Unreadable) -> Int32 {
            Int32(bitPattern: try take(4).reduce(0) { $0 << 8 | UInt32($1) })
        }

        mutating func int64() throws(Unreadable) -> Int64 {
            Int64(bitPattern: try take(8).reduce(0) { $0 << 8 | UInt64($1) })
        }

        /// isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
        mutating func counts() throws(Unreadable) -> (isutcnt: Int, isstdcnt: Int, leapcnt: Int, timecnt: Int, typecnt: Int, charcnt: Int) {
            var c: [Int] = []
            for _ in 0..<6 {
                let v = try int32()
                guard v >= 0 else { throw Unreadable(description: "a negative count") }
                c.append(Int(v))
            }
            return (c[0], c[1], c[2], c[3], c[4], c[5])
        }
    }
}

/// A POSIX TZ rule, as a TZif footer gives it (`EST5EDT,M3.2.0,M11.1.0`, `<+0330>-3:30`,
/// `IST-1GMT0,M10.5.0,M3.5.0/1`): standard time, and daylight time between two rules a year.
struct POSIXRule: Hashable, Sendable {
    struct Zone: Hashable, Sendable {
        var name: String
        /// Seconds east of UTC (the rule's own sign is west).
        var offset: Int
    }

    /// A day of the year the change falls on, and the local time of day it falls at, seconds.
    enum Day: Hashable, Sendable {
        /// `Jn`: 1…365, February 29 never counted.
        case julian(Int)
        /// `n`: 0…365, February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: day `d` (0 Sunday) of week `w` (5: the last) of month `m`.
        case month(Int, week: Int, weekday: Int)
    }

    /// A change: its day, and the local time of day it falls at, seconds (02:00 unless said).
    struct Change: Hashable, Sendable {
        var day: Day
        var time: Int
    }

    var standard: Zone
    var daylight: Zone?
    /// Daylight time starts and ends, each year.
    var start: Change?
    var end: Change?

    /// Nil when `text` is not a rule.
    init?(_ text: String) {
        var s = Substring(text)
        guard let std = Self.zone(&s) else { return nil }
        standard = std
        if s.isEmpty { return }
        guard let name = Self.name(&s) else { return nil }
        let offset = s.first == "," || s.isEmpty ? std.offset + 3600 : Self.time(&s).map { -$0 }
        guard let offset else { return nil }
        daylight = Zone(name: name, offset: offset)
        // A daylight zone with no rules: POSIX leaves them to the implementation; TZif footers always give them.
        guard s.first == "," else { return nil }
        s.removeFirst()
        guard let a = Self.rule(&s), s.first == "," else { return nil }
        s.removeFirst()
        guard let b = Self.rule(&s), s.isEmpty else { return nil }
        (start, end) = (a, b)
    }

    /// The offset at `seconds` since the epoch.
    func offset(at seconds: Int64) -> ZoneOffset {
        guard let daylight, let start, let end else {
            return ZoneOffset(seconds: standard.offset, abbreviation: standard.name, isDST: false)
        }
        let year = CivilDate(daysSinceEpoch: Int((seconds + Int64(standard.offset)).floorDiv(86_400))).year
        // Each change at its local time: the start in standard time, the end in daylight time.
        let begins = Self.instant(start, year: year) - Int64(standard.offset)
        let ends = Self.instant(end, year: year) - Int64(daylight.offset)
        let inDaylight = begins < ends ? (begins <= seconds && seconds < ends) : !(ends <= seconds && seconds < begins)
        let zone = inDaylight ? daylight : standard
        return ZoneOffset(seconds: zone.offset, abbreviation: zone.name, isDST: inDaylight)
    }

    /// The local seconds since the epoch of `rule` in `year`.
    static func instant(_ rule: Change, year: Int) -> Int64 {
        let jan1 = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
        let leap = CivilDate.daysIn(month: 2, year: year) == 29
        let day: Int
        switch rule.day {
        case .julian(let n): day = jan1 + n - 1 + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n): day = jan1 + n
        case .month(let m, let w, let d):
            let first = CivilDate(year: year, month: m, day: 1)
            var dom = 1 + (d - first.weekday + 7) % 7 + (w - 1) * 7
            while dom > CivilDate.daysIn(month: m, year: year) { dom -= 7 }
            day = first.daysSinceEpoch + dom - 1
        }
        return Int64(day) * 86_400 + Int64(rule.time)
    }

    private static func zone(_ s: inout Substring) -> Zone? {
        guard let name = name(&s), let west = time(&s) else { return nil }
        return Zone(name: name, offset: -west)
    }

    /// `EST`, or `<+0330>` without its brackets.
    private static func name(_ s: inout Substring) -> String? {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return nil }
            let name = String(s[s.index(after: s.startIndex)..<close])
            s = s[s.index(after: close)...]
            return name
        }
        let name = s.prefix { $0.isLetter }
        guard name.count >= 3 else { return nil }
        s = s.dropFirst(name.count)
        return String(name)
    }

    /// `[+|-]hh[:mm[:ss]]`, seconds: hours to 167 (RFC 8536's extension for a rule's time),
    /// minutes and seconds to 59; anything longer is no time (a crafted file must not overflow).
    private static func time(_ s: inout Substring) -> Int? {
        var sign = 1
        if s.first == "+" || s.first == "-" {
            sign = s.first == "-" ? -1 : 1
            s.removeFirst()
        }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard (1...3).contains(digits.count), let v = Int(digits), v <= (parts.isEmpty ? 167 : 59) else { return nil }
            parts.append(v)
            s = s.dropFirst(digits.count)
            guard s.first == ":" else { break }
            s.removeFirst()
        }
        let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, then `/time` (default 02:00).
    private static func rule(_ s: inout Substring) -> Change? {
        let day: Day
        if s.first == "J" {
            s.removeFirst()
            guard let n = number(&s), (1...365).contains(n) else { return nil }
            day = .julian(n)
        } else if s.first == "M" {
            s.removeFirst()
            guard let m = number(&s), (1...12).contains(m), s.first == "." else { return nil }
            s.removeFirst()
            guard let w = number(&s), (1...5).contains(w), s.first == "." else { return nil }
            s.removeFirst()
            guard let d = number(&s), (0...6).contains(d) else { return nil }
            day = .month(m, week: w, weekday: d)
        } else {
            guard let n = number(&s), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        guard s.first == "/" else { return Change(day: day, time: 7200) }
        s.removeFirst()
        guard let t = time(&s) else { return nil }
        return Change(day: day, time: t)
    }

    private static func number(_ s: inout Substring) -> Int? {
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard digits.count <= 3 else { return nil }
        s = s.dropFirst(digits.count)
        return Int(digits)
    }
}

private extension Int64 {
    func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
