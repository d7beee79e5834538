import Foundation

/// Where a stamp came from: the clock samples it was computed from, and how far each
/// was from the instant it stamps.
public struct StampProvenance: Hashable, Sendable, Codable {
    public enum Method: String, Sendable, Codable {
        /// Between two samples of one unbroken run of a source.
        case interpolated
        /// Carried from the nearest sample at rate 1.
        case projected
        /// Carried from the last good sample at the rate learned (`rate`), every good source gone.
        case carried
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
    /// For a carried stamp: the rate it was carried at.
    public var rate: ClockRate?

    public init(method: Method, samples: [Sample], phoneRoundTrip: Double? = nil, rate: ClockRate? = nil) {
        self.method = method
        self.samples = samples
        self.phoneRoundTrip = phoneRoundTrip
        self.rate = rate
    }

    enum CodingKeys: String, CodingKey {
        case method, samples, phoneRoundTrip = "phone_round_trip_s", rate
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
/// `maxSampleAge` and its time runs as the monotonic clock does: a sample whose UTC −
/// monotonic offset differs from the run's last sample's, or its first's, by more than
/// both uncertainties and the drift bound allow is a jump (a receiver's glitch, a
/// rollover, a replay that loops) and starts a new run. Nothing is interpolated or
/// carried across a jump. The track keeps a run's first sample, one every `interval`, the
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
    /// The monotonic clock's rate, learned from the latest run long enough to teach one
    /// (the best source's, where two run at once); what time is carried at once every good
    /// source is gone.
    public private(set) var rate: ClockRate?
    /// The first sample of each source's latest run.
    private var runStart: [TimeSource: Entry] = [:]
    /// GPS runs set aside, by segment: their time disagreed with the time carried from the
    /// last sample trusted when they began.
    public private(set) var suspicions: [Int: Suspicion] = [:]
    /// The newest sample per source in a run not set aside.
    public private(set) var lastTrusted: [TimeSource: Entry] = [:]

    /// The shortest run that teaches a rate, seconds (`clock.rate_span_s`).
    public var rateSpan: Double

    /// A track keeping a sample every `interval` seconds of a run (by default a minute, or
    /// a tenth of `rateSpan` when that is shorter, so that a run as long as it teaches a rate).
    public init(maxSampleAge seconds: Double = 10, interval: Double? = nil, driftPPM: Double = 100, rateSpan: Double = ClockRate.shortestSpan) {
        maxSampleAgeNanoseconds = Int64(seconds * 1e9)
        intervalNanoseconds = Int64((interval ?? min(60, rateSpan / 10)) * 1e9)
        self.driftPPM = driftPPM
        self.rateSpan = rateSpan
    }

    /// The longest gap inside one run of `source`: `maxSampleAge`, but for the RTC, read
    /// every `RTCChronometer.readingInterval`, whose run lasts while no more than two
    /// readings in a row are missed (else each reading would be a run of its own, all kept).
    func runGapNanoseconds(_ source: TimeSource) -> Int64 {
        source == .rtc ? max(maxSampleAgeNanoseconds, Int64(RTCChronometer.readingInterval * 3e9)) : maxSampleAgeNanoseconds
    }

    /// Restores samples saved earlier in this boot (a daemon restart), oldest first.
    public mutating func restore(_ saved: [Entry]) {
        for e in saved.sorted(by: { $0.sample.monotonicNanoseconds < $1.sample.monotonicNanoseconds }) {
            entries[e.sample.source, default: []].append(e)
            if (latest[e.sample.source]?.sample.monotonicNanoseconds ?? .min) < e.sample.monotonicNanoseconds { latest[e.sample.source] = e }
            if runStart[e.sample.source]?.segment != e.segment { runStart[e.sample.source] = e }
            if (lastTrusted[e.sample.source]?.sample.monotonicNanoseconds ?? .min) < e.sample.monotonicNanoseconds { lastTrusted[e.sample.source] = e }
            nextSegment = max(nextSegment, e.segment + 1)
        }
        for source in [TimeSource.signal, .gps, .system, .pps] { learn(source) }
    }

