import Foundation
import MarkTimeCore

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

    /// Hc and Zn as given, degrees.
    init(altitude: Double, azimuth: Double) { (self.altitude, self.azimuth) = (altitude, azimuth) }

    /// The intercept in nautical miles for observed altitude `ho` (degrees): positive toward.
    public func intercept(observed ho: Double) -> Double { (ho - altitude) * 60 }
}

extension ReducedSight {
    /// The line of position as it is plotted: the foot of the intercept (the assumed
    /// position moved the intercept along Zn, or against it when away), and the line's true
    /// direction there (Zn + 90°).
    public var lineOfPosition: (foot: Position, direction: Double) {
        let z = radians(computed.azimuth)
        return (assumedPosition.offset(north: intercept * cos(z), east: intercept * sin(z)), normalized(computed.azimuth + 90))
    }

    /// The two ends of the line of position `halfLength` nm either side of its foot.
    public func lineEnds(halfLength: Double) -> (Position, Position) {
        let (foot, direction) = lineOfPosition
        let d = radians(direction)
        return (foot.offset(north: halfLength * cos(d), east: halfLength * sin(d)),
                foot.offset(north: -halfLength * cos(d), east: -halfLength * sin(d)))
    }
}

extension SextantAngle {
    /// Reads an altitude given by hand (`polaris --ho`, `identify --altitude`): written as
    /// Hs is, and from 0° (the horizon) to 90° (the zenith), else refused naming `option`.
    public static func altitude(_ text: String, option: String) throws(InputError) -> Double {
        if text.trimmingWhitespace().hasPrefix("-"), text.contains(where: \.isNumber) {
            throw InputError("\(option) \(Text.shown(text.trimmingWhitespace())) is below the horizon: an altitude is from 0° on the horizon to 90° at the zenith; "
                + "give one such as \"40 12.5\"")
        }
        let value = try parse(text, what: option, range: nil)
        guard value <= 90 else {
            throw InputError("\(option) \(format(value)) is above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give one such as \"40 12.5\"")
        }
        return value
    }
}
