import Foundation
import MarkTimeCore

/// The corrections from Hs to Ho of one sight, each in arc-minutes as added.
public struct AltitudeCorrections: Hashable, Sendable {
    public var index = 0.0
    public var dip = 0.0
    public var refraction = 0.0
    public var semiDiameter = 0.0
    public var parallax = 0.0
    /// The Moon's correction for the Earth's oblateness (the almanac's OB).
    public var oblateness = 0.0
    public var phase = 0.0

    public init() {}

    /// Their sum, arc-minutes.
    public var total: Double { index + dip + refraction + semiDiameter + parallax + oblateness + phase }
}

/// What the navigator read and set for one sight: the inputs of Hs → Ho.
public struct SextantReading: Hashable, Sendable {
    /// Sextant altitude, degrees.
    public var hs: Double
    /// The index correction, arc-minutes, negative on the arc (see `AltitudeCorrection.index`).
    public var indexError: Double
    /// Height of eye, metres.
    public var eyeHeight: Double
    /// The limb brought to the horizon; `.center` for a planet or a star.
    public var limb: Limb
    /// Air temperature (°C) and pressure (hPa); the almanac's standard air when unknown.
    public var celsius: Double
    public var hectopascals: Double

    public init(hs: Double, indexError: Double = 0, eyeHeight: Double, limb: Limb = .center,
                celsius: Double? = nil, hectopascals: Double? = nil) {
        self.hs = hs
        self.indexError = indexError
        self.eyeHeight = eyeHeight
        self.limb = limb
        self.celsius = celsius ?? 10
        self.hectopascals = hectopascals ?? 1010
    }
}

/// Hs → Ha → Ho, the Nautical Almanac's order: index error and dip give the apparent
/// altitude Ha; refraction, semi-diameter, parallax and phase give the observed altitude Ho.
public enum Observation {
    /// Ho (degrees) and its corrections for `body` at `time`, seen from near `position`
    /// (the Moon's augmented semi-diameter and a planet's phase depend on where it stands).
    public static func observed(_ reading: SextantReading, body: Body, at time: SkyTime, near position: Position)
        -> (ho: Double, corrections: AltitudeCorrections) {
        observed(reading, body: body, entry: Almanac.entry(body, at: time), at: time, near: position)
    }

    static func observed(_ reading: SextantReading, body: Body, entry: AlmanacEntry, at time: SkyTime, near position: Position)
        -> (ho: Double, corrections: AltitudeCorrections) {
        var c = AltitudeCorrections()
        c.index = AltitudeCorrection.index(reading.indexError)
        c.dip = AltitudeCorrection.dip(heightOfEye: reading.eyeHeight)
        let ha = reading.hs + (c.index + c.dip) / 60
        c.refraction = AltitudeCorrection.refraction(apparentAltitude: ha, celsius: reading.celsius, hectopascals: reading.hectopascals)
        let h = ha + c.refraction / 60
        if body == .moon {
            // From the limb to the centre, then to the Earth's centre, on the Earth's true figure.
            let azimuth = Computed(gha: entry.gha, declination: entry.declination, latitude: position.latitude, longitude: position.longitude).azimuth
            (c.semiDiameter, c.parallax, c.oblateness) = AltitudeCorrection.moon(
                limbAltitude: h, limb: reading.limb, azimuth: azimuth, latitude: position.latitude, metres: reading.eyeHeight,
                distance: 1 / sin(radians(entry.horizontalParallax / 60)))
        } else {
            c.semiDiameter = AltitudeCorrection.semiDiameter(entry.semiDiameter, limb: reading.limb)
            c.parallax = AltitudeCorrection.parallax(horizontalParallax: entry.horizontalParallax, altitude: h)
        }
        if body == .venus || body == .mars {
            c.phase = phase(of: entry, at: time, from: position)
        }
        return (reading.hs + c.total / 60, c)
    }

