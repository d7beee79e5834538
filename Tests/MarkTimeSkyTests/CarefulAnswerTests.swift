import Foundation
import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// The navigator's tools where careless or unusual input once gave a wrong answer in silence.
@Suite("Answers that hold at the edges: impossible Ho, off-meridian noon sights, Polaris at the pole")
struct CarefulAnswerTests {
    /// Where the Sun stands at the zenith: its geographical position at 2026-06-21 12:00 UTC.
    static func subsolar(_ utc: UTCTime) -> Position {
        let e = Almanac.entry(.sun, at: SkyTime(utc)!)
        var lon = -e.gha
        if lon < -180 { lon += 360 }
        return try! Position(latitude: e.declination, longitude: lon)
    }

    @Test("A Sun sight whose Ho comes out above 90° is refused, with the corrections that took it there")
    func anHoAboveTheZenithIsRefused() throws {
        // Given the Sun's lower limb read at 90° 00′ from under the Sun, 2.4 m up
        let t = utc(2026, 6, 21, 12)
        let reading = SextantReading(hs: 90, eyeHeight: 2.4, limb: .lower)
        let total = Observation.observed(reading, body: .sun, at: SkyTime(t)!, near: Self.subsolar(t)).corrections.total
        // When it is reduced
        let error = #expect(throws: Unreducible.self) {
            try ReducedSight(body: .sun, utc: t, time: SkyTime(t)!, reading: reading, assumed: .dr, from: Self.subsolar(t))
        }
        // Then it is refused: the semi-diameter took Ho past the zenith
        #expect(String(format: "%+.1f", total) == "+13.0")
        #expect(error?.reasons == ["Ho 90° 13'.0 is above 90° (Hs 90° 00'.0 with +13.0' of corrections): no body stands past the zenith; "
            + "check Hs, the limb and the index error"])
    }

    @Test("A sight whose dip and refraction take more than Hs is refused as below the horizon")
    func anHoBelowTheHorizonIsRefused() throws {
        // Given Hs 0° 01′ of the Sun's lower limb from 10 m, with the Sun up at the DR
        let t = utc(2026, 6, 21, 12)
        let dr = try Position(latitude: 23.4, longitude: 95)
        let reading = SextantReading(hs: 1.0 / 60, eyeHeight: 10, limb: .lower)
        let c = try #require(Optional(Computed(gha: Almanac.entry(.sun, at: SkyTime(t)!).gha, declination: Almanac.entry(.sun, at: SkyTime(t)!).declination,
                                               latitude: dr.latitude, longitude: dr.longitude)))
        #expect(c.altitude > 0)
        // When it is reduced; then it is refused with Ho, Hs and the corrections
        let error = #expect(throws: Unreducible.self) {
            try ReducedSight(body: .sun, utc: t, time: SkyTime(t)!, reading: reading, assumed: .dr, from: dr)
        }
        #expect(error?.reasons == ["Ho -0° 23'.5 is below the horizon (Hs 0° 01'.0 with -24.5' of corrections): dip and refraction take more "
            + "than the sextant read; check Hs and the height of eye"])
    }

    @Test("A noon sight 30 minutes off the meridian at 45° N is no meridian sight: the limit is 15 minutes there")
    func aSightFarFromTheMeridianIsNoMeridianSight() throws {
        // Given the Sun at 45° N 0° on 2026-03-20, 30 minutes before its meridian passage
        let dr = try Position(latitude: 45, longitude: 0)
        let noon = try #require(MeridianPassage.localApparentNoon(DeadReckoning(dr, at: utc(2026, 3, 20, 12))))
        let t = noon.utc.adding(nanoseconds: -30 * 60_000_000_000)
        let e = Almanac.entry(.sun, at: SkyTime(t)!)
        // When it is reduced to the meridian
        let m = MeridianReduction(gha: e.gha, declination: e.declination, dr: dr)
        // Then it is 30 minutes before, the altitude changing 1.94′ a minute, past the 1′ rule,
        // which holds to 15.3 minutes here; taken as a meridian sight it would be 29′.3 low
        #expect(String(format: "%.1f", m.minutesFromMeridian) == "-30.0")
        #expect(String(format: "%.2f", m.rate) == "1.94")
        #expect(!m.holds)
        let limit = try #require(m.limit)
        #expect(String(format: "%.1f", limit) == "15.3")
        #expect(String(format: "%.1f", m.correction) == "29.3")
    }

    @Test("A noon sight 5 minutes off the meridian is reduced to it from the DR and gives the true latitude")
    func aSightNearTheMeridianIsReducedToIt() throws {
        // Given the Sun's true altitude at 45° N 0°, 5 minutes after its meridian passage
        let dr = try Position(latitude: 45, longitude: 0)
        let noon = try #require(MeridianPassage.localApparentNoon(DeadReckoning(dr, at: utc(2026, 3, 20, 12))))
        let t = noon.utc.adding(nanoseconds: 5 * 60_000_000_000)
        let e = Almanac.entry(.sun, at: SkyTime(t)!)
        let ho = Computed(gha: e.gha, declination: e.declination, latitude: 45, longitude: 0).altitude
        // When it is reduced to the meridian and the latitude worked
        let m = MeridianReduction(gha: e.gha, declination: e.declination, dr: dr)
        let lat = MeridianPassage.latitude(ho: ho + m.correction / 60, declination: e.declination, bearsSouth: true)
        // Then the rule holds, the correction is 0′.8, and the latitude is 45° to 1e-9°
        #expect(m.holds)
        #expect(String(format: "%.1f", m.correction) == "0.8")
        #expect(abs(lat - 45) < 1e-9)
    }

    @Test("A meridian altitude near the zenith is warned of; one at 80° is not")
    func aMeridianAltitudeNearTheZenithIsWarned() {
        #expect(MeridianPassage.nearZenith(88) == "Ho 88° 00'.0 on the meridian is within 5° of the zenith: there the altitude changes fast and "
            + "is no parabola in time, so a meridian latitude may be minutes off (a run near 88° came out 9' off); "
            + "prefer sights east and west of the zenith, plotted as circles, with `marktime fix`")
        #expect(MeridianPassage.nearZenith(80) == nil)
    }

    /// Polaris's Ho at `truth`, and its almanac entry, on 2030-02-01 03:00 UTC.
    static func polaris(at truth: Position) -> (ho: Double, entry: AlmanacEntry) {
        let e = Almanac.entry(Body(named: "Polaris")!, at: SkyTime(utc(2030, 2, 1, 3))!)
        return (Computed(gha: e.gha, declination: e.declination, latitude: truth.latitude, longitude: truth.longitude).altitude, e)
    }

    @Test("At 89° N from a DR at the pole, both latitudes that fit are given, and the bearing seen chooses")
    func nearThePoleBothRootsAreGiven() throws {
        // Given Polaris shot at 89° N 128° W, where it stands near upper transit (bearing north)
        let truth = try Position(latitude: 89, longitude: -128)
        let (ho, e) = Self.polaris(at: truth)
        let pole = try Position(latitude: 90, longitude: -128)
        // When worked from a DR at the pole: the nearer root is the one past the star, bearing south
        let p = try #require(PolarisLatitude(ho: ho, gha: e.gha, declination: e.declination, near: pole))
        let other = try #require(p.alternative)
        #expect(abs(other.latitude - 89) < 1e-9)
        #expect(p.latitude > e.declination)
        #expect(abs(p.azimuth - 180) < 1 && (other.azimuth < 1 || other.azimuth > 359))
        // And with the bearing seen (000°), it is the true latitude
        let seen = try #require(PolarisLatitude(ho: ho, gha: e.gha, declination: e.declination, near: pole, bearing: 0))
        #expect(abs(seen.latitude - 89) < 1e-9)
        // And the almanac's formula, whose tables stop at 68° N, is not worked: no 27,337,814,328,538° N
        #expect(!p.formulaHolds && !seen.formulaHolds)
        #expect(p.almanacFormula == p.latitude)
    }

    @Test("At 89° 54′ N from a DR at the pole, the latitude is right to 1e-9°")
    func polarisIsRightToThePole() throws {
        let truth = try Position(latitude: 89.9, longitude: 0)
        let (ho, e) = Self.polaris(at: truth)
        let p = try #require(PolarisLatitude(ho: ho, gha: e.gha, declination: e.declination, near: try Position(latitude: 90, longitude: 0)))
        #expect(abs(p.latitude - 89.9) < 1e-9)
        #expect(p.almanacFormula.isFinite)
    }

    @Test("Polaris is below the horizon at 27° S, and up at 10° N")
    func polarisIsBelowTheHorizonSouthOfTheEquator() throws {
        let e = Almanac.entry(Body(named: "Polaris")!, at: SkyTime(utc(2026, 2, 1, 3))!)
        let hc = try #require(PolarisLatitude.belowHorizon(gha: e.gha, declination: e.declination, at: try Position(latitude: -27, longitude: 153)))
        #expect(hc < -26 && hc > -28)
        #expect(PolarisLatitude.belowHorizon(gha: e.gha, declination: e.declination, at: try Position(latitude: 10, longitude: 153)) == nil)
    }

    @Test("An average is not read off its line a century away: --at must be within 10 minutes of the run")
    func anAverageFarFromItsRunIsRefused() throws {
        // Given two sights of Sirius a minute apart
        let t0 = utc(2026, 3, 10, 22)
        let run: [(id: Int64?, utc: UTCTime, hs: Double)] = [(1, t0, 30), (2, t0.adding(nanoseconds: 60_000_000_000), 30.1)]
        let near = try Position(latitude: 35, longitude: -40)
        let far = utc(1990, 1, 1, 0)
        // When averaged to 1990, then refused naming the time and the run
        #expect(throws: SightAverage.Failure.atOutsideRun(at: far, first: t0, last: run[1].utc)) {
            try SightAverage(run, body: Body(named: "Sirius")!, near: near, at: far)
        }
        #expect(SightAverage.Failure.atOutsideRun(at: far, first: t0, last: run[1].utc).description
            == "the time to average to, 1990-01-01T00:00:00.000Z, is not within 10 minutes of the run (2026-03-10T22:00:00.000Z to 2026-03-10T22:01:00.000Z): "
            + "the almanac's slope carries a run over minutes, not hours; give a time within the run, or leave it out for the kept sights' mean time")
        // And 9 minutes after the last sight is still within it
        #expect(throws: Never.self) { try SightAverage(run, body: Body(named: "Sirius")!, near: near, at: t0.adding(nanoseconds: 10 * 60_000_000_000)) }
    }

    @Test("Every almanac instant past the measured ΔT table carries its flag; one within it none")
    func anInstantPastTheTableIsFlagged() throws {
        #expect(ReductionFlag.deltaT(at: SkyTime(utc(2026, 1, 1, 0))!) == nil)
        let flag = try #require(ReductionFlag.deltaT(at: SkyTime(utc(2030, 8, 1, 1))!))
        #expect(flag.kind == .deltaT)
        #expect(flag.message.hasPrefix("past the last measured ΔT (2026-10-01): UT1 is uncertain by ±"))
    }
}
