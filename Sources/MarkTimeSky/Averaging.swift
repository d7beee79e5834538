import Foundation
import MarkTimeCore

/// A run of sights of one body averaged as a navigator does: the almanac's rate of change
/// of altitude at the DR is the slope, each sight's distance from the line of that slope
/// through the run's mean shows a bad one, and the averaged sight is read off the line at a
/// chosen time. A least-squares fit of Hs against time is given beside it for comparison.
public struct SightAverage: Hashable, Sendable {
    /// One sight of the run and how far it lies from the line.
    public struct Point: Hashable, Sendable {
        public var id: Int64?
        public var utc: UTCTime
        /// Sextant altitude, degrees.
        public var hs: Double
        /// Hs minus the line's value at its time, arc-minutes.
        public var residual: Double
        /// Left out of the average: farther from the line than the limit.
        public var rejected: Bool
    }

    public var body: Body
    public var points: [Point]
    /// How far from the line a sight may lie and be kept, arc-minutes.
    public var limit: Double
    /// The almanac's rate of change of altitude at the DR, and the least-squares slope of
    /// the run, arc-minutes per minute of time.
    public var predictedSlope: Double
    public var fittedSlope: Double?
    /// The averaged sight: its time and Hs (degrees) on the line through the kept sights.
    public var utc: UTCTime
    public var hs: Double
    /// The least-squares line's Hs at the same time, degrees, for comparison.
    public var fittedHs: Double?
    /// The kept sights' scatter about the line (root mean square), arc-minutes.
    public var scatter: Double

    /// The default for `limit`: a sextant sight is usually good to about 1′.
    public static let defaultLimit = 2.0

    /// Why a run cannot be averaged.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case tooFew(Int)
        case mixedBodies([String])
        case outsideAlmanac
        /// The time asked for lies farther than `SightRun.window` from the run's first and last sights.
        case atOutsideRun(at: UTCTime, first: UTCTime, last: UTCTime)

        public var description: String {
            switch self {
            case .tooFew(let n): "averaging needs two sights or more of one body, and there \(n == 1 ? "is 1" : "are \(n)")"
            case .mixedBodies(let names): "a run is of one body, and these sights are of \(names.joined(separator: ", ")): choose the sights of one"
            case .outsideAlmanac: "the sights' time is outside the almanac's years"
            case .atOutsideRun(let at, let first, let last):
                "the time to average to, \(at.iso8601), is not within \(Int(SightRun.window / 60)) minutes of the run (\(first.iso8601) to \(last.iso8601)): "
                    + "the almanac's slope carries a run over minutes, not hours; give a time within the run, or leave it out for the kept sights' mean time"
            }
        }
    }

    /// Averages `run` (id, time, Hs in degrees) of `body`, seen from near `dr`, at `at`
    /// (default: the mean time of the kept sights; within `SightRun.window` of the run, else
    /// refused). Sights farther than `limit` arc-minutes from the line are left out one at a
    /// time, the farthest first, while two remain.
    public init(_ run: [(id: Int64?, utc: UTCTime, hs: Double)], body: Body, near dr: Position, at: UTCTime? = nil,
                limit: Double = Self.defaultLimit) throws(Failure) {
        guard run.count >= 2 else { throw .tooFew(run.count) }
        let ordered = run.sorted { $0.utc < $1.utc }
        let t0 = ordered[0].utc
        if let at, let last = ordered.last?.utc {
            let window = Int64(SightRun.window * 1e9)
            guard at.nanosecondsSinceEpoch >= t0.nanosecondsSinceEpoch - window, at.nanosecondsSinceEpoch <= last.nanosecondsSinceEpoch + window else {
                throw .atOutsideRun(at: at, first: t0, last: last)
            }
        }
        func minutes(_ t: UTCTime) -> Double { Double(t.nanosecondsSinceEpoch - t0.nanosecondsSinceEpoch) / 6e10 }
        let xs = ordered.map { minutes($0.utc) }, ys = ordered.map { $0.hs * 60 }
        let middle = t0.adding(nanoseconds: Int64(((xs.last! / 2) * 6e10).rounded()))
        guard let slope = Self.altitudeRate(body, at: middle, from: dr) else { throw .outsideAlmanac }
        var kept = Array(ordered.indices)
        func line(_ indices: [Int]) -> (mx: Double, my: Double) {
            (indices.map { xs[$0] }.reduce(0, +) / Double(indices.count), indices.map { ys[$0] }.reduce(0, +) / Double(indices.count))
        }
        while kept.count > 2 {
            let (mx, my) = line(kept)
            let worst = kept.max { abs(ys[$0] - my - slope * (xs[$0] - mx)) < abs(ys[$1] - my - slope * (xs[$1] - mx)) }!
            guard abs(ys[worst] - my - slope * (xs[worst] - mx)) > limit else { break }
            kept.removeAll { $0 == worst }
        }
        let (mx, my) = line(kept)
        self.body = body
        self.limit = limit
        predictedSlope = slope
        points = ordered.indices.map { i in
            Point(id: ordered[i].id, utc: ordered[i].utc, hs: ordered[i].hs, residual: ys[i] - my - slope * (xs[i] - mx), rejected: !kept.contains(i))
        }
        let chosen = at ?? t0.adding(nanoseconds: Int64((mx * 6e10).rounded()))
        utc = chosen
        hs = (my + slope * (minutes(chosen) - mx)) / 60
        scatter = (kept.map { pow(ys[$0] - my - slope * (xs[$0] - mx), 2) }.reduce(0, +) / Double(kept.count)).squareRoot()
        // Least squares over the kept sights, when their times differ.
        let sxx = kept.map { pow(xs[$0] - mx, 2) }.reduce(0, +)
        if sxx > 0 {
            let b = kept.map { (xs[$0] - mx) * (ys[$0] - my) }.reduce(0, +) / sxx
            fittedSlope = b
            fittedHs = (my + b * (minutes(chosen) - mx)) / 60
        }
    }

    /// dHc/dt of `body` at `position`, arc-minutes per minute of time, from Hc a minute
    /// either side of `time`.
    public static func altitudeRate(_ body: Body, at time: UTCTime, from position: Position) -> Double? {
        guard let before = SkyTime(time.adding(nanoseconds: -60_000_000_000)), let after = SkyTime(time.adding(nanoseconds: 60_000_000_000))
        else { return nil }
        func hc(_ t: SkyTime) -> Double {
            let e = Almanac.entry(body, at: t)
            return Computed(gha: e.gha, declination: e.declination, latitude: position.latitude, longitude: position.longitude).altitude
        }
        return (hc(after) - hc(before)) * 60 / 2
    }
}

