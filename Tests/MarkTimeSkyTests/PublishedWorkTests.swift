import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// A sight as a navigator writes it down: body, UTC, Hs in degrees and minutes, index
/// correction (negative on the arc), height of eye, and the DR it is worked from.
func writtenSight(_ body: String, _ utc: UTCTime, hs degrees: Double, _ minutes: Double, ie: Double, eye: Double,
                  limb: Limb? = nil, temperature: Double? = nil, pressure: Double? = nil, dr: Position) -> Sight {
    var s = Sight(instant: MonotonicInstant(bootID: "published", nanoseconds: utc.nanosecondsSinceEpoch),
                  estimate: UTCEstimate(utc: utc, source: .gps, uncertainty: 0.001), createdAt: utc)
    s.body = body
    s.limb = limb
    s.hs = degrees + minutes / 60
    s.indexError = ie
    s.eyeHeight = eye
    s.temperature = temperature
    s.pressure = pressure
    s.dr = dr
    return s
}

/// A latitude or longitude from degrees and minutes, negative for S and W.
func dm(_ degrees: Double, _ minutes: Double, _ side: Character) -> Double {
    (degrees + minutes / 60) * (side == "S" || side == "W" ? -1 : 1)
}

/// Complete worked reductions, Hs to intercept, as published with their answers.
@Suite("Published sight reductions")
struct PublishedReductionTests {
    struct Worked: Sendable, CustomTestStringConvertible {
        var source: String
        var sight: Sight
        /// The published intercept, nautical miles, positive toward; and Zn, degrees, where given.
        var intercept: Double
        var azimuth: Double?
        var testDescription: String { source }
    }

    /// The exercises read their GMT straight into the almanac, whose argument is UT1; the
    /// UTC instant whose UT1 is that GMT (UT1 − UTC was −0.27 s to −0.57 s in 2008, up to
    /// 0.14′ of GHA).
    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> UTCTime {
        let gmt = UTCTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)!
        return gmt.adding(nanoseconds: -Int64((SkyTime(gmt)!.ut1MinusUTC * 1e9).rounded()))
    }

    static func dr(_ lat: Double, _ lon: Double) -> Position { try! Position(latitude: lat, longitude: lon) }

    /// Exercises from the 2008 Nautical Almanac, worked with its tables by Vikrant Sharma
    /// (marinegyaan.com, "Exercise 36 – Intercept Star") and Capt. A. K. Sinha ("Exercise 31 –
    /// Intercept Sun", Q3). "On the arc" is entered as a negative correction.
    static let worked: [Worked] = [
        Worked(source: "Sirius 2008-04-30, Exercise 36 Q1",
               sight: writtenSight("Sirius", utc(2008, 4, 30, 20, 51, 23), hs: 57, 51.9, ie: -1.2, eye: 21,
                                   dr: dr(dm(34, 18, "S"), dm(40, 20, "W"))),
               intercept: 0.0, azimuth: 295.3),
        Worked(source: "Betelgeuse 2008-01-19, Exercise 36 Q2",
               sight: writtenSight("Betelgeuse", utc(2008, 1, 19, 7, 33, 44), hs: 43, 11.1, ie: 1.3, eye: 18,
                                   dr: dr(dm(0, 2, "N"), dm(170, 50, "E"))),
               intercept: 4.1, azimuth: nil),
        Worked(source: "Rigel 2008-11-29, Exercise 36 Q3",
               sight: writtenSight("Rigel", utc(2008, 11, 29, 11, 29, 20), hs: 35, 10.3, ie: -2.8, eye: 12,
                                   dr: dr(dm(25, 30, "S"), dm(107, 20, "W"))),
               intercept: -2.1, azimuth: nil),
        Worked(source: "Diphda 2008-08-31, Exercise 36 Q4",
               sight: writtenSight("Diphda", utc(2008, 8, 31, 0, 20, 26), hs: 21, 28.4, ie: 0.9, eye: 9,
                                   dr: dr(dm(40, 30, "N"), dm(64, 56, "E"))),
               intercept: -4.9, azimuth: 219.6),
        Worked(source: "Arcturus 2008-09-22, Exercise 36 Q5",
               sight: writtenSight("Arcturus", utc(2008, 9, 22, 12, 51, 32), hs: 25, 1.0, ie: -0.2, eye: 17,
                                   dr: dr(dm(60, 10, "N"), dm(92, 27, "E"))),
               intercept: -3.3, azimuth: 265.2),
        Worked(source: "Sun LL 2008-01-19, Exercise 31 Q3",
               sight: writtenSight("Sun", utc(2008, 1, 19, 3, 48, 0), hs: 43, 27.4, ie: -1.5, eye: 22, limb: .lower,
                                   dr: dr(dm(40, 16, "S"), dm(175, 31, "E"))),
               intercept: 11.5, azimuth: 279.7),
    ]

    @Test(arguments: worked)
    func theInterceptIsThePublishedOne(_ w: Worked) throws {
        // Given a published sight; when it is reduced from its DR
        let r = try ReducedSight(w.sight)
        // Then the intercept is the published one to 0.1′ (0.01′–0.06′ measured), and Zn to 0.1°
        #expect(abs(r.intercept - w.intercept) <= 0.1, "\(r.intercept)")
        if let zn = w.azimuth { #expect(abs(r.computed.azimuth - zn) <= 0.1, "\(r.computed.azimuth)") }
    }
}

