import Foundation
import MarkTimeCore

/// Naming an unknown body from where it was seen: every star and planet above the horizon,
/// by its distance on the sky from the observed altitude and azimuth.
public enum BodyIdentification {
    /// A body that may be the one observed.
    public struct Candidate: Hashable, Sendable {
        public var body: Body
        /// Hc and Zn from the position, degrees.
        public var altitude: Double
        public var azimuth: Double
        /// The angle on the sky between the observation and the body, degrees.
        public var distance: Double
        /// Visual magnitude (a star's catalogue value; nil for a planet).
        public var magnitude: Double?
    }

    /// The stars and planets within `radius` degrees of altitude `altitude` and true
    /// azimuth `azimuth` seen from `position` at `time`, nearest first.
    public static func candidates(altitude: Double, azimuth: Double, at time: SkyTime, from position: Position,
                                  within radius: Double = 10) -> [Candidate] {
        let h = radians(altitude), z = radians(azimuth)
        return (Body.planets + Star.catalogue.map(Body.star)).compactMap { body in
            let e = Almanac.entry(body, at: time)
            let c = Computed(gha: e.gha, declination: e.declination, latitude: position.latitude, longitude: position.longitude)
            guard c.altitude > -1 else { return nil }
            let hb = radians(c.altitude), zb = radians(c.azimuth)
            let cosine = sin(h) * sin(hb) + cos(h) * cos(hb) * cos(z - zb)
            let distance = degrees(acos(min(1, max(-1, cosine))))
            guard distance <= radius else { return nil }
            var magnitude: Double?
            if case .star(let star) = body { magnitude = star.magnitude }
            return Candidate(body: body, altitude: c.altitude, azimuth: c.azimuth, distance: distance, magnitude: magnitude)
        }
        .sorted { $0.distance < $1.distance }
    }
}