extension Sight {
    /// Runs of sights of one body, each within `SightRun.window` of the one before, replaced
    /// by their averaged sight at the kept sights' mean time (the first sight's settings,
    /// no id); single sights and sights that cannot be averaged are kept as they are.
    /// Returns the sights and each average made.
    public static func averagingRuns(_ sights: [Sight], limit: Double = SightAverage.defaultLimit) -> ([Sight], [SightAverage]) {
        let ordered = sights.sorted { $0.estimate.utc < $1.estimate.utc }
        var runs: [[Sight]] = []
        for s in ordered {
            if let r = runs.firstIndex(where: { run in
                run.last!.body != nil && run.last!.body == s.body
                    && Double(s.estimate.utc.nanosecondsSinceEpoch - run.last!.estimate.utc.nanosecondsSinceEpoch) / 1e9 <= SightRun.window
            }) {
                runs[r].append(s)
            } else {
                runs.append([s])
            }
        }
        var out: [Sight] = [], averages: [SightAverage] = []
        for run in runs {
            guard run.count >= 2, let name = run[0].body, let body = Body(named: name), let near = run.lazy.compactMap({ $0.dr ?? $0.trustedPosition }).first,
                  run.allSatisfy({ $0.hs != nil }),
                  let average = try? SightAverage(run.map { ($0.id, $0.estimate.utc, $0.hs!) }, body: body, near: near, limit: limit)
            else {
                out += run
                continue
            }
            var s = run[0]
            s.id = nil
            s.estimate.utc = average.utc
            s.hs = average.hs
            let nearest = run.min { abs($0.estimate.utc.nanosecondsSinceEpoch - average.utc.nanosecondsSinceEpoch)
                < abs($1.estimate.utc.nanosecondsSinceEpoch - average.utc.nanosecondsSinceEpoch) }!
            (s.position, s.positionFlag) = (nearest.position, nearest.positionFlag)
            s.note = "average of sights " + run.compactMap { $0.id.map(String.init) }.joined(separator: ", ")
            out.append(s)
            averages.append(average)
        }
        return (out.sorted { $0.estimate.utc < $1.estimate.utc }, averages)
    }
}
