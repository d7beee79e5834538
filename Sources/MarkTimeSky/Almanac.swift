import Foundation
import MarkTimeCore

/// A body the almanac places.
public enum Body: Hashable, Sendable {
    case sun, moon, venus, mars, jupiter, saturn
    case star(Star)

    public static let planets: [Body] = [.venus, .mars, .jupiter, .saturn]
    /// Every body, in the almanac's order: the Sun, the Moon, the planets, then the stars by number.
    public static let all: [Body] = [.sun, .moon] + planets + Star.catalogue.map(Body.star)

    /// The almanac's name.
    public var name: String {
        switch self {
        case .sun: "Sun"
        case .moon: "Moon"
        case .venus: "Venus"
        case .mars: "Mars"
        case .jupiter: "Jupiter"
        case .saturn: "Saturn"
        case .star(let star): star.name
        }
    }

    /// The body a navigator named, in any case, by its almanac name, another usual name,
    /// or a star's number; nil when nothing matches.
    public init?(named text: String) {
        // A name as stored ("Sun") is found before any key is made of it.
        if let found = Self.byName[text] {
            self = found
            return
        }
        let key = Self.key(text)
        if let found = Self.byKey[key] ?? Int(key).flatMap({ Self.byKey[String($0)] }) {
            self = found
        } else {
            return nil
        }
    }

    /// Every body by its almanac name as written, and by each name's and number's key.
    static let byName: [String: Body] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    static let byKey: [String: Body] = {
        var table: [String: Body] = [:]
        for body in all {
            for name in body.names { table[key(name)] = body }
            if case .star(let star) = body, let n = star.number { table[String(n)] = body }
        }
        return table
    }()

    /// The body a navigator named, or an error that names the nearest ones.
    public static func parse(_ text: String) throws(InputError) -> Body {
        let name = try Text.name(text, what: "a body", example: "Sun, Moon, Venus or Sirius")
        if let body = Body(named: name) { return body }
        throw InputError("unknown body '\(name)': give an almanac name (Sun, Moon, Venus, Mars, Jupiter, Saturn, a navigational star or Polaris) or a star's number 1–57; nearest: \(nearest(to: text).joined(separator: ", "))")
    }

    /// Up to three known names nearest to `text`, for a refusal that helps.
    public static func nearest(to text: String) -> [String] {
        let wanted = key(text)
        let scored = all.map { body in (body.name, body.names.map { Text.editDistance(key($0), wanted) }.min() ?? .max) }
        return scored.sorted { $0.1 < $1.1 || $0.1 == $1.1 && $0.0 < $1.0 }.prefix(3).map(\.0)
    }

    var names: [String] {
        if case .star(let star) = self { return [star.name] + star.aliases }
        return [name]
    }

    /// Lower case, letters and digits only: "Rigil Kent." and "rigil kent" match.
    static func key(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}

/// A body's place as the Nautical Almanac gives it: GHA and declination (degrees), SHA
/// for a star, semi-diameter and horizontal parallax (arc-minutes).
public struct AlmanacEntry: Hashable, Sendable {
    public var body: String
    public var gha: Double
    public var declination: Double
    public var sha: Double?
    public var semiDiameter: Double
    public var horizontalParallax: Double
    /// Distance from the Earth's centre, au.
    public var distance: Double?
}

/// The almanac: where each body is at an instant, from published theories, with no
/// ephemeris file. Sun and planets: VSOP87D (truncated, Meeus Appendix III); Moon:
/// ELP 2000-82B (its terms of at least 0.01″, `MoonTheory`); stars: Hipparcos places carried by
/// proper motion and precession (IAU 1976, Meeus 21.2–21.4); all with nutation (IAU
/// 1980) and annual aberration (Meeus 23.2). Aries: Greenwich apparent sidereal time from UT1.
public enum Almanac {
    /// GHA of Aries (the apparent sidereal time at Greenwich), degrees.
    public static func ariesGHA(_ time: SkyTime) -> Double {
        ariesGHA(time, EarthOrientation.Frame(time.centuriesTT))
    }

