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

    public init(utc: UTCTime, source: TimeSource, uncertainty: Double?) {
        self.utc = utc
        self.source = source
        self.uncertainty = uncertainty
    }
}

/// Maps monotonic instants to UTC from the freshest samples of the best source.
///
/// The model keeps a short history per source. An instant is stamped from the
/// fresh sample of the best source nearest to it, assuming the monotonic clock
/// runs at rate 1 within `driftPPM`: the reported uncertainty is the sample's
/// own plus the drift over the distance. A sample older than `maxSampleAge`
/// (measured against "now", which the caller passes in) stops counting.
public struct ClockModel: Sendable {
    public var maxSampleAgeNanoseconds: Int64
    public var driftPPM: Double
    public var historyPerSource: Int
    public private(set) var samples: [TimeSource: [ClockSample]] = [:]

    public init(maxSampleAge seconds: Double = 10, driftPPM: Double = 100, historyPerSource: Int = 64) {
        self.maxSampleAgeNanoseconds = Int64(seconds * 1e9)
        self.driftPPM = driftPPM
        self.historyPerSource = historyPerSource
    }

    public mutating func add(_ sample: ClockSample) {
        var list = samples[sample.source, default: []]
        list.append(sample)
        if list.count > historyPerSource { list.removeFirst(list.count - historyPerSource) }
        samples[sample.source] = list
    }

    /// Forgets samples that can no longer count at `now`.
    public mutating func expire(now: Int64) {
        for (source, list) in samples {
            let kept = list.filter { isFresh($0, now: now) }
            samples[source] = kept.isEmpty ? nil : kept
        }
    }

    func isFresh(_ sample: ClockSample, now: Int64) -> Bool {
        now - sample.monotonicNanoseconds <= maxSampleAgeNanoseconds
    }

    /// The best source that has a fresh sample at `now`.
    public func bestSource(now: Int64) -> TimeSource? {
        TimeSource.allCases.first { source in samples[source]?.contains { isFresh($0, now: now) } == true }
    }

    /// The freshest sample of the best source at `now`: what the daemon publishes.
    public func currentSample(now: Int64) -> ClockSample? {
        guard let source = bestSource(now: now) else { return nil }
        return samples[source]?.last { isFresh($0, now: now) }
    }

    /// UTC of the monotonic instant `at`, from the best source fresh at `now`.
    public func estimate(at instant: Int64, now: Int64) -> UTCEstimate? {
        guard let source = bestSource(now: now),
              let nearest = samples[source]?.filter({ isFresh($0, now: now) })
                .min(by: { abs($0.monotonicNanoseconds - instant) < abs($1.monotonicNanoseconds - instant) })
        else { return nil }
        return Self.project(nearest, to: instant, driftPPM: driftPPM)
    }

    /// Carries a sample to another instant at rate 1, widening the uncertainty by the drift bound.
    public static func project(_ sample: ClockSample, to instant: Int64, driftPPM: Double) -> UTCEstimate {
        let distance = instant - sample.monotonicNanoseconds
        let widened = sample.uncertainty.map { $0 + Double(distance.magnitude) / 1e9 * driftPPM / 1e6 }
        return UTCEstimate(utc: sample.utc.adding(nanoseconds: distance), source: sample.source, uncertainty: widened)
    }

    /// A better stamp for a sight taken as `unsynced` or `gps`, once a better
    /// source is fresh at `now`; `nil` when there is nothing better.
    public func backfill(instant: MonotonicInstant, stamped source: TimeSource, bootID: String, now: Int64) -> UTCEstimate? {
        guard instant.bootID == bootID, source == .unsynced || source == .gps,
              let better = estimate(at: instant.nanoseconds, now: now), better.source < source
        else { return nil }
        return better
    }
}
