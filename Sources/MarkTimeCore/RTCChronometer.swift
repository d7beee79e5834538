import Foundation

/// One reading of a real-time clock (`/dev/rtc0`): the time it showed at the edge of one of
/// its seconds, and the monotonic instant of that edge.
public struct RTCReading: Hashable, Sendable {
    public var monotonicNanoseconds: Int64
    /// The RTC's time at the edge, whole seconds: an RTC counts no finer.
    public var rtc: UTCTime
    /// How late after the edge the monotonic instant may be, seconds: a few milliseconds
    /// with the RTC's update interrupt, the poll's period without it.
    public var resolution: Double
    /// Set on the reading that checked the RTC's update interrupt against a polled edge.
    public var interruptCheck: RTCEdgeCheck.Result?

    public init(monotonicNanoseconds: Int64, rtc: UTCTime, resolution: Double, interruptCheck: RTCEdgeCheck.Result? = nil) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.rtc = rtc
        self.resolution = resolution
        self.interruptCheck = interruptCheck
    }
}

/// Whether an RTC's update interrupt comes at the edge of its second, from a polled
/// reading and then, half a second later, one by the interrupt. A real RTC raises it as its
/// second turns; one whose alarm is counted from the moment it is set comes half a second
/// after the edge: QEMU's PL031 (the arm64 virt machine's) fires a whole number of seconds
/// after its match register is written, so each boot's "edge" would fall anywhere in the
/// second. A check that fails may be a slow wake-up: `checks` are made before giving up.
public enum RTCEdgeCheck {
    /// How far from the polled edge the interrupt may come, beyond both readings' resolution, seconds.
    public static let tolerance = 0.02
    /// Failed checks before the interrupt is given up for polling.
    public static let checks = 3

    /// How late the interrupt's reading came after its second's edge as the polled reading
    /// places it, seconds (negative: before it).
    public static func lag(interrupt: RTCReading, polled: RTCReading) -> Double {
        let seconds = polled.rtc.nanosecondsSinceEpoch - interrupt.rtc.nanosecondsSinceEpoch
        return Double(interrupt.monotonicNanoseconds - (polled.monotonicNanoseconds - seconds)) / 1e9
    }

    /// What the checks decided: the interrupt's lag at the last one (nil: no interrupt
    /// came), whether it dates the edge, and after how many checks.
    public struct Result: Hashable, Sendable {
        public var lag: Double?
        public var atTheEdge: Bool
        public var checks: Int

        public init(lag: Double?, atTheEdge: Bool, checks: Int = 1) {
            self.lag = lag
            self.atTheEdge = atTheEdge
            self.checks = checks
        }

        /// The log line's words.
        public var sentence: String {
            guard let lag else { return "the RTC gave no update interrupt in \(checks) tries: it is read by polling" }
            let ms = String(format: "%+.0f ms", lag * 1000)
            return atTheEdge
                ? "the RTC's update interrupt comes as its second turns (\(ms) from the polled edge): the RTC is read by it"
                : "the RTC's update interrupt came \(ms) from its second's edge in the last of \(checks) checks (an alarm counted "
                    + "from when it is set, as QEMU's PL031 does, or a slow wake-up): the RTC is read by polling instead"
        }
    }

    /// One check: the interrupt dates the edge when it is within both readings' resolution and `tolerance` of the polled one.
    public static func check(interrupt: RTCReading, polled: RTCReading) -> Result {
        let lag = lag(interrupt: interrupt, polled: polled)
        return Result(lag: lag, atTheEdge: abs(lag) <= interrupt.resolution + polled.resolution + tolerance)
    }

    /// What is known of an RTC's update interrupt.
    public enum State: Hashable, Sendable {
        /// Not yet found at the edge, after `failed` checks.
        case unchecked(failed: Int)
        /// Used: its lag behind the polled edge at the check, seconds.
        case interrupt(lag: Double)
        case polled
    }

    /// A check made in state `.unchecked(failed)`: from a polled reading and one made with
    /// the interrupt armed after it (`armed`, polled when no interrupt came), the next state
    /// and the reading to hand on: the polled one until the interrupt is found at the edge,
    /// carrying the `Result` once the checks decided.
    public static func decide(failed: Int, polled: RTCReading, armed: RTCReading, byInterrupt: Bool) -> (next: State, reading: RTCReading) {
        var result = byInterrupt ? check(interrupt: armed, polled: polled) : Result(lag: nil, atTheEdge: false)
        result.checks = failed + 1
        let next: State = result.atTheEdge ? .interrupt(lag: result.lag ?? 0)
            : result.checks >= checks ? .polled : .unchecked(failed: result.checks)
        var reading = result.atTheEdge || !byInterrupt ? armed : polled
        if next != .unchecked(failed: result.checks) { reading.interruptCheck = result }
        return (next, reading)
    }

    /// A reading by an interrupt found `lag` from the edge: dated no closer than that, nor 2 ms.
    public static func dated(_ reading: RTCReading, lag: Double) -> RTCReading {
        var r = reading
        r.resolution = max(r.resolution, abs(lag) + 0.002)
        return r
    }
}