    /// Learns the rate from `source`'s current run, when it is long enough and `source` is
    /// as good as the one the rate came from, or that one's run has ended.
    private mutating func learn(_ source: TimeSource) {
        // A system sample reads the realtime and monotonic clocks together, and the kernel
        // slews both alike: their offset teaches nothing of the clock's rate. An RTC sample is
        // already carried at the RTC's own rate: the clock's is learned from good time only.
        guard source != .system, source != .rtc, let last = latest[source], suspicions[last.segment] == nil else { return }
        var run = (entries[source] ?? []).reversed().prefix { $0.segment == last.segment }.reversed().map(\.sample)
        if run.last != last.sample { run.append(last.sample) }
        guard let fitted = ClockRate.fit(run, shortestSpan: rateSpan) else { return }
        if let rate, rate.fromBoot == nil, rate.source < source, let theirs = latest[rate.source],
           last.sample.monotonicNanoseconds - theirs.sample.monotonicNanoseconds <= maxSampleAgeNanoseconds { return }
        rate = fitted
    }

    /// Takes the rate book's rate from an earlier boot (learned at UTC `learnedUTC`), until
    /// this boot learns its own; past `ClockRate.bookLifetimeDays` it carries no time.
    public mutating func adopt(bookRate: ClockRate, fromBoot boot: String, learnedUTC: UTCTime) {
        guard rate == nil else { return }
        var r = bookRate
        r.fromBoot = boot
        r.learnedUTCNanoseconds = learnedUTC.nanosecondsSinceEpoch
        rate = r
    }

    /// The sources time is carried from once they are gone: pps, system, gps, a time
    /// signal's tick, the RTC's corrected reading, and a lunar.
    public static let carriedSources: [TimeSource] = [.pps, .system, .gps, .signal, .rtc, .lunar]

    /// The newest sample of a good source or a time signal, fresh or not.
    public var lastGoodSample: ClockSample? { newestTrusted(of: Self.carriedSources) }

    /// The newest trusted sample of any of `sources`.
    func newestTrusted(of sources: [TimeSource]) -> ClockSample? {
        sources.compactMap { lastTrusted[$0]?.sample }.max { $0.monotonicNanoseconds < $1.monotonicNanoseconds }
    }

    /// The stamp for `instant` with every good source gone: the last trusted sample
    /// carried at the learned rate; nil before a rate is learned, unless GPS is set aside
    /// or the sample is a time signal's or the RTC's (then at rate 1 within the drift bound).
    public func carried(at instant: Int64) -> UTCEstimate? {
        guard let last = lastGoodSample, usableRate(carrying: last, to: instant) != nil || suspect != nil || last.source >= .signal else { return nil }
        return carry(last, to: instant)
    }

    /// A sample whose time did not run as the monotonic clock did since the one before it.
    public struct Jump: Hashable, Sendable {
        public var source: TimeSource
        /// The sample before the jump and the first after it.
        public var before: ClockSample
        public var after: ClockSample
        /// How far the time moved against the monotonic clock, in seconds (UTC elapsed −
        /// monotonic elapsed), and how far it could have moved without being a jump.
        public var seconds: Double
        public var allowed: Double

        /// The jump in words, for the log.
        public var sentence: String {
            let elapsed = Double(after.monotonicNanoseconds - before.monotonicNanoseconds) / 1e9
            let utcElapsed = Double(after.utc.nanosecondsSinceEpoch - before.utc.nanosecondsSinceEpoch) / 1e9
            func f(_ v: Double) -> String { String(format: "%+.3f", v) }
            return "\(source.rawValue) time jumped: it moved \(f(utcElapsed)) s while the monotonic clock moved \(f(elapsed)) s, "
                + "\(f(seconds)) s off where at most ±\(String(format: "%.3f", allowed)) s is possible; a new run starts, "
                + "and no stamp is interpolated or carried across the jump"
        }
    }

    /// What `add` did with a sample.
    public struct Addition: Hashable, Sendable {
        /// The track kept it (a new run, or `interval` since the last kept one).
        public var kept: Bool
        /// It started a new run because its time jumped.
        public var jump: Jump?
        /// It started a GPS run whose time disagrees with the trusted time carried to it:
        /// the run is set aside.
        public var suspicion: Suspicion?
        /// It started a GPS run that agrees again, after one set aside.
        public var cleared: Suspicion?
    }

