import Foundation
import MarkTimeCore

/// How the ship moved between sights, to advance earlier lines to the fix's time.
public enum Run: Hashable, Sendable {
    /// Lines not advanced: the sights were taken from one place.
    case none
    /// Each sight's GPS position, the ship's track.
    case track
    /// A course (degrees true) and speed (knots) made good.
    case courseAndSpeed(course: Double, knots: Double)
}

/// The 95 % error ellipse of a fix (nautical miles, the major axis's true bearing).
public struct ErrorEllipse: Hashable, Sendable {
    public var semiMajor: Double
    public var semiMinor: Double
    /// True bearing of the major axis, 0 ..< 180°.
    public var orientation: Double
    /// One line's standard error (nm): from the residuals with three lines or more, else assumed.
    public var sigma: Double
    /// True when `sigma` is the assumed 1′ (two lines leave no residual to measure it by).
    public var sigmaAssumed: Bool

    /// The error assumed for one line when the residuals cannot measure it.
    public static let assumedSigma = 1.0
    /// 95 % of a two-dimensional normal distribution lies within √5.991 standard deviations.
    static let scale = 5.991464547.squareRoot()

    /// The ellipse of a least-squares fix from its lines' azimuths (degrees) and residuals
    /// (nm): σ² (AᵀA)⁻¹, A's rows being (cos Zn, sin Zn), σ from the residuals over n − 2.
    public init(azimuths: [Double], residuals: [Double]) {
        let sums = NormalEquations(azimuths: azimuths, intercepts: residuals)
        let a = sums.a, b = sums.b, c = sums.c, g = sums.determinant
        let measured = residuals.count > 2
        sigma = measured ? (residuals.reduce(0) { $0 + $1 * $1 } / Double(residuals.count - 2)).squareRoot() : Self.assumedSigma
        sigmaAssumed = !measured
        let mean = (a + c) / 2, spread = (((a - c) / 2) * ((a - c) / 2) + b * b).squareRoot()
        semiMajor = Self.scale * sigma * ((mean + spread) / g).squareRoot()
        semiMinor = Self.scale * sigma * max(0, (mean - spread) / g).squareRoot()
        let angle = degrees(0.5 * atan2(-2 * b, c - a))
        orientation = angle < 0 ? angle + 180 : angle
    }
}

/// The least-squares sums of lines of position with azimuths Zn and intercepts p (nm):
/// A = Σcos²Zn, B = Σ sinZn cosZn, C = Σsin²Zn, D = Σ p cosZn, E = Σ p sinZn.
struct NormalEquations {
    var a = 0.0, b = 0.0, c = 0.0, d = 0.0, e = 0.0

    init(azimuths: [Double], intercepts: [Double]) {
        for (z, p) in zip(azimuths, intercepts) {
            let cz = cos(radians(z)), sz = sin(radians(z))
            a += cz * cz; b += sz * cz; c += sz * sz; d += p * cz; e += p * sz
        }
    }

    /// AC − B²: near zero when the lines are parallel.
    var determinant: Double { a * c - b * b }

    /// The move, north and east in nautical miles, that best meets every line.
    var shift: (north: Double, east: Double) {
        ((c * d - b * e) / determinant, (a * e - b * d) / determinant)
    }
}

/// A position from two or more lines: the Nautical Almanac's least-squares method,
/// iterated to 0.01′, earlier lines advanced along the run to the time of the last.
public struct CelestialFix: Hashable, Sendable {
    /// One line of the fix and how far it passes from it.
    public struct Line: Hashable, Sendable {
        public var id: Int64?
        public var body: Body
        public var utc: UTCTime
        /// Zn from the fix, degrees.
        public var azimuth: Double
        /// Ho − Hc at the fix (advanced), nautical miles.
        public var residual: Double
        /// How the line was brought to the fix's time.
        public var advance: Advance
    }

    /// How a line was brought to the fix's time.
    public enum Advance: String, Hashable, Sendable {
        /// Taken at the fix's time: nothing to advance.
        case atFixTime = "at the fix's time"
        case courseAndSpeed = "by course and speed"
        case gpsTrack = "along the GPS track"
        case notAdvanced = "not advanced"
    }

    public var utc: UTCTime
    public var position: Position
    public var lines: [Line]
    /// Root mean square of the residuals, nm.
    public var rms: Double
    public var ellipse: ErrorEllipse
    public var run: Run
    public var iterations: Int
    /// Distance (nm) and true bearing from the GPS position at the fix's time, when known.
    public var gpsDistance: Double?
    public var gpsBearing: Double?

    /// Why a fix cannot be found.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case tooFewLines(Int)
        case parallelLines
        case diverged

