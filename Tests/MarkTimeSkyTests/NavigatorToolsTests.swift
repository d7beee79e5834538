import Foundation
import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// An angle as the tables print it, `57° 57'.2`.
private func printed(_ degrees: Double) -> String { SextantAngle.format(degrees) }

private func star(_ name: String) -> Body { Body(named: name)! }

@Suite("Reduction from an assumed position, as HO 229 and Pub. 249 lay it out")
struct TableReductionTests {
    /// Robert Bernecky's HO 229 working (NavList, "Pub 229", 2017-12-10): latitude 44° N,
    /// longitude 73° 18'.7 W making LHA 2°, declination N 12° 12'.7, Ho 57° 40'.0.
    static let ghaForLHA2 = 75 + 18.7 / 60
    static let declination = 12 + 12.7 / 60
    static let dr = try! Position(latitude: 43 + 50.0 / 60, longitude: -(73 + 25.0 / 60))

    @Test func theAssumedPositionMakesLatitudeAndLHAWhole() {
        // Given the sight; when it is reduced for HO 229
        let r = TableReduction(ho: 57 + 40.0 / 60, gha: Self.ghaForLHA2, declination: Self.declination, near: Self.dr)
        // Then the AP is 44° N 73° 18'.7 W, LHA 2°, declination 12° + 12'.7, same name
        #expect(r.assumedPosition.latitude == 44)
        #expect(printed(-r.assumedPosition.longitude) == "73° 18'.7")
        #expect(r.lha == 2)
        #expect(r.declinationDegrees == 12)
        #expect(String(format: "%.1f", r.declinationIncrement) == "12.7")
        #expect(r.sameName)
    }

    @Test func ho229GivesThePublishedHcDAndZ() {
        // Given the sight; when it is reduced for HO 229
        let r = TableReduction(ho: 57 + 40.0 / 60, gha: Self.ghaForLHA2, declination: Self.declination, near: Self.dr)
        // Then as published: tab Hc 57° 57'.2, d +60.0, Z 176.3; Hc 58° 09'.9, Zn 183.7, 29.9 nm away
        #expect(printed(r.tabulatedHc) == "57° 57'.2")
        #expect(String(format: "%+.1f", r.d) == "+60.0")
        #expect(String(format: "%.1f", r.tabulatedZ) == "176.3")
        #expect(String(format: "%+.1f", r.dCorrection) == "+12.7")
        #expect(printed(r.hc) == "58° 09'.9")
        #expect(String(format: "%.1f", r.zn) == "183.7")
        #expect(String(format: "%.1f", r.intercept) == "-29.9")
    }

    @Test func pub249RoundsToWholeMinutesAndDegrees() {
        // Given the same sight; when it is reduced for Pub. 249
        let r = TableReduction(ho: 57 + 40.0 / 60, gha: Self.ghaForLHA2, declination: Self.declination, near: Self.dr, tables: .pub249)
        // Then Hc and d are whole minutes and Z whole degrees
        #expect(printed(r.tabulatedHc) == "57° 57'.0")
        #expect(r.d == 60)
        #expect(r.tabulatedZ == 176)
        #expect(printed(r.hc) == "58° 09'.7")
    }

