import Foundation
import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// `marktime plan`: the set to shoot, and the sextant's predicted reading (#59 item 1).
@Suite("What to shoot: the plan and the sextant preset")
struct SightPlanTests {
    static let sextant = SextantReading(hs: 0, indexError: -1.2, eyeHeight: 2.5, limb: .lower, celsius: 25, hectopascals: 1020)

    struct Preset: Sendable, CustomTestStringConvertible {
        var body: Body, limb: Limb
        var testDescription: String { "\(body.name) \(limb.rawValue)" }
    }

    static let presets: [Preset] = [
        Preset(body: .sun, limb: .lower), Preset(body: .sun, limb: .upper), Preset(body: .moon, limb: .lower), Preset(body: .moon, limb: .upper),
        Preset(body: .venus, limb: .center), Preset(body: .mars, limb: .center), Preset(body: .jupiter, limb: .center),
        Preset(body: .saturn, limb: .center), Preset(body: .star(Star.catalogue.first { $0.name == "Vega" }!), limb: .center),
    ]

    @Test(arguments: presets)
    func aSightReadAtThePredictedHsReducesToAnInterceptOfZeroAtTheDR(_ p: Preset) throws {
        let time = utc(2026, 6, 21, 3, 17, 40)
        let entry = Almanac.entry(p.body, at: try #require(SkyTime(time)))
        for altitude in stride(from: 5.0, through: 85.0, by: 5.0) {
            // Given a DR on the body's meridian where its Hc is `altitude`
            let north = entry.declination + (90 - altitude) <= 90
            let dr = at(north ? entry.declination + 90 - altitude : entry.declination - 90 + altitude, normalizedLongitude(-entry.gha))
            // When the sextant is preset to the predicted Hs, and a sight read at it is reduced from the DR
            var reading = Self.sextant
            reading.limb = p.limb
            let hs = Observation.sextantAltitude(observed: altitude, reading, body: p.body, at: try #require(SkyTime(time)), near: dr)
            var s = Sight(instant: MonotonicInstant(bootID: "plan", nanoseconds: 0), estimate: UTCEstimate(utc: time, source: .gps, uncertainty: 0.5),
                          createdAt: time)
            (s.body, s.limb, s.hs, s.indexError, s.eyeHeight) = (p.body.name, p.limb, hs, reading.indexError, reading.eyeHeight)
            (s.temperature, s.pressure, s.dr) = (reading.celsius, reading.hectopascals, dr)
            let reduced = try ReducedSight(s)
            // Then Hc is the altitude planned, and the intercept is 0.0′ (to a millionth of a minute)
            #expect(abs(reduced.computed.altitude - altitude) < 1e-9, "\(altitude)°")
            #expect(abs(reduced.intercept) < 1e-6, "\(p.testDescription) at \(altitude)°: intercept \(reduced.intercept)′")
        }
    }

    func line(_ name: String, zn: Double, hc: Double = 45, magnitude: Double = 1) -> SightPlan.Line {
        SightPlan.Line(body: try! Body.parse(name), computed: Computed(altitude: hc, azimuth: zn), magnitude: magnitude, hs: hc,
                       hsPerMinute: 0, chosen: false, reason: nil)
    }

    @Test func threeBodiesAHundredAndTwentyDegreesApartAreChosenOverBrighterOnesBunchedTogether() {
        // Given two bright stars 10° apart, and three fainter ones 120° apart
        let lines = [line("Sirius", zn: 80, magnitude: -1.5), line("Canopus", zn: 90, magnitude: -0.7),
                     line("Hamal", zn: 0, magnitude: 2), line("Altair", zn: 120, magnitude: 0.8), line("Alioth", zn: 240, magnitude: 1.8)]
        // When the best three are chosen
        let best = SightPlan.bestSet(lines, count: 3).map { lines[$0].body.name }
        // Then they are the spread ones, not a bright one with an 80° gap
        #expect(best == ["Hamal", "Altair", "Alioth"])
    }

    @Test func fourBodiesAreChosenNinetyDegreesApart() {
        let lines = [line("Vega", zn: 0), line("Deneb", zn: 45), line("Altair", zn: 90), line("Arcturus", zn: 180),
                     line("Capella", zn: 200), line("Rigel", zn: 270)]
        #expect(SightPlan.bestSet(lines, count: 4).map { lines[$0].body.name } == ["Vega", "Altair", "Arcturus", "Rigel"])
    }

    @Test func aboutAHundredAndTwentyDegreesIsSpreadEnoughAndThenTheBrighterSetWins() {
        // Given three faint stars exactly 120° apart, and two bright ones that make gaps of 100°, 140° and 120° with the first
        let lines = [line("Hamal", zn: 0, magnitude: 2), line("Alioth", zn: 120, magnitude: 1.8), line("Menkar", zn: 240, magnitude: 2.5),
                     line("Sirius", zn: 100, magnitude: -1.5), line("Canopus", zn: 240, magnitude: -0.7)]
        // Then the bright ones are chosen: a smallest gap of 96° or more counts as spread
        #expect(SightPlan.bestSet(lines, count: 3).map { lines[$0].body.name } == ["Hamal", "Sirius", "Canopus"])
    }

    @Test func atFortyEightNorthAndLHAAriesOneEightyThePlanTakesTheBrighterStarOfEachOfPub249sDirections() throws {
        // Given the line of Pub. 249 Vol. 1 (epoch 1975.0) for 48° N, LHA♈ 180°, as a navigator quoted it (Ron Jones,
        // fer3.com/arc, 2017 Nov 27): Deneb, Vega, Arcturus, Spica, Regulus, Pollux, Capella, with ◆ Deneb, Spica and Pollux
        let t = utc(1990, 3, 21, 0, 6, 58)
        #expect(abs(Almanac.ariesGHA(try #require(SkyTime(t))) - 180) < 0.001)
        // When the plan is made there (the almanac starts in 1990)
        let plan = try SightPlan(at: t, from: at(48, 0), sextant: Self.sextant)
        // Then all seven are above the horizon, and the plan takes Vega, Spica and Capella: Spica as Pub. 249 does, and the
        // brighter of two stars in each other direction (Vega 0.0 at Zn 056° for Deneb 1.2 at 033°, 13° high here and below
        // the 15° band; Capella 0.1 at 310° for Pollux 1.2 at 272°)
        let names = Set(plan.lines.map(\.body.name))
        #expect(["Deneb", "Vega", "Arcturus", "Spica", "Regulus", "Pollux", "Capella"].allSatisfy(names.contains))
        #expect(plan.chosen.map(\.body.name) == ["Vega", "Spica", "Capella"])
    }

    @Test func ofTwoEquallySpreadSetsTheOneNearerThirtyToSixtyDegreesWins() {
        let lines = [line("Vega", zn: 0, hc: 20), line("Deneb", zn: 0, hc: 45), line("Altair", zn: 120), line("Arcturus", zn: 240)]
        #expect(SightPlan.bestSet(lines, count: 3).map { lines[$0].body.name } == ["Deneb", "Altair", "Arcturus"])
    }

    @Test func aPlanListsEveryBodyAboveTheHorizonWithItsReason() throws {
        // Given the evening twilight of 27 November 2026 off Plymouth
        let plan = try SightPlan(at: utc(2026, 11, 27, 17, 0, 32), from: at(50 + 10.0 / 60, -(4 + 20.0 / 60)), sextant: Self.sextant)
        // Then three are chosen, and every other body above the horizon is listed with why it was left out
        let visible = Almanac.visible(at: try #require(SkyTime(utc(2026, 11, 27, 17, 0, 32))), from: at(50 + 10.0 / 60, -(4 + 20.0 / 60)))
        #expect(plan.chosen.count == 3)
        #expect(Set(plan.lines.map(\.body)) == Set(visible.map(\.body)))
        #expect(plan.lines.filter { !$0.chosen }.allSatisfy { $0.reason != nil })
        let deneb = try #require(plan.lines.first { $0.body.name == "Deneb" })
        #expect(deneb.reason == "above 70°")
        let arcturus = try #require(plan.lines.first { $0.body.name == "Arcturus" })
        #expect(arcturus.reason == "below 15°")
        // And the chosen are in the band, by Zn, and no two closer than 96° (80 % of 120°)
        let zn = plan.chosen.map(\.computed.azimuth)
        #expect(zn == zn.sorted())
        #expect(plan.chosen.allSatisfy { (15...70).contains($0.computed.altitude) })
        #expect(zip(zn, zn.dropFirst() + [zn[0] + 360]).allSatisfy { $1 - $0 >= 96 }, "\(zn)")
    }

    @Test func aRisingBodysHsGrowsAndASettingOnesShrinks() throws {
        let plan = try SightPlan(at: utc(2026, 11, 27, 17, 0, 32), from: at(50 + 10.0 / 60, -(4 + 20.0 / 60)), sextant: Self.sextant)
        for l in plan.lines {
            // East of the meridian a body rises; west, it sets
            #expect(l.computed.azimuth < 180 ? l.hsPerMinute > 0 : l.hsPerMinute < 0, "\(l.body.name) Zn \(l.computed.azimuth) \(l.hsPerMinute)")
        }
    }

    @Test func aBandThatLeavesFewerThanThreeBodiesIsRefusedInWords() {
        #expect(throws: InputError("only 1 body is between 80° and 90° and brighter than magnitude 3.0 at 2026-11-27T17:00:32.000Z "
            + "from 50° 10'.00 N  4° 20'.00 W: a fix needs 3; widen the band (--lowest, --highest) or choose another time")) {
            _ = try SightPlan(at: utc(2026, 11, 27, 17, 0, 32), from: at(50 + 10.0 / 60, -(4 + 20.0 / 60)), sextant: Self.sextant,
                              options: .init(band: 80...90))
        }
    }

    @Test func theTwilightWindowIsTheSunBetweenThreeAndTenDegreesBelowTheHorizon() throws {
        // Given Plymouth on 27 November 2026, from noon
        let here = at(50 + 10.0 / 60, -(4 + 20.0 / 60))
        // When the evening and the next morning windows are found
        let evening = try #require(SunEvents.twilightWindow(morning: false, after: utc(2026, 11, 27, 12), from: here))
        let morning = try #require(SunEvents.twilightWindow(morning: true, after: utc(2026, 11, 27, 12), from: here))
        // Then the Sun stands at −3° and −10° at their ends, to a hundredth of a degree
        for (t, h) in [(evening.start, -3.0), (evening.end, -10.0), (morning.start, -10.0), (morning.end, -3.0)] {
            #expect(abs(try #require(SunEvents.altitude(at: t, from: here)) - h) < 0.01, "\(t.iso8601)")
        }
        #expect(evening.start < evening.end && evening.end < morning.start && morning.start < morning.end)
    }

    @Test func byDayOnlyTheSunTheMoonAndVenusArePlannedAndAPlanThatNeedsStarsSaysSo() throws {
        // Given noon off Plymouth on 27 November 2026
        let noon = utc(2026, 11, 27, 12, 17), here = at(50 + 10.0 / 60, -(4 + 20.0 / 60))
        // When a plan of three takes any altitude and any star down to magnitude 6
        // Then it is refused in words, naming what to do instead: of the dozens of stars above the horizon, none counts by day
        let stars = Almanac.visible(at: try #require(SkyTime(noon)), from: here).filter { if case .star = $0.body { true } else { false } }
        #expect(stars.count > 20)
        #expect(throws: InputError("only 2 bodies are between 0° and 90° and brighter than magnitude 6.0 at 2026-11-27T12:17:00.000Z from "
            + "50° 10'.00 N  4° 20'.00 W: a fix needs 3; by day only the Sun, the Moon and Venus are seen: plan the twilight (--twilight morning "
            + "or evening), or work a running fix of Sun lines (`marktime fix --course --speed`)")) {
            _ = try SightPlan(at: noon, from: here, sextant: Self.sextant, options: .init(band: 0...90, count: 3, faintest: 6))
        }
    }

