import Foundation

/// One line of the chronometer's rate book: on a UTC day, in one boot, the rate the
/// monotonic clock kept against good time, and how far the system clock was off then.
/// The daemon writes a line a day per boot, refined as the day goes on; the next boot
/// carries time at the last line's rate from the first good time it is given (a time
/// signal, a lunar) instead of the 100 ppm bound.
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
    /// The system clock's reading minus good time when the line was written, seconds: the
    /// chronometer's error, as a navigator would note it (nil when not known).
    public var systemError: Double?

    public init(bootID: String, clock: String = monotonic, rate: ClockRate, learnedUTC: UTCTime, systemError: Double?) {
        self.bootID = bootID
        day = String(learnedUTC.iso8601.prefix(10))
        self.clock = clock
        self.rate = rate
        self.learnedUTC = learnedUTC
        self.systemError = systemError
    }

    /// For `--format json`.
    public var json: JSON {
        .object([
            ("day", .string(day)), ("boot_id", .string(bootID)), ("clock", .string(clock)),
            ("gain_s_per_day", .number(rate.gain)), ("scatter_s_per_day", .number(rate.scatter)),
            ("source", .string(rate.source.rawValue)), ("span_s", .number(rate.span)), ("samples", .int(Int64(rate.samples))),
            ("learned_utc", .string(learnedUTC.iso8601)), ("system_error_s", .from(systemError)),
        ])
    }

    /// The rate book as a table: day, boot, rate, what it was learned from, the system clock's error.
    public static func table(_ entries: [RateBookEntry]) -> [String] {
        let header = ["day", "boot", "rate", "learned over", "system clock"]
        let rows = entries.map { e in
            [e.day, String(e.bootID.prefix(8)), e.rate.text, "\(Chronometer.duration(e.rate.span)) of \(e.rate.source.rawValue) (\(e.rate.samples) samples)",
             e.systemError.map { String(format: "%+.3f s", $0).replacingOccurrences(of: "-", with: "−") } ?? "—"]
        }
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
    }
}