    @Test func southernLatitudeContraryNameGivesThePublishedWorking() {
        // Given Sean C's HO 229 working (NavList, "John Karl's Celestial Navigation in the GPS
        // Age", 2018-04-30): latitude 24° S, LHA 32°, declination N 18° 08'.5 (contrary name)
        let dr = try! Position(latitude: -(24 + 6.0 / 60), longitude: 20.3)
        let r = TableReduction(ho: 37.5, gha: 32 - 20.3, declination: 18 + 8.5 / 60, near: dr)
        // Then: tab Hc 37° 40'.2, d −47.6, Z 140.5, as published
        #expect(r.assumedPosition.latitude == -24)
        #expect(r.lha == 32)
        #expect(!r.sameName)
        #expect(printed(r.tabulatedHc) == "37° 40'.2")
        #expect(String(format: "%+.1f", r.d) == "-47.6")
        #expect(String(format: "%.1f", r.tabulatedZ) == "140.5")
        // And Hc 37° 33'.4 as published, to the 0.1' the interpolation table's two parts may add
        // (its 5'.7 + 1'.1 = 6'.8 against d × 8.5 / 60 = 6'.74)
        #expect(abs(r.hc - (37 + 33.4 / 60)) * 60 <= 0.1 + 1e-9)
        // And Zn = 180° + tab Z for a southern latitude with LHA under 180°: 320.5° as published
        #expect(String(format: "%.1f", r.zn) == "320.5")
        // (worked exactly at the AP, for the declination's 8'.5 too: 320.6°)
        #expect(String(format: "%.1f", r.exactZn) == "320.6")
    }
}

@Suite("Noon and Polaris")
struct MeridianTests {
    /// "Solution to: Eagle Noon Sight" (Ocean Navigator, July 2007): 2006-10-26, DR 30° 31' N
    /// 76° 47' W, height of eye 30 ft, Sun's lower limb Hs 47° 01'.6, no index error.
    static let eagleDR = try! Position(latitude: 30 + 31.0 / 60, longitude: -(76 + 47.0 / 60))

    @Test func localApparentNoonIsAtThePublishedMinute() throws {
        // Given the DR on 2006-10-26; when noon is found
        let noon = try #require(MeridianPassage.localApparentNoon(DeadReckoning(Self.eagleDR, at: utc(2006, 10, 26, 12))))
        // Then LAN is at 16:51:08 UT as published (Mer. Pass. 11:44 + 5h 07m 08s), within the
        // half minute the almanac's Mer. Pass. is rounded to
        let published = utc(2006, 10, 26, 16, 51, 8)
        #expect(abs(noon.utc.nanosecondsSinceEpoch - published.nanosecondsSinceEpoch) <= 30_000_000_000)
    }

    @Test func theMeridianPassageAtGreenwichIsTheAlmanacs() throws {
        // Given longitude 0 on 2006-10-26; then the Sun passes at 11:44 to the nearest minute,
        // the almanac's Mer. Pass.
        let noon = try #require(MeridianPassage.localApparentNoon(DeadReckoning(try Position(latitude: 30, longitude: 0), at: utc(2006, 10, 26, 0))))
        let nearestMinute = UTCTime(nanosecondsSinceEpoch: (noon.utc.nanosecondsSinceEpoch + 30_000_000_000) / 60_000_000_000 * 60_000_000_000)
        #expect(nearestMinute == utc(2006, 10, 26, 11, 44))
    }

    @Test func theNoonSightGivesThePublishedObservedAltitudeAndLatitude() throws {
        // Given the sight reduced at LAN
        let noon = try #require(MeridianPassage.localApparentNoon(DeadReckoning(Self.eagleDR, at: utc(2006, 10, 26, 12))))
        let time = try #require(SkyTime(noon.utc))
        let reading = SextantReading(hs: 47 + 1.6 / 60, eyeHeight: 30 * 0.3048, limb: .lower)
        let ho = Observation.observed(reading, body: .sun, at: time, near: noon.position).ho
        let dec = Almanac.entry(.sun, at: time).declination
        // When the latitude is worked with the Sun bearing south
        let lat = MeridianPassage.latitude(ho: ho, declination: dec, bearsSouth: true)
        // Then Ho 47° 11'.6, declination S 12° 33'.6 and latitude 30° 14'.8 N as published, to
        // the rounding the hand working carries: Ho to 0.1'; the declination from the 16h
        // value (±0.05') and d (±0.05' an hour), rounded to 0.1', so 0.15'; the latitude both
        #expect(abs(ho - (47 + 11.6 / 60)) * 60 <= 0.1 + 1e-9)
        #expect(abs(-dec - (12 + 33.6 / 60)) * 60 <= 0.15)
        #expect(abs(lat - (30 + 14.8 / 60)) * 60 <= 0.25)
        // And the latitude is exactly the zenith distance less the southern declination
        #expect(abs(lat - ((90 - ho) + dec)) < 1e-12)
    }