/// The RTC kept as a chronometer: while a good source is heard, each reading measures the
/// RTC's error against it, and a run of errors against PPS or GPS an hour long (`rateSpan`)
/// its rate; a time signal measures the error too, and starts a new run. Without a good source (a boot with
/// no GPS), a reading corrected by the last error and the rate since is an `rtc` sample, its
/// uncertainty the last comparison's plus the rate's scatter (or, with no rate yet, the
/// 100 ppm bound) over the time since. The errors and the rate go into the rate book as its
/// `rtc` lines, so the next boot starts from them.
public struct RTCChronometer: Hashable, Sendable {
    /// The clock's name in the rate book.
    public static let clock = "rtc"
    /// How often the daemon reads the RTC, seconds: each reading is a comparison with good
    /// time, or without it an `rtc` sample.
    public static let readingInterval: Double = 30

    /// An error measured: at good time `utc`, the RTC read `error` seconds ahead of it (behind:
    /// negative), within `uncertainty`.
    public struct Comparison: Hashable, Sendable {
        public var utc: UTCTime
        public var monotonicNanoseconds: Int64
        public var error: Double
        public var uncertainty: Double
        /// The source of the good time it was measured against.
        public var source: TimeSource

        public init(utc: UTCTime, monotonicNanoseconds: Int64, error: Double, uncertainty: Double, source: TimeSource) {
            (self.utc, self.monotonicNanoseconds, self.error, self.uncertainty, self.source) = (utc, monotonicNanoseconds, error, uncertainty, source)
        }
    }

    /// An error that did not follow from the one before it: the RTC was set (`hwclock
    /// --systohc`, chrony's `rtcsync`) or its crystal stopped. A new run starts.
    public struct Step: Hashable, Sendable {
        public var before: Comparison
        public var after: Comparison
        public var seconds: Double

        public var sentence: String {
            "the RTC's error stepped from \(String(format: "%+.3f", before.error)) s to \(String(format: "%+.3f", after.error)) s "
                + "(it was set, or it stopped): its rate is learned again from here"
        }
    }

    /// The comparisons of the current run against good sources, oldest first.
    public private(set) var run: [Comparison] = []
    /// The newest comparison, from this boot or the rate book's.
    public private(set) var last: Comparison?
    /// The rate the RTC keeps: this boot's run's, once long enough, else the rate book's.
    public private(set) var rate: ClockRate?
    /// Where `last` and `rate` came from, when an earlier boot's rate book line.
    public private(set) var fromBoot: String?
    public var rateSpan: Double
    public var driftPPM: Double

    public init(rateSpan: Double = ClockRate.shortestSpan, driftPPM: Double = 100) {
        self.rateSpan = rateSpan
        self.driftPPM = driftPPM
    }

    /// A run keeps an error every tenth of `rateSpan` (at most a minute apart), a day's worth.
    private var spacing: Double { min(60, rateSpan / 10) }
    private static let longestRun = 1440

    /// The rate's uncertainty, seconds a day, with no rate learned: the drift bound.
    public var boundScatter: Double { driftPPM * 0.0864 }

    /// Takes the rate book's `rtc` line: an earlier boot's, until this boot measures its own,
    /// or (`own`) this boot's, written before the daemon restarted.
    public mutating func adopt(_ line: RateBookEntry, own: Bool = false) {
        guard line.clock == Self.clock, let error = line.error, last == nil else { return }
        last = Comparison(utc: line.learnedUTC, monotonicNanoseconds: line.rate.learnedAt, error: error,
                          uncertainty: line.errorUncertainty ?? 0, source: line.rate.source)
        if line.rate.samples >= ClockRate.fewestSamples, line.rate.span >= rateSpan {
            rate = line.rate
            if !own { rate?.fromBoot = line.bootID }
        }
        fromBoot = own ? nil : line.bootID
    }

    /// The smallest step reported: below it, a difference is the reads' jitter.
    public static let smallestStep = 0.02

    /// Measures the RTC's error at `reading` against `reference` (good time at its instant).
    /// A run of PPS or GPS references teaches the rate. A synchronised system clock's
    /// measures the error only: the kernel itself sets the RTC from it every 11 minutes
    /// (`rtcsync`), so its errors show the kernel's setting, not the RTC's rate. A time
    /// signal's starts a new run. An error that does not follow from the last (beyond both
    /// uncertainties and `smallestStep`) is a step: the run and the rate start again.
    /// Returns the step, if there was one.
    @discardableResult
    public mutating func compare(_ reading: RTCReading, against reference: UTCEstimate) -> Step? {
        let error = Double(reading.rtc.nanosecondsSinceEpoch - reference.utc.nanosecondsSinceEpoch) / 1e9
        let c = Comparison(utc: reference.utc, monotonicNanoseconds: reading.monotonicNanoseconds, error: error,
                           uncertainty: (reference.uncertainty ?? 0) + reading.resolution, source: reference.source)
        var step: Step?
        if let before = fromBoot == nil ? last : nil {
            let expected = expectedError(at: c.utc, from: before)
            let off = error - expected.error
            if abs(off) > max(Self.smallestStep, expected.uncertainty + c.uncertainty) { step = Step(before: before, after: c, seconds: off) }
        }
        last = c
        fromBoot = nil
        if step != nil {
            run = []
            rate = nil
        }
        switch reference.source {
        case .pps, .gps: break
        case .system: return step
        default:
            run = []
            return step
        }
        if let end = run.last, Double(c.utc.nanosecondsSinceEpoch - end.utc.nanosecondsSinceEpoch) / 1e9 < spacing * 0.9 { return step }
        run.append(c)
        if run.count > Self.longestRun { run.removeFirst(run.count - Self.longestRun) }
        learn()
        return step
    }