    /// The Hs a sextant set up as `reading` (its Hs ignored) would read for observed altitude
    /// `ho`: the corrections run backwards until Hs → Ho gives `ho` back to 1e-9°. For
    /// practice sights and round-trip checks.
    public static func sextantAltitude(observed ho: Double, _ reading: SextantReading, body: Body, at time: SkyTime,
                                       near position: Position) -> Double {
        var r = reading
        r.hs = ho
        for _ in 0..<20 {
            let miss = ho - observed(r, body: body, at: time, near: position).ho
            r.hs += miss
            if abs(miss) < 1e-9 { break }
        }
        return r.hs
    }

    /// The phase correction of a planet seen from `position`, from the triangle of the
    /// Sun, the planet and the Earth.
    static func phase(of planet: AlmanacEntry, at time: SkyTime, from position: Position) -> Double {
        let sun = Almanac.entry(.sun, at: time)
        guard let g = PhaseGeometry(planet, sun: sun) else { return 0 }
        let e = radians(g.elongation)
        let hp = radians(Computed(gha: planet.gha, declination: planet.declination, latitude: position.latitude, longitude: position.longitude).altitude)
        let hs = radians(Computed(gha: sun.gha, declination: sun.declination, latitude: position.latitude, longitude: position.longitude).altitude)
        guard sin(e) > 1e-9, cos(hp) > 1e-9 else { return 0 }
        let cosQ = (sin(hs) - sin(hp) * cos(e)) / (cos(hp) * sin(e))
        return AltitudeCorrection.phase(semiDiameter: planet.semiDiameter, phaseAngle: g.phaseAngle, sunFromVertical: degrees(acos(min(1, max(-1, cosQ)))))
    }
}

/// Where a reduction was worked from.
public enum AssumedPosition: String, Hashable, Sendable {
    /// The sight's dead-reckoning position.
    case dr
    /// The GPS position at the mark.
    case gps
}

/// Why a sight cannot be reduced: everything it lacks, in words a navigator can act on.
public struct Unreducible: Error, Hashable, Sendable, CustomStringConvertible {
    public var reasons: [String]
    public var description: String { reasons.joined(separator: "; ") }
}

/// One sight reduced: Ho with its corrections, Hc and Zn from the assumed position, the
/// intercept, and the sight's own error against the GPS position at its mark.
public struct ReducedSight: Hashable, Sendable {
    public var id: Int64?
    public var body: Body
    public var utc: UTCTime
    /// Observed altitude, degrees.
    public var ho: Double
    public var corrections: AltitudeCorrections
    public var assumed: AssumedPosition
    public var assumedPosition: Position
    /// Hc and Zn from the assumed position.
    public var computed: Computed
    /// Nautical miles, positive toward the body.
    public var intercept: Double
    /// The intercept from the GPS position at the mark, arc-minutes: the sight's own
    /// error; nil without a GPS position.
    public var gpsError: Double?
    /// Where the ship was at the mark by GPS, when known.
    public var gpsPosition: Position?
    /// How far UT1 (the argument of GHA) may be wrong, seconds: more than 0.05 past the
    /// end of the measured ΔT table.
    public var ut1Uncertainty: Double