/// Fixes whose answers were published with the sights.
@Suite("Published fixes")
struct PublishedFixTests {
    func sight(_ star: String, _ hour: Int, _ minute: Int, _ second: Int, hs degrees: Double, _ minutes: Double,
               ie: Double, eye: Double, temperature: Double? = nil, pressure: Double? = nil, dr: Position) -> Sight {
        writtenSight(star, UTCTime(year: 2018, month: 11, day: 15, hour: hour, minute: minute, second: second)!, hs: degrees, minutes,
                     ie: ie, eye: eye, temperature: temperature, pressure: pressure, dr: dr)
    }

    @Test func mctoonsThreeStarRunningFixMeetsItsPublishedAnswer() throws {
        // Given the three star sights of McToon's "$10,000 flat earth sextant challenge"
        // (mctoon.net/10000-flat-earth-sextant-challenge, observed 15 November 2018): height of
        // eye 2 m, index error +0.3′ (on the arc, so the correction is −0.3′), 12 °C, 975 mb,
        // the ship steering 000° at 12 kn; reduced from a DR half a degree off
        let dr = try Position(latitude: 30, longitude: -37.5)
        let sights = try [
            sight("Regulus", 8, 28, 15, hs: 70, 48.7, ie: -0.3, eye: 2, temperature: 12, pressure: 975, dr: dr),
            sight("Arcturus", 8, 30, 30, hs: 27, 9.0, ie: -0.3, eye: 2, temperature: 12, pressure: 975, dr: dr),
            sight("Dubhe", 8, 32, 15, hs: 55, 18.4, ie: -0.3, eye: 2, temperature: 12, pressure: 975, dr: dr),
        ].map(ReducedSight.init)
        // When they are fixed as a running fix
        let fix = try CelestialFix(sights, run: .courseAndSpeed(course: 0, knots: 12))
        // Then the fix, at the last sight, is within a mile of the published answer, 29° 40′.5 N
        // 36° 57′.0 W (0.91 nm measured: the lines meet to an RMS of 0.22′, and the challenge's own
        // reduction is not published, only its answer)
        let published = try Position(latitude: 29 + 40.5 / 60, longitude: -(36 + 57.0 / 60))
        #expect(fix.utc == UTCTime(year: 2018, month: 11, day: 15, hour: 8, minute: 32, second: 15)!)
        #expect(GreatCircle.nauticalMiles(fix.position, published) < 1, "\(fix.position.ddm)")
        #expect(fix.lines.map(\.body.name) == ["Regulus", "Arcturus", "Dubhe"])
    }
}