    /// A GPS run whose time disagrees with the time carried from the last sample trusted:
    /// a jump, a week rollover, a spoofer's offset. Its samples stamp nothing and re-stamp
    /// nothing until GPS agrees again or the navigator accepts it (`trust`).
    public struct Suspicion: Hashable, Sendable {
        public var segment: Int
        /// The run's first sample, and the trusted time carried to its instant.
        public var sample: ClockSample
        public var reference: UTCEstimate
        /// How far GPS is off the carried time, in seconds, and how far it could be without disagreeing.
        public var seconds: Double
        public var allowed: Double

        /// The suspicion in words, for the log and the status.
        public var sentence: String {
            let from = reference.provenance?.samples.first.map { "\($0.source.rawValue) at \(UTCTime(nanosecondsSinceEpoch: $0.utcNanoseconds).iso8601)" }
            return "gps time disagrees with the time carried from \(from ?? "the last good sample"): it is "
                + "\(String(format: "%+.3f", seconds)) s off where at most ±\(String(format: "%.3f", allowed)) s is possible; gps is set aside "
                + "(stamps are carried, nothing is re-stamped from it) until it agrees again or `marktime clock trust-gps` accepts it"
        }
    }

    /// Adds a sample; returns whether the track kept it, and the jump it made, if any.
    @discardableResult
    public mutating func add(_ sample: ClockSample) -> Addition {
        let source = sample.source
        guard source != .unsynced else {
            latest[source] = Entry(sample: sample, segment: -1)
            return Addition(kept: false)
        }
        if let last = latest[source], sample.monotonicNanoseconds <= last.sample.monotonicNanoseconds { return Addition(kept: false) }
        var segment: Int
        var jump: Jump?
        if let last = latest[source], sample.monotonicNanoseconds - last.sample.monotonicNanoseconds <= runGapNanoseconds(source) {
            // One run only while the time runs as the monotonic clock does, from the run's
            // last sample and from its first (so that small steps cannot add up).
            jump = self.jump(from: last.sample, to: sample)
            if jump == nil, let first = runStart[source], first.segment == last.segment { jump = self.jump(from: first.sample, to: sample) }
            segment = last.segment
        }
        else {
            segment = -1
        }
        var suspicion: Suspicion?, cleared: Suspicion?
        if segment < 0 || jump != nil {
            // A gap or a jump: the run before it ends at its last sample, which must be on the track.
            if let last = latest[source], entries[source]?.last != last { keep(last) }
            let before = latest[source].flatMap { suspicions[$0.segment] }
            segment = nextSegment
            nextSegment += 1
            // A new GPS run must agree with the trusted time carried to it; with none yet
            // (the boot's first fix), GPS is taken as it is.
            if source == .gps, let reference = trustedReference(at: sample.monotonicNanoseconds) {
                let seconds = Double(sample.utc.nanosecondsSinceEpoch - reference.utc.nanosecondsSinceEpoch) / 1e9
                let allowed = (sample.uncertainty ?? 0) + (reference.uncertainty ?? 0)
                if abs(seconds) > allowed {
                    suspicion = Suspicion(segment: segment, sample: sample, reference: reference, seconds: seconds, allowed: allowed)
                    suspicions[segment] = suspicion
                } else {
                    cleared = before
                }
            }
        }
        let entry = Entry(sample: sample, segment: segment)
        latest[source] = entry
        if suspicions[segment] == nil { lastTrusted[source] = entry }
        if runStart[source]?.segment != segment { runStart[source] = entry }
        let lastKept = entries[source]?.last
        if lastKept?.segment != segment || sample.monotonicNanoseconds - (lastKept?.sample.monotonicNanoseconds ?? .min) >= intervalNanoseconds {
            keep(entry)
            learn(source)
            return Addition(kept: true, jump: jump, suspicion: suspicion, cleared: cleared)
        }
        return Addition(kept: false, jump: jump, suspicion: suspicion, cleared: cleared)
    }