    @Test func aPlanInTheDarkSaysTheHorizonCannotBeSeen() throws {
        let plan = try SightPlan(at: utc(2026, 11, 28, 0, 30), from: at(50 + 10.0 / 60, -(4 + 20.0 / 60)), sextant: Self.sextant)
        #expect(plan.warning == "the Sun is 61° below the horizon: the sea horizon cannot be seen; plan the twilight (--twilight morning or evening)")
    }

    @Test func askedInsideTheTwilightWindowThePlanIsForTheRestOfIt() throws {
        // Given the evening window off Plymouth, and a moment five minutes into it
        let here = at(50 + 10.0 / 60, -(4 + 20.0 / 60))
        let evening = try #require(SunEvents.twilightWindow(morning: false, after: utc(2026, 11, 27, 12), from: here))
        let inside = evening.start.adding(nanoseconds: 300_000_000_000)
        // When the evening window is asked for then
        let now = try #require(SunEvents.twilightWindow(morning: false, after: inside, from: here))
        // Then it is the rest of this one, not tomorrow's
        #expect(now.start == inside)
        #expect(now.end == evening.end)
        // And likewise in the morning
        let morning = try #require(SunEvents.twilightWindow(morning: true, after: utc(2026, 11, 27, 12), from: here))
        let dawn = morning.start.adding(nanoseconds: 600_000_000_000)
        let rest = try #require(SunEvents.twilightWindow(morning: true, after: dawn, from: here))
        #expect(rest.start == dawn && rest.end == morning.end)
    }

    @Test func aSummerNightAtSixtyNorthHasAWindowToTheSunsLowest() throws {
        // Given 60° N on 21 June, where the Sun goes no lower than about 6.6° below the horizon
        let here = at(60, 5)
        // When the evening window is found
        let w = try #require(SunEvents.twilightWindow(morning: false, after: utc(2026, 6, 21, 12), from: here))
        // Then it starts at -3° and ends where the Sun turns, above -10°
        #expect(abs(try #require(SunEvents.altitude(at: w.start, from: here)) - -3) < 0.01)
        let lowest = try #require(SunEvents.altitude(at: w.end, from: here))
        #expect(lowest > -10 && lowest < -6)
        let later = try #require(SunEvents.altitude(at: w.end.adding(nanoseconds: 1_800_000_000_000), from: here))
        #expect(later > lowest)
    }

    @Test func aPolarSummerHasNoTwilightWindow() {
        #expect(SunEvents.twilightWindow(morning: false, after: utc(2026, 6, 21, 0), from: at(78, 15)) == nil)
    }
}

private func normalizedLongitude(_ lon: Double) -> Double {
    var l = lon.truncatingRemainder(dividingBy: 360)
    if l > 180 { l -= 360 }
    if l < -180 { l += 360 }
    return l
}