        public var description: String {
            switch self {
            case .tooFewLines(let n): "a fix needs two reduced sights or more, and there \(n == 1 ? "is 1" : "are \(n)")"
            case .parallelLines: "the lines of position are nearly parallel: add a sight of a body at least 30° away in azimuth"
            case .diverged: "the fix did not settle within 50 iterations: the sights disagree by too much to meet"
            }
        }
    }

    /// The fix of `sights` at the time of the last of them.
    public init(_ sights: [ReducedSight], run: Run) throws(Failure) {
        guard sights.count >= 2 else { throw .tooFewLines(sights.count) }
        let ordered = sights.sorted { $0.utc < $1.utc }
        let last = ordered.last!
        utc = last.utc
        self.run = run
        // Where each sight was taken, relative to the ship at the fix's time: (north, east) nm.
        let offsets = ordered.map { Self.offset(of: $0, from: last, run: run) }
        let places = ordered.map { s in Almanac.entry(s.body, at: SkyTime(s.utc)!) }
        var lat = last.assumedPosition.latitude, lon = last.assumedPosition.longitude
        var n = 0
        var residuals: [(Double, Double)] = []
        while true {
            n += 1
            residuals = zip(zip(ordered, places), offsets).map { pair, offset in
                let (s, place) = pair
                let at = Self.moved(lat, lon, offset)
                let hc = Computed(gha: place.gha, declination: place.declination, latitude: at.0, longitude: at.1)
                return (hc.intercept(observed: s.ho), hc.azimuth)
            }
            let sums = NormalEquations(azimuths: residuals.map(\.1), intercepts: residuals.map(\.0))
            guard sums.determinant > 1e-3 * (sums.a + sums.c) * (sums.a + sums.c) / 4 else { throw .parallelLines }
            let (north, east) = sums.shift
            lat += north / 60
            lon = Self.wrapped(lon + east / 60 / cos(radians(lat)))
            guard lat.magnitude <= 90, n <= 50 else { throw .diverged }
            if (north * north + east * east).squareRoot() < 0.01 { break }
        }
        iterations = n
        position = try! Position(latitude: lat, longitude: lon)
        lines = zip(ordered, residuals).map { s, r in
            let advance: Advance = switch run {
            case _ where s.utc == last.utc: .atFixTime
            case .courseAndSpeed: .courseAndSpeed
            case .track where s.gpsPosition != nil && last.gpsPosition != nil: .gpsTrack
            default: .notAdvanced
            }
            return Line(id: s.id, body: s.body, utc: s.utc, azimuth: r.1, residual: r.0, advance: advance)
        }
        rms = (residuals.reduce(0) { $0 + $1.0 * $1.0 } / Double(residuals.count)).squareRoot()
        ellipse = ErrorEllipse(azimuths: residuals.map(\.1), residuals: residuals.map(\.0))
        if let gps = last.gpsPosition {
            gpsDistance = GreatCircle.nauticalMiles(gps, position)
            gpsBearing = GreatCircle.bearing(from: gps, to: position)
        }
    }

    /// Where `s` was taken relative to the ship at the time of `last`, (north, east) nm, by
    /// `run`: a line is advanced to `last`'s time by the opposite of this.
    public static func offset(of s: ReducedSight, from last: ReducedSight, run: Run) -> (Double, Double) {
        switch run {
        case .none: return (0, 0)
        case .track:
            guard let here = s.gpsPosition, let there = last.gpsPosition else { return (0, 0) }
            return ((here.latitude - there.latitude) * 60,
                    wrapped(here.longitude - there.longitude) * 60 * cos(radians(there.latitude)))
        case .courseAndSpeed(let course, let knots):
            let miles = -knots * Double(last.utc.nanosecondsSinceEpoch - s.utc.nanosecondsSinceEpoch) / 3.6e12
            return (miles * cos(radians(course)), miles * sin(radians(course)))
        }
    }

    static func moved(_ lat: Double, _ lon: Double, _ offset: (Double, Double)) -> (Double, Double) {
        let l = lat + offset.0 / 60
        return (l, wrapped(lon + offset.1 / 60 / cos(radians(lat))))
    }

    static func wrapped(_ lon: Double) -> Double {
        var l = lon.truncatingRemainder(dividingBy: 360)
        if l > 180 { l -= 360 }
        if l < -180 { l += 360 }
        return l
    }
}

/// A run of sights of one body within a few minutes, fitted to a straight line of Ho
/// against time: a sight far off the line is a bad sight, as a navigator checks a run by
/// its slope.
public enum SightRun {
    /// Sights of one body closer together than this (seconds) make one run.
    public static let window = 600.0

