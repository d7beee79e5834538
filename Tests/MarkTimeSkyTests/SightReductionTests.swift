import Foundation
import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// A sight as a navigator at `truth` would take it: Hs found by running the corrections
/// backwards from the true altitude until Hs → Ho gives it back.
func simulatedSight(_ body: Body, at utc: UTCTime, from truth: Position, limb: Limb = .center, eye: Double = 2.5,
                    ie: Double = -1.2, dr: Position? = nil) -> Sight {
    var s = Sight.practice(body, at: utc, from: truth, reading: SextantReading(hs: 0, indexError: ie, eyeHeight: eye, limb: limb), dr: dr)!
    s.id = 1
    return s
}

func at(_ lat: Double, _ lon: Double) -> Position { try! Position(latitude: lat, longitude: lon) }
func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, _ s: Int = 0) -> UTCTime {
    UTCTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)!
}

@Suite("Sight reduction")
struct SightReductionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var body: Body, time: UTCTime, truth: Position, limb: Limb
        var testDescription: String { "\(body.name) \(time.iso8601)" }
    }

    static let roundTrips: [Case] = [
        Case(body: .sun, time: utc(2021, 5, 29, 20, 7, 30), truth: at(32.0, -80.0), limb: .lower),
        Case(body: .sun, time: utc(1995, 12, 21, 14), truth: at(-33.9, 18.4), limb: .upper),
        Case(body: .moon, time: utc(2020, 3, 4, 19), truth: at(20, 15), limb: .lower),
        Case(body: .moon, time: utc(2043, 7, 1, 3, 30), truth: at(-10, 100), limb: .upper),
        Case(body: .venus, time: utc(2020, 4, 1, 19), truth: at(45, 0), limb: .center),
        Case(body: .mars, time: utc(2018, 7, 27, 22), truth: at(-20, 30), limb: .center),
        Case(body: .jupiter, time: utc(2022, 2, 9, 18, 28, 23), truth: at(50, -5), limb: .center),
        Case(body: .star(Star.catalogue.first { $0.name == "Vega" }!), time: utc(2030, 8, 1, 21), truth: at(40, -70), limb: .center),
        Case(body: .star(Star.catalogue.first { $0.name == "Polaris" }!), time: utc(2058, 1, 15, 3), truth: at(60, 10), limb: .center),
    ]

    @Test(arguments: roundTrips)
    func aSimulatedSightReducesToTheTruePosition(_ c: Case) throws {
        // Given a sight taken at the true position and reduced from a DR 20′ away
        let sight = simulatedSight(c.body, at: c.time, from: c.truth, limb: c.limb,
                                   dr: at(c.truth.latitude + 0.2, c.truth.longitude - 0.25))
        let reduced = try ReducedSight(sight)
        // Then the intercept from the true position (its GPS error) is under 0.05′
        #expect(reduced.assumed == .dr)
        #expect(try #require(reduced.gpsError).magnitude < 0.05)
    }

    @Test func aSightWithoutDRIsReducedFromItsGPSPosition() throws {
        let sight = simulatedSight(.sun, at: utc(2021, 5, 29, 20, 7, 30), from: at(32.0, -80.0), limb: .lower)
        let reduced = try ReducedSight(sight)
        #expect(reduced.assumed == .gps)
        #expect(reduced.assumedPosition == at(32.0, -80.0))
        #expect(reduced.gpsError == reduced.intercept)
    }

    @Test func aFlaggedGPSPositionIsNeitherWorkedFromNorTheTruth() throws {
        // Given a Sun sight taken at 32° N 80° W, its DR there, and a GPS position 50′ north flagged by the daemon
        var sight = simulatedSight(.sun, at: utc(2021, 5, 29, 20, 7, 30), from: at(32.0, -80.0), limb: .lower)
        sight.position = at(32.0 + 50.0 / 60, -80.0)
        sight.positionFlag = "gps position jumped 50.0 nm"
        sight.dr = at(32.0, -80.0)
        // When it is reduced
        let reduced = try ReducedSight(sight)
        // Then it is worked from the DR, and it has no GPS error or GPS position
        #expect(reduced.assumed == .dr)
        #expect(reduced.gpsError == nil)
        #expect(reduced.gpsPosition == nil)
        // And without the DR it cannot be reduced, and says what to do
        sight.id = 7
        sight.dr = nil
        #expect(throws: Unreducible(reasons: ["its GPS position is flagged (faster than the boat can) and it has no DR: set one with `marktime sight edit 7 --dr`"])) {
            try ReducedSight(sight)
        }
    }

    @Test func aBareSightSaysEverythingItLacks() {
        // Given a sight with nothing filled in and no GPS fix
        let sight = Sight(instant: MonotonicInstant(bootID: "b", nanoseconds: 0),
                          estimate: UTCEstimate(utc: utc(2026, 11, 22, 12), source: .gps, uncertainty: 0.01),
                          createdAt: utc(2026, 11, 22, 12))
        // Then the reduction names each missing field
        #expect(throws: Unreducible(reasons: ["no body", "no Hs", "no height of eye", "no position: set a DR, or mark with a GPS fix"])) {
            try ReducedSight(sight)
        }
    }

    @Test func theSunWithoutALimbAndAnUnknownBodyAreNamed() {
        var sight = simulatedSight(.sun, at: utc(2021, 5, 29, 20), from: at(32, -80), limb: .lower)
        sight.limb = nil
        #expect(throws: Unreducible(reasons: ["no limb (lower or upper) for the Sun"])) { try ReducedSight(sight) }
        sight.body = "Vegga"
        #expect(throws: Unreducible(reasons: ["unknown body 'Vegga' (nearest: Vega, Venus, Adhara)"])) { try ReducedSight(sight) }
    }

    @Test func aBodyBelowTheHorizonAtTheAssumedPositionIsRefused() {
        // Given a Sun sight at 32° N 80° W reduced from a DR on the far side of the Earth
        var sight = simulatedSight(.sun, at: utc(2021, 5, 29, 20, 7, 30), from: at(32, -80), limb: .lower)
        sight.dr = at(-32, 100)
        // Then the reduction says the body is below the horizon there
        let error = #expect(throws: Unreducible.self) { try ReducedSight(sight) }
        #expect(error?.description.hasPrefix("Sun is below the horizon at the assumed position (Hc -") == true)
    }

    @Test func theCorrectionsAreEachReported() throws {
        // Given a Sun lower-limb sight, 2.5 m eye, index 1.2′ on the arc
        let reduced = try ReducedSight(simulatedSight(.sun, at: utc(2021, 5, 29, 20, 7, 30), from: at(32, -80), limb: .lower))
        let c = reduced.corrections
        // Then index and dip are as given, the semi-diameter is the Sun's (15.8′ that day), parallax is small
        #expect(c.index == -1.2)
        #expect(abs(c.dip - -1.76 * 2.5.squareRoot()) < 1e-12)
        #expect((c.semiDiameter * 10).rounded() == 158)
        #expect(c.parallax > 0 && c.parallax < 0.15)
        #expect(c.refraction < 0 && c.refraction > -1)
        #expect(c.phase == 0)
    }
}

