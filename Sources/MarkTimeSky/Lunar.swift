import Foundation
import MarkTimeCore

/// A lunar distance as the navigator took it: the sextant angle from the Moon's near or far
/// limb to the Sun's near limb, a planet or a star, the watch time, the DR, and the two
/// altitudes where they were measured.
public struct LunarObservation: Hashable, Sendable {
    /// The Moon's limb brought into contact with the other body.
    public enum MoonLimb: String, Hashable, Sendable, CaseIterable {
        case near, far
    }

    /// An altitude measured with the distance: Hs of a limb, or of a star's or planet's centre.
    public struct Altitude: Hashable, Sendable {
        public var hs: Double
        public var limb: Limb
        public init(hs: Double, limb: Limb) {
            self.hs = hs
            self.limb = limb
        }
    }

    public var body: Body
    public var limb: MoonLimb
    /// The sextant distance, degrees, as read (before the index error).
    public var distance: Double
    /// What the watch said at the distance, taken as UTC.
    public var watch: UTCTime
    /// The DR: where the altitudes are computed from when they were not measured.
    public var position: Position
    /// Arc-minutes, as added (negative on the arc, as `AltitudeCorrection.index`).
    public var indexError: Double
    /// Metres; only the measured altitudes use it.
    public var eyeHeight: Double
    public var celsius: Double
    public var hectopascals: Double
    public var moonAltitude: Altitude?
    public var bodyAltitude: Altitude?
    /// How far the distance may be wrong, arc-minutes: the observer's own figure.
    public var distanceError: Double

    /// What a careful observer's mean of several distances is good to, arc-minutes.
    public static let defaultDistanceError = 0.2

    public init(body: Body, limb: MoonLimb, distance: Double, watch: UTCTime, position: Position, indexError: Double = 0,
                eyeHeight: Double = 0, celsius: Double = 10, hectopascals: Double = 1010, moonAltitude: Altitude? = nil,
                bodyAltitude: Altitude? = nil, distanceError: Double = LunarObservation.defaultDistanceError) {
        self.body = body
        self.limb = limb
        self.distance = distance
        self.watch = watch
        self.position = position
        self.indexError = indexError
        self.eyeHeight = eyeHeight
        self.celsius = celsius
        self.hectopascals = hectopascals
        self.moonAltitude = moonAltitude
        self.bodyAltitude = bodyAltitude
        self.distanceError = distanceError
    }
}

/// The UT a lunar distance gives, and so the watch's error.
///
/// The observed distance is taken to the centres (semi-diameters as seen from the observer,
/// shortened by refraction along the line between the bodies), then cleared of refraction
/// and parallax by the exact spherical formula (Borda's) with the apparent altitudes, measured
/// or computed from the DR. The Earth's figure is what the spherical clearing misses at the
/// DR: the almanac's geocentric distance less the same clearing of the distance predicted at
/// the DR, from the bodies' topocentric places on the WGS 84 ellipsoid. UT is where the
/// cleared distance equals the almanac's, found by the secant method from the watch time.
public struct LunarSolution: Hashable, Sendable {
    /// The UT (as UTC) of the distance.
    public var utc: UTCTime
    /// UT − watch, seconds: positive when the watch is slow.
    public var error: Double
    /// How far `error` may be wrong, seconds: the distance's stated error and the almanac's
    /// (`almanacError`) over the rate at which the distance changes, with UT1's.
    public var uncertainty: Double
    /// How fast the distance changes as it was cleared, arc-minutes per minute of time
    /// (negative when it closes): with computed altitudes, as the observer sees it (the
    /// Earth's turn carries the Moon's parallax); with measured ones, at the Earth's centre.
    /// The time's uncertainty is the distance's over this.
    public var rate: Double
    /// The observed distance between the centres (index error and semi-diameters), degrees.
    public var apparent: Double
    /// The cleared, geocentric distance at `utc`, degrees.
    public var cleared: Double
    /// Semi-diameters as applied along the line between the bodies, arc-minutes.
    public var moonSemiDiameter: Double
    public var bodySemiDiameter: Double
    /// Apparent altitudes of the centres used for the clearing, degrees, and whether each was measured.
    public var moonAltitude: Double
    public var bodyAltitude: Double
    public var moonAltitudeMeasured: Bool
    public var bodyAltitudeMeasured: Bool
    /// Apparent altitudes of the centres computed from the DR at `utc`, degrees.
    public var computedMoonAltitude: Double
    public var computedBodyAltitude: Double
    /// What the clearing added for the Earth's figure, arc-minutes.
    public var figure: Double
    /// UT1's uncertainty at `utc`, seconds (the ΔT flag's figure).
    public var ut1Uncertainty: Double

