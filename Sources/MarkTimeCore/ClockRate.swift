import Foundation

/// The monotonic clock's rate against good time, learned from a run of a good source: what
/// a chronometer's rate book holds, for the clock marktime carries the time on when every
/// good source is gone.
///
/// The rate is the slope of a least-squares line through the run's UTC − monotonic offsets.
/// Under chrony the kernel's clock, and so the monotonic clock, runs at the frequency chrony
/// last set; without it, at its crystal's. Either way the rate measured is the one the clock
/// keeps when the source goes, but for what temperature changes: its uncertainty is three
/// times the fit's standard error, never below `floor`.
public struct ClockRate: Hashable, Sendable, Codable {
    /// Seconds a day the monotonic clock gains on UTC (negative: it loses), as a
    /// chronometer's daily rate is given.
    public var gain: Double
    /// How far the rate may be wrong, seconds a day.
    public var scatter: Double
    /// The source and run it was learned from, its length in seconds and its samples.
    public var source: TimeSource
    public var span: Double
    public var samples: Int
    /// The monotonic instant of the run's last sample.
    public var learnedAt: Int64
    /// The boot it was learned in, when that was an earlier one's (taken from the rate book).
    public var fromBoot: String?
    /// UTC at the run's last sample, nanoseconds, when taken from the rate book: its age.
    public var learnedUTCNanoseconds: Int64?

    public init(gain: Double, scatter: Double, source: TimeSource, span: Double, samples: Int, learnedAt: Int64) {
        self.gain = gain
        self.scatter = scatter
        self.source = source
        self.span = span
        self.samples = samples
        self.learnedAt = learnedAt
    }

    enum CodingKeys: String, CodingKey {
        case gain = "gain_s_per_day", scatter = "scatter_s_per_day", source, span = "span_s", samples, learnedAt = "learned_at_ns"
        case fromBoot = "from_boot", learnedUTCNanoseconds = "learned_utc_ns"
    }

    /// The oldest rate the rate book lends a later boot, days: a crystal's rate drifts
    /// with its age and the seasons, and a navigator rates a chronometer afresh each passage.
    public static let bookLifetimeDays = 30.0

    /// Whether this rate, from the rate book, was learned more than `bookLifetimeDays`
    /// before `utc`: time is then carried within the drift bound, as with no rate.
    public func isTooOld(at utc: UTCTime) -> Bool {
        guard fromBoot != nil, learnedUTCNanoseconds != nil else { return false }
        // Learned "after" `utc` (a clock or a log dated wrongly): as old as far off.
        return abs(ageDays(at: utc)) > Self.bookLifetimeDays
    }

    /// Days from when it was learned to `utc` (0 when not known).
    public func ageDays(at utc: UTCTime) -> Double {
        learnedUTCNanoseconds.map { Double(utc.nanosecondsSinceEpoch - $0) / 86_400e9 } ?? 0
    }

    /// 2 ppm: a Pi's crystal over the temperatures of a boat's cabin, once its frequency is known.
    public static let floor = 0.1728
    /// A run shorter than this (by default: `clock.rate_span_s`), or with fewer samples,
    /// teaches no rate.
    public static let shortestSpan = 3600.0
    public static let fewestSamples = 10

    /// The rate of a run of one source's samples (oldest first); nil when it is too short.
    public static func fit(_ run: [ClockSample], shortestSpan: Double = shortestSpan) -> ClockRate? {
        guard run.count >= fewestSamples, let first = run.first, let last = run.last else { return nil }
        let span = Double(last.monotonicNanoseconds - first.monotonicNanoseconds) / 1e9
        guard span >= shortestSpan else { return nil }
        // Seconds since the first sample, and the offset's change since it, exact in Int64 first.
        let xs = run.map { Double($0.monotonicNanoseconds - first.monotonicNanoseconds) / 1e9 }
        let ys = run.map { Double($0.offsetNanoseconds - first.offsetNanoseconds) / 1e9 }
        let line = Self.line(xs, ys)
        // The offset grows when the clock loses: the gain is the slope's opposite.
        return ClockRate(gain: -line.slope * 86_400, scatter: max(floor, 3 * line.standardError * 86_400), source: first.source,
                         span: span, samples: run.count, learnedAt: last.monotonicNanoseconds)
    }

    /// The least-squares line through the points (`xs` seconds, `ys` seconds; three or
    /// more): its slope and the slope's standard error.
    static func line(_ xs: [Double], _ ys: [Double]) -> (slope: Double, standardError: Double) {
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0
        for (x, y) in zip(xs, ys) {
            sxx += (x - mx) * (x - mx)
            sxy += (x - mx) * (y - my)
        }
        let slope = sxy / sxx
        var squares = 0.0
        for (x, y) in zip(xs, ys) {
            let r = y - my - slope * (x - mx)
            squares += r * r
        }
        return (slope, (squares / (n - 2) / sxx).squareRoot())
    }