@Suite("Fixes")
struct FixTests {
    static let vega = Body.star(Star.catalogue.first { $0.name == "Vega" }!)
    static let arcturus = Body.star(Star.catalogue.first { $0.name == "Arcturus" }!)
    static let altair = Body.star(Star.catalogue.first { $0.name == "Altair" }!)

    @Test func threeStarsFromAFarDRFixTheTruePosition() throws {
        // Given three stars shot at 40° N 70° W, reduced from a DR 40′ off, within a minute
        let truth = at(40, -70), dr = at(40.5, -70.6)
        let sights = try [(Self.vega, 0), (Self.arcturus, 20), (Self.altair, 40)].map { body, s in
            try ReducedSight(simulatedSight(body, at: utc(2030, 8, 1, 1, 0, s), from: truth, dr: dr))
        }
        // When fixed without a run
        let fix = try CelestialFix(sights, run: .none)
        // Then the fix is the true position, to 0.01′, at the last sight's time
        #expect(GreatCircle.nauticalMiles(fix.position, truth) < 0.02)
        #expect(fix.utc == utc(2030, 8, 1, 1, 0, 40))
        #expect(fix.lines.count == 3)
        #expect(fix.rms < 0.02)
        #expect(!fix.ellipse.sigmaAssumed)
        #expect(try #require(fix.gpsDistance) < 0.02)
    }

