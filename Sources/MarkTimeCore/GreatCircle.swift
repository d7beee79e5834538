import Foundation

/// Distances and bearings on a sphere of radius 6371 km (haversine). The error
/// against the WGS-84 ellipsoid is under 0.5 %, far inside a geofence's margin.
public enum GreatCircle {
    public static let earthRadius = 6_371_000.0

    /// Metres between `a` and `b`, along the great circle.
    public static func distance(_ a: Position, _ b: Position) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Nautical miles between `a` and `b`: their angle at the Earth's centre in arc-minutes,
    /// the navigator's mile, whatever radius a chart's datum gives the Earth.
    public static func nauticalMiles(_ a: Position, _ b: Position) -> Double {
        distance(a, b) / earthRadius * 180 / .pi * 60
    }

    /// Initial true bearing from `a` to `b`, degrees 0 ..< 360.
    public static func bearing(from a: Position, to b: Position) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let θ = atan2(y, x) * 180 / .pi
        return (θ + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The point `metres` from `origin` on true bearing `degrees`.
    public static func destination(from origin: Position, bearing degrees: Double, metres: Double) throws(InputError) -> Position {
        let δ = metres / earthRadius, θ = degrees * .pi / 180
        let φ1 = origin.latitude * .pi / 180, λ1 = origin.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        var lon = λ2 * 180 / .pi
        lon = (lon + 540).truncatingRemainder(dividingBy: 360) - 180
        return try Position(latitude: φ2 * 180 / .pi, longitude: lon)
    }
}

/// Metres as a navigator reads them: `850 m` below a nautical mile, `2.3 nm` above.
public func distanceText(_ metres: Double) -> String {
    metres < 1852 ? Quantity.metres(metres) : String(format: "%.1f nm", metres / 1852)
}