    /// The almanac's Moon against an independent ephemeris: at most 0.032′ over 1990–2060.
    public static let almanacError = 0.05
    /// A distance that changes slower than this (arc-minutes a minute) dates nothing well.
    public static let slowestRate = 0.1
    /// How far from the watch time a solution is looked for, seconds.
    public static let searchWindow = 12.0 * 3600

    /// Why a lunar gave no time.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case bodyIsTheMoon
        case outsideAlmanac(UTCTime)
        case belowHorizon(String, altitude: Double)
        case tooSlow(String, rate: Double)
        case noSolution(String)

        public var description: String {
            switch self {
            case .bodyIsTheMoon:
                "a lunar is the distance from the Moon to another body: give --body Sun, a planet or a star near the Moon's path"
            case .outsideAlmanac(let t):
                "\(t.iso8601) is outside the almanac's years \(SkyTime.years.lowerBound)–\(SkyTime.years.upperBound)"
            case .belowHorizon(let name, let altitude):
                "from the DR at that time \(name) is below the horizon (altitude \(SextantAngle.format(altitude))): check the DR, the watch time and the body"
            case .tooSlow(let name, let rate):
                "the distance from the Moon to \(name) changes only \(String(format: "%.2f", abs(rate)))' a minute of time, too slowly to give the time: "
                    + "take a lunar with the Sun, a planet or a star nearer the Moon's path"
            case .noSolution(let name):
                "no time within 12 h of the watch has the Moon at that distance from \(name): check the distance, the limb and the watch time"
            }
        }
    }

    /// Solves `observation` for UT.
    public init(_ observation: LunarObservation) throws(Failure) {
        guard observation.body != .moon else { throw .bodyIsTheMoon }
        let o = observation
        func mismatch(_ seconds: Double) throws(Failure) -> (f: Double, clearing: LunarClearing) {
            let t = o.watch.adding(nanoseconds: Int64((seconds * 1e9).rounded()))
            guard let time = SkyTime(t) else { throw .outsideAlmanac(t) }
            let c = LunarClearing(o, at: time)
            return (c.cleared - c.geocentric, c)
        }
        var (s0, s1) = (0.0, 60.0)
        var (f0, f1) = (try mismatch(s0).f, try mismatch(s1).f)
        // Degrees a second → arc-minutes a minute; the mismatch falls as the distance grows.
        let perMinute = { (df: Double, seconds: Double) in -df / seconds * 3600 }
        guard abs(perMinute(f1 - f0, 60)) >= Self.slowestRate else { throw .tooSlow(o.body.name, rate: perMinute(f1 - f0, 60)) }
        var solved: Double?
        for _ in 0..<40 {
            guard f1 != f0 else { break }
            let s2 = s1 - f1 * (s1 - s0) / (f1 - f0)
            guard s2.isFinite, abs(s2) <= Self.searchWindow * 2 else { break }
            (s0, f0) = (s1, f1)
            (s1, f1) = (s2, try mismatch(s2).f)
            if abs(s1 - s0) < 0.005 {
                solved = s1
                break
            }
        }
        guard let s = solved, abs(s) <= Self.searchWindow else { throw .noSolution(o.body.name) }
        let at = try mismatch(s).clearing
        let rate = perMinute(try mismatch(s + 60).f - mismatch(s - 60).f, 120)
        guard abs(rate) >= Self.slowestRate else { throw .tooSlow(o.body.name, rate: rate) }
        guard at.computedMoon > 0 else { throw .belowHorizon("the Moon", altitude: at.computedMoon) }
        guard at.computedBody > 0 else { throw .belowHorizon(o.body.name, altitude: at.computedBody) }
        utc = o.watch.adding(nanoseconds: Int64((s * 1e9).rounded()))
        error = s
        let arcminutes = (o.distanceError * o.distanceError + Self.almanacError * Self.almanacError).squareRoot()
        let fromDistance = arcminutes / abs(rate) * 60
        uncertainty = (fromDistance * fromDistance + at.ut1Uncertainty * at.ut1Uncertainty).squareRoot()
        self.rate = rate
        apparent = at.apparent
        cleared = at.cleared
        moonSemiDiameter = at.moonSemiDiameter * 60
        bodySemiDiameter = at.bodySemiDiameter * 60
        moonAltitude = at.moonAltitude
        bodyAltitude = at.bodyAltitude
        moonAltitudeMeasured = o.moonAltitude != nil
        bodyAltitudeMeasured = o.bodyAltitude != nil
        computedMoonAltitude = at.computedMoon
        computedBodyAltitude = at.computedBody
        figure = at.figure * 60
        ut1Uncertainty = at.ut1Uncertainty
    }
}

