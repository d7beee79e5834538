/// Where a stamp came from: the clock samples it was computed from, and how far each
/// was from the instant it stamps.
public struct StampProvenance: Hashable, Sendable, Codable {
    public enum Method: String, Sendable, Codable {
        /// Between two samples of one unbroken run of a source.
        case interpolated
        /// Carried from the nearest sample at rate 1.
        case projected
    }

    /// One sample behind a stamp.
    public struct Sample: Hashable, Sendable, Codable {
        public var source: TimeSource
        public var monotonicNanoseconds: Int64
        public var utcNanoseconds: Int64
        public var uncertainty: Double?
        /// Seconds from the sample to the stamped instant (negative: the sample came after it).
        public var distance: Double

        public init(source: TimeSource, monotonicNanoseconds: Int64, utcNanoseconds: Int64, uncertainty: Double?, distance: Double) {
            self.source = source
            self.monotonicNanoseconds = monotonicNanoseconds
            self.utcNanoseconds = utcNanoseconds
            self.uncertainty = uncertainty
            self.distance = distance
        }

        enum CodingKeys: String, CodingKey {
            case source, monotonicNanoseconds = "monotonic_ns", utcNanoseconds = "utc_ns", uncertainty = "uncertainty_s",
                 distance = "distance_s"
        }
    }

    public var method: Method
    public var samples: [Sample]
    /// For a phone's MARK: the round trip of the clock sync exchange that mapped the touch
    /// onto the Pi's clock, in seconds; half of it is in the stamp's uncertainty.
    public var phoneRoundTrip: Double?

    public init(method: Method, samples: [Sample], phoneRoundTrip: Double? = nil) {
        self.method = method
        self.samples = samples
        self.phoneRoundTrip = phoneRoundTrip
    }

    enum CodingKeys: String, CodingKey {
        case method, samples, phoneRoundTrip = "phone_round_trip_s"
    }

    init(method: Method, _ samples: [ClockSample], at instant: Int64) {
        self.init(method: method, samples: samples.map {
            Sample(source: $0.source, monotonicNanoseconds: $0.monotonicNanoseconds, utcNanoseconds: $0.utc.nanosecondsSinceEpoch,
                   uncertainty: $0.uncertainty, distance: Double(instant - $0.monotonicNanoseconds) / 1e9)
        })
    }
}

/// The boot's clock track: every better source's samples, thinned, in unbroken runs.
///
/// A run ("segment") of a source lasts while its samples come no further apart than
/// `maxSampleAge`. The track keeps a run's first sample, one every `interval`, the
/// last before a gap, and always the latest. An instant inside a run is stamped by
/// interpolating the UTC − monotonic offset between the two samples around it; the
/// uncertainty is theirs, weighted by position, plus the drift bound over the distance
/// to the nearer one. Outside a run it is carried from the nearest sample, the drift
/// bound growing with the distance. `unsynced` samples are not tracked: only the
/// latest counts, as the fallback of last resort.
public struct ClockTrack: Hashable, Sendable {
    /// A tracked sample and the run it belongs to.
    public struct Entry: Hashable, Sendable {
        public var sample: ClockSample
        public var segment: Int
        public init(sample: ClockSample, segment: Int) {
            self.sample = sample
            self.segment = segment
        }
    }

    public var maxSampleAgeNanoseconds: Int64
    public var intervalNanoseconds: Int64
    public var driftPPM: Double
    /// Kept samples per source, oldest first.
    public private(set) var entries: [TimeSource: [Entry]] = [:]
    /// The newest sample per source, kept or not.
    public private(set) var latest: [TimeSource: Entry] = [:]
    /// Kept samples not yet handed out by `takeUnsaved()`.
    public private(set) var unsaved: [Entry] = []
    private var nextSegment = 0
    /// Sources whose samples stopped counting for new stamps (gpsd went silent) until resumed.
    public private(set) var suspended: Set<TimeSource> = []

    public init(maxSampleAge seconds: Double = 10, interval: Double = 60, driftPPM: Double = 100) {
        maxSampleAgeNanoseconds = Int64(seconds * 1e9)
        intervalNanoseconds = Int64(interval * 1e9)
        self.driftPPM = driftPPM
    }

    /// Restores samples saved earlier in this boot (a daemon restart), oldest first.
    public mutating func restore(_ saved: [Entry]) {
        for e in saved.sorted(by: { $0.sample.monotonicNanoseconds < $1.sample.monotonicNanoseconds }) {
            entries[e.sample.source, default: []].append(e)
            if (latest[e.sample.source]?.sample.monotonicNanoseconds ?? .min) < e.sample.monotonicNanoseconds { latest[e.sample.source] = e }
            nextSegment = max(nextSegment, e.segment + 1)
        }
    }