    /// The jump from `a` to the later `b` of one source, when their times differ by more
    /// than their monotonic instants do, beyond both uncertainties and the drift bound.
    public func jump(from a: ClockSample, to b: ClockSample) -> Jump? {
        let moved = Double(b.offsetNanoseconds - a.offsetNanoseconds) / 1e9
        let allowed = (a.uncertainty ?? 0) + (b.uncertainty ?? 0)
            + Double((b.monotonicNanoseconds - a.monotonicNanoseconds).magnitude) / 1e9 * driftPPM / 1e6
        return abs(moved) <= allowed ? nil : Jump(source: b.source, before: a, after: b, seconds: moved, allowed: allowed)
    }

    private mutating func keep(_ entry: Entry) {
        entries[entry.sample.source, default: []].append(entry)
        // A run set aside is not saved: a restarted daemon checks it again.
        if suspicions[entry.segment] == nil { unsaved.append(entry) }
    }

    /// The trusted time carried to `instant` from the newest trusted sample of a good source.
    /// Not a lunar's: its uncertainty is the navigator's estimate, not a bound, so GPS is
    /// never set aside for disagreeing with it.
    func trustedReference(at instant: Int64) -> UTCEstimate? {
        newestTrusted(of: Self.carriedSources.filter { $0 != .lunar }).map { carry($0, to: instant) }
    }

    /// The GPS run set aside now, if the newest GPS sample is in one.
    public var suspect: Suspicion? {
        latest[.gps].flatMap { suspicions[$0.segment] }
    }

    /// The navigator accepts GPS as it is: the run set aside counts from now on, as trusted.
    /// Returns the suspicion lifted, if there was one.
    @discardableResult
    public mutating func trust() -> Suspicion? {
        guard let last = latest[.gps], let lifted = suspicions.removeValue(forKey: last.segment) else { return nil }
        lastTrusted[.gps] = last
        unsaved += (entries[.gps] ?? []).filter { $0.segment == last.segment }
        return lifted
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
        guard !suspended.contains(source), let last = latest[source], suspicions[last.segment] == nil else { return false }
        return now - last.sample.monotonicNanoseconds <= maxSampleAgeNanoseconds
    }

    /// The best source with a fresh sample at `now`.
    public func bestSource(now: Int64) -> TimeSource? {
        TimeSource.allCases.first { isFresh($0, now: now) }
    }

    /// The newest sample of the best fresh source: what the daemon publishes. With every
    /// good source gone and a rate learned, the time carried to `now` instead (see `carrying`).
    public func currentSample(now: Int64) -> ClockSample? {
        let best = bestSource(now: now)
        if best == nil || best == .unsynced, let carried = carried(at: now) {
            return ClockSample(source: carried.source, monotonicNanoseconds: now, utc: carried.utc, uncertainty: carried.uncertainty)
        }
        return best.flatMap { latest[$0]?.sample }
    }

    /// The chronometer at `now`: the rate learned, and the sample time is carried from
    /// while every good source is gone; nil before a rate is learned.
    public func chronometer(now: Int64) -> Chronometer? {
        guard let rate else { return nil }
        let best = bestSource(now: now)
        return Chronometer(rate: rate, carriedFrom: best == nil || best == .unsynced ? lastGoodSample : nil)
    }

    /// The stamp for a press at `instant`, live at `now`: from the best source that is
    /// fresh at `now`, interpolated inside its run or carried from its newest sample.
    public func estimate(at instant: Int64, now: Int64) -> UTCEstimate? {
        let source = bestSource(now: now)
        // Every good source gone: the time carried at the learned rate beats an unknown one.
        if source == nil || source == .unsynced, let carried = carried(at: instant) { return carried }
        guard let source else { return nil }
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
        if !suspicions.isEmpty { list.removeAll { suspicions[$0.segment] != nil } }
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
        // Between two runs whose times disagree (a jump), the instant belongs to the time
        // before it: that is the one a live stamp there was taken from.
        if let a = before, let b = after, jump(from: a.sample, to: b.sample) != nil {
            return carry(a.sample, to: instant)
        }
        let nearest = [before, after].compactMap { $0 }.min {
            abs($0.sample.monotonicNanoseconds - instant) < abs($1.sample.monotonicNanoseconds - instant)
        }!
        return carry(nearest.sample, to: instant)
    }