    /// `−0.41 s/day ± 0.17`.
    public var text: String {
        String(format: "%+.2f s/day ± %.2f", gain, scatter).replacingOccurrences(of: "-", with: "−")
    }

    /// `sample` carried to `instant` at this rate: its time less what the clock gained
    /// meanwhile, its uncertainty grown by the rate's.
    public func carry(_ sample: ClockSample, to instant: Int64) -> UTCEstimate {
        let distance = instant - sample.monotonicNanoseconds
        let seconds = Double(distance) / 1e9
        let gained = Int64((seconds * gain / 86_400 * 1e9).rounded())
        let grown = sample.uncertainty.map { $0 + abs(seconds) * scatter / 86_400 }
        var provenance = StampProvenance(method: .carried, [sample], at: instant)
        provenance.rate = self
        return UTCEstimate(utc: sample.utc.adding(nanoseconds: distance - gained), source: sample.source, uncertainty: grown,
                           provenance: provenance)
    }
}

/// The chronometer as the daemon shows it: the rate book's current rate, and, while every
/// good source is gone, the sample the time is carried from.
public struct Chronometer: Hashable, Sendable, Codable {
    public var rate: ClockRate
    public var carriedFrom: CarriedSample?

    /// The sample time is carried from (a `ClockSample`, as stored).
    public struct CarriedSample: Hashable, Sendable, Codable {
        public var source: TimeSource
        public var monotonicNanoseconds: Int64
        public var utcNanoseconds: Int64
        public var uncertainty: Double?

        enum CodingKeys: String, CodingKey {
            case source, monotonicNanoseconds = "monotonic_ns", utcNanoseconds = "utc_ns", uncertainty = "uncertainty_s"
        }
    }

    public init(rate: ClockRate, carriedFrom sample: ClockSample?) {
        self.rate = rate
        carriedFrom = sample.map {
            CarriedSample(source: $0.source, monotonicNanoseconds: $0.monotonicNanoseconds, utcNanoseconds: $0.utc.nanosecondsSinceEpoch,
                          uncertainty: $0.uncertainty)
        }
    }

    enum CodingKeys: String, CodingKey {
        case rate, carriedFrom = "carried_from"
    }

    /// The UTC that time is carried to at monotonic `now`; nil while nothing is carried.
    public func carriedUTC(now: Int64) -> UTCTime? {
        carriedFrom.map { UTCTime(nanosecondsSinceEpoch: $0.utcNanoseconds + (now - $0.monotonicNanoseconds)) }
    }

    /// For a rate from the rate book: its age in days at the instant time is carried to at
    /// monotonic `now` (else at `utc`, the clock's reading), and whether it is then too old
    /// to carry time (`ClockRate.isTooOld`); nil for a rate this boot learned.
    public func bookRateAge(now: Int64, utc: UTCTime) -> (days: Double, expired: Bool)? {
        guard rate.fromBoot != nil, rate.learnedUTCNanoseconds != nil else { return nil }
        let at = carriedUTC(now: now) ?? utc
        return (rate.ageDays(at: at), rate.isTooOld(at: at))
    }

    /// In words, at monotonic `now`: `carried 26 h 10 m from gps at −0.41 s/day ± 0.17
    /// (learned over 2 h 00 m of gps)`, or, while a good source is heard, the rate alone.
    public func sentence(now: Int64) -> String {
        let learned = "learned over \(Self.duration(rate.span)) of \(rate.source.rawValue)" + (rate.fromBoot == nil ? "" : " in an earlier boot, from the rate book")
        guard let from = carriedFrom else { return "rate \(rate.text) (\(learned))" }
        let since = UTCTime(nanosecondsSinceEpoch: from.utcNanoseconds).iso8601
        let then = carriedUTC(now: now) ?? UTCTime(nanosecondsSinceEpoch: from.utcNanoseconds)
        if rate.isTooOld(at: then) {
            return "carried \(Self.duration(Double(now - from.monotonicNanoseconds) / 1e9)) from \(from.source.rawValue) (last heard \(since)) "
                + String(format: "within the drift bound: the rate book's rate (%@, %@) is %.0f days old, more than %.0f",
                         rate.text, learned, rate.ageDays(at: then), ClockRate.bookLifetimeDays)
        }
        return "carried \(Self.duration(Double(now - from.monotonicNanoseconds) / 1e9)) from \(from.source.rawValue) (last heard \(since)) "
            + "at \(rate.text) (\(learned))"
    }

    /// `26 h 10 m`, `45 m 12 s`, `30 s`.
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded())
        if whole >= 3600 { return String(format: "%d h %02d m", whole / 3600, whole % 3600 / 60) }
        if whole >= 60 { return String(format: "%d m %02d s", whole / 60, whole % 60) }
        return "\(whole) s"
    }
}
