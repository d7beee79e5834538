import MarkTimeCore

/// Reads the times a user gives for a deadline or a reminder, against a fixed "now"
/// and the home zone:
/// - ISO-8601 with a zone: `2026-11-21T17:00Z`, `2026-11-21T17:00:30+10:00`;
/// - `2026-11-21 17:00` in the home zone;
/// - `today 17:00`, `tomorrow 09:00`, `fri 17:00` (the next Friday at 17:00 still to come);
/// - `+2h`, `+45m`, `+1d`, `+1h30m`, `+20s` from now;
/// - `30m-before`, `1d-before`: before the due time (reminders only).
public struct WhenParser: Sendable {
    /// Now, in seconds since the epoch.
    public var now: Int64
    public var zone: any ZoneRules

    public init(now: Int64, zone: any ZoneRules) {
        self.now = now
        self.zone = zone
    }

    public static let forms = "2026-11-21T17:00Z (ISO-8601 with Z or +10:00), 2026-11-21 17:00 (home zone), "
        + "today 17:00, tomorrow 09:00, fri 17:00, +2h, +1h30m, +20s, or 30m-before (reminders only)"

    /// Seconds since the epoch; `due` (seconds) is what `…-before` counts back from.
    /// A time outside `UTCTime.range` is refused.
    public func parse(_ text: String, before due: Int64? = nil) throws(InputError) -> Int64 {
        let seconds = try unchecked(text, before: due)
        guard (try? UTCTime(validWholeSeconds: seconds)) != nil else {
            throw InputError("'\(text)' is out of range: \(UTCTime.rangeMessage)")
        }
        return seconds
    }

    private func unchecked(_ text: String, before due: Int64?) throws(InputError) -> Int64 {
        let t = text.trimmingWhitespace()
        let lower = t.lowercased()
        let bad = InputError("cannot read the time '\(text)': use \(Self.forms)")
        if lower.hasSuffix("-before") {
            guard let duration = Self.duration(String(lower.dropLast(7))) else { throw bad }
            guard let due else { throw InputError("'\(text)' counts back from the due time, so it only works for --remind") }
            return due - duration
        }
        if lower.hasPrefix("+") {
            guard let duration = Self.duration(String(lower.dropFirst())) else { throw bad }
            return now + duration
        }
        let words = lower.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.count == 2, let minute = LocalDateTime.minuteOfDay(words[1]) {
            let today = zone.local(atSecondsSinceEpoch: now).0.date
            if let date = CivilDate(iso: words[0]) {
                return try zone.instant(of: LocalDateTime(date: date, minuteOfDay: minute)).seconds
            }
            if words[0] == "today" { return try zone.instant(of: LocalDateTime(date: today, minuteOfDay: minute)).seconds }
            if words[0] == "tomorrow" {
                return try zone.instant(of: LocalDateTime(date: today.adding(days: 1), minuteOfDay: minute)).seconds
            }
            if let weekday = Self.weekday(words[0]) {
                var date = today.adding(days: (weekday - today.weekday + 7) % 7)
                var at = try zone.instant(of: LocalDateTime(date: date, minuteOfDay: minute)).seconds
                if at <= now {
                    date = date.adding(days: 7)
                    at = try zone.instant(of: LocalDateTime(date: date, minuteOfDay: minute)).seconds
                }
                return at
            }
            throw bad
        }
        if let iso = Self.isoWithZone(t) { return iso }
        if let noZone = Self.isoLocal(t) { return try zone.instant(of: noZone).seconds }
        throw bad
    }

    /// `2h`, `45m`, `1d`, `1h30m`, `20s` as seconds.
    static func duration(_ text: String) -> Int64? {
        var total: Int64 = 0, number = "", any = false
        for c in text {
            if c.isASCIIDigit { number.append(c); continue }
            guard let n = Int64(number), n <= 100_000 else { return nil }
            switch c {
            case "d": total += n * 86_400
            case "h": total += n * 3600
            case "m": total += n * 60
            case "s": total += n
            default: return nil
            }
            number = ""
            any = true
        }
        return any && number.isEmpty && total > 0 ? total : nil
    }

    static func weekday(_ word: String) -> Int? {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        guard word.count >= 3 else { return nil }
        return names.firstIndex { $0.hasPrefix(word) }
    }

    /// `YYYY-MM-DD[T ]HH:MM[:SS]` without a zone.
    static func isoLocal(_ text: String) -> LocalDateTime? {
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == "t" || $0 == " " }).map(String.init)
        guard parts.count == 2, let date = CivilDate(iso: parts[0]) else { return nil }
        var time = parts[1]
        if time.count == 8, time.dropFirst(5).first == ":" { time = String(time.prefix(5)) }
        return LocalDateTime.minuteOfDay(time).map { LocalDateTime(date: date, minuteOfDay: $0) }
    }

    /// ISO-8601 date-time ending in `Z`, `±HH:MM` or `±HHMM`; seconds since the epoch.
    static func isoWithZone(_ text: String) -> Int64? {
        var body = Substring(text), offset = 0
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            body = body.dropLast()
        } else {
            guard let sign = body.lastIndex(where: { $0 == "+" || $0 == "-" }), body.distance(from: body.startIndex, to: sign) > 10 else {
                return nil
            }
            let digits = body[body.index(after: sign)...].filter { $0 != ":" }
            guard digits.count == 4, digits.allSatisfy(\.isASCIIDigit), let h = Int(digits.prefix(2)), let m = Int(digits.suffix(2)),
                  h <= 14, m < 60 else { return nil }
            offset = (h * 3600 + m * 60) * (body[sign] == "-" ? -1 : 1)
            body = body[..<sign]
        }
        guard body.contains(where: { $0 == "T" || $0 == "t" }), let (seconds, _, dateOnly) = UTCTime.civilSeconds(String(body)), !dateOnly
        else { return nil }
        return seconds - Int64(offset)
    }
}