    /// `sample` carried to `instant`: at the learned rate when one is known and the instant
    /// is further than a sample's age from it, else at rate 1 within the drift bound.
    func carry(_ sample: ClockSample, to instant: Int64) -> UTCEstimate {
        if let rate = usableRate(carrying: sample, to: instant), (instant - sample.monotonicNanoseconds).magnitude > maxSampleAgeNanoseconds.magnitude {
            return rate.carry(sample, to: instant)
        }
        return Self.project(sample, to: instant, driftPPM: driftPPM)
    }

    /// The rate to carry `sample` to `instant` at: nil with none, or with a rate book's that is
    /// too old by then (its age taken at the instant carried to).
    func usableRate(carrying sample: ClockSample, to instant: Int64) -> ClockRate? {
        guard let rate, !rate.isTooOld(at: sample.utc.adding(nanoseconds: instant - sample.monotonicNanoseconds)) else { return nil }
        return rate
    }

    /// What the track says of a stored stamp.
    public enum Restamp: Hashable, Sendable {
        /// A better stamp, within the stored one's stated uncertainty of it.
        case better(UTCEstimate)
        /// A better stamp that would move the sight by `moved` seconds, more than the stored
        /// stamp's stated uncertainty: the two cannot both be right, so the sight keeps its stamp.
        case refused(UTCEstimate, moved: Double)

        /// The stamp to take, when it is one.
        public var better: UTCEstimate? { if case .better(let e) = self { e } else { nil } }
    }

    /// A better stamp for a sight stamped `stored` at `instant` of this boot: the tracked
    /// source with the smallest uncertainty there, when it is smaller than the stored one
    /// (an unknown stored uncertainty, `unsynced`, can always be improved), and it moves the
    /// sight by no more than the stored stamp's stated uncertainty.
    public func backfill(instant: Int64, stored: UTCEstimate) -> Restamp? {
        let old = stored.source == .unsynced ? nil : stored.uncertainty
        // A tick pressed by hand is late by a reaction time, one way: it re-stamps what was
        // unsynced or carried, never a stamp a live good source gave.
        let live = stored.source < .signal && stored.provenance?.method != .carried
        // A phone's press keeps half its clock sync's round trip, whatever dates the instant.
        let phone = stored.provenance?.phoneRoundTrip.map { Int64(($0 * 1e9).rounded()) }
        let candidates = Self.carriedSources.filter { !(live && $0 == .signal) }.compactMap { estimate(at: instant, from: $0) }
            .map { e in phone.map { e.phoneMark(roundTrip: $0) } ?? e }
            .filter { e in e.uncertainty.map { u in old.map { u < $0 } ?? true } ?? false }
            .sorted { $0.uncertainty! < $1.uncertainty! }
        guard let best = candidates.first else { return nil }
        guard let old else { return .better(best) }
        func moved(_ e: UTCEstimate) -> Double { Double(e.utc.nanosecondsSinceEpoch - stored.utc.nanosecondsSinceEpoch) / 1e9 }
        if let within = candidates.first(where: { abs(moved($0)) <= old }) { return .better(within) }
        return .refused(best, moved: moved(best))
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
              phoneRoundTrip?.isFinite ?? true, rate.map({ [$0.gain, $0.scatter, $0.span].allSatisfy(\.isFinite) }) ?? true else { return nil }
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
        if let r = rate {
            out.put(",\"rate\":{\"gain_s_per_day\":")
            out.put("\(r.gain)")
            out.put(",\"scatter_s_per_day\":")
            out.put("\(r.scatter)")
            out.put(",\"source\":\"")
            out.put(r.source.rawValue)
            out.put("\",\"span_s\":")
            out.put("\(r.span)")
            out.put(",\"samples\":")
            out.put(Int64(r.samples))
            out.put(",\"learned_at_ns\":")
            out.put(r.learnedAt)
            if let boot = r.fromBoot {
                out.put(",\"from_boot\":\"")
                out.put(boot.filter { $0.isLetter || $0.isNumber || $0 == "-" })
                out.put("\"")
            }
            out.put("}")
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
