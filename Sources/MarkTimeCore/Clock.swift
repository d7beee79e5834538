import Foundation

/// Where a UTC estimate came from, best first.
public enum TimeSource: String, CaseIterable, Sendable, Comparable, Codable {
    /// gpsd PPS edges: sub-microsecond.
    case pps
    /// The system clock while `adjtimex()` says it is synchronised (chrony or ntpd fed by gpsd).
    case system
    /// gpsd TPV time from NMEA with a 2D or 3D fix, late by a receiver-dependent amount.
    case gps
    /// A time signal's tick the navigator pressed the button on (`marktime clock signal`):
    /// good to the reaction time, `clock.signal_uncertainty_s`.
    case signal
    /// The real-time clock (`/dev/rtc0`, a DS3231 HAT or a Pi 5's), read at a boot without
    /// a good source and corrected by the error and rate measured against one
    /// (`RTCChronometer`).
    case rtc
    /// A lunar distance worked for a sight of this boot (`marktime lunar --sight ID
    /// --set-clock`): the UT at the sight's kernel instant, good to the lunar's stated
    /// uncertainty (tens of seconds). Taken only where nothing better dates the instant.
    case lunar
    /// The free-running system clock. A Pi has no RTC, so it may be off by days.
    case unsynced

    /// Lower is better.
    public var rank: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (a: TimeSource, b: TimeSource) -> Bool { a.rank < b.rank }

    public static func parse(_ text: String) throws(InputError) -> TimeSource {
        guard let s = TimeSource(rawValue: text.lowercased()) else {
            throw InputError("unknown time source '\(text)': use one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return s
    }
}

/// The kernel's raw instant: CLOCK_MONOTONIC nanoseconds within one boot.
public struct MonotonicInstant: Hashable, Sendable {
    /// `/proc/sys/kernel/random/boot_id`: monotonic time means nothing across boots.
    public var bootID: String
    public var nanoseconds: Int64

    public init(bootID: String, nanoseconds: Int64) {
        self.bootID = bootID
        self.nanoseconds = nanoseconds
    }

    /// The nanoseconds alone: instants of two boots rarely share them, and equality still
    /// compares the boot. The recording policy hashes each press's instant several times,
    /// and a boot id is 36 characters.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(nanoseconds)
    }
}

/// One observation tying the monotonic clock to UTC: at `monotonicNanoseconds`, UTC was `utc`.
public struct ClockSample: Hashable, Sendable {
    public var source: TimeSource
    public var monotonicNanoseconds: Int64
    public var utc: UTCTime
    /// Seconds; `nil` when unknown (the `unsynced` source).
    public var uncertainty: Double?

    public init(source: TimeSource, monotonicNanoseconds: Int64, utc: UTCTime, uncertainty: Double?) {
        self.source = source
        self.monotonicNanoseconds = monotonicNanoseconds
        self.utc = utc
        self.uncertainty = uncertainty
    }

    /// UTC minus monotonic, in nanoseconds.
    public var offsetNanoseconds: Int64 { utc.nanosecondsSinceEpoch - monotonicNanoseconds }
}

/// A UTC estimate for one instant.
public struct UTCEstimate: Hashable, Sendable {
    public var utc: UTCTime
    public var source: TimeSource
    /// Seconds; `nil` when unknown.
    public var uncertainty: Double?
    /// The samples it was computed from, when known.
    public var provenance: StampProvenance?

    public init(utc: UTCTime, source: TimeSource, uncertainty: Double?, provenance: StampProvenance? = nil) {
        self.utc = utc
        self.source = source
        self.uncertainty = uncertainty
        self.provenance = provenance
    }

    /// The same stamp without its provenance.
    public var bare: UTCEstimate { UTCEstimate(utc: utc, source: source, uncertainty: uncertainty) }

    /// An uncertainty as people read it: `±12 µs`, `±3 ms`, `±0.50 s`, or `unknown`.
    public static func text(uncertainty seconds: Double?) -> String {
        guard let s = seconds, s.isFinite, s >= 0 else { return seconds.map { "±\($0) s" } ?? "unknown" }
        if s < 0.001 { return "±\(Int((s * 1e6).rounded())) µs" }
        if s < 1 { return "±\(Int((s * 1e3).rounded())) ms" }
        return "±" + String(format: "%.2f s", s)
    }
}


/// How far a disciplined kernel clock may be off, from two `adjtimex()` figures read again
/// and again: its estimated error, plus what its maximum error has grown since chrony (or
/// ntpd) last updated them. Between updates the kernel adds 500 µs a second to the maximum
/// error, and leaves the estimate alone: chrony keeps the clock "synchronised" with the
/// estimate of its last update long after its source went quiet (the rig's chrony scenario
/// saw ±2.4 ms a minute later), so the growth is what tells a clock running free from one
/// kept. An update shows as a maximum error that fell, or rose faster than the kernel's
/// growth.
public struct KernelClockError: Sendable {
    /// The kernel's growth of the maximum error between updates, seconds a second.
    public static let growthPerSecond = 500e-6
    private var baseline: Double?
    private var last: (maxError: Double, at: Int64)?

    public init() {}

    /// The uncertainty of a reading at monotonic `at` with these figures (seconds).
    public mutating func uncertainty(estimated: Double, maxError: Double, at: Int64) -> Double {
        if let last, let baseline {
            let expected = last.maxError + Self.growthPerSecond * Double(max(0, at - last.at)) / 1e9
            if maxError < last.maxError || maxError > expected + 0.001 { self.baseline = maxError } else { self.baseline = baseline }
        } else {
            baseline = maxError
        }
        last = (maxError, at)
        return estimated + max(0, maxError - (baseline ?? maxError))
    }
}
