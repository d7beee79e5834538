import Foundation

/// The Earth's figure (WGS 84), for where an observer stands relative to its centre.
enum EarthFigure {
    static let flattening = 1 / 298.257223563
    static let equatorialRadius = 6_378_137.0

    /// An observer at geodetic `latitude` (degrees), `metres` above the ellipsoid: their
    /// distance from the centre ρ (equatorial radii), and how far the radius to them
    /// tilts from their vertical, φ − φ′ (radians, toward the equator). Meeus chapter 11.
    static func observer(latitude: Double, metres: Double) -> (rho: Double, tilt: Double) {
        let phi = radians(latitude)
        let u = atan((1 - flattening) * tan(phi))
        let height = metres / equatorialRadius
        let s = (1 - flattening) * sin(u) + height * sin(phi)
        let c = cos(u) + height * cos(phi)
        return ((s * s + c * c).squareRoot(), phi - atan2(s, c))
    }
}
