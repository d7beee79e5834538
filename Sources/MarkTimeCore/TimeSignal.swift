import Foundation

/// `marktime clock signal`: the navigator will press the button on a time signal's tick
/// (a radio time signal's minute pip, a phone's network clock turning over), which
/// begins `secondOfDay` UTC. The daemon waits `window` seconds for the press.
public struct TimeSignalRequest: Hashable, Sendable {
    /// Seconds after 00:00:00 UTC of the tick (0..<86400); the date is the one that puts
    /// the tick nearest the clock's own time at the press.
    public var secondOfDay: Int
    /// Seconds to wait for the press.
    public var window: Int
    /// Take the tick even where it is far from the clock's own time beyond its uncertainty.
    public var force: Bool
    /// The tick's UTC date (midnight), when the navigator gives it: needed where the clock
    /// does not know its own error (unsynced), which may be days off after a reboot.
    public var date: UTCTime?

    public static let defaultWindow = 120
    /// The longest wait for the press, seconds.
    public static let windows = 1...3600
    /// How far the tick may be from the clock, beyond the clock's uncertainty, before the
    /// minute said is taken for a mistake: half a minute, so a wrong minute is caught.
    public static let slack = 30.0

    public init(secondOfDay: Int, window: Int = defaultWindow, force: Bool = false, date: UTCTime? = nil) {
        self.secondOfDay = secondOfDay
        self.window = window
        self.force = force
        self.date = date
    }

    /// The request as the navigator typed it (the command line, the phone page): the tick,
    /// and the date when one is given (an empty one is none).
    public static func parse(tick: String, date: String?, window: Int = defaultWindow, force: Bool = false) throws(InputError) -> TimeSignalRequest {
        let second = try parseTick(tick.trimmingCharacters(in: .whitespaces))
        let day = try date.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }.map { text throws(InputError) in try parseDate(text) }
        return TimeSignalRequest(secondOfDay: second, window: window, force: force, date: day)
    }

    /// `YYYY-MM-DD` (UTC) as its midnight.
    public static func parseDate(_ text: String) throws(InputError) -> UTCTime {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              let midnight = UTCTime(year: y, month: m, day: d), midnight.iso8601.hasPrefix(text)
        else {
            throw InputError("'\(text.prefix(40))' is not a date: give the tick's UTC date as YYYY-MM-DD (e.g. 2026-11-27)")
        }
        return midnight
    }

    /// `HH:MM` or `HH:MM:SS` (UTC), as the navigator says the tick's minute.
    public static func parseTick(_ text: String) throws(InputError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), let s = parts.count == 3 ? Int(parts[2]) : 0,
              (0...23).contains(h), (0...59).contains(m), (0...59).contains(s)
        else {
            throw InputError("'\(text.prefix(40))' is not a time of day: give the tick's UTC minute as HH:MM, or HH:MM:SS (e.g. 14:05)")
        }
        return h * 3600 + m * 60 + s
    }

    /// `14:05:00`.
    public static func text(secondOfDay s: Int) -> String {
        String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }

    /// The tick's UTC: on its date when given, else on the day that puts it nearest `clock`.
    public func tick(near clock: UTCTime) -> UTCTime {
        if let date { return date.adding(nanoseconds: Int64(secondOfDay) * 1_000_000_000) }
        let day: Int64 = 86_400_000_000_000
        let ns = clock.nanosecondsSinceEpoch
        let midnight = ns - ((ns % day) + day) % day
        let candidates = [midnight - day, midnight, midnight + day].map { $0 + Int64(secondOfDay) * 1_000_000_000 }
        return UTCTime(nanosecondsSinceEpoch: candidates.min { abs($0 - ns) < abs($1 - ns) }!)
    }
}

/// A lunar worked for a sight (`marktime lunar --sight ID --set-clock`): the UT of the
/// sight's kernel instant, good to the lunar's uncertainty. The daemon takes it as a `lunar`
/// clock sample when the sight is of its boot and nothing better dates that instant.
public struct LunarTime: Hashable, Sendable {
    public var sight: Int64
    public var instant: MonotonicInstant
    public var utc: UTCTime
    /// Seconds.
    public var uncertainty: Double

    /// What a lunar's uncertainty can be: no lunar is good to better than a second (the
    /// Moon moves 0.5' a minute against the stars), and one worse than a day sets nothing.
    public static let uncertainties = 1.0...86_400

    public init(sight: Int64, instant: MonotonicInstant, utc: UTCTime, uncertainty: Double) {
        self.sight = sight
        self.instant = instant
        self.utc = utc
        self.uncertainty = uncertainty
    }
}

