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
        ariesGHA(time, EarthOrientation.Frame(time.centuriesTT))
    }

    /// The Sun's apparent place.
    public static func sun(_ time: SkyTime) -> AlmanacEntry {
        let frame = EarthOrientation.Frame(time.centuriesTT)
        let place = SunTheory.apparentPlace(centuriesTT: time.centuriesTT, frame: frame)
        return AlmanacEntry(body: "Sun", gha: normalized(ariesGHA(time, frame) - place.rightAscension), declination: place.declination,
                            sha: nil, semiDiameter: 959.63 / place.radius / 60, horizontalParallax: 8.794 / place.radius / 60)
    }

    static func ariesGHA(_ time: SkyTime, _ frame: EarthOrientation.Frame) -> Double {
        normalized(EarthOrientation.meanSiderealTime(ut1: time.ut1) + frame.nutationInLongitude * cos(radians(frame.obliquity)))
    }
}

/// The Sun's geocentric apparent place (Meeus, chapter 25, with VSOP87).
enum SunTheory {
    /// Right ascension and declination (degrees) and distance (au).
    static func apparentPlace(centuriesTT t: Double, frame: EarthOrientation.Frame) -> (rightAscension: Double, declination: Double, radius: Double) {
        let earth = Earth.position(tau: t / 10)
        let obliquity = radians(frame.obliquity)
        // Geocentric: opposite the Earth's heliocentric direction; then nutation and aberration.
        let longitude = radians(degrees(earth.longitude) + 180 + frame.nutationInLongitude - 20.4898 / 3600 / earth.radius)
        let latitude = -earth.latitude
        let ra = atan2(sin(longitude) * cos(obliquity) - tan(latitude) * sin(obliquity), cos(longitude))
        let dec = asin(sin(latitude) * cos(obliquity) + cos(latitude) * sin(obliquity) * sin(longitude))
        return (normalized(degrees(ra)), degrees(dec), earth.radius)
    }
}