    /// Where `body` is at `time`.
    public static func entry(_ body: Body, at time: SkyTime) -> AlmanacEntry {
        let frame = EarthOrientation.Frame(time.centuriesTT)
        let aries = ariesGHA(time, frame)
        switch body {
        case .sun:
            let place = SunTheory.apparentPlace(centuriesTT: time.centuriesTT, frame: frame)
            return AlmanacEntry(body: body.name, gha: normalized(aries - place.rightAscension), declination: place.declination,
                                sha: nil, semiDiameter: 959.63 / place.radius / 60, horizontalParallax: 8.794 / place.radius / 60,
                                distance: place.radius)
        case .moon:
            let moon = MoonTheory.apparentPlace(centuriesTT: time.centuriesTT, frame: frame)
            let hp = asin(6378.14 / moon.distance)
            return AlmanacEntry(body: body.name, gha: normalized(aries - moon.rightAscension), declination: moon.declination, sha: nil,
                                semiDiameter: degrees(asin(0.272481 * sin(hp))) * 60, horizontalParallax: degrees(hp) * 60,
                                distance: moon.distance / 149_597_870.7)
        case .venus, .mars, .jupiter, .saturn:
            let place = PlanetTheory.apparentPlace(body, centuriesTT: time.centuriesTT, frame: frame)
            return AlmanacEntry(body: body.name, gha: normalized(aries - place.rightAscension), declination: place.declination,
                                sha: nil, semiDiameter: PlanetTheory.semiDiameterAt1AU(body) / place.distance / 60,
                                horizontalParallax: 8.794 / place.distance / 60, distance: place.distance)
        case .star(let star):
            let place = StarTheory.apparentPlace(star, centuriesTT: time.centuriesTT, frame: frame)
            let sha = normalized(360 - place.rightAscension)
            return AlmanacEntry(body: body.name, gha: normalized(aries + sha), declination: place.declination, sha: sha,
                                semiDiameter: 0, horizontalParallax: 0, distance: nil)
        }
    }

    /// The Sun's apparent place.
    public static func sun(_ time: SkyTime) -> AlmanacEntry { entry(.sun, at: time) }

    static func ariesGHA(_ time: SkyTime, _ frame: EarthOrientation.Frame) -> Double {
        normalized(EarthOrientation.meanSiderealTime(ut1: time.ut1) + frame.nutationInLongitude * cos(radians(frame.obliquity)))
    }
}

extension EarthOrientation.Frame {
    /// Ecliptic longitude and latitude of date → right ascension and declination, all
    /// degrees, with the true obliquity.
    func equatorial(longitude: Double, latitude: Double) -> (rightAscension: Double, declination: Double) {
        let l = radians(longitude), b = radians(latitude), e = radians(obliquity)
        let ra = atan2(sin(l) * cos(e) - tan(b) * sin(e), cos(l))
        let dec = asin(sin(b) * cos(e) + cos(b) * sin(e) * sin(l))
        return (normalized(degrees(ra)), degrees(dec))
    }

    /// Annual aberration in ecliptic longitude and latitude (degrees) of a body at
    /// `longitude`/`latitude`, with the Sun's true longitude `sun` (Meeus 23.2).
    static func aberration(longitude: Double, latitude: Double, sun: Double, t: Double) -> (Double, Double) {
        let kappa = 20.49552 / 3600
        let e = 0.016708634 - 0.000042037 * t - 0.0000001267 * t * t
        let perihelion = 102.93735 + 1.71946 * t + 0.00046 * t * t
        let l = radians(longitude), b = radians(latitude), s = radians(sun), p = radians(perihelion)
        let dl = (-kappa * cos(s - l) + e * kappa * cos(p - l)) / cos(b)
        let db = -kappa * sin(b) * (sin(s - l) - e * sin(p - l))
        return (dl, db)
    }
}

/// The Sun's geocentric apparent place (Meeus, chapter 25, with VSOP87).
enum SunTheory {
    /// Right ascension and declination (degrees) and distance (au).
    static func apparentPlace(centuriesTT t: Double, frame: EarthOrientation.Frame) -> (rightAscension: Double, declination: Double, radius: Double) {
        let earth = VSOP87.earth.position(tau: t / 10)
        // Geocentric: opposite the Earth's heliocentric direction; then nutation and aberration.
        let longitude = degrees(earth.longitude) + 180 + frame.nutationInLongitude - 20.4898 / 3600 / earth.radius
        let (ra, dec) = frame.equatorial(longitude: longitude, latitude: -degrees(earth.latitude))
        return (ra, dec, earth.radius)
    }
}

/// The planets' geocentric apparent places (Meeus, chapter 33): light-time, annual
/// aberration, nutation.
enum PlanetTheory {
    static func series(_ body: Body) -> VSOP87 {
        switch body {
        case .venus: .venus
        case .mars: .mars
        case .jupiter: .jupiter
        default: .saturn
        }
    }

    /// Semi-diameter at 1 au, arc-seconds (Meeus, chapter 55; equatorial for Jupiter and Saturn).
    static func semiDiameterAt1AU(_ body: Body) -> Double {
        switch body {
        case .venus: 8.41
        case .mars: 4.68
        case .jupiter: 98.44
        default: 82.73
        }
    }