    @Test func aMovingShipsNoonFollowsItsLongitude() throws {
        // Given the same DR, steaming 090° at 12 knots from 12:00 UT
        let still = try #require(MeridianPassage.localApparentNoon(DeadReckoning(Self.eagleDR, at: utc(2006, 10, 26, 12))))
        let moving = try #require(MeridianPassage.localApparentNoon(DeadReckoning(Self.eagleDR, at: utc(2006, 10, 26, 12), course: 90, knots: 12)))
        // Then noon comes earlier, by the run's longitude: about 4.85 h × 12 kn = 58 nm east
        // ≈ 67'.3 of longitude at 30.5° N ≈ 4.5 minutes of time
        let earlier = Double(still.utc.nanosecondsSinceEpoch - moving.utc.nanosecondsSinceEpoch) / 6e10
        #expect(earlier > 4.3 && earlier < 4.6)
        // And at that instant the Sun's LHA at the ship is 0 to 0.01'
        let e = Almanac.entry(.sun, at: SkyTime(moving.utc)!)
        var lha = e.gha + moving.position.longitude
        lha -= 360 * (lha / 360).rounded()
        #expect(abs(lha) * 60 < 0.05)
    }

    @Test func theHighestOfARunIsTheParabolasVertex() throws {
        // Given Ho rising to 50° 00'.0 at 12:05 and falling as a parabola, sampled each minute
        let top = utc(2026, 6, 1, 12, 5)
        let run = (0..<9).map { k -> (utc: UTCTime, ho: Double) in
            let minutes = Double(k) - 3
            return (top.adding(nanoseconds: Int64(minutes * 6e10)), 50 - 0.05 * minutes * minutes / 60)
        }
        // When its maximum is found; then it is at 12:05:00, 50° 00'.0
        let max = try #require(MeridianPassage.maximum(of: run))
        #expect(max.utc == top)
        #expect(printed(max.ho) == "50° 00'.0")
    }

    @Test func polarisMatchesThePublishedAlmanacFormulaExample() throws {
        // Given Ian Staniforth's CNPOLE example: GHA♈ 118° 49'.2, SHA 315° 10'.6, Dec 89° 21'.8,
        // DR 49° 41' N 6° 17' W, Ho 50° 04'.3
        let p = try #require(PolarisLatitude(ho: 50 + 4.3 / 60, gha: 118 + 49.2 / 60 + 315 + 10.6 / 60, declination: 89 + 21.8 / 60,
                                             near: try Position(latitude: 49 + 41.0 / 60, longitude: -(6 + 17.0 / 60))))
        // Then the latitude is 49° 50'.0, by the almanac's formula and exactly
        #expect(printed(p.almanacFormula) == "49° 50'.0")
        #expect(printed(p.latitude) == "49° 50'.0")
        // And the a0 + a1 + a2 equivalent is the difference from Ho − 1°
        #expect(abs(p.correction - (p.latitude - (50 + 4.3 / 60 - 1))) < 1e-12)
    }

    @Test func polarisAtItsOwnComputedAltitudeGivesBackTheLatitude() throws {
        // Given Polaris's Hc at 52° 10' N 4° 30' W on 2026-02-01 03:00 UTC
        let truth = try Position(latitude: 52 + 10.0 / 60, longitude: -4.5)
        let e = Almanac.entry(star("Polaris"), at: SkyTime(utc(2026, 2, 1, 3))!)
        let hc = Computed(gha: e.gha, declination: e.declination, latitude: truth.latitude, longitude: truth.longitude).altitude
        // When the latitude is worked from a DR 30' away
        let p = try #require(PolarisLatitude(ho: hc, gha: e.gha, declination: e.declination,
                                             near: try Position(latitude: 51 + 40.0 / 60, longitude: -4.5)))
        // Then it is the true latitude to 1e-9°
        #expect(abs(p.latitude - truth.latitude) < 1e-9)
    }
}