    @Test func aRunningFixAdvancesEarlierLinesByCourseAndSpeed() throws {
        // Given a ship on 090° at 6 kn: a Sun line at 14:00 and another at 17:00 (18 nm on)
        let start = at(-33, 18)
        let later = try GreatCircle.destination(from: start, bearing: 90, metres: 18 * 1852)
        let morning = try ReducedSight(simulatedSight(.sun, at: utc(2022, 2, 9, 9), from: start, limb: .lower, dr: at(-33.2, 18.3)))
        let afternoon = try ReducedSight(simulatedSight(.sun, at: utc(2022, 2, 9, 12), from: later, limb: .lower, dr: at(-33.2, 18.3)))
        // When fixed with the course and speed
        let fix = try CelestialFix([afternoon, morning], run: .courseAndSpeed(course: 90, knots: 6))
        // Then the fix is where the ship was at the second sight
        #expect(GreatCircle.nauticalMiles(fix.position, later) < 0.05)
        // and with the GPS track instead, the same
        let tracked = try CelestialFix([morning, afternoon], run: .track)
        #expect(GreatCircle.nauticalMiles(tracked.position, later) < 0.05)
        // while ignoring the run puts it miles away
        let still = try CelestialFix([morning, afternoon], run: .none)
        #expect(GreatCircle.nauticalMiles(still.position, later) > 5)
    }

    @Test func twoLinesAtRightAnglesGiveACircleOfTheAssumedError() {
        // Given two lines, Zn 000° and 090°, with no residual to measure σ by
        let e = ErrorEllipse(azimuths: [0, 90], residuals: [0, 0])
        // Then σ is the assumed 1′ and the 95 % ellipse a circle of √5.991 = 2.44775 nm
        #expect(e.sigmaAssumed)
        #expect(abs(e.semiMajor - 2.44775) < 1e-5)
        #expect(abs(e.semiMinor - 2.44775) < 1e-5)
    }

    @Test func twoLinesTenDegreesApartSpreadTheFixAcrossThem() {
        // Given lines with Zn 355° and 005°: both run east-west
        let e = ErrorEllipse(azimuths: [355, 5], residuals: [0, 0])
        // Then the long axis runs east-west, 2.44775 / (√2 sin 5°) = 19.85891 nm long, the
        // short one 2.44775 / (√2 cos 5°) = 1.73743 nm
        #expect(abs(e.orientation - 90) < 1e-9)
        #expect(abs(e.semiMajor - 19.85891) < 1e-5)
        #expect(abs(e.semiMinor - 1.73743) < 1e-5)
    }

    @Test func threeLinesMeasureSigmaFromTheirResiduals() {
        // Given three lines 120° apart, each 1 nm off the fix: σ = √(3 / 1)
        let e = ErrorEllipse(azimuths: [0, 120, 240], residuals: [1, 1, 1])
        // Then the ellipse is a circle of 2.44775 × √3 × √(1 / 1.5) = 3.46164 nm
        #expect(!e.sigmaAssumed)
        #expect(abs(e.sigma - 3.0.squareRoot()) < 1e-12)
        #expect(abs(e.semiMajor - 3.46164) < 1e-5)
        #expect(abs(e.semiMinor - 3.46164) < 1e-5)
    }

    @Test func oneSightIsNotAFix() throws {
        let s = try ReducedSight(simulatedSight(Self.vega, at: utc(2030, 8, 1, 1), from: at(40, -70)))
        #expect(throws: CelestialFix.Failure.tooFewLines(1)) { try CelestialFix([s], run: .none) }
    }

    @Test func twoSightsOfOneStarTogetherAreParallel() throws {
        let s = try ReducedSight(simulatedSight(Self.vega, at: utc(2030, 8, 1, 1), from: at(40, -70)))
        #expect(throws: CelestialFix.Failure.parallelLines) { try CelestialFix([s, s], run: .none) }
    }
}

@Suite("A run of sights")
struct SightRunTests {
    @Test func theBadSightInARunStandsOffTheLine() throws {
        // Given five Sun sights a minute apart, the fourth read 3′ high
        let truth = at(45, -5)
        var sights = try (0..<5).map { i in
            try ReducedSight(simulatedSight(.sun, at: utc(2022, 2, 9, 10, i), from: truth, limb: .lower))
        }
        sights[3].ho += 3.0 / 60
        // When the run is fitted
        let residuals = SightRun.residuals(sights).map { $0! }
        // Then the fourth is the farthest off its line, by 3′ less what the fit takes up (×4/5 of it)
        #expect(residuals.indices.max { residuals[$0].magnitude < residuals[$1].magnitude } == 3)
        #expect(abs(residuals[3] - 2.1) < 0.05)
    }

