import Foundation
import MarkTimeCore

/// The triangle of the Sun, a planet and the Earth at one instant.
struct PhaseGeometry {
    /// Planet–Sun and planet–Earth distances, au.
    var r: Double
    var delta: Double
    /// The planet's angle from the Sun in the sky, and the phase angle at the planet, degrees.
    var elongation: Double
    var phaseAngle: Double

    init?(_ planet: AlmanacEntry, sun: AlmanacEntry) {
        guard let delta = planet.distance, let earthSun = sun.distance else { return nil }
        let dp = radians(planet.declination), ds = radians(sun.declination)
        let cosE = min(1, max(-1, sin(dp) * sin(ds) + cos(dp) * cos(ds) * cos(radians(sun.gha - planet.gha))))
        r = (earthSun * earthSun + delta * delta - 2 * earthSun * delta * cosE).squareRoot()
        self.delta = delta
        elongation = degrees(acos(cosE))
        phaseAngle = degrees(acos(min(1, max(-1, (r * r + delta * delta - earthSun * earthSun) / (2 * r * delta)))))
    }
}

extension Almanac {
    /// Visual magnitude: the catalogue's for a star; Meeus (chapter 41, from the
    /// Astronomical Almanac 1984) for the planets, Saturn without its rings' term; the
    /// Moon by Allen's phase law; the Sun −26.7.
    public static func magnitude(_ body: Body, at time: SkyTime) -> Double {
        switch body {
        case .star(let star): return star.magnitude
        case .sun: return -26.7
        default: break
        }
        let sun = entry(.sun, at: time)
        let place = entry(body, at: time)
        if body == .moon {
            let i = 180 - PhaseGeometry(place, sun: sun).map(\.elongation)!
            return -12.73 + 0.026 * abs(i) + 4e-9 * pow(i, 4)
        }
        guard let g = PhaseGeometry(place, sun: sun) else { return 0 }
        let distance = 5 * log10(g.r * g.delta), i = g.phaseAngle
        switch body {
        case .venus: return -4.40 + distance + 0.0009 * i + 0.000239 * i * i - 0.00000065 * i * i * i
        case .mars: return -1.52 + distance + 0.016 * i
        case .jupiter: return -9.40 + distance + 0.005 * i
        default: return -8.88 + distance
        }
    }
}

/// A body's place in the observer's sky: a line of the star finder.
public struct SkyBody: Hashable, Sendable {
    public var body: Body
    /// Hc and Zn, degrees.
    public var computed: Computed
    public var magnitude: Double
}

/// The Sun's altitude through the day: sunrise, sunset and the twilights, and the shade
/// of the sky they bound.
public enum SunEvents {
    /// The sky's shade by the Sun's altitude.
    public enum Shade: String, CaseIterable, Sendable {
        case day, civil, nautical, astronomical, night

        /// Day above −0° 50′ (the upper limb on the horizon, with refraction); civil,
        /// nautical and astronomical twilight down to −6°, −12° and −18°; night below.
        public init(sunAltitude h: Double) {
            self = h > SunEvents.horizon ? .day : h > -6 ? .civil : h > -12 ? .nautical : h > -18 ? .astronomical : .night
        }
    }

    /// The Sun's centre at sunrise and sunset: 34′ of refraction and 16′ of semi-diameter below.
    public static let horizon = -50.0 / 60

    /// The Sun's altitude (degrees) at `utc` seen from `position`; nil outside 1990–2060.
    public static func altitude(at utc: UTCTime, from position: Position) -> Double? {
        guard let time = SkyTime(utc) else { return nil }
        let sun = Almanac.entry(.sun, at: time)
        return Computed(gha: sun.gha, declination: sun.declination, latitude: position.latitude, longitude: position.longitude).altitude
    }