    /// Each sight's residual from its run's line, arc-minutes, by index into `sights`;
    /// nil for a sight in a run of fewer than three.
    public static func residuals(_ sights: [ReducedSight]) -> [Double?] {
        var result = [Double?](repeating: nil, count: sights.count)
        let order = sights.indices.sorted { sights[$0].utc < sights[$1].utc }
        var runs: [[Int]] = []
        for i in order {
            if let r = runs.firstIndex(where: { run in
                sights[run.last!].body == sights[i].body
                    && Double(sights[i].utc.nanosecondsSinceEpoch - sights[run.last!].utc.nanosecondsSinceEpoch) / 1e9 <= window
            }) {
                runs[r].append(i)
            } else {
                runs.append([i])
            }
        }
        for run in runs where run.count >= 3 {
            let t0 = sights[run[0]].utc
            let xs = run.map { Double(sights[$0].utc.nanosecondsSinceEpoch - t0.nanosecondsSinceEpoch) / 1e9 }
            let ys = run.map { sights[$0].ho * 60 }
            let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
            let sxx = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
            let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
            let slope = sxx > 0 ? sxy / sxx : 0
            for (k, i) in run.enumerated() { result[i] = ys[k] - (my + slope * (xs[k] - mx)) }
        }
        return result
    }
}

extension CelestialFix {
    /// What the navigator should know before trusting the fix: lines not advanced although
    /// taken more than `unadvancedLimit` minutes before the fix's time (the ship moved;
    /// where they cross is not where it was).
    public func flags(unadvancedLimit minutes: Double) -> [ReductionFlag] {
        let stale = lines.filter { $0.advance == .notAdvanced && Double(utc.nanosecondsSinceEpoch - $0.utc.nanosecondsSinceEpoch) / 6e10 > minutes }
        guard let oldest = stale.first else { return [] }
        let span = Double(utc.nanosecondsSinceEpoch - oldest.utc.nanosecondsSinceEpoch) / 6e10
        return [ReductionFlag(.notAdvanced, String(format: "not a fix: %d line%@ up to %.0f min old %@ not advanced (no course and speed, "
            + "no GPS track), so the ship's run is missing; give --course and --speed (over %@ min: sight.unadvanced_limit_min)",
            stale.count, stale.count == 1 ? "" : "s", span, stale.count == 1 ? "was" : "were", Position.plain(minutes)))]
    }
}

extension CelestialFix {
    /// A line left out of a fix, and why.
    public struct Rejection: Hashable, Sendable {
        public var id: Int64?
        public var body: Body
        public var utc: UTCTime
        /// How far the line passes from the fix of the other lines, nm (Ho − Hc there).
        public var residual: Double
        /// The distance past which it was dropped: `outlierSigmas` × the others' σ, at least `outlierFloor`.
        public var threshold: Double

        public var reason: String {
            String(format: "%.1f nm from the fix of the other lines, more than %.1f nm (3 σ of theirs, at least 2 nm)", abs(residual), threshold)
        }
    }

    /// A line is an outlier when it passes farther than this many of the other lines' σ from their fix…
    public static let outlierSigmas = 3.0
    /// …and farther than this, nm (a sextant's ordinary scatter is about 1′).
    public static let outlierFloor = 2.0

    /// The fix of `sights`, with outliers left out: while four lines or more remain, the line
    /// farthest from the fix of the others is dropped when it passes more than 3 σ of theirs
    /// (σ from their residuals), and more than 2 nm, from it. Returns the fix and the lines dropped, in order.
    public static func rejectingOutliers(_ sights: [ReducedSight], run: Run) throws(Failure) -> (CelestialFix, [Rejection]) {
        var kept = sights.sorted { $0.utc < $1.utc }
        var rejections: [Rejection] = []
        while kept.count >= 4 {
            var worst: (index: Int, residual: Double, threshold: Double)?
            for i in kept.indices {
                var others = kept
                let probe = others.remove(at: i)
                guard let fix = try? CelestialFix(others, run: run) else { continue }
                let last = others.last!
                let at = moved(fix.position.latitude, fix.position.longitude, offset(of: probe, from: last, run: run))
                let place = Almanac.entry(probe.body, at: SkyTime(probe.utc)!)
                let residual = Computed(gha: place.gha, declination: place.declination, latitude: at.0, longitude: at.1).intercept(observed: probe.ho)
                let threshold = max(outlierSigmas * fix.ellipse.sigma, outlierFloor)
                if abs(residual) > threshold, abs(residual) / threshold > (worst.map { abs($0.residual) / $0.threshold } ?? 0) {
                    worst = (i, residual, threshold)
                }
            }
            guard let worst else { break }
            let dropped = kept.remove(at: worst.index)
            rejections.append(Rejection(id: dropped.id, body: dropped.body, utc: dropped.utc, residual: worst.residual, threshold: worst.threshold))
        }
        return (try CelestialFix(kept, run: run), rejections)
    }
}