/// One trial of a lunar's clearing at one instant: the observed distance cleared with the
/// geometry of that instant, and the almanac's distance then. Degrees throughout.
struct LunarClearing {
    var apparent: Double
    var cleared: Double
    var geocentric: Double
    var figure: Double
    var moonSemiDiameter: Double
    var bodySemiDiameter: Double
    var moonAltitude: Double
    var bodyAltitude: Double
    var computedMoon: Double
    var computedBody: Double
    var ut1Uncertainty: Double

    init(_ o: LunarObservation, at time: SkyTime) {
        let moonEntry = Almanac.entry(.moon, at: time), bodyEntry = Almanac.entry(o.body, at: time)
        let moon = TopocentricPlace(.moon, moonEntry, from: o.position)
        let other = TopocentricPlace(o.body, bodyEntry, from: o.position)
        let air = (o.celsius, o.hectopascals)
        // The predicted apparent geometry at the DR.
        let hm = Self.apparentAltitude(moon.altitude, air), hb = Self.apparentAltitude(other.altitude, air)
        let dz = radians(moon.azimuth - other.azimuth)
        let predicted = acos(Self.clamped(sin(radians(hm)) * sin(radians(hb)) + cos(radians(hm)) * cos(radians(hb)) * cos(dz)))
        // Semi-diameters along the line between the bodies, shortened by refraction's gradient.
        let contraction = { (h: Double, hOther: Double) -> Double in
            let cosPsi = (sin(radians(hOther)) - sin(radians(h)) * cos(predicted)) / (cos(radians(h)) * sin(predicted))
            return 1 - Self.refractionGradient(h, air) * cosPsi * cosPsi
        }
        moonSemiDiameter = moon.semiDiameter * contraction(hm, hb)
        bodySemiDiameter = other.semiDiameter * contraction(hb, hm)
        apparent = o.distance + o.indexError / 60 + (o.limb == .near ? moonSemiDiameter : -moonSemiDiameter) + bodySemiDiameter
        computedMoon = hm
        computedBody = hb
        // The altitudes to clear with: measured (to their centres) where given, else computed.
        let dip = AltitudeCorrection.dip(heightOfEye: o.eyeHeight)
        let centre = { (a: LunarObservation.Altitude, sd: Double, h: Double) -> Double in
            let vertical = sd * (1 - Self.refractionGradient(h, air))
            return a.hs + (o.indexError + dip) / 60 + (a.limb == .lower ? vertical : a.limb == .upper ? -vertical : 0)
        }
        moonAltitude = o.moonAltitude.map { centre($0, moon.semiDiameter, hm) } ?? hm
        bodyAltitude = o.bodyAltitude.map { centre($0, other.semiDiameter, hb) } ?? hb
        let hpMoon = moonEntry.horizontalParallax, hpBody = bodyEntry.horizontalParallax
        let spherical = Self.borda(apparent, moonAltitude, bodyAltitude, hpMoon, hpBody, air)
        geocentric = Self.angle(moon.geocentric, other.geocentric)
        figure = geocentric - Self.borda(degrees(predicted), hm, hb, hpMoon, hpBody, air)
        cleared = spherical + figure
        ut1Uncertainty = time.ut1Uncertainty
    }

