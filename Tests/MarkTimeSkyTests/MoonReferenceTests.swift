import Foundation
import Testing
@testable import MarkTimeSky

@Suite("The Moon against an independent ephemeris")
struct MoonReferenceTests {
    /// Tests/sky/moon-reference.txt: Julian date TT, apparent RA and Dec of date (degrees),
    /// from the Swiss Ephemeris' Moshier theory (Tests/sky/moon-reference.py).
    static func reference() throws -> [(jd: Double, ra: Double, dec: Double)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../sky/moon-reference.txt")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: " ").map { Double($0)! }
            return (f[0], f[1], f[2])
        }
    }

    @Test("GHA and declination within 0.15′ at 10,000 random instants of 1990–2060 and where the old series erred most")
    func theMoonIsWithinATenthAndAHalf() throws {
        // Given the reference's apparent places at 10,001 instants
        let reference = try Self.reference()
        #expect(reference.count == 10_001)
        // When the almanac places the Moon at each instant's TT
        var worstRA = 0.0, worstDec = 0.0, worstAt = 0.0
        for r in reference {
            let t = (r.jd - 2_451_545) / 36_525
            let moon = MoonTheory.apparentPlace(centuriesTT: t, frame: EarthOrientation.Frame(t))
            // GHA = GHA♈ − RA, and GHA♈ is the same for both: a GHA error is an RA error.
            let dRA = abs(normalized(moon.rightAscension - r.ra + 180) - 180) * 60
            let dDec = abs(moon.declination - r.dec) * 60
            if dRA > worstRA { (worstRA, worstAt) = (dRA, r.jd) }
            worstDec = max(worstDec, dDec)
        }
        print("Moon against the Swiss Ephemeris at \(reference.count) instants: worst GHA \(String(format: "%.4f", worstRA))′ (JD TT \(worstAt)), worst Dec \(String(format: "%.4f", worstDec))′")
        // Then every GHA and declination is within 0.15′
        #expect(worstRA <= 0.15)
        #expect(worstDec <= 0.15)
    }
}