    /// Adds a sample; returns whether the track kept it (a new run, or `interval` since the last kept one).
    @discardableResult
    public mutating func add(_ sample: ClockSample) -> Bool {
        let source = sample.source
        guard source != .unsynced else {
            latest[source] = Entry(sample: sample, segment: -1)
            return false
        }
        if let last = latest[source], sample.monotonicNanoseconds <= last.sample.monotonicNanoseconds { return false }
        var segment: Int
        if let last = latest[source], sample.monotonicNanoseconds - last.sample.monotonicNanoseconds <= maxSampleAgeNanoseconds {
            segment = last.segment
        } else {
            // A gap: the run before it ends at its last sample, which must be on the track.
            if let last = latest[source], entries[source]?.last != last { keep(last) }
            segment = nextSegment
            nextSegment += 1
        }
        let entry = Entry(sample: sample, segment: segment)
        latest[source] = entry
        let lastKept = entries[source]?.last
        if lastKept?.segment != segment || sample.monotonicNanoseconds - (lastKept?.sample.monotonicNanoseconds ?? .min) >= intervalNanoseconds {
            keep(entry)
            return true
        }
        return false
    }

    private mutating func keep(_ entry: Entry) {
        entries[entry.sample.source, default: []].append(entry)
        unsaved.append(entry)
    }

    /// Hands out the kept samples not yet saved, and forgets them as unsaved.
    public mutating func takeUnsaved() -> [Entry] {
        defer { unsaved = [] }
        return unsaved
    }

    /// Stops offering `source` for new stamps until `resume` (its samples stay on the track).
    public mutating func suspend(_ source: TimeSource) { suspended.insert(source) }

    /// Offers `source` again.
    public mutating func resume(_ source: TimeSource) { suspended.remove(source) }

    /// Whether `source` has a sample no older than the limit at `now`, and is not suspended.
    public func isFresh(_ source: TimeSource, now: Int64) -> Bool {
        guard !suspended.contains(source), let last = latest[source] else { return false }
        return now - last.sample.monotonicNanoseconds <= maxSampleAgeNanoseconds
    }

    /// The best source with a fresh sample at `now`.
    public func bestSource(now: Int64) -> TimeSource? {
        TimeSource.allCases.first { isFresh($0, now: now) }
    }

    /// The newest sample of the best fresh source: what the daemon publishes.
    public func currentSample(now: Int64) -> ClockSample? {
        bestSource(now: now).flatMap { latest[$0]?.sample }
    }

    /// The stamp for a press at `instant`, live at `now`: from the best source that is
    /// fresh at `now`, interpolated inside its run or carried from its newest sample.
    public func estimate(at instant: Int64, now: Int64) -> UTCEstimate? {
        guard let source = bestSource(now: now) else { return nil }
        if source == .unsynced, let s = latest[.unsynced]?.sample {
            return Self.project(s, to: instant, driftPPM: driftPPM)
        }
        return estimate(at: instant, from: source)
    }

