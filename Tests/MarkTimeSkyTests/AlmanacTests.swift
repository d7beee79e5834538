import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// A value printed in The Nautical Almanac (HM Nautical Almanac Office / US Naval
/// Observatory) for one body at one hour, as quoted by `source`.
struct Published: CustomTestStringConvertible, Sendable {
    var body: String
    var utc: (Int, Int, Int, Int, Int, Int)
    /// Degrees and minutes, as printed; a south declination is negative.
    var gha: (Int, Double)?
    var dec: (Int, Double)?
    var source: String

    var time: SkyTime {
        SkyTime(UTCTime(year: utc.0, month: utc.1, day: utc.2, hour: utc.3, minute: utc.4, second: utc.5)!)!
    }
    var testDescription: String { "\(body) \(utc.0)-\(utc.1)-\(utc.2) \(utc.3)h" }
}

/// Arc-minutes between two angles, the shorter way round.
func arcminutes(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d < -180 { d += 360 }
    return abs(d) * 60
}

func degrees(_ dm: (Int, Double)) -> Double {
    dm.0 < 0 ? Double(dm.0) - dm.1 / 60 : Double(dm.0) + dm.1 / 60
}

@Suite("The almanac against published values")
struct AlmanacTests {
    static let published: [Published] = [
        Published(body: "Aries", utc: (2009, 12, 31, 0, 0, 0), gha: (99, 33.4), dec: nil,
                  source: "NA 2009, Dec 31, quoted by Gary LaPook, NavList, 2009-12-08 ('Out of Date Almanac')"),
    ]

    @Test(arguments: published)
    func matchesTheNauticalAlmanac(_ p: Published) {
        let entry: AlmanacEntry = p.body == "Aries"
            ? AlmanacEntry(body: "Aries", gha: Almanac.ariesGHA(p.time), declination: 0, sha: nil, semiDiameter: 0, horizontalParallax: 0)
            : Almanac.sun(p.time)
        if let gha = p.gha { #expect(arcminutes(entry.gha, degrees(gha)) <= 0.1, "GHA \(entry.gha * 60)′ vs \(degrees(gha) * 60)′") }
        if let dec = p.dec { #expect(arcminutes(entry.declination, degrees(dec)) <= 0.1, "Dec \(entry.declination * 60)′ vs \(degrees(dec) * 60)′") }
    }

    @Test func theSunsApparentPlaceMatchesMeeusExample25b() {
        // Given 1992 October 13.0 TT, Meeus's worked example of the Sun's apparent place from
        // the full VSOP87 ("Astronomical Algorithms", 2nd ed., example 25.b):
        // α = 13h 13m 30.749s, δ = −7° 47′ 01.74″
        let t = (2_448_908.5 - 2_451_545) / 36_525
        let place = SunTheory.apparentPlace(centuriesTT: t, frame: EarthOrientation.Frame(t))
        // Then the truncated series agrees within 0.5″ (0.03 s of right ascension)
        let alpha = normalized(place.rightAscension) * 240, delta = place.declination * 3600
        #expect(abs(alpha - 47_610.749) < 0.03, "α \(alpha) s")
        #expect(abs(delta - -28_021.74) < 0.5, "δ \(delta)″")
    }
}

@Suite("Time scales")
struct TimeScaleTests {
    @Test func ut1IsTTLessDeltaT() {
        // Given 2017-01-01 00:00:00 UTC, just after the last leap second (TAI − UTC = 37 s)
        let t = SkyTime(UTCTime(year: 2017, month: 1, day: 1)!)!
        // Then ΔT is the table's 68.5927 s and UT1 − UTC = 37 + 32.184 − 68.5927 s
        #expect(abs(t.deltaT - 68.5927) < 1e-6)
        #expect(abs(t.ut1MinusUTC - 0.5913) < 1e-4)
        #expect(t.ut1Uncertainty == 0.05)
    }

    @Test func pastTheTableUncertaintyGrowsByAYearsChange() {
        // Given an instant ten years (3,652.5 days) after the last measured ΔT, 2026-10-01
        let t = SkyTime(julianUTC: 2_461_314.5 + 3_652.5)
        // Then ΔT is held and its uncertainty is 0.05 + 10 × 0.9 s
        #expect(t.deltaT == 69.2065)
        #expect(abs(t.ut1Uncertainty - 9.05) < 1e-9)
    }

    @Test func theAlmanacCovers1990To2060() {
        #expect(SkyTime(UTCTime(year: 1989, month: 12, day: 31, hour: 23)!) == nil)
        #expect(SkyTime(UTCTime(year: 2061, month: 1, day: 1)!) == nil)
        #expect(SkyTime(UTCTime(year: 2060, month: 12, day: 31)!) != nil)
    }
}