    /// Reduces `sight`, from its DR when set, else from its GPS position.
    public init(_ sight: Sight) throws(Unreducible) {
        var reasons: [String] = []
        var body: Body?
        switch sight.body {
        case nil: reasons.append("no body")
        case let name?:
            body = Body(named: name)
            if body == nil { reasons.append("unknown body '\(name)' (nearest: \(Body.nearest(to: name).joined(separator: ", ")))") }
        }
        if sight.hs == nil { reasons.append("no Hs") }
        if let hs = sight.hs, !(0...90).contains(hs) {
            reasons.append("Hs \(SextantAngle.format(hs)) is \(hs > 90 ? "above 90°" : "below the horizon"): no sextant reads that; "
                + "correct it with `marktime sight edit \(sight.id.map(String.init) ?? "ID") --hs`")
        }
        if sight.eyeHeight == nil { reasons.append("no height of eye") }
        if let body, body == .sun || body == .moon, sight.limb == nil || sight.limb == .center {
            reasons.append(sight.limb == nil ? "no limb (lower or upper) for the \(body.name)" : "the \(body.name)'s centre cannot be set on the horizon: give the lower or upper limb")
        }
        let assumed: (AssumedPosition, Position)? = sight.dr.map { (.dr, $0) } ?? sight.trustedPosition.map { (.gps, $0) }
        if assumed == nil {
            reasons.append(sight.position == nil ? "no position: set a DR, or mark with a GPS fix"
                : "its GPS position is flagged (faster than the boat can) and it has no DR: set one with "
                    + "`marktime sight edit \(sight.id.map(String.init) ?? "ID") --dr`")
        }
        let time = SkyTime(sight.estimate.utc)
        if time == nil { reasons.append("its UTC is outside the almanac's years \(SkyTime.years.lowerBound)–\(SkyTime.years.upperBound)") }
        guard reasons.isEmpty, let body, let hs = sight.hs, let eye = sight.eyeHeight, let assumed, let time else {
            throw Unreducible(reasons: reasons)
        }
        let limb: Limb = body == .sun || body == .moon ? sight.limb ?? .lower : .center
        let reading = SextantReading(hs: hs, indexError: sight.indexError ?? 0, eyeHeight: eye, limb: limb,
                                     celsius: sight.temperature, hectopascals: sight.pressure)
        try self.init(id: sight.id, body: body, utc: sight.estimate.utc, time: time, reading: reading,
                      assumed: assumed.0, from: assumed.1, gps: sight.trustedPosition)
    }

    /// Reduces a reading of `body` at `utc` from `position`.
    public init(id: Int64? = nil, body: Body, utc: UTCTime, time: SkyTime, reading: SextantReading,
                assumed: AssumedPosition, from position: Position, gps: Position? = nil) throws(Unreducible) {
        let entry = Almanac.entry(body, at: time)
        let computed = Computed(gha: entry.gha, declination: entry.declination, latitude: position.latitude, longitude: position.longitude)
        guard computed.altitude >= 0 else {
            throw Unreducible(reasons: ["\(body.name) is below the horizon at the assumed position (Hc \(SextantAngle.format(computed.altitude)))"])
        }
        let (ho, corrections) = Observation.observed(reading, body: body, entry: entry, at: time, near: position)
        if let why = Self.impossible(ho: ho, reading: reading, corrections: corrections) { throw Unreducible(reasons: [why]) }
        self.id = id
        self.body = body
        self.utc = utc
        self.ho = ho
        self.corrections = corrections
        self.assumed = assumed
        assumedPosition = position
        self.computed = computed
        intercept = computed.intercept(observed: ho)
        ut1Uncertainty = time.ut1Uncertainty
        gpsPosition = gps
        gpsError = gps.map { gps in
            Computed(gha: entry.gha, declination: entry.declination, latitude: gps.latitude, longitude: gps.longitude).intercept(observed: ho)
        }
    }
}

extension ReducedSight {
    /// Why an observed altitude cannot be: above 90° (past the zenith) or below 0° (under the
    /// horizon); nil for one from 0° to 90°. No line of position comes from such an Ho.
    static func impossible(ho: Double, reading: SextantReading, corrections: AltitudeCorrections) -> String? {
        guard ho > 90 || ho < 0 else { return nil }
        let from = "Hs \(SextantAngle.format(reading.hs)) with \(String(format: "%+.1f", corrections.total))' of corrections"
        return ho > 90
            ? "Ho \(SextantAngle.format(ho)) is above 90° (\(from)): no body stands past the zenith; check Hs, the limb and the index error"
            : "Ho \(SextantAngle.format(ho)) is below the horizon (\(from)): dip and refraction take more than the sextant read; check Hs and the height of eye"
    }
}

