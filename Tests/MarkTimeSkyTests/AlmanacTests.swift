import MarkTimeCore
import Testing
@testable import MarkTimeSky

/// A value printed in The Nautical Almanac (HM Nautical Almanac Office / US Naval
/// Observatory) for one body at one hour, as quoted by `source`.
struct Published: CustomTestStringConvertible, Sendable {
    var body: String
    var utc: (Int, Int, Int, Int, Int, Int)
    /// Degrees and minutes, as printed; a south declination is negative.
    var gha: (Int, Double)? = nil
    var sha: (Int, Double)? = nil
    var dec: (Int, Double)? = nil
    var source: String

    /// The almanac's argument is UT (UT1): the UTC instant whose UT1 is the printed hour.
    var time: SkyTime {
        let printed = SkyTime(UTCTime(year: utc.0, month: utc.1, day: utc.2, hour: utc.3, minute: utc.4, second: utc.5)!)!
        return SkyTime(julianUTC: printed.utc - printed.ut1MinusUTC / 86_400)
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

let na1999 = "The Nautical Almanac 1999, March 24, as used in E. Falk's 'Leg 57' exercise (efalk.org/Navigation/leg57-4 to -7), transcribed in ion1/sextant-fix main_efalk.m"
let tna2021 = "The Nautical Almanac 2021 as reprinted by TheNauticalAlmanac.com, transcribed in ion1/sextant-fix"
let tna2022 = "The Nautical Almanac 2022 as reprinted by TheNauticalAlmanac.com, pp. 44–45, transcribed in ion1/sextant-fix main_science_it_out.m"
let na2018 = "NP314-18, The Nautical Almanac 2018, daily page for January 1 (HMNAO), as quoted in PyEphem's ephem/tests/test_stars.py"

@Suite("The almanac against published values")
struct AlmanacTests {
    static let published: [Published] = [
        Published(body: "Aries", utc: (2009, 12, 31, 0, 0, 0), gha: (99, 33.4),
                  source: "NA 2009, Dec 31, quoted by Gary LaPook, NavList, 2009-12-08 ('Out of Date Almanac')"),
        Published(body: "Sun", utc: (1997, 12, 3, 5, 0, 0), dec: (-22, 6.0),
                  source: "NA 1997, Dec 3, quoted in Gould Academy's celestial navigation course, lesson 5"),
        Published(body: "Sun", utc: (2011, 1, 13, 12, 0, 0), dec: (-21, 29.2),
                  source: "NA 2011, Jan 13, quoted by Gary LaPook, NavList, 2011-01-14 ('help with sun sights')"),
        Published(body: "Sun", utc: (2011, 1, 13, 13, 0, 0), dec: (-21, 28.8),
                  source: "NA 2011, Jan 13, quoted by Gary LaPook, NavList, 2011-01-14 ('help with sun sights')"),
        Published(body: "Moon", utc: (2020, 3, 4, 19, 0, 0), gha: (349, 15.4),
                  source: "NA 2020, Mar 4, quoted by Jeremy C, NavList, 2020-03-13 ('Calculating time when GHA equals zero')"),
        Published(body: "Moon", utc: (2020, 3, 4, 20, 0, 0), gha: (3, 41.4),
                  source: "NA 2020, Mar 4, quoted by Jeremy C, NavList, 2020-03-13 ('Calculating time when GHA equals zero')"),
        Published(body: "Rigil Kentaurus", utc: (2002, 1, 1, 0, 0, 0), sha: (140, 4.6), dec: (-60, 50.2),
                  source: "The Nautical Almanac 2002, January 1 (ISBN 0 11 887316 4), as quoted in PyEphem's tests"),
        Published(body: "Acamar", utc: (2018, 1, 1, 0, 0, 0), sha: (315, 15.8), dec: (-40, 14.3), source: na2018),
        Published(body: "Achernar", utc: (2018, 1, 1, 0, 0, 0), sha: (335, 24.4), dec: (-57, 9.2), source: na2018),
        Published(body: "Acrux", utc: (2018, 1, 1, 0, 0, 0), sha: (173, 5.7), dec: (-63, 11.5), source: na2018),
        Published(body: "Adhara", utc: (2018, 1, 1, 0, 0, 0), sha: (255, 9.7), dec: (-29, 0.0), source: na2018),
        Published(body: "Aldebaran", utc: (2018, 1, 1, 0, 0, 0), sha: (290, 45.5), dec: (16, 32.5), source: na2018),
        Published(body: "Alioth", utc: (2018, 1, 1, 0, 0, 0), sha: (166, 18.1), dec: (55, 51.5), source: na2018),
        Published(body: "Alkaid", utc: (2018, 1, 1, 0, 0, 0), sha: (152, 56.7), dec: (49, 13.3), source: na2018),
        Published(body: "Alnair", utc: (2018, 1, 1, 0, 0, 0), sha: (27, 40.3), dec: (-46, 52.6), source: na2018),
        Published(body: "Alnilam", utc: (2018, 1, 1, 0, 0, 0), sha: (275, 42.9), dec: (-1, 11.7), source: na2018),
        Published(body: "Alphard", utc: (2018, 1, 1, 0, 0, 0), sha: (217, 52.8), dec: (-8, 44.3), source: na2018),
        Published(body: "Alphecca", utc: (2018, 1, 1, 0, 0, 0), sha: (126, 8.7), dec: (26, 39.3), source: na2018),
        Published(body: "Alpheratz", utc: (2018, 1, 1, 0, 0, 0), sha: (357, 40.3), dec: (29, 11.4), source: na2018),
        Published(body: "Altair", utc: (2018, 1, 1, 0, 0, 0), sha: (62, 5.6), dec: (8, 55.1), source: na2018),
        Published(body: "Ankaa", utc: (2018, 1, 1, 0, 0, 0), sha: (353, 12.7), dec: (-42, 12.8), source: na2018),
        Published(body: "Antares", utc: (2018, 1, 1, 0, 0, 0), sha: (112, 22.8), dec: (-26, 28.0), source: na2018),
        Published(body: "Arcturus", utc: (2018, 1, 1, 0, 0, 0), sha: (145, 53.1), dec: (19, 5.4), source: na2018),
        Published(body: "Atria", utc: (2018, 1, 1, 0, 0, 0), sha: (107, 22.3), dec: (-69, 3.2), source: na2018),
        Published(body: "Avior", utc: (2018, 1, 1, 0, 0, 0), sha: (234, 16.1), dec: (-59, 34.0), source: na2018),
        Published(body: "Bellatrix", utc: (2018, 1, 1, 0, 0, 0), sha: (278, 28.4), dec: (6, 21.7), source: na2018),
        Published(body: "Betelgeuse", utc: (2018, 1, 1, 0, 0, 0), sha: (270, 57.6), dec: (7, 24.4), source: na2018),
        Published(body: "Canopus", utc: (2018, 1, 1, 0, 0, 0), sha: (263, 54.2), dec: (-52, 42.5), source: na2018),
        Published(body: "Deneb", utc: (2018, 1, 1, 0, 0, 0), sha: (49, 29.8), dec: (45, 20.9), source: na2018),
        Published(body: "Diphda", utc: (2018, 1, 1, 0, 0, 0), sha: (348, 52.8), dec: (-17, 53.5), source: na2018),
        Published(body: "Dubhe", utc: (2018, 1, 1, 0, 0, 0), sha: (193, 47.8), dec: (61, 39.0), source: na2018),
        Published(body: "Elnath", utc: (2018, 1, 1, 0, 0, 0), sha: (278, 8.4), dec: (28, 37.2), source: na2018),
        Published(body: "Eltanin", utc: (2018, 1, 1, 0, 0, 0), sha: (90, 45.3), dec: (51, 29.3), source: na2018),
        Published(body: "Enif", utc: (2018, 1, 1, 0, 0, 0), sha: (33, 44.3), dec: (9, 57.5), source: na2018),
        Published(body: "Fomalhaut", utc: (2018, 1, 1, 0, 0, 0), sha: (15, 20.8), dec: (-29, 31.8), source: na2018),
        Published(body: "Gacrux", utc: (2018, 1, 1, 0, 0, 0), sha: (171, 57.3), dec: (-57, 12.5), source: na2018),
        Published(body: "Gienah", utc: (2018, 1, 1, 0, 0, 0), sha: (175, 49.1), dec: (-17, 38.3), source: na2018),
        Published(body: "Hadar", utc: (2018, 1, 1, 0, 0, 0), sha: (148, 43.7), dec: (-60, 27.1), source: na2018),
        Published(body: "Hamal", utc: (2018, 1, 1, 0, 0, 0), sha: (327, 57.1), dec: (23, 32.8), source: na2018),
        Published(body: "Kaus Australis", utc: (2018, 1, 1, 0, 0, 0), sha: (83, 40.2), dec: (-34, 22.4), source: na2018),
        Published(body: "Kochab", utc: (2018, 1, 1, 0, 0, 0), sha: (137, 20.9), dec: (74, 4.8), source: na2018),
        Published(body: "Markab", utc: (2018, 1, 1, 0, 0, 0), sha: (13, 35.4), dec: (15, 18.2), source: na2018),
        Published(body: "Menkar", utc: (2018, 1, 1, 0, 0, 0), sha: (314, 11.6), dec: (4, 9.4), source: na2018),
        Published(body: "Menkent", utc: (2018, 1, 1, 0, 0, 0), sha: (148, 4.1), dec: (-36, 27.2), source: na2018),
        Published(body: "Miaplacidus", utc: (2018, 1, 1, 0, 0, 0), sha: (221, 38.1), dec: (-69, 47.3), source: na2018),
        Published(body: "Mirfak", utc: (2018, 1, 1, 0, 0, 0), sha: (308, 35.5), dec: (49, 55.5), source: na2018),
        Published(body: "Nunki", utc: (2018, 1, 1, 0, 0, 0), sha: (75, 54.9), dec: (-26, 16.3), source: na2018),
        Published(body: "Peacock", utc: (2018, 1, 1, 0, 0, 0), sha: (53, 15.0), dec: (-56, 40.6), source: na2018),
        Published(body: "Pollux", utc: (2018, 1, 1, 0, 0, 0), sha: (243, 23.6), dec: (27, 58.7), source: na2018),
        Published(body: "Procyon", utc: (2018, 1, 1, 0, 0, 0), sha: (244, 56.2), dec: (5, 10.5), source: na2018),
        Published(body: "Rasalhague", utc: (2018, 1, 1, 0, 0, 0), sha: (96, 3.9), dec: (12, 33.0), source: na2018),
        Published(body: "Regulus", utc: (2018, 1, 1, 0, 0, 0), sha: (207, 40.0), dec: (11, 52.6), source: na2018),
        Published(body: "Rigel", utc: (2018, 1, 1, 0, 0, 0), sha: (281, 8.8), dec: (-8, 11.1), source: na2018),
        Published(body: "Rigil Kentaurus", utc: (2018, 1, 1, 0, 0, 0), sha: (139, 47.8), dec: (-60, 54.1), source: na2018),
        Published(body: "Sabik", utc: (2018, 1, 1, 0, 0, 0), sha: (102, 9.3), dec: (-15, 44.6), source: na2018),
        Published(body: "Schedar", utc: (2018, 1, 1, 0, 0, 0), sha: (349, 36.9), dec: (56, 38.3), source: na2018),
        Published(body: "Shaula", utc: (2018, 1, 1, 0, 0, 0), sha: (96, 18.1), dec: (-37, 6.7), source: na2018),
        Published(body: "Sirius", utc: (2018, 1, 1, 0, 0, 0), sha: (258, 30.7), dec: (-16, 44.7), source: na2018),
        Published(body: "Spica", utc: (2018, 1, 1, 0, 0, 0), sha: (158, 28.1), dec: (-11, 15.1), source: na2018),
        Published(body: "Suhail", utc: (2018, 1, 1, 0, 0, 0), sha: (222, 49.8), dec: (-43, 30.3), source: na2018),
        Published(body: "Vega", utc: (2018, 1, 1, 0, 0, 0), sha: (80, 37.3), dec: (38, 48.2), source: na2018),
        Published(body: "Zubenelgenubi", utc: (2018, 1, 1, 0, 0, 0), sha: (137, 2.2), dec: (-16, 6.7), source: na2018),
        Published(body: "Capella", utc: (2018, 1, 1, 0, 0, 0), dec: (46, 0.8), source: na2018),
        Published(body: "Denebola", utc: (2018, 1, 1, 0, 0, 0), sha: (182, 30.5), source: na2018),
        // 1999: Falk's "Leg 57" star fix, almanac values as ion1/sextant-fix transcribes them.
        Published(body: "Aries", utc: (1999, 3, 24, 23, 0, 0), gha: (166, 58.3), source: na1999),
        Published(body: "Rigil Kentaurus", utc: (1999, 3, 24, 23, 0, 0), sha: (140, 6.2), dec: (-60, 49.7), source: na1999),
        Published(body: "Acrux", utc: (1999, 3, 24, 23, 0, 0), sha: (173, 21.0), dec: (-63, 5.6), source: na1999),
        Published(body: "Aldebaran", utc: (1999, 3, 24, 23, 0, 0), sha: (291, 2.2), dec: (16, 30.3), source: na1999),
        Published(body: "Peacock", utc: (1999, 3, 24, 23, 0, 0), sha: (53, 36.9), dec: (-56, 44.1), source: na1999),
        // 2021 and 2022: daily pages of TheNauticalAlmanac.com's reprint, as ion1/sextant-fix transcribes them.
        Published(body: "Sun", utc: (2021, 5, 29, 20, 0, 0), gha: (120, 37.8), dec: (21, 44.7), source: tna2021 + ", p. 116"),
        Published(body: "Aries", utc: (2021, 8, 12, 17, 0, 0), gha: (216, 21.8), source: tna2021 + ", p. 166"),
        Published(body: "Aries", utc: (2021, 8, 12, 18, 0, 0), gha: (231, 24.2), source: tna2021 + ", p. 166"),
        Published(body: "Diphda", utc: (2021, 8, 12, 17, 0, 0), sha: (348, 49.9), dec: (-17, 52.0), source: tna2021 + ", p. 166"),
        Published(body: "Hamal", utc: (2021, 8, 12, 17, 0, 0), sha: (327, 54.2), dec: (23, 33.7), source: tna2021 + ", p. 166"),
        Published(body: "Alpheratz", utc: (2021, 8, 12, 17, 0, 0), sha: (357, 37.4), dec: (29, 12.5), source: tna2021 + ", p. 166"),
        Published(body: "Sun", utc: (2021, 9, 18, 17, 0, 0), gha: (76, 30.3), dec: (1, 35.5), source: tna2021),
        Published(body: "Sun", utc: (2021, 9, 18, 18, 0, 0), gha: (91, 30.6), dec: (1, 34.5), source: tna2021),
        Published(body: "Alkaid", utc: (2021, 12, 17, 12, 0, 0), sha: (152, 54.3), dec: (49, 12.1), source: tna2021 + ", p. 250"),
        Published(body: "Capella", utc: (2021, 12, 17, 12, 0, 0), sha: (280, 25.1), dec: (46, 1.2), source: tna2021 + ", p. 250"),
        Published(body: "Alphard", utc: (2021, 12, 17, 12, 0, 0), sha: (217, 50.0), dec: (-8, 45.1), source: tna2021 + ", p. 250"),
        Published(body: "Betelgeuse", utc: (2021, 12, 17, 12, 0, 0), sha: (270, 54.5), dec: (7, 24.6), source: tna2021 + ", p. 250"),
        Published(body: "Canopus", utc: (2021, 12, 17, 12, 0, 0), sha: (263, 53.0), dec: (-52, 42.4), source: tna2021 + ", p. 250"),
        Published(body: "Achernar", utc: (2021, 12, 17, 12, 0, 0), sha: (335, 21.8), dec: (-57, 7.9), source: tna2021 + ", p. 250"),
        Published(body: "Sun", utc: (2022, 2, 9, 14, 0, 0), gha: (26, 27.4), dec: (-14, 33.7), source: tna2022),
        Published(body: "Sun", utc: (2022, 2, 9, 15, 0, 0), gha: (41, 27.4), dec: (-14, 32.9), source: tna2022),
        Published(body: "Sun", utc: (2022, 2, 9, 16, 0, 0), gha: (56, 27.4), dec: (-14, 32.1), source: tna2022),
        Published(body: "Sun", utc: (2022, 2, 9, 17, 0, 0), gha: (71, 27.4), dec: (-14, 31.3), source: tna2022),
        Published(body: "Sun", utc: (2022, 2, 9, 18, 0, 0), gha: (86, 27.4), dec: (-14, 30.5), source: tna2022),
        Published(body: "Jupiter", utc: (2022, 2, 9, 18, 0, 0), gha: (68, 36.1), dec: (-9, 0.0), source: tna2022),
        Published(body: "Jupiter", utc: (2022, 2, 9, 19, 0, 0), gha: (83, 38.0), dec: (-8, 59.8), source: tna2022),
        Published(body: "Aries", utc: (2022, 2, 9, 18, 0, 0), gha: (49, 48.4), source: tna2022),
        Published(body: "Aries", utc: (2022, 2, 9, 19, 0, 0), gha: (64, 50.8), source: tna2022),
        Published(body: "Aries", utc: (2022, 2, 9, 20, 0, 0), gha: (79, 53.3), source: tna2022),
        Published(body: "Alpheratz", utc: (2022, 2, 9, 12, 0, 0), sha: (357, 37.5), dec: (29, 12.7), source: tna2022),
        Published(body: "Hamal", utc: (2022, 2, 9, 12, 0, 0), sha: (327, 54.0), dec: (23, 34.0), source: tna2022),
        Published(body: "Deneb", utc: (2022, 2, 9, 12, 0, 0), sha: (49, 27.9), dec: (45, 21.4), source: tna2022),
    ]

    // Quoted values this almanac disagrees with by more than the limit, kept out of the
    // check until they are read again from a printed copy. The other coordinate of each
    // is checked above.
    // - Sun 1997-12-03 05h GHA 257° 34.0′ (Gould Academy): this almanac gives 257° 34.16′.
    //   Its declination agrees to 0.04′; a 0.16′ error in GHA would need UT1 wrong by 0.6 s.
    // - Capella 2018-01-01 SHA 280° 29.3′ and Denebola Dec N14° 28.1′ (NA 2018 as quoted
    //   by PyEphem): this almanac gives 280° 29.43′ and 14° 28.25′. PyEphem's own notes
    //   say two of these 57 values miss its computation by more than 0.2′; the other 55
    //   stars agree with this almanac within 0.062′ (0.05′ of it is the printed rounding).
    // - Aries 2021-12-17 (TheNauticalAlmanac.com p. 250, as transcribed): all four hours
    //   differ by 1° 58′, two days of sidereal gain, so the transcription's rows are from
    //   another day of the page. Its stars, which move under 0.05′ in two days, are checked.
    // - Leon Schulz's 2020-08-15 values (Aries 06h 114° 13.8′, Venus, five stars) differ
    //   from this almanac by 60° in Aries, so their date is not the one stated.

    /// Every body and Aries within 0.1′, the Moon too.
    @Test(arguments: published)
    func matchesTheNauticalAlmanac(_ p: Published) throws {
        let limit = 0.1
        let gha: Double, entry: AlmanacEntry?
        if p.body == "Aries" {
            gha = Almanac.ariesGHA(p.time)
            entry = nil
        } else {
            let body = try #require(Body(named: p.body))
            entry = Almanac.entry(body, at: p.time)
            gha = entry!.gha
        }
        if let want = p.gha { #expect(arcminutes(gha, degrees(want)) <= limit, "GHA \(gha * 60)′ vs \(degrees(want) * 60)′") }
        if let want = p.sha, let sha = entry?.sha { #expect(arcminutes(sha, degrees(want)) <= limit, "SHA \(sha * 60)′ vs \(degrees(want) * 60)′") }
        if let want = p.dec, let dec = entry?.declination {
            #expect(arcminutes(dec, degrees(want)) <= limit, "Dec \(dec * 60)′ vs \(degrees(want) * 60)′")
        }
    }

    @Test func thePublishedValuesSpanFiveYearsAndEveryClass() {
        // Given the published values above
        let years = Set(Self.published.map(\.utc.0))
        let classes = Set(Self.published.map { p -> String in
            switch Body(named: p.body) {
            case nil: p.body
            case .star?: "star"
            case let body? where Body.planets.contains(body): "planet"
            case let body?: body.name
            }
        })
        // Then there are at least 40 pairs over at least five years, and every class
        #expect(Self.published.count >= 40)
        #expect(years.count >= 5)
        #expect(classes == ["Aries", "Sun", "Moon", "planet", "star"])
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

    @Test(arguments: [(2_469_000.5, -361_602.98536, 44_996.99510, -30_696.65316),
                      (2_449_000.5, -363_132.34248, 35_863.65378, -33_196.00409),
                      (2_429_000.5, -371_577.58161, 75_271.14315, -32_227.94618)])
    func theMoonMatchesTheELPNoticesTableH(_ jd: Double, _ x: Double, _ y: Double, _ z: Double) {
        // Given the whole ELP 2000-82B's place at a TDB date (the notice "Lunar solution ELP
        // 2000-82B", table H: km, mean ecliptic and equinox of J2000)
        // When the truncated series places the Moon
        let moon = MoonTheory.j2000((jd - 2_451_545) / 36_525)
        // Then each coordinate is within 0.6 km (0.33″ at the Moon)
        #expect(abs(moon.x - x) < 0.6, "x \(moon.x)")
        #expect(abs(moon.y - y) < 0.6, "y \(moon.y)")
        #expect(abs(moon.z - z) < 0.6, "z \(moon.z)")
    }

    @Test func venusMatchesMeeusExample33a() {
        // Given 1992 December 20.0 TT ("Astronomical Algorithms", example 33.a, from the full
        // VSOP87): α = 21h 04m 41.454s, δ = −18° 53′ 16.84″
        let t = (2_448_976.5 - 2_451_545) / 36_525
        let place = PlanetTheory.apparentPlace(.venus, centuriesTT: t, frame: EarthOrientation.Frame(t))
        // Then the truncated series agrees within 1″
        let alpha = place.rightAscension * 3600, delta = place.declination * 3600
        #expect(abs(alpha - (21 * 3600 + 4 * 60 + 41.454) * 15) < 1, "α \(alpha)″")
        #expect(abs(delta - -(18 * 3600 + 53 * 60 + 16.84)) < 1, "δ \(delta)″")
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