@Suite("Naming a body from where it was seen")
struct IdentificationTests {
    @Test func aStarSeenOneDegreeOffIsNamedFirst() throws {
        // Given Sirius's place from Brisbane at 2025-01-15 11:00 UTC, seen 0.5° higher and 1° to the right
        let here = try Position(latitude: -(27 + 22.84 / 60), longitude: 153 + 22.84 / 60)
        let time = SkyTime(utc(2025, 1, 15, 11))!
        let e = Almanac.entry(star("Sirius"), at: time)
        let c = Computed(gha: e.gha, declination: e.declination, latitude: here.latitude, longitude: here.longitude)
        // When the candidates are listed
        let list = BodyIdentification.candidates(altitude: c.altitude + 0.5, azimuth: c.azimuth + 1, at: time, from: here)
        // Then Sirius is first, at the angle between the two directions, and every other is farther
        #expect(list.first?.body.name == "Sirius")
        let d = try #require(list.first?.distance)
        let h1 = c.altitude * .pi / 180, h2 = (c.altitude + 0.5) * .pi / 180
        let expected = acos(sin(h1) * sin(h2) + cos(h1) * cos(h2) * cos(.pi / 180)) * 180 / .pi
        #expect(abs(d - expected) < 1e-9)
        #expect(list.dropFirst().allSatisfy { $0.distance > d })
        #expect(list.allSatisfy { $0.distance <= 10 })
    }

    @Test func nothingNearAnEmptyPartOfTheSkyIsAnEmptyList() throws {
        // Given a radius of 0.01° around the zenith at the pole, where no star stands
        let list = BodyIdentification.candidates(altitude: 89.99, azimuth: 0, at: SkyTime(utc(2025, 1, 15, 11))!,
                                                 from: try Position(latitude: -90, longitude: 0), within: 0.01)
        #expect(list.isEmpty)
    }
}

@Suite("Averaging a run of sights")
struct AveragingTests {
    static let here = try! Position(latitude: 40, longitude: -70)
    static let start = utc(2026, 6, 1, 14)

    /// Five sights a minute apart on the Sun's own rising line, with scatter `offsets` (arc-minutes).
    static func run(_ offsets: [Double]) -> [(id: Int64?, utc: UTCTime, hs: Double)] {
        offsets.enumerated().map { k, off in
            let t = start.adding(nanoseconds: Int64(k) * 60_000_000_000)
            let e = Almanac.entry(.sun, at: SkyTime(t)!)
            let hc = Computed(gha: e.gha, declination: e.declination, latitude: here.latitude, longitude: here.longitude).altitude
            return (Int64(k + 1), t, hc + off / 60)
        }
    }

    @Test func aSightFarOffTheLineIsLeftOut() throws {
        // Given five sights, the fourth 6' high
        let a = try SightAverage(Self.run([0, 0.5, -0.4, 6, 0.1]), body: .sun, near: Self.here)
        // Then only the fourth is rejected, the others lie within the 2' limit
        #expect(a.points.map(\.rejected) == [false, false, false, true, false])
        #expect(a.points.filter { !$0.rejected }.allSatisfy { abs($0.residual) < 2 })
    }

    @Test func theAverageIsOnTheLineAtTheKeptSightsMeanTime() throws {
        // Given the same run
        let a = try SightAverage(Self.run([0, 0.5, -0.4, 6, 0.1]), body: .sun, near: Self.here)
        // Then the average is at the mean of minutes 0, 1, 2, 4 (1.75 min: 14:01:45),
        #expect(a.utc == Self.start.adding(nanoseconds: 105_000_000_000))
        // and its Hs is Hc there plus the kept sights' mean scatter (+0.05') to 0.02'
        let e = Almanac.entry(.sun, at: SkyTime(a.utc)!)
        let hc = Computed(gha: e.gha, declination: e.declination, latitude: Self.here.latitude, longitude: Self.here.longitude).altitude
        #expect(abs((a.hs - hc) * 60 - 0.05) < 0.02)
        // And the predicted slope is the Sun's rate of rise, matched by the fitted one to 0.5'/min
        #expect(a.predictedSlope > 0)
        #expect(abs(try #require(a.fittedSlope) - a.predictedSlope) < 0.5)
    }