    /// Borda's clearing: the apparent distance `d` and apparent altitudes `h1`, `h2` of the
    /// centres to the geocentric distance, with the altitudes cleared of refraction and of a
    /// spherical Earth's parallax (`hp1`, `hp2` arc-minutes). Exact on a sphere; the azimuth
    /// difference it implies is not clamped, so a nearly vertical pair still clears smoothly.
    static func borda(_ d: Double, _ h1: Double, _ h2: Double, _ hp1: Double, _ hp2: Double, _ air: (Double, Double)) -> Double {
        let true1 = clearedAltitude(h1, hp1, air), true2 = clearedAltitude(h2, hp2, air)
        let c = (cos(radians(d)) - sin(radians(h1)) * sin(radians(h2))) / (cos(radians(h1)) * cos(radians(h2)))
        return degrees(acos(clamped(sin(radians(true1)) * sin(radians(true2)) + cos(radians(true1)) * cos(radians(true2)) * c)))
    }

    static func clearedAltitude(_ h: Double, _ hp: Double, _ air: (Double, Double)) -> Double {
        let t = h + AltitudeCorrection.refraction(apparentAltitude: h, celsius: air.0, hectopascals: air.1) / 60
        return t + AltitudeCorrection.parallax(horizontalParallax: hp, altitude: t) / 60
    }

    /// The apparent altitude of a true (unrefracted) one.
    static func apparentAltitude(_ t: Double, _ air: (Double, Double)) -> Double {
        var h = t
        for _ in 0..<6 { h = t - AltitudeCorrection.refraction(apparentAltitude: h, celsius: air.0, hectopascals: air.1) / 60 }
        return h
    }

    /// How much refraction shortens a vertical arc at apparent altitude `h`: d(refraction)/dh.
    static func refractionGradient(_ h: Double, _ air: (Double, Double)) -> Double {
        let r = { (x: Double) in AltitudeCorrection.refraction(apparentAltitude: x, celsius: air.0, hectopascals: air.1) / 60 }
        return (r(h + 0.01) - r(h - 0.01)) / 0.02
    }

    /// The angle between two unit vectors, degrees, exact at any size.
    static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let cross = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        return degrees(atan2((cross * cross).sum().squareRoot(), (a * b).sum()))
    }

    static func clamped(_ x: Double) -> Double { min(1, max(-1, x)) }
}

/// Where a body is seen from an observer on the WGS 84 ellipsoid: its unrefracted altitude
/// and azimuth, and its semi-diameter from there; with its geocentric direction.
struct TopocentricPlace {
    var altitude: Double
    var azimuth: Double
    var semiDiameter: Double
    var geocentric: SIMD3<Double>

    static let earthRadiiPerAU = 149_597_870.7 / (EarthFigure.equatorialRadius / 1000)

    init(_ body: Body, _ e: AlmanacEntry, from p: Position) {
        let lha = radians(e.gha + p.longitude), dec = radians(e.declination)
        // Axes: toward the observer's meridian on the equator, east, and the north pole.
        let direction = SIMD3(cos(dec) * cos(lha), -cos(dec) * sin(lha), sin(dec))
        geocentric = direction
        let (rho, tilt) = EarthFigure.observer(latitude: p.latitude, metres: 0)
        let phi = radians(p.latitude), centric = phi - tilt
        let observer = SIMD3(rho * cos(centric), 0, rho * sin(centric))
        // Distance and radius in the Earth's equatorial radii; a star is a point at infinity,
        // and a planet's centre is taken.
        var (distance, radius) = (Double.infinity, 0.0)
        switch body {
        case .moon:
            distance = 1 / sin(radians(e.horizontalParallax / 60))
            radius = AltitudeCorrection.moonRadius
        case .sun:
            distance = (e.distance ?? 1) * Self.earthRadiiPerAU
            radius = sin(radians(e.semiDiameter / 60)) * distance
        case .venus, .mars, .jupiter, .saturn:
            distance = (e.distance ?? 1) * Self.earthRadiiPerAU
        case .star:
            break
        }
        var seen = direction, range = distance
        if distance.isFinite {
            let v = direction * distance - observer
            range = (v * v).sum().squareRoot()
            seen = v / range
        }
        let up = SIMD3(cos(phi), 0, sin(phi)), north = SIMD3(-sin(phi), 0, cos(phi)), east = SIMD3(0.0, 1, 0)
        altitude = degrees(asin((seen * up).sum()))
        azimuth = degrees(atan2((seen * east).sum(), (seen * north).sum()))
        semiDiameter = radius > 0 ? degrees(asin(radius / range)) : 0
    }
}
