import Foundation

/// One line of the chronometer's rate book: on a UTC day, in one boot, the rate a clock
/// kept against good time, and how far it was off then. The `monotonic` line is the
/// kernel's clock, which stamps are carried on (its error: the system clock's); the `rtc`
/// line is the real-time clock's (`RTCChronometer`). The daemon writes a line a day per
/// clock and boot, refined as the day goes on; the next boot carries time at the last
/// monotonic line's rate from the first good time it is given (an RTC, a time signal, a
/// lunar) instead of the 100 ppm bound, and corrects the RTC by its last line.
public struct RateBookEntry: Hashable, Sendable {
    /// The clock the rate is of: the kernel's monotonic clock, which the stamps are carried on.
    public static let monotonic = "monotonic"

    public var bootID: String
    /// `YYYY-MM-DD`, UTC, of the rate's last sample.
    public var day: String
    public var clock: String
    public var rate: ClockRate
    /// UTC at the rate's last sample.
    public var learnedUTC: UTCTime
    /// The clock's reading minus good time when the line was written, seconds: the
    /// chronometer's error, as a navigator would note it (for the monotonic line, the
    /// system clock's; nil when not known), and how far it may be wrong.
    public var error: Double?
    public var errorUncertainty: Double?

    public init(bootID: String, clock: String = monotonic, rate: ClockRate, learnedUTC: UTCTime, error: Double?, errorUncertainty: Double? = nil) {
        self.bootID = bootID
        day = String(learnedUTC.iso8601.prefix(10))
        self.clock = clock
        self.rate = rate
        self.learnedUTC = learnedUTC
        self.error = error
        self.errorUncertainty = errorUncertainty
    }

    /// For `--format json`.
    public var json: JSON {
        .object([
            ("day", .string(day)), ("boot_id", .string(bootID)), ("clock", .string(clock)),
            ("gain_s_per_day", .number(rate.gain)), ("scatter_s_per_day", .number(rate.scatter)),
            ("source", .string(rate.source.rawValue)), ("span_s", .number(rate.span)), ("samples", .int(Int64(rate.samples))),
            ("learned_utc", .string(learnedUTC.iso8601)), ("error_s", .from(error)), ("error_uncertainty_s", .from(errorUncertainty)),
        ])
    }

    /// The rate book as a table: day, boot, clock, rate, what it was learned from, the clock's
    /// error (the monotonic line's: the system clock's).
    public static func table(_ entries: [RateBookEntry]) -> [String] {
        let header = ["day", "boot", "clock", "rate", "learned over", "error"]
        let rows = entries.map { e in
            [e.day, String(e.bootID.prefix(8)), e.clock, e.rate.text,
             "\(Chronometer.duration(e.rate.span)) of \(e.rate.source.rawValue) (\(e.rate.samples) samples)", e.errorText]
        }
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
    }

    /// `+0.412 s`, `−3.100 s ± 0.015` (an rtc line), or `—`.
    var errorText: String {
        guard let error else { return "—" }
        let text = String(format: "%+.3f s", error) + (errorUncertainty.map { String(format: " ± %.3f", $0) } ?? "")
        return text.replacingOccurrences(of: "-", with: "−")
    }
}
