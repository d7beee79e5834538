import Foundation
import MarkTimeCore

/// A body's place as the Nautical Almanac gives it: GHA and declination (degrees), SHA
/// for a star, semi-diameter and horizontal parallax (arc-minutes).
public struct AlmanacEntry: Hashable, Sendable {
    public var body: String
    public var gha: Double
    public var declination: Double
    public var sha: Double?
    public var semiDiameter: Double
    public var horizontalParallax: Double
}

/// The almanac: where each body is at an instant, from published theories, with no
/// ephemeris file. Sun: VSOP87 (truncated, about 1″); Aries: Greenwich apparent sidereal
/// time from UT1.
public enum Almanac {
    /// GHA of Aries (the apparent sidereal time at Greenwich), degrees.
    public static func ariesGHA(_ time: SkyTime) -> Double {
        let t = time.centuriesTT
        let nutation = EarthOrientation.nutation(t)
        let obliquity = EarthOrientation.meanObliquity(t) + nutation.obliquity
        return normalized(EarthOrientation.meanSiderealTime(ut1: time.ut1) + nutation.longitude * cos(radians(obliquity)))
    }

    /// The Sun's apparent place.
    public static func sun(_ time: SkyTime) -> AlmanacEntry {
        let place = SunTheory.apparentPlace(centuriesTT: time.centuriesTT)
        return AlmanacEntry(body: "Sun", gha: normalized(ariesGHA(time) - place.rightAscension), declination: place.declination,
                            sha: nil, semiDiameter: 959.63 / place.radius / 60, horizontalParallax: 8.794 / place.radius / 60)
    }
}

/// The Sun's geocentric apparent place (Meeus, chapter 25, with VSOP87).
enum SunTheory {
    /// Right ascension and declination (degrees) and distance (au).
    static func apparentPlace(centuriesTT t: Double) -> (rightAscension: Double, declination: Double, radius: Double) {
        let earth = Earth.position(tau: t / 10)
        let nutation = EarthOrientation.nutation(t)
        let obliquity = radians(EarthOrientation.meanObliquity(t) + nutation.obliquity)
        // Geocentric: opposite the Earth's heliocentric direction; then nutation and aberration.
        let longitude = radians(degrees(earth.longitude) + 180 + nutation.longitude - 20.4898 / 3600 / earth.radius)
        let latitude = -earth.latitude
        let ra = atan2(sin(longitude) * cos(obliquity) - tan(latitude) * sin(obliquity), cos(longitude))
        let dec = asin(sin(latitude) * cos(obliquity) + cos(latitude) * sin(obliquity) * sin(longitude))
        return (normalized(degrees(ra)), degrees(dec), earth.radius)
    }
}
