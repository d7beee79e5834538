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
    /// `localApparentNoon`, refused in words outside the almanac's years.
    public static func noon(_ dr: DeadReckoning) throws(InputError) -> (utc: UTCTime, position: Position) {
        guard let lan = localApparentNoon(dr) else {
            throw InputError("\(dr.utc.iso8601) is outside the almanac's years \(SkyTime.years.lowerBound)–\(SkyTime.years.upperBound)")
        }
        return lan
    }

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
///
/// Within Polaris's polar distance of the pole two latitudes on the DR's meridian see it at
/// the same altitude, one with Polaris bearing north and one (between the star and the
/// pole) with it bearing south: the one whose bearing is nearer the bearing seen is taken
/// when one is given, else the one nearer the DR; the other is given as `alternative`.
public struct PolarisLatitude: Hashable, Sendable {
    /// Latitude, degrees north.
    public var latitude: Double
    /// Polaris's bearing from `latitude` on the DR's meridian, degrees true.
    public var azimuth: Double
    /// Polaris's LHA, degrees.
    public var lha: Double
    /// What the almanac's a0 + a1 + a2 add up to: latitude − (Ho − 1°), degrees.
    public var correction: Double
    /// The almanac's own second-order formula (its tables' source), degrees, for comparison,
    /// where its tables hold (`formulaHolds`); elsewhere the exact `latitude`.
    public var almanacFormula: Double
    /// Whether the latitude is within the almanac's Polaris tables, 0° to 68° N: beyond them
    /// its formula does not hold (at the pole its tan term is infinite).
    public var formulaHolds: Bool
    /// The other latitude that sees Polaris at this Ho, near the pole, with Polaris's bearing there.
    public var alternative: Root?

    public struct Root: Hashable, Sendable {
        public var latitude: Double
        public var azimuth: Double
    }

    /// The latitudes the almanac's Polaris tables cover.
    public static let tableLatitudes = 0.0...68.0

    /// From `ho` (degrees) with Polaris at `gha` and `declination`, seen near `dr` (bearing
    /// `bearing` degrees true, roughly, when known); nil when no latitude gives that altitude
    /// (Ho out of Polaris's reach).
    public init?(ho: Double, gha: Double, declination: Double, near dr: Position, bearing seen: Double? = nil) {
        lha = normalized(gha + dr.longitude)
        let a = sin(radians(declination)), b = cos(radians(declination)) * cos(radians(lha))
        let r = (a * a + b * b).squareRoot(), phi = atan2(b, a)
        let s = sin(radians(ho)) / r
        guard abs(s) <= 1 else { return nil }
        func bearing(_ latitude: Double) -> Double {
            Computed(gha: gha, declination: declination, latitude: latitude, longitude: dr.longitude).azimuth
        }
        func away(_ latitude: Double) -> Double {
            guard let seen else { return abs(latitude - dr.latitude) }
            let d = abs(normalized(bearing(latitude) - seen))
            return min(d, 360 - d)
        }
        // sin(L + φ) = sin Ho / R: of the two roots, the one nearer the bearing seen, else the DR.
        let roots = [asin(s) - phi, .pi - asin(s) - phi].map(degrees).filter { abs($0) <= 90 }.sorted { away($0) < away($1) }
        guard let best = roots.first else { return nil }
        latitude = best
        azimuth = bearing(best)
        alternative = roots.dropFirst().first.flatMap { other in abs(other - best) < 1e-9 ? nil : Root(latitude: other, azimuth: bearing(other)) }
        correction = best - (ho - 1)
        formulaHolds = Self.tableLatitudes.contains(best)
        let p = radians(90 - declination), h = radians(lha)
        almanacFormula = formulaHolds ? ho - degrees(p * cos(h) - 0.5 * p * sin(p) * sin(h) * sin(h) * tan(radians(dr.latitude))) : best
    }

    /// Polaris's altitude (Hc, degrees) at `dr` when it is below the horizon there (south of
    /// about 0° 38′ S), where no sight of it can be taken; nil when it is up.
    public static func belowHorizon(gha: Double, declination: Double, at dr: Position) -> Double? {
        let hc = Computed(gha: gha, declination: declination, latitude: dr.latitude, longitude: dr.longitude).altitude
        return hc < 0 ? hc : nil
    }

    /// The one operation the command line and the phone page call: the latitude from Polaris
    /// at Ho `ho` observed at `time` near `dr`, bearing `seen` degrees true when given. Refused
    /// where Polaris is below the horizon at the DR, or where no latitude sees it at that Ho.
    public static func observed(ho: Double, at time: SkyTime, near dr: Position, bearing seen: Double? = nil) throws(InputError) -> PolarisLatitude {
        let e = Almanac.entry(polaris, at: time)
        if let hc = belowHorizon(gha: e.gha, declination: e.declination, at: dr) {
            throw InputError("Polaris is below the horizon at \(dr.ddm) (Hc \(SextantAngle.format(hc))): it is seen only north of about 0° 38' S; "
                + "check the DR (the position given, or the sight's)")
        }
        guard let p = PolarisLatitude(ho: ho, gha: e.gha, declination: e.declination, near: dr, bearing: seen) else {
            throw InputError("no latitude sees Polaris at Ho \(SextantAngle.format(ho)) at that time: check Ho")
        }
        return p
    }