extension TimeSource {
    /// For a clock that does not know its own error (`unsynced`): that the time is unknown,
    /// and the two ways a navigator without GPS sets it; nil for any other source.
    public var unknownTimeSentence: String? {
        guard self == .unsynced else { return nil }
        return "the time is unknown (no GPS, PPS or synchronised clock, nothing carried): set it from a time signal, "
            + "`marktime clock signal HH:MM --date YYYY-MM-DD` and the button on the tick (the daemon must be running), "
            + "or find it from a lunar distance, `marktime lunar --sight ID --set-clock` for a sight marked at the distance"
    }
}

/// The daemon's answer to a `clock signal`, once the press came or the wait ended, or to
/// a lunar sent with `marktime lunar --set-clock`.
public enum TimeSignalAnswer: Hashable, Sendable {
    /// The press at the tick became a `signal` clock sample, good to `uncertainty`
    /// seconds. `before` is the time the clock gave the press beforehand (nil when it had none).
    case taken(tick: UTCTime, uncertainty: Double, before: UTCEstimate?)
    /// The lunar's UT became a `lunar` clock sample at its sight's instant; `before` is the
    /// time the clock gave that instant beforehand.
    case lunar(utc: UTCTime, uncertainty: Double, before: UTCEstimate?)
    /// No sample was made, and why.
    case refused(String)

    public init?(_ text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        switch words.first {
        case "taken", "lunar":
            guard words.count == 6, let tick = Int64(words[1]), let uncertainty = Double(words[2]) else { return nil }
            var before: UTCEstimate?
            if let utc = Int64(words[3]), let source = TimeSource(rawValue: String(words[4])) {
                before = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: utc), source: source, uncertainty: Double(words[5]))
            }
            let at = UTCTime(nanosecondsSinceEpoch: tick)
            self = words[0] == "lunar" ? .lunar(utc: at, uncertainty: uncertainty, before: before) : .taken(tick: at, uncertainty: uncertainty, before: before)
        case "refused":
            self = .refused(words.dropFirst().joined(separator: " "))
        default:
            return nil
        }
    }

    public var text: String {
        switch self {
        case .taken(let tick, let uncertainty, let before), .lunar(let tick, let uncertainty, let before):
            let b = before.map { "\($0.utc.nanosecondsSinceEpoch) \($0.source.rawValue) \($0.uncertainty.map { "\($0)" } ?? "-")" } ?? "- - -"
            return "\(isLunar ? "lunar" : "taken") \(tick.nanosecondsSinceEpoch) \(uncertainty) \(b)"
        case .refused(let reason):
            return "refused \(reason)"
        }
    }

    /// Whether this is a lunar's answer.
    public var isLunar: Bool { if case .lunar = self { true } else { false } }

    /// Seconds the clock was off at the tick or the lunar's sight (their time minus the clock's), when it had one.
    public var clockError: Double? {
        switch self {
        case .taken(let tick, _, let before?), .lunar(let tick, _, let before?):
            Double(tick.nanosecondsSinceEpoch - before.utc.nanosecondsSinceEpoch) / 1e9
        default: nil
        }
    }

    /// The answer in words.
    public var sentence: String {
        switch self {
        case .taken(let tick, let uncertainty, let before), .lunar(let tick, let uncertainty, let before):
            let at = isLunar ? "the lunar's UT, \(tick.iso8601), is taken (lunar \(UTCEstimate.text(uncertainty: uncertainty))) and re-dates this boot's sights where it is better"
                : "the tick of \(tick.iso8601) is taken (signal \(UTCEstimate.text(uncertainty: uncertainty)))"
            guard let before, let error = clockError else { return at + "; the daemon had no time before it" }
            return at + "; the clock (\(before.source.rawValue) \(UTCEstimate.text(uncertainty: before.source == .unsynced ? nil : before.uncertainty))) "
                + "was \(String(format: "%.3f", abs(error))) s \(error >= 0 ? "slow" : "fast")"
        case .refused(let reason):
            return reason
        }
    }

    /// For `--format json`: `taken`, the `tick` (a lunar's `utc`) and its `uncertainty_s`, the
    /// clock before it and its `error_s` (the tick minus the clock); or `taken: false` and the `reason`.
    public var json: JSON {
        switch self {
        case .taken(let tick, let uncertainty, let before), .lunar(let tick, let uncertainty, let before):
            var fields: [(String, JSON)] = [("taken", .bool(true)), (isLunar ? "utc" : "tick", .string(tick.iso8601)), ("uncertainty_s", .number(uncertainty))]
            if let before {
                fields.append(("clock_before", .object([
                    ("utc", .string(before.utc.iso8601)), ("source", .string(before.source.rawValue)),
                    ("uncertainty_s", .from(before.source == .unsynced ? nil : before.uncertainty)),
                ])))
                fields.append(("error_s", .from(clockError)))
            }
            return .object(fields)
        case .refused(let reason):
            return .object([("taken", .bool(false)), ("reason", .string(reason))])
        }
    }
}
