import MarkTimeCore
import Testing
@testable import MarkTimeSky

@Suite("Twilight, shades and magnitudes")
struct PlanningTests {
    @Test(arguments: [(10.0, SunEvents.Shade.day), (-0.5, .day), (-1.0, .civil), (-6.5, .nautical), (-12.5, .astronomical), (-18.5, .night)])
    func theShadeFollowsTheSunsAltitude(_ h: Double, _ shade: SunEvents.Shade) {
        #expect(SunEvents.Shade(sunAltitude: h) == shade)
    }

    @Test func berlinAt1630OnChristmasEveIsPastSunset() throws {
        // Given Berlin (52° 30′ N 13° 22′ E, zone1970.tab) at 16:30 CET on 24 December 2026 (15:30 UTC)
        let berlin = try Position(latitude: 52.5, longitude: 13 + 22.0 / 60)
        let h = try #require(SunEvents.altitude(at: UTCTime(year: 2026, month: 12, day: 24, hour: 15, minute: 30)!, from: berlin))
        // Then the Sun is below the horizon: civil twilight, not day
        #expect(SunEvents.Shade(sunAltitude: h) == .civil)
    }

    @Test func eachEventIsTheInstantTheSunCrossesItsAltitude() throws {
        // Given Greenwich on 2026-06-21
        let greenwich = try Position(latitude: 51 + 28.6 / 60, longitude: 0)
        let day = SunEvents.day(from: UTCTime(year: 2026, month: 6, day: 21)!, at: greenwich)
        // Then sunrise and sunset are found, the Sun at −0° 50′ then, and in order
        let sunrise = try #require(day.sunrise), sunset = try #require(day.sunset)
        for (t, h) in [(sunrise, SunEvents.horizon), (sunset, SunEvents.horizon), (try #require(day.civilDusk), -6.0)] {
            #expect(abs(try #require(SunEvents.altitude(at: t, from: greenwich)) - h) < 0.01)
        }
        #expect(sunrise < sunset)
        // and at midsummer in London the Sun never sinks 18° below: no astronomical dusk
        #expect(day.astronomicalDusk == nil)
        // London's midsummer sunrise and sunset, 04:43 and 21:21 BST, to within ten minutes
        // (Greenwich is 2.5′ of longitude from the City)
        #expect(sunrise.iso8601.hasPrefix("2026-06-21T03:4"))
        #expect(sunset.iso8601.hasPrefix("2026-06-21T20:2"))
    }

    @Test func venusMagnitudeFollowsMeeusExample41a() throws {
        // Given Venus on 1992 December 20, 0h TD (Meeus, "Astronomical Algorithms", example 41.a:
        // r = 0.724604 au, Δ = 0.910947 au, phase angle i = 72.96°)
        let t = try #require(SkyTime(UTCTime(year: 1992, month: 12, day: 19, hour: 23, minute: 59)!))
        let g = try #require(PhaseGeometry(Almanac.entry(.venus, at: t), sun: Almanac.entry(.sun, at: t)))
        #expect(abs(g.r - 0.724604) < 0.0001)
        #expect(abs(g.delta - 0.910947) < 0.0001)
        #expect(abs(g.phaseAngle - 72.96) < 0.01)
        // Then the Astronomical Almanac 1984's formula, worked by hand from those figures,
        // −4.40 + 5 log(rΔ) + 0.0009 i + 0.000239 i² − 0.00000065 i³, gives −4.217
        #expect(abs(Almanac.magnitude(.venus, at: t) - -4.217) < 0.001)
    }

    @Test func theStarFinderListsOnlyBodiesAboveTheHorizonBrightestFirst() throws {
        let time = try #require(SkyTime(UTCTime(year: 2030, month: 8, day: 1, hour: 1)!))
        let sky = Almanac.visible(at: time, from: try Position(latitude: 40, longitude: -70))
        #expect(sky.allSatisfy { $0.computed.altitude > 0 })
        #expect(sky.map(\.magnitude) == sky.map(\.magnitude).sorted())
        #expect(sky.contains { $0.body.name == "Vega" })
        #expect(!sky.contains { $0.body == .sun })
    }
}