    /// The stamp `source` gives `instant`: interpolated when a run of it spans the
    /// instant, else carried from its nearest sample.
    public func estimate(at instant: Int64, from source: TimeSource) -> UTCEstimate? {
        var list = entries[source] ?? []
        if let last = latest[source], list.last != last { list.append(last) }
        guard !list.isEmpty else { return nil }
        // The first sample at or after the instant.
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].sample.monotonicNanoseconds < instant { lo = mid + 1 } else { hi = mid }
        }
        let after = lo < list.count ? list[lo] : nil
        let before = lo > 0 ? list[lo - 1] : nil
        if let after, after.sample.monotonicNanoseconds == instant {
            return Self.project(after.sample, to: instant, driftPPM: driftPPM)
        }
        if let a = before, let b = after, a.segment == b.segment {
            return Self.interpolate(a.sample, b.sample, at: instant, driftPPM: driftPPM)
        }
        let nearest = [before, after].compactMap { $0 }.min {
            abs($0.sample.monotonicNanoseconds - instant) < abs($1.sample.monotonicNanoseconds - instant)
        }!
        return Self.project(nearest.sample, to: instant, driftPPM: driftPPM)
    }

    /// A better stamp for a sight stamped `stored` at `instant` of this boot: the tracked
    /// source with the smallest uncertainty there, when it is smaller than the stored one
    /// (an unknown stored uncertainty, `unsynced`, can always be improved).
    public func backfill(instant: Int64, stored: UTCEstimate) -> UTCEstimate? {
        let candidates = [TimeSource.pps, .system, .gps].compactMap { estimate(at: instant, from: $0) }
        guard let best = candidates.min(by: { ($0.uncertainty ?? .infinity) < ($1.uncertainty ?? .infinity) }),
              let better = best.uncertainty else { return nil }
        if let old = stored.uncertainty, stored.source != .unsynced, better >= old { return nil }
        return best
    }

    /// Carries a sample to another instant at rate 1, widening the uncertainty by the drift bound.
    public static func project(_ sample: ClockSample, to instant: Int64, driftPPM: Double) -> UTCEstimate {
        let distance = instant - sample.monotonicNanoseconds
        let widened = sample.uncertainty.map { $0 + Double(distance.magnitude) / 1e9 * driftPPM / 1e6 }
        return UTCEstimate(utc: sample.utc.adding(nanoseconds: distance), source: sample.source, uncertainty: widened,
                           provenance: StampProvenance(method: .projected, [sample], at: instant))
    }

    /// Interpolates the offset between `a` and `b` (same source and run, `a` first).
    public static func interpolate(_ a: ClockSample, _ b: ClockSample, at instant: Int64, driftPPM: Double) -> UTCEstimate {
        let span = Double(b.monotonicNanoseconds - a.monotonicNanoseconds)
        let f = Double(instant - a.monotonicNanoseconds) / span
        let offset = a.offsetNanoseconds + Int64((Double(b.offsetNanoseconds - a.offsetNanoseconds) * f).rounded())
        let nearer = Double(min(instant - a.monotonicNanoseconds, b.monotonicNanoseconds - instant)) / 1e9
        let uncertainty: Double? = if let ua = a.uncertainty, let ub = b.uncertainty {
            ua + (ub - ua) * f + nearer * driftPPM / 1e6
        } else { nil }
        return UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: instant + offset), source: a.source, uncertainty: uncertainty,
                           provenance: StampProvenance(method: .interpolated, [a, b], at: instant))
    }
}

extension StampProvenance {
    /// As JSON, written byte by byte into one buffer (on every press's path, where
    /// Foundation's `JSONEncoder` took about a millisecond on the rig, and string appends
    /// cost more than the rest of the stamp): the keys and the method and source names
    /// need no escaping. Nil when a number is not finite (JSON cannot hold it), as the
    /// encoder's error was.
    public var json: String? {
        guard samples.allSatisfy({ $0.distance.isFinite && ($0.uncertainty?.isFinite ?? true) }),
              phoneRoundTrip?.isFinite ?? true else { return nil }
        var out = JSONBytes(capacity: 64 + 144 * samples.count)
        out.put("{\"method\":\"")
        out.put(method.rawValue)
        out.put("\",\"samples\":[")
        for (i, s) in samples.enumerated() {
            out.put(i == 0 ? "{\"source\":\"" : ",{\"source\":\"")
            out.put(s.source.rawValue)
            out.put("\",\"monotonic_ns\":")
            out.put(s.monotonicNanoseconds)
            out.put(",\"utc_ns\":")
            out.put(s.utcNanoseconds)
            if let u = s.uncertainty {
                out.put(",\"uncertainty_s\":")
                out.putSeconds(u)
            }
            out.put(",\"distance_s\":")
            out.putSeconds(s.distance)
            out.put("}")
        }
        out.put("]")
        if let trip = phoneRoundTrip {
            out.put(",\"phone_round_trip_s\":")
            out.put(Position.plain(trip))
        }
        out.put("}")
        return out.string
    }
}

/// A JSON text built as bytes, for `StampProvenance.json`.
struct JSONBytes {
    private var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func put(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func put(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A whole number in decimal.
    mutating func put(_ n: Int64) {
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = n.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(d[i]) }
        }
    }

    /// Seconds that are whole nanoseconds over 1e9 (a distance; most uncertainties) as
    /// the exact decimal of those nanoseconds, which reads back as the same Double, for a
    /// fraction of printing one; any other value as Swift prints it.
    mutating func putSeconds(_ distance: Double) {
        let ns = (distance * 1e9).rounded()
        guard abs(ns) < 1e15, Double(Int64(ns)) / 1e9 == distance else { return put(Position.plain(distance)) }
        let n = Int64(ns)
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        put(Int64(n.magnitude / 1_000_000_000))
        var fraction = Int64(n.magnitude % 1_000_000_000)
        guard fraction != 0 else { return }
        var width = 9
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        var scale: Int64 = 1
        for _ in 1..<width { scale *= 10 }
        while scale > fraction {
            bytes.append(UInt8(ascii: "0"))
            scale /= 10
        }
        put(fraction)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