    @Test func fewerThanThreeSightsMakeNoRun() throws {
        let truth = at(45, -5)
        let sights = try (0..<2).map { i in
            try ReducedSight(simulatedSight(.sun, at: utc(2022, 2, 9, 10, i), from: truth, limb: .lower))
        }
        #expect(SightRun.residuals(sights) == [nil, nil])
    }
}

/// The Moon seen from a point of the WGS 84 ellipsoid, worked with vectors from the Earth's
/// centre (not the code under test): the topocentric altitude of its centre and its
/// topocentric semi-diameter, degrees.
func topocentricMoon(_ e: AlmanacEntry, from p: Position) -> (altitude: Double, semiDiameter: Double) {
    let a = 6_378.137, f = 1 / 298.257223563, e2 = f * (2 - f)
    let (phi, lambda) = (p.latitude * .pi / 180, p.longitude * .pi / 180)
    let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
    let observer = [n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - e2) * sin(phi)]
    // GHA is measured westward from Greenwich: the Moon is at longitude -GHA.
    let (dec, lon) = (e.declination * .pi / 180, -e.gha * .pi / 180)
    let distance = a / sin(e.horizontalParallax / 60 * .pi / 180)
    let moon = [distance * cos(dec) * cos(lon), distance * cos(dec) * sin(lon), distance * sin(dec)]
    let v = zip(moon, observer).map { $0 - $1 }
    let range = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
    let up = [cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi)]
    let sine = zip(v, up).map { $0 * $1 }.reduce(0, +) / range
    return (asin(sine) * 180 / .pi, asin(0.272481 * a / range) * 180 / .pi)
}

@Suite("The Moon against topocentric truth")
struct MoonTruthTests {
    /// Ho from an Hs made from the true topocentric altitude, against Hc from the same place.
    static func error(_ utc: UTCTime, _ p: Position, _ limb: Limb) -> Double? {
        guard let time = SkyTime(utc) else { return nil }
        let e = Almanac.entry(.moon, at: time)
        let hc = Computed(gha: e.gha, declination: e.declination, latitude: p.latitude, longitude: p.longitude).altitude
        let truth = topocentricMoon(e, from: p)
        let limbAltitude = truth.altitude + (limb == .lower ? -truth.semiDiameter : truth.semiDiameter)
        // The sextant reads the limb lifted by refraction (the almanac's formula, whose inverse
        // is found by iteration), above a horizon dipped for 3 m of eye, with no index error.
        var ha = limbAltitude
        for _ in 0..<20 { ha = limbAltitude - AltitudeCorrection.refraction(apparentAltitude: ha) / 60 }
        let hs = ha - AltitudeCorrection.dip(heightOfEye: 3) / 60
        let ho = Observation.observed(SextantReading(hs: hs, eyeHeight: 3, limb: limb), body: .moon, at: time, near: p).ho
        guard (5...85).contains(truth.altitude) else { return nil }
        return (ho - hc) * 60
    }

    @Test("Moon Ho is within 0.1′ of the true altitude, both limbs, 5°–85°, latitudes 0°–70° north and south")
    func moonHoMatchesTopocentricTruth() {
        // Given 4,000 instants and places (a fixed sequence), the Moon 5° to 85° high
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var worst = 0.0, count = 0
        for _ in 0..<4_000 {
            let utc = UTCTime(nanosecondsSinceEpoch: Int64((631_152_000 + next() * 2_208_988_800) * 1e9))
            let p = try! Position(latitude: (next() * 140 - 70), longitude: next() * 360 - 180)
            for limb in [Limb.lower, .upper] {
                guard let e = Self.error(utc, p, limb) else { continue }
                worst = max(worst, abs(e))
                count += 1
            }
        }
        // When each is reduced from where it was taken
        // Then Ho is the true altitude to 0.1′ or better in every one
        #expect(count > 1_000)
        #expect(worst <= 0.1, "worst \(worst)′ over \(count) sights")
    }
}
