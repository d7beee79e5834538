import Foundation

/// The computed altitude and azimuth of a body from an assumed position, and a sight's
/// intercept from them.
public struct Computed: Hashable, Sendable {
    /// Hc, degrees.
    public var altitude: Double
    /// Zn, degrees true, 0–360.
    public var azimuth: Double

    /// Hc and Zn of a body at `gha`/`declination` seen from `latitude`/`longitude` (east
    /// positive), all degrees. Zn comes from atan2, never from the cosine rule.
    public init(gha: Double, declination: Double, latitude: Double, longitude: Double) {
        let lha = radians(gha + longitude), dec = radians(declination), lat = radians(latitude)
        altitude = degrees(asin(min(1, max(-1, sin(lat) * sin(dec) + cos(lat) * cos(dec) * cos(lha)))))
        azimuth = normalized(degrees(atan2(-cos(dec) * sin(lha), sin(dec) * cos(lat) - cos(dec) * sin(lat) * cos(lha))))
    }

    /// The intercept in nautical miles for observed altitude `ho` (degrees): positive toward.
    public func intercept(observed ho: Double) -> Double { (ho - altitude) * 60 }
}