    static func apparentPlace(_ body: Body, centuriesTT t: Double, frame: EarthOrientation.Frame)
        -> (rightAscension: Double, declination: Double, distance: Double) {
        let tau = t / 10
        let earth = VSOP87.earth.position(tau: tau)
        let e = (x: earth.radius * cos(earth.latitude) * cos(earth.longitude),
                 y: earth.radius * cos(earth.latitude) * sin(earth.longitude), z: earth.radius * sin(earth.latitude))
        var lightTime = 0.0, x = 0.0, y = 0.0, z = 0.0, distance = 0.0
        // The planet where it was when the light now arriving left it: two passes settle it.
        for _ in 0..<3 {
            let p = series(body).position(tau: tau - lightTime / 365_250)
            x = p.radius * cos(p.latitude) * cos(p.longitude) - e.x
            y = p.radius * cos(p.latitude) * sin(p.longitude) - e.y
            z = p.radius * sin(p.latitude) - e.z
            distance = sqrt(x * x + y * y + z * z)
            lightTime = 0.0057755183 * distance
        }
        let longitude = degrees(atan2(y, x)), latitude = degrees(atan2(z, sqrt(x * x + y * y)))
        let sun = degrees(earth.longitude) + 180
        let (dl, db) = EarthOrientation.Frame.aberration(longitude: longitude, latitude: latitude, sun: sun, t: t)
        let (ra, dec) = frame.equatorial(longitude: longitude + dl + frame.nutationInLongitude, latitude: latitude + db)
        return (ra, dec, distance)
    }
}

/// The stars' apparent places: proper motion from J2000.0, precession to the equinox of
/// date (IAU 1976, Meeus 21.2–21.4), then aberration and nutation in ecliptic
/// coordinates, which hold near the celestial pole where the equatorial series do not.
enum StarTheory {
    static func apparentPlace(_ star: Star, centuriesTT t: Double, frame: EarthOrientation.Frame) -> (rightAscension: Double, declination: Double) {
        let years = t * 100
        let dec0 = star.declination + star.properMotionDec / 3_600_000 * years
        let ra0 = star.rightAscension * 15 + star.properMotionRA / 3_600_000 * years / cos(radians(star.declination))
        let (ra, dec) = EarthOrientation.precessed(rightAscension: ra0, declination: dec0, t: t)
        // To the ecliptic of date (mean obliquity), aberration and nutation there, and back.
        let (lambda, beta) = EarthOrientation.ecliptic(rightAscension: ra, declination: dec, t: t)
        let sun = degrees(VSOP87.earth.position(tau: t / 10).longitude) + 180
        let (dl, db) = EarthOrientation.Frame.aberration(longitude: lambda, latitude: beta, sun: sun, t: t)
        return frame.equatorial(longitude: lambda + dl + frame.nutationInLongitude, latitude: beta + db)
    }
}

extension EarthOrientation {
    /// A place on the equator of J2000 precessed to the mean equator of date (IAU 1976,
    /// Meeus 21.2–21.4), degrees.
    static func precessed(rightAscension ra0: Double, declination dec0: Double, t: Double) -> (rightAscension: Double, declination: Double) {
        let zeta = radians((2306.2181 * t + 0.30188 * t * t + 0.017998 * t * t * t) / 3600)
        let z = radians((2306.2181 * t + 1.09468 * t * t + 0.018203 * t * t * t) / 3600)
        let theta = radians((2004.3109 * t - 0.42665 * t * t - 0.041833 * t * t * t) / 3600)
        let a = radians(ra0), d = radians(dec0)
        let pa = cos(d) * sin(a + zeta)
        let pb = cos(theta) * cos(d) * cos(a + zeta) - sin(theta) * sin(d)
        let pc = sin(theta) * cos(d) * cos(a + zeta) + cos(theta) * sin(d)
        return (degrees(atan2(pa, pb) + z), degrees(asin(pc)))
    }

    /// A place on the mean equator of date on the mean ecliptic of date, degrees: the
    /// ecliptic is where aberration and nutation hold near the celestial pole.
    static func ecliptic(rightAscension: Double, declination: Double, t: Double) -> (longitude: Double, latitude: Double) {
        let eps0 = radians(meanObliquity(t)), ra = radians(rightAscension), dec = radians(declination)
        return (degrees(atan2(sin(ra) * cos(eps0) + tan(dec) * sin(eps0), cos(ra))),
                degrees(asin(sin(dec) * cos(eps0) - cos(dec) * sin(eps0) * sin(ra))))
    }
}

/// The First Point of Aries: the almanac's GHA♈ column (`Almanac.ariesGHA`), from which a
/// navigator working by hand takes a star's GHA (GHA♈ + SHA). Not a body one can sight.
public enum Aries {
    /// Whether `text` names it: "Aries", "First Point of Aries" or "♈", in any case.
    public static func isNamed(_ text: String) -> Bool {
        ["aries", "firstpointofaries", "pointofaries"].contains(Body.key(text)) || text.trimmingCharacters(in: .whitespaces) == "♈"
    }

    /// LHA♈ = GHA♈ + east longitude (west negative), 0–360°.
    public static func localHourAngle(gha: Double, longitude: Double) -> Double { normalized(gha + longitude) }

    /// The 24 whole hours of `utc`'s UTC day, as the almanac's daily page lists GHA♈.
    public static func hours(ofDayOf utc: UTCTime) -> [UTCTime] {
        let day: Int64 = 86_400_000_000_000, ns = utc.nanosecondsSinceEpoch
        let midnight = ns - ((ns % day) + day) % day
        return (0..<24).map { UTCTime(nanosecondsSinceEpoch: midnight + Int64($0) * 3_600_000_000_000) }
    }
}
