import Foundation
import MarkTimeCore
import MarkTimeSky
import Testing

@Suite("Lunar distances made from an independent ephemeris")
struct LunarReferenceTests {
    struct Row: CustomTestStringConvertible {
        var observation: LunarObservation
        var truth: UTCTime
        var moonLowerLimb: LunarObservation.Altitude
        var bodyAltitude: LunarObservation.Altitude
        var testDescription: String { "\(observation.body.name) \(observation.limb.rawValue) at \(truth.iso8601)" }
    }

    /// Tests/sky/lunar-reference.txt: 300 distances as a sextant would read them (no dip, no
    /// index error), with the altitudes of the Moon's lower limb and of the other body, from
    /// the Swiss Ephemeris' Moshier theories (Tests/sky/lunar-reference.py). Row `i`'s watch
    /// is wrong by a known amount, up to half an hour either way.
    static let rows: [Row] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../sky/lunar-reference.txt")
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.enumerated().map { i, line in
            let f = line.split(separator: " ").map(String.init)
            let truth = try! UTCTime.read(f[2], what: "reference").time
            let watchError = Int64((i * 7919) % 3601 - 1800)
            let observation = LunarObservation(
                body: Body(named: f[0])!, limb: LunarObservation.MoonLimb(rawValue: f[1])!, distance: Double(f[5])!,
                watch: truth.adding(nanoseconds: -watchError * 1_000_000_000),
                position: try! Position(latitude: Double(f[3])!, longitude: Double(f[4])!))
            return Row(observation: observation, truth: truth, moonLowerLimb: .init(hs: Double(f[6])!, limb: .lower),
                       bodyAltitude: .init(hs: Double(f[7])!, limb: f[8] == "lower" ? .lower : .center))
        }
    }()

    /// How far the two ephemerides may differ in a distance, arc-minutes: each places the
    /// Moon within 0.032' of the other (AlmanacReferenceTests), the Sun and planets closer.
    static let ephemerides = 0.1

    @Test func theTableIsWhole() {
        #expect(Self.rows.count == 300)
    }

    @Test(arguments: rows)
    func withTheAltitudesComputedTheTimeIsFound(_ row: Row) throws {
        // Given a lunar made from the other ephemeris, the watch wrong
        // When solved with the altitudes computed from the DR
        let s = try LunarSolution(row.observation)
        let off = s.utc.secondsSinceEpoch - row.truth.secondsSinceEpoch
        // Then UT is the true time, to what the ephemerides' difference makes of it, and within the uncertainty stated
        #expect(abs(off * s.rate / 60) < Self.ephemerides)
        #expect(abs(off) < s.uncertainty)
    }

    @Test(arguments: rows)
    func withTheAltitudesMeasuredTheTimeIsFound(_ row: Row) throws {
        // Given the same lunar with the two altitudes as measured
        var o = row.observation
        o.moonAltitude = row.moonLowerLimb
        o.bodyAltitude = row.bodyAltitude
        // When solved
        let s = try LunarSolution(o)
        let off = s.utc.secondsSinceEpoch - row.truth.secondsSinceEpoch
        // Then likewise
        #expect(abs(off * s.rate / 60) < Self.ephemerides)
        #expect(abs(off) < s.uncertainty)
    }
}
