import Foundation
import MarkTimeCore

/// How a ship moves from its DR: course (degrees true) and speed (knots) from the DR's time.
public struct DeadReckoning: Hashable, Sendable {
    public var position: Position
    public var utc: UTCTime
    public var course: Double
    public var knots: Double

    public init(_ position: Position, at utc: UTCTime, course: Double = 0, knots: Double = 0) {
        self.position = position
        self.utc = utc
        self.course = course
        self.knots = knots
    }

    /// Where the ship is at `time` by plane sailing along the course.
    public func position(at time: UTCTime) -> Position {
        let miles = knots * Double(time.nanosecondsSinceEpoch - utc.nanosecondsSinceEpoch) / 3.6e12
        return position.offset(north: miles * cos(radians(course)), east: miles * sin(radians(course)))
    }
}

/// The Sun's meridian passage at a moving ship (local apparent noon), and the latitude
/// from a body's altitude on the meridian.
public enum MeridianPassage {
    /// The instant the Sun's LHA is 0 at the ship on the local date of `dr.utc` at the
    /// DR's longitude (local mean time); the ship's position then.
    public static func localApparentNoon(_ dr: DeadReckoning) -> (utc: UTCTime, position: Position)? {
        let dayNanos: Int64 = 86_400_000_000_000
        let offset = Int64((dr.position.longitude * 240e9).rounded())
        let local = dr.utc.nanosecondsSinceEpoch + offset
        let localDay = local - ((local % dayNanos) + dayNanos) % dayNanos
        var t = Double(localDay - offset) / 1e9 + 43_200
        for _ in 0..<20 {
            guard let utc = UTCTime(secondsSinceEpoch: t), let time = SkyTime(utc) else { return nil }
            let here = dr.position(at: utc)
            var lha = Almanac.entry(.sun, at: time).gha + here.longitude
            lha -= 360 * (lha / 360).rounded()
            // The Sun's hour angle grows about 15° an hour; the ship's own run changes it little.
            t -= lha * 240
            if abs(lha) < 1e-7 { break }
        }
        guard let utc = UTCTime(secondsSinceEpoch: t) else { return nil }
        let rounded = UTCTime(nanosecondsSinceEpoch: (utc.nanosecondsSinceEpoch / 100_000_000) * 100_000_000)
        return (rounded, dr.position(at: rounded))
    }

    /// The latitude (degrees, north positive) from observed altitude `ho` of a body on the
    /// meridian with `declination`: the zenith distance 90° − Ho named opposite to the
    /// body's bearing, plus the declination. The body bears south when it culminates south
    /// of the zenith (declination below the latitude).
    public static func latitude(ho: Double, declination: Double, bearsSouth: Bool) -> Double {
        let zenithDistance = 90 - ho
        return declination + (bearsSouth ? zenithDistance : -zenithDistance)
    }

    /// The highest Ho of a run around the meridian: a parabola fitted by least squares to
    /// (time, Ho); its vertex's time and altitude. Nil with fewer than three sights, or when
    /// the run does not curve down (no maximum within it).
    public static func maximum(of run: [(utc: UTCTime, ho: Double)]) -> (utc: UTCTime, ho: Double)? {
        guard run.count >= 3 else { return nil }
        let t0 = run.map(\.utc).min()!
        let xs = run.map { Double($0.utc.nanosecondsSinceEpoch - t0.nanosecondsSinceEpoch) / 6e10 }
        let ys = run.map(\.ho)
        // Normal equations for y = a + b x + c x².
        var s = [Double](repeating: 0, count: 5), sy = [0.0, 0.0, 0.0]
        for (x, y) in zip(xs, ys) {
            var p = 1.0
            for k in 0..<5 {
                s[k] += p
                if k < 3 { sy[k] += p * y }
                p *= x
            }
        }
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        guard let coefficients = solve3(m, sy), coefficients[2] < 0 else { return nil }
        let (a, b, c) = (coefficients[0], coefficients[1], coefficients[2])
        let x = -b / (2 * c)
        guard x >= xs.min()!, x <= xs.max()! else { return nil }
        // To the tenth of a second, as a watch is read.
        return (t0.adding(nanoseconds: Int64((x * 600).rounded()) * 100_000_000), a + b * x + c * x * x)
    }

    /// Solves a 3 × 3 linear system by Cramer's rule; nil when it is singular.
    static func solve3(_ m: [[Double]], _ v: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-12 else { return nil }
        return (0..<3).map { col in
            var a = m
            for row in 0..<3 { a[row][col] = v[row] }
            return det(a) / d
        }
    }
}

/// The latitude from an observed altitude of Polaris, solved exactly from the star's place:
/// the Nautical Almanac's Lat = Ho − 1° + a0 + a1 + a2 without the tables' rounding.
public struct PolarisLatitude: Hashable, Sendable {
    /// Latitude, degrees north.
    public var latitude: Double
    /// Polaris's LHA, degrees.
    public var lha: Double
    /// What the almanac's a0 + a1 + a2 add up to: latitude − (Ho − 1°), degrees.
    public var correction: Double
    /// The almanac's own second-order formula (its tables' source), degrees, for comparison.
    public var almanacFormula: Double

    /// From `ho` (degrees) with Polaris at `gha` and `declination`, seen near `dr`; nil when
    /// no latitude gives that altitude (Ho out of Polaris's reach).
    public init?(ho: Double, gha: Double, declination: Double, near dr: Position) {
        lha = normalized(gha + dr.longitude)
        let a = sin(radians(declination)), b = cos(radians(declination)) * cos(radians(lha))
        let r = (a * a + b * b).squareRoot(), phi = atan2(b, a)
        let s = sin(radians(ho)) / r
        guard abs(s) <= 1 else { return nil }
        // sin(L + φ) = sin Ho / R: of the two roots, the one nearer the DR.
        let roots = [asin(s) - phi, .pi - asin(s) - phi].map(degrees).filter { abs($0) <= 90 }
        guard let best = roots.min(by: { abs($0 - dr.latitude) < abs($1 - dr.latitude) }) else { return nil }
        latitude = best
        correction = best - (ho - 1)
        let p = radians(90 - declination), h = radians(lha)
        almanacFormula = ho - degrees(p * cos(h) - 0.5 * p * sin(p) * sin(h) * sin(h) * tan(radians(dr.latitude)))
    }
}
