import Foundation
import Testing
@testable import MarkTimeSky

@Suite("The almanac against an independent ephemeris")
struct AlmanacReferenceTests {
    /// Tests/sky/almanac-reference.txt: body, Julian date TT, apparent RA and Dec of date
    /// (degrees), from the Swiss Ephemeris' Moshier theories (Tests/sky/almanac-reference.py).
    static let reference: [(body: String, jd: Double, ra: Double, dec: Double)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../sky/almanac-reference.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: " ")
            return (String(f[0]), Double(f[1])!, Double(f[2])!, Double(f[3])!)
        }
    }()

    /// `body`'s apparent right ascension and declination at `t` centuries of TT.
    static func place(_ body: Body, _ t: Double) -> (rightAscension: Double, declination: Double) {
        let frame = EarthOrientation.Frame(t)
        switch body {
        case .moon:
            let m = MoonTheory.apparentPlace(centuriesTT: t, frame: frame)
            return (m.rightAscension, m.declination)
        case .sun:
            let s = SunTheory.apparentPlace(centuriesTT: t, frame: frame)
            return (s.rightAscension, s.declination)
        default:
            let p = PlanetTheory.apparentPlace(body, centuriesTT: t, frame: frame)
            return (p.rightAscension, p.declination)
        }
    }

    /// The worst GHA and declination differences (′) of `body` against the reference, and
    /// how many instants were compared. GHA = GHA♈ − RA, and GHA♈ is the same for both:
    /// a GHA difference is an RA difference.
    static func worst(_ body: Body) -> (gha: Double, dec: Double, count: Int) {
        var gha = 0.0, dec = 0.0, count = 0
        for r in reference where r.body == body.name {
            let place = place(body, (r.jd - 2_451_545) / 36_525)
            gha = max(gha, abs(normalized(place.rightAscension - r.ra + 180) - 180) * 60)
            dec = max(dec, abs(place.declination - r.dec) * 60)
            count += 1
        }
        print("\(body.name) against the Swiss Ephemeris at \(count) instants: worst GHA \(String(format: "%.4f", gha))′, worst Dec \(String(format: "%.4f", dec))′")
        return (gha, dec, count)
    }

    @Test("The Moon's GHA and declination within 0.15′ at 10,000 random instants of 1990–2060 and where the old series erred most")
    func theMoonIsWithinATenthAndAHalf() {
        // Given the reference's apparent places of the Moon
        // When the almanac places it at each instant's TT
        let worst = Self.worst(.moon)
        // Then all 10,001 were compared, and every GHA and declination is within 0.15′
        #expect(worst.count == 10_001)
        #expect(worst.gha <= 0.15)
        #expect(worst.dec <= 0.15)
    }

    @Test("The Sun's and the planets' GHA and declination within 0.1′ at 1,000 random instants each", arguments: [Body.sun, .venus, .mars, .jupiter, .saturn])
    func theSunAndPlanetsAreWithinATenth(_ body: Body) {
        // Given the reference's apparent places of the body
        // When the almanac places it at each instant's TT
        let worst = Self.worst(body)
        // Then all 1,000 were compared, and every GHA and declination is within 0.1′
        #expect(worst.count == 1_000)
        #expect(worst.gha <= 0.1)
        #expect(worst.dec <= 0.1)
    }
}