    private mutating func learn() {
        guard run.count >= ClockRate.fewestSamples, let first = run.first, let end = run.last else { return }
        let span = Double(end.utc.nanosecondsSinceEpoch - first.utc.nanosecondsSinceEpoch) / 1e9
        guard span >= rateSpan else { return }
        let xs = run.map { Double($0.utc.nanosecondsSinceEpoch - first.utc.nanosecondsSinceEpoch) / 1e9 }
        let line = ClockRate.line(xs, run.map(\.error))
        // The error grows when the RTC gains.
        rate = ClockRate(gain: line.slope * 86_400, scatter: max(ClockRate.floor, 3 * line.standardError * 86_400), source: first.source,
                         span: span, samples: run.count, learnedAt: end.monotonicNanoseconds)
    }

    /// The error expected at good time `utc` from `comparison`, at the rate (else 0 within
    /// the drift bound), and its uncertainty.
    func expectedError(at utc: UTCTime, from comparison: Comparison) -> (error: Double, uncertainty: Double) {
        let days = Double(utc.nanosecondsSinceEpoch - comparison.utc.nanosecondsSinceEpoch) / 86_400e9
        return (comparison.error + (rate?.gain ?? 0) * days, comparison.uncertainty + abs(days) * (rate?.scatter ?? boundScatter))
    }

    /// What a reading without a good source gives.
    public enum Reading: Hashable, Sendable {
        case sample(ClockSample)
        /// Never compared with good time: the RTC's reading alone means nothing.
        case uncalibrated
        /// The RTC reads before its last comparison: its battery went flat, or it was reset.
        case behind(UTCTime)
    }

    /// The reading corrected by the last error and the rate since: an `rtc` sample.
    public func sample(_ reading: RTCReading) -> Reading {
        guard let last else { return .uncalibrated }
        let rtcThen = last.utc.nanosecondsSinceEpoch + Int64((last.error * 1e9).rounded())
        guard reading.rtc.nanosecondsSinceEpoch >= rtcThen else { return .behind(last.utc) }
        // Good time is the reading less the error expected then, which depends on good time:
        // twice round settles it to far below a nanosecond for any rate an RTC keeps.
        var expected = expectedError(at: reading.rtc, from: last)
        for _ in 0..<2 {
            expected = expectedError(at: reading.rtc.adding(nanoseconds: -Int64((expected.error * 1e9).rounded())), from: last)
        }
        return .sample(ClockSample(source: .rtc, monotonicNanoseconds: reading.monotonicNanoseconds,
                                   utc: reading.rtc.adding(nanoseconds: -Int64((expected.error * 1e9).rounded())),
                                   uncertainty: expected.uncertainty + reading.resolution))
    }

    /// The rate book's line for this boot's measurements: the last error, and the rate
    /// (with none learned yet, rate 0 within the drift bound). Nil when this boot measured none.
    public func line(bootID: String) -> RateBookEntry? {
        guard let last, fromBoot == nil else { return nil }
        let span = run.first.map { Double(last.utc.nanosecondsSinceEpoch - $0.utc.nanosecondsSinceEpoch) / 1e9 } ?? 0
        let r = rate ?? ClockRate(gain: 0, scatter: boundScatter, source: last.source, span: span, samples: run.count,
                                  learnedAt: last.monotonicNanoseconds)
        return RateBookEntry(bootID: bootID, clock: Self.clock, rate: r, learnedUTC: last.utc, error: last.error,
                             errorUncertainty: last.uncertainty)
    }

    /// In words, for `marktime status`: `/dev/rtc0 read +3.102 s ± 0.006 against gps at
    /// 2025-03-14T10:05:00Z; rate +0.41 s/day ± 0.17 (learned over 1 h 00 m of gps)`.
    public func sentence(device: String) -> String {
        guard let last else { return "\(device): never compared with good time; not used without it" }
        let error = (String(format: "%+.3f s ± %.3f", last.error, last.uncertainty)).replacingOccurrences(of: "-", with: "−")
        let when = "against \(last.source.rawValue) at \(last.utc.iso8601)" + (fromBoot.map { " in boot \($0.prefix(8)), from the rate book" } ?? "")
        let r = rate.map { "rate \($0.text) (learned over \(Chronometer.duration($0.span)) of \($0.source.rawValue))" }
            ?? String(format: "no rate yet (within ±%.2f s/day)", boundScatter)
        return "\(device) read \(error) \(when); \(r)"
    }
}
