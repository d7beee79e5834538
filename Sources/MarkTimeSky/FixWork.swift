import Foundation
import MarkTimeCore

/// Everything `marktime fix` and the phone page's fix work out from a set of sights: each
/// reduced (or why not), runs averaged when asked, the run the lines are advanced by, the
/// fix with outliers left out, and the flags to read before trusting it.
public struct FixWork: Sendable {
    public var reduced: [ReducedSight]
    public var skipped: [(sight: Sight, why: Unreducible)]
    public var averages: [SightAverage]
    public var fix: CelestialFix
    public var rejected: [CelestialFix.Rejection]
    public var flags: [ReductionFlag]

    /// How the work is done.
    public struct Options: Sendable {
        /// Course (degrees true) and speed (knots) made good, when given.
        public var course: Double?
        public var knots: Double?
        /// Replace each run of one body by its averaged sight.
        public var average = false
        /// Leave out lines by `CelestialFix.rejectingOutliers`' rule.
        public var rejectOutliers = true
        /// Only the sights within an hour of the newest reducible one (no sights chosen).
        public var lastHourOnly = false
        public var interceptLimit = 30.0
        public var unadvancedLimit = 30.0

        public init(course: Double? = nil, knots: Double? = nil, average: Bool = false, rejectOutliers: Bool = true, lastHourOnly: Bool = false,
                    interceptLimit: Double = 30, unadvancedLimit: Double = 30) {
            (self.course, self.knots, self.average, self.rejectOutliers) = (course, knots, average, rejectOutliers)
            (self.lastHourOnly, self.interceptLimit, self.unadvancedLimit) = (lastHourOnly, interceptLimit, unadvancedLimit)
        }
    }

    /// Why there is no fix: the fix's failure, and every sight left out with its reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var failure: CelestialFix.Failure
        public var skipped: [(sight: Sight, why: Unreducible)]
        public var description: String {
            ([failure.description] + skipped.map { "sight \($0.sight.id.map(String.init) ?? "?"): \($0.why.description)" }).joined(separator: "\n")
        }
    }

    public init(_ sights: [Sight], options: Options) throws(Failure) {
        var chosen = sights
        averages = []
        if options.average { (chosen, averages) = Sight.averagingRuns(sights) }
        var reduced: [ReducedSight] = [], skipped: [(sight: Sight, why: Unreducible)] = []
        for s in chosen {
            do { reduced.append(try ReducedSight(s)) } catch { skipped.append((s, error)) }
        }
        if options.lastHourOnly, let newest = reduced.map(\.utc).max() {
            let hour = newest.adding(nanoseconds: -3_600_000_000_000)
            reduced = reduced.filter { $0.utc >= hour }
            skipped = skipped.filter { $0.sight.estimate.utc >= hour }
        }
        let run: Run = if let course = options.course, let knots = options.knots { .courseAndSpeed(course: course, knots: knots) }
            else if reduced.allSatisfy({ $0.gpsPosition != nil }) { .track } else { .none }
        do {
            if options.rejectOutliers {
                (fix, rejected) = try CelestialFix.rejectingOutliers(reduced, run: run)
            } else {
                fix = try CelestialFix(reduced, run: run)
                rejected = []
            }
        } catch {
            throw Failure(failure: error, skipped: skipped)
        }
        self.reduced = reduced
        self.skipped = skipped
        let limit = options.interceptLimit
        flags = fix.flags(unadvancedLimit: options.unadvancedLimit)
            + reduced.flatMap { x in x.flags(interceptLimit: limit).map { f in
                ReductionFlag(f.kind, "sight \(x.id.map(String.init) ?? "?"): \(f.message)") } }
    }

    /// The run in words: `none`, `gps track`, `course 235° speed 6.5 kn`.
    public var runText: String {
        switch fix.run {
        case .none: "none"
        case .track: "gps track"
        case .courseAndSpeed(let c, let k): "course \(Position.plain(c))° speed \(Position.plain(k)) kn"
        }
    }
}
