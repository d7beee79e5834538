import Foundation

/// The corrections from sextant altitude (Hs) to observed altitude (Ho), each in
/// arc-minutes to be added, as the Nautical Almanac's explanation states them.
public enum AltitudeCorrection {
    /// Index error: `ie` is the sextant's reading of the true horizon, in arc-minutes,
    /// positive on the arc. On the arc is subtracted, off the arc added.
    public static func index(_ ie: Double) -> Double { -ie }

    /// Dip of the sea horizon for a height of eye in metres: −1.76′ √h.
    public static func dip(heightOfEye metres: Double) -> Double { -1.76 * sqrt(max(0, metres)) }

    /// Refraction at apparent altitude `ha` (degrees), with temperature (°C) and pressure
    /// (hPa); standard air is 10 °C and 1010 hPa. R₀ = 0.0167° / tan(H + 7.32 / (H + 4.32)),
    /// scaled by 0.28 P / (T + 273).
    public static func refraction(apparentAltitude ha: Double, celsius: Double = 10, hectopascals: Double = 1010) -> Double {
        let r0 = 0.0167 / tan(radians(ha + 7.32 / (ha + 4.32)))
        return -r0 * 60 * 0.28 * hectopascals / (celsius + 273)
    }

    /// Parallax in altitude from horizontal parallax (arc-minutes) at apparent altitude `ha`.
    public static func parallax(horizontalParallax hp: Double, apparentAltitude ha: Double) -> Double {
        hp * cos(radians(ha))
    }

    /// Which edge of the Sun or Moon was brought to the horizon.
    public enum Limb: String, Sendable { case lower, upper }

    /// Semi-diameter: added for the lower limb, subtracted for the upper.
    public static func semiDiameter(_ sd: Double, limb: Limb) -> Double { limb == .lower ? sd : -sd }

    /// The Moon's semi-diameter as seen from the Earth's surface at apparent altitude `ha`:
    /// larger than the geocentric one by the factor 1 + sin(HP) sin(Ha) (augmentation).
    public static func augmented(semiDiameter sd: Double, horizontalParallax hp: Double, apparentAltitude ha: Double) -> Double {
        sd * (1 + sin(radians(hp / 60)) * sin(radians(ha)))
    }
}