    static let polaris = Body(named: "Polaris")!

    /// What the answer needs said beside it: that the almanac's formula does not hold past its
    /// tables, and the other latitude near the pole with how the one given was chosen
    /// (`bearingGiven`: by the bearing seen, else by the DR), naming the bearing's field as
    /// `field` (`--zn`, the page's Zn).
    public func notes(bearingGiven: Bool, field: String) -> [String] {
        var notes: [String] = []
        if !formulaHolds {
            notes.append("the almanac's tables and formula stop at \(Int(Self.tableLatitudes.upperBound))° N: the exact solution alone holds here")
        }
        if let other = alternative {
            let ddm = { (lat: Double) in Position.ddm(lat, positive: "N", negative: "S") }
            let zn = { (z: Double) in String(format: "%03.0f°", z.rounded().truncatingRemainder(dividingBy: 360)) }
            notes.append("Two latitudes see Polaris at this Ho: \(ddm(latitude)) with it bearing \(zn(azimuth)), and \(ddm(other.latitude)) with it bearing "
                + "\(zn(other.azimuth)); the one nearer " + (bearingGiven ? "\(field) is given" : "the DR is given: give \(field) with the bearing seen to choose"))
        }
        return notes
    }
}

/// A sight taken near the meridian, reduced to it from the DR: the altitude the body would
/// have had on the meridian is Ho plus (Hc on the meridian − Hc at the sight), both worked
/// at the DR's latitude with the declination at the sight (an ex-meridian reduction).
///
/// The rule: it holds while the body's altitude changes by at most `maximumRate` (1′) a
/// minute of time at the sight, so that a DR 15′ out in longitude (a minute of time) moves
/// the latitude by at most 1′. Farther from the meridian the sight is no meridian sight.
public struct MeridianReduction: Hashable, Sendable {
    /// Minutes of time from the body's meridian passage at the DR: negative before it (east).
    public var minutesFromMeridian: Double
    /// How fast the altitude changed at the sight, arc-minutes a minute of time.
    public var rate: Double
    /// Hc on the meridian − Hc at the sight, arc-minutes: added to Ho.
    public var correction: Double
    /// The minutes of time either side of the meridian passage within which the rate stays
    /// under `maximumRate`; nil when it never reaches it (near the pole).
    public var limit: Double?

    /// The fastest change of altitude, arc-minutes a minute of time, at which a sight is
    /// reduced to the meridian.
    public static let maximumRate = 1.0

    /// Whether the sight can be reduced to the meridian by this rule.
    public var holds: Bool { rate <= Self.maximumRate }

    /// A body at `gha` and `declination` (degrees) seen from `dr`.
    public init(gha: Double, declination: Double, dr: Position) {
        var t = normalized(gha + dr.longitude)
        if t > 180 { t -= 360 }
        // The body's hour angle grows 15° an hour; east of the meridian (t < 0) it is before the passage.
        minutesFromMeridian = t * 4
        let lat = dr.latitude
        rate = Self.rate(t, latitude: lat, declination: declination)
        let onMeridian = 90 - abs(lat - declination)
        correction = (onMeridian - Computed(gha: t, declination: declination, latitude: lat, longitude: 0).altitude) * 60
        // The first meridian angle at which the rate reaches the limit: steps of 0.1 min, then halved.
        var lo = 0.0, found: Double?
        while lo < 720 {
            let hi = lo + 0.1
            if Self.rate(hi / 4, latitude: lat, declination: declination) > Self.maximumRate {
                var (a, b) = (lo, hi)
                for _ in 0..<30 {
                    let m = (a + b) / 2
                    if Self.rate(m / 4, latitude: lat, declination: declination) > Self.maximumRate { b = m } else { a = m }
                }
                found = a
                break
            }
            lo = hi
        }
        limit = found
    }

    /// |dh/dt| in arc-minutes a minute of time at meridian angle `t` degrees:
    /// 15′ × cos L cos d sin t / cos h.
    static func rate(_ t: Double, latitude: Double, declination: Double) -> Double {
        let l = radians(latitude), d = radians(declination), h = radians(t)
        let sinH = sin(l) * sin(d) + cos(l) * cos(d) * cos(h)
        let cosAlt = (1 - min(1, sinH * sinH)).squareRoot()
        let numerator = abs(cos(l) * cos(d) * sin(h))
        guard cosAlt > 1e-12 else { return numerator > 1e-12 ? 15 : 0 }
        return 15 * numerator / cosAlt
    }
}

extension MeridianPassage {
    /// A meridian altitude within this of the zenith is warned of: there the altitude
    /// changes fast and is no parabola in time.
    public static let zenithWarning = 5.0

    /// The warning for a meridian altitude `ho` near the zenith; nil below 85°.
    public static func nearZenith(_ ho: Double) -> String? {
        guard ho > 90 - zenithWarning else { return nil }
        return "Ho \(SextantAngle.format(ho)) on the meridian is within \(Int(zenithWarning))° of the zenith: there the altitude changes fast and "
            + "is no parabola in time, so a meridian latitude may be minutes off (a run near 88° came out 9' off); "
            + "prefer sights east and west of the zenith, plotted as circles, with `marktime fix`"
    }
}