    @Test func anAverageAtAChosenTimeIsReadOffTheLine() throws {
        // Given a clean run; when averaged at 14:03:30
        let at = Self.start.adding(nanoseconds: 210_000_000_000)
        let a = try SightAverage(Self.run([0, 0, 0, 0, 0]), body: .sun, near: Self.here, at: at)
        // Then the Hs is the Sun's Hc then, to 0.02'
        let e = Almanac.entry(.sun, at: SkyTime(at)!)
        let hc = Computed(gha: e.gha, declination: e.declination, latitude: Self.here.latitude, longitude: Self.here.longitude).altitude
        #expect(a.utc == at)
        #expect(abs(a.hs - hc) * 60 < 0.02)
        #expect(a.points.allSatisfy { !$0.rejected })
    }

    @Test func oneSightIsNotARun() {
        #expect(throws: SightAverage.Failure.tooFew(1)) {
            try SightAverage(Array(Self.run([0]).prefix(1)), body: .sun, near: Self.here)
        }
    }
}

@Suite("Outliers in a fix of many lines")
struct OutlierTests {
    static let truth = try! Position(latitude: 35, longitude: -40)
    static let time = utc(2026, 3, 10, 22)

    /// Star sights taken at once from `truth`, each with its error in arc-minutes.
    static func sights(_ errors: [(String, Double)]) throws -> [ReducedSight] {
        let dr = try Position(latitude: 35.1, longitude: -40.2)
        return try errors.enumerated().map { k, pair in
            var s = Sight.practice(star(pair.0), at: time, from: truth, reading: SextantReading(hs: 0, eyeHeight: 2.5), dr: dr)!
            s.id = Int64(k + 1)
            s.hs! += pair.1 / 60
            return try ReducedSight(s)
        }
    }

    @Test func aLineFiveMilesOutIsDroppedAndNamed() throws {
        // Given five stars, the third (Pollux) 5' high
        let lines = try Self.sights([("Sirius", 0.2), ("Capella", -0.3), ("Pollux", 5), ("Regulus", 0.1), ("Procyon", -0.2)])
        // When the fix rejects outliers
        let (fix, dropped) = try CelestialFix.rejectingOutliers(lines, run: .none)
        // Then Pollux (id 3) is dropped, about 5 nm from the others' fix, and the fix is within 0.3 nm of the truth
        #expect(dropped.map(\.id) == [3])
        #expect(abs(try #require(dropped.first).residual - 5) < 0.5)
        #expect(fix.lines.count == 4)
        #expect(GreatCircle.nauticalMiles(fix.position, Self.truth) < 0.3)
    }

    @Test func ordinaryScatterDropsNothing() throws {
        // Given five stars within 0.5' each
        let lines = try Self.sights([("Sirius", 0.2), ("Capella", -0.3), ("Pollux", 0.5), ("Regulus", 0.1), ("Procyon", -0.2)])
        // Then nothing is dropped
        let (fix, dropped) = try CelestialFix.rejectingOutliers(lines, run: .none)
        #expect(dropped.isEmpty)
        #expect(fix.lines.count == 5)
    }

    @Test func threeLinesAreNeverTrimmed() throws {
        // Given three stars, one 10' out: with three lines, none can be judged by the others
        let lines = try Self.sights([("Sirius", 0), ("Capella", 0), ("Pollux", 10)])
        let (fix, dropped) = try CelestialFix.rejectingOutliers(lines, run: .none)
        #expect(dropped.isEmpty)
        #expect(fix.lines.count == 3)
    }
}
