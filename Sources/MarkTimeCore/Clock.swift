import Foundation

/// Where a UTC estimate came from, best first.
public enum TimeSource: String, CaseIterable, Sendable, Comparable, Codable {
    /// gpsd PPS edges: sub-microsecond.
    case pps
    /// The system clock while `adjtimex()` says it is synchronised (chrony or ntpd fed by gpsd).
    case system
    /// gpsd TPV time from NMEA with a 2D or 3D fix, late by a receiver-dependent amount.
    case gps
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

