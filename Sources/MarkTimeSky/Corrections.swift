import Foundation
import MarkTimeCore

/// The corrections from sextant altitude (Hs) to observed altitude (Ho), each in
/// arc-minutes to be added, as the Nautical Almanac's explanation states them.
public enum AltitudeCorrection {
    /// Index error, as marktime stores it and `--ie` takes it: the correction in
    /// arc-minutes, negative when the error is on the arc (subtracted), positive when off
    /// the arc (added). A sextant reading 2.4′ on the arc at the true horizon is `-2.4`.
    public static func index(_ ie: Double) -> Double { ie }

    /// Dip of the sea horizon for a height of eye in metres: −1.76′ √h.
    public static func dip(heightOfEye metres: Double) -> Double { -1.76 * sqrt(max(0, metres)) }

    /// Refraction at apparent altitude `ha` (degrees), with temperature (°C) and pressure
    /// (hPa); standard air is 10 °C and 1010 hPa. R₀ = 0.0167° / tan(H + 7.32 / (H + 4.32)),
    /// scaled by 0.28 P / (T + 273).
    public static func refraction(apparentAltitude ha: Double, celsius: Double = 10, hectopascals: Double = 1010) -> Double {
        let r0 = 0.0167 / tan(radians(ha + 7.32 / (ha + 4.32)))
        return -r0 * 60 * 0.28 * hectopascals / (celsius + 273)
    }

    /// Parallax in altitude from horizontal parallax (arc-minutes) at altitude `h`
    /// (degrees, refraction removed): asin(sin HP cos h).
    public static func parallax(horizontalParallax hp: Double, altitude h: Double) -> Double {
        degrees(asin(sin(radians(hp / 60)) * cos(radians(h)))) * 60
    }

    /// Phase of Venus or Mars: the navigator sets the centre of light on the horizon, and
    /// on a gibbous or crescent disk that lies toward the Sun, off the centre by
    /// 4/(3π) · SD · (1 − cos i) for a uniformly bright disk, `i` the phase angle. The
    /// correction is minus that offset's vertical part, `q` being the angle at the planet
    /// between the upward vertical and the direction to the Sun (degrees).
    public static func phase(semiDiameter sd: Double, phaseAngle i: Double, sunFromVertical q: Double) -> Double {
        -4 / (3 * .pi) * sd * (1 - cos(radians(i))) * cos(radians(q))
    }

    /// Semi-diameter: added for the lower limb, subtracted for the upper, none for the centre.
    public static func semiDiameter(_ sd: Double, limb: Limb) -> Double {
        switch limb {
        case .lower: sd
        case .center: 0
        case .upper: -sd
        }
    }

    /// The Moon's correction from the topocentric altitude of its limb to the geocentric
    /// altitude of its centre, as the spherical Hc formula at the geodetic `latitude` gives
    /// it: semi-diameter as seen from the observer, then parallax at the centre's altitude,
    /// and the Earth's oblateness (OB), all exact for an observer on the WGS 84 ellipsoid
    /// at `metres` height. `h` is the limb's altitude with refraction removed, `azimuth` the
    /// Moon's (degrees); `distance` is the Moon's from the Earth's centre, in equatorial
    /// radii (1 / sin HP). Arc-minutes, each as added.
    public static func moon(limbAltitude h: Double, limb: Limb, azimuth: Double, latitude: Double, metres: Double = 0,
                            distance: Double) -> (semiDiameter: Double, parallax: Double, oblateness: Double) {
        let (rho, tilt) = EarthFigure.observer(latitude: latitude, metres: metres)
        // The observer in the horizon frame (east, north, up), up along the ellipsoid's normal.
        let (north, up) = (-rho * sin(tilt), rho * cos(tilt))
        let z = radians(azimuth)
        var sd = asin(moonRadius / distance)
        var centre = radians(h)
        var range = distance
        for _ in 0..<3 {
            centre = radians(h) + (limb == .lower ? sd : limb == .upper ? -sd : 0)
            let (un, uu) = (cos(centre) * cos(z), sin(centre))
            let along = north * un + up * uu
            range = -along + (along * along - rho * rho + distance * distance).squareRoot()
            sd = asin(moonRadius / range)
        }
        let geocentric = asin((up + range * sin(centre)) / distance)
        let spherical = asin(cos(centre) / distance)
        let total = degrees(geocentric - centre) * 60
        let parallax = degrees(spherical) * 60
        return (degrees(sd) * 60 * (limb == .lower ? 1 : limb == .upper ? -1 : 0), parallax, total - parallax)
    }

    /// The Moon's radius in the Earth's equatorial radii: its geocentric semi-diameter is
    /// asin(k sin HP).
    static let moonRadius = 0.272481
}