    /// The first time after `start`, within `hours`, that the Sun's centre rises (or sets)
    /// through `altitude` degrees at `position`, to the second; nil if it does not.
    public static func next(_ altitude: Double, rising: Bool, after start: UTCTime, from position: Position,
                            within hours: Double = 36) -> UTCTime? {
        let step: Int64 = 600 * 1_000_000_000
        var t0 = start
        guard var h0 = self.altitude(at: t0, from: position) else { return nil }
        var elapsed: Int64 = 0
        while Double(elapsed) < hours * 3.6e12 {
            let t1 = t0.adding(nanoseconds: step)
            guard let h1 = self.altitude(at: t1, from: position) else { return nil }
            if rising ? (h0 < altitude && h1 >= altitude) : (h0 > altitude && h1 <= altitude) {
                var lo = t0, hi = t1
                while hi.nanosecondsSinceEpoch - lo.nanosecondsSinceEpoch > 500_000_000 {
                    let mid = lo.adding(nanoseconds: (hi.nanosecondsSinceEpoch - lo.nanosecondsSinceEpoch) / 2)
                    let h = self.altitude(at: mid, from: position) ?? altitude
                    if rising ? h < altitude : h > altitude { lo = mid } else { hi = mid }
                }
                return UTCTime(wholeSeconds: (hi.nanosecondsSinceEpoch + 500_000_000) / 1_000_000_000)
            }
            t0 = t1
            h0 = h1
            elapsed += step
        }
        return nil
    }

    /// One day's events at a position, from `start` for `hours` (24 by default); nil where the Sun does not cross,
    /// or where the day runs outside the almanac's years (`outsideAlmanac`).
    public struct Day: Hashable, Sendable {
        public var astronomicalDawn, nauticalDawn, civilDawn, sunrise, sunset, civilDusk, nauticalDusk, astronomicalDusk: UTCTime?
        /// Where some of the day is outside the almanac's years (1990–2060): events there are
        /// unknown, not missing (at the equator the Sun still rises on 1 January 2061).
        public var outsideAlmanac: Outside?
    }

    /// Which end of the almanac a span runs past.
    public enum Outside: Hashable, Sendable {
        case before, after

        /// In words, for a line about the day: "the almanac's years end with 2060".
        public var text: String {
            switch self {
            case .before: "the almanac's years begin with \(SkyTime.years.lowerBound)"
            case .after: "the almanac's years end with \(SkyTime.years.upperBound)"
            }
        }
    }

    /// Which end of the almanac the `hours` from `start` (to their last second, not their
    /// end) run past; nil when it covers them all.
    public static func outside(from start: UTCTime, hours: Double) -> Outside? {
        if SkyTime(start) == nil { return start.millisecondFields.year < SkyTime.years.lowerBound ? .before : .after }
        return SkyTime(start.adding(nanoseconds: Int64(hours * 3.6e12) - 1_000_000_000)) == nil ? .after : nil
    }

    public static func day(from start: UTCTime, at position: Position, hours: Double = 24) -> Day {
        func event(_ h: Double, _ rising: Bool) -> UTCTime? { next(h, rising: rising, after: start, from: position, within: hours) }
        return Day(astronomicalDawn: event(-18, true), nauticalDawn: event(-12, true), civilDawn: event(-6, true),
                   sunrise: event(horizon, true), sunset: event(horizon, false), civilDusk: event(-6, false),
                   nauticalDusk: event(-12, false), astronomicalDusk: event(-18, false), outsideAlmanac: outside(from: start, hours: hours))
    }
}

extension Almanac {
    /// The bodies above the horizon at `time` from `position`, brightest first: a star finder.
    public static func visible(at time: SkyTime, from position: Position) -> [SkyBody] {
        Body.all.compactMap { body -> SkyBody? in
            let e = entry(body, at: time)
            let c = Computed(gha: e.gha, declination: e.declination, latitude: position.latitude, longitude: position.longitude)
            guard c.altitude > 0 else { return nil }
            return SkyBody(body: body, computed: c, magnitude: magnitude(body, at: time))
        }.sorted { $0.magnitude < $1.magnitude }
    }
}