extension Sight {
    /// A practice sight: `body` as a navigator at `truth` would have shot it at `utc` with
    /// a sextant set up as `reading` (its Hs found by running the corrections backwards
    /// from the true altitude), marked there by GPS; nil outside the almanac's years.
    public static func practice(_ body: Body, at utc: UTCTime, from truth: Position, reading: SextantReading,
                                dr: Position? = nil) -> Sight? {
        guard let time = SkyTime(utc) else { return nil }
        let e = Almanac.entry(body, at: time)
        let hc = Computed(gha: e.gha, declination: e.declination, latitude: truth.latitude, longitude: truth.longitude).altitude
        var s = Sight(instant: MonotonicInstant(bootID: "practice", nanoseconds: utc.nanosecondsSinceEpoch),
                      estimate: UTCEstimate(utc: utc, source: .gps, uncertainty: 0.001), createdAt: utc)
        s.body = body.name
        s.limb = body == .sun || body == .moon ? reading.limb : nil
        s.hs = Observation.sextantAltitude(observed: hc, reading, body: body, at: time, near: truth)
        s.indexError = reading.indexError
        s.eyeHeight = reading.eyeHeight
        s.position = truth
        s.fixMode = 3
        s.dr = dr
        return s
    }
}

/// A reason to doubt a reduction, or to work it with care: what, and why, in words.
public struct ReductionFlag: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case lowAltitude = "low-altitude", highAltitude = "high-altitude", largeIntercept = "large-intercept", deltaT = "delta-t"
        case notAdvanced = "not-advanced"
    }

    public var kind: Kind
    public var message: String
    public var description: String { message }

    public init(_ kind: Kind, _ message: String) {
        (self.kind, self.message) = (kind, message)
    }
}

extension ReducedSight {
    /// The intercept limit when the settings give none, nautical miles.
    public static let defaultInterceptLimit = 30.0

    /// What the navigator should know before plotting this line: Ho below 5° or above 85°,
    /// an intercept over `interceptLimit` nautical miles, and UT1 uncertain past the ΔT table.
    public func flags(interceptLimit: Double = defaultInterceptLimit) -> [ReductionFlag] {
        var flags: [ReductionFlag] = []
        if ho < 5 {
            flags.append(ReductionFlag(.lowAltitude, "Ho \(SextantAngle.format(ho)) is below 5°: refraction so low varies with the air "
                + "by minutes; trust it less, and prefer sights above 15°"))
        } else if ho > 85 {
            flags.append(ReductionFlag(.highAltitude, "Ho \(SextantAngle.format(ho)) is above 85°: the circle of position is too small "
                + "for a straight line through the intercept; plot it as a circle about the body's position, or prefer sights below 80°"))
        }
        if abs(intercept) > interceptLimit {
            flags.append(ReductionFlag(.largeIntercept, String(format: "intercept %.1f nm is over the %@ nm limit: check Hs, the body, "
                + "the time and the %@ (sight.intercept_limit_nm)", abs(intercept), Position.plain(interceptLimit), assumed == .dr ? "DR" : "GPS position")))
        }
        if let deltaT = ReductionFlag.deltaT(ut1Uncertainty: ut1Uncertainty) { flags.append(deltaT) }
        return flags
    }
}

extension ReductionFlag {
    /// UT1 uncertain past the last measured ΔT, in seconds and minutes of GHA; nil within
    /// the table. Every answer worked from the almanac at such a time carries it.
    public static func deltaT(ut1Uncertainty: Double) -> ReductionFlag? {
        guard ut1Uncertainty > 0.05 else { return nil }
        return ReductionFlag(.deltaT, String(format: "past the last measured ΔT (2026-10-01): UT1 is uncertain by ±%.1f s, "
            + "±%.2f′ of GHA", ut1Uncertainty, ut1Uncertainty * 0.25))
    }

    /// The ΔT flag of an almanac instant, when it has one.
    public static func deltaT(at time: SkyTime) -> ReductionFlag? { deltaT(ut1Uncertainty: time.ut1Uncertainty) }
}
