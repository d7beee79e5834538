import Foundation
import MarkTimeCore
import Testing

/// A stamp's provenance as the store keeps it: JSON written byte by byte on the press's path.
@Suite("A stamp's provenance as JSON")
struct ProvenanceJSONTests {
    func provenance(_ distances: [Double], uncertainty: Double? = 0.5, trip: Double? = nil) -> StampProvenance {
        StampProvenance(method: .interpolated, samples: distances.enumerated().map { i, d in
            .init(source: .gps, monotonicNanoseconds: 10_000_000_000 + Int64(i), utcNanoseconds: -1_176_025_975_000_000_000 + Int64(i),
                  uncertainty: uncertainty, distance: d)
        }, phoneRoundTrip: trip)
    }

    @Test func theTextIsExact() {
        #expect(provenance([0.25, -0.75], trip: 0.012).json == #"{"method":"interpolated","samples":["#
            + #"{"source":"gps","monotonic_ns":10000000000,"utc_ns":-1176025975000000000,"uncertainty_s":0.5,"distance_s":0.25},"#
            + #"{"source":"gps","monotonic_ns":10000000001,"utc_ns":-1176025974999999999,"uncertainty_s":0.5,"distance_s":-0.75}],"#
            + #""phone_round_trip_s":0.012}"#)
        #expect(provenance([], uncertainty: nil).json == #"{"method":"interpolated","samples":[]}"#)
    }

    @Test("Each distance, whole nanoseconds or not, reads back as the same Double", arguments: [
        0, 2, -1.5, 0.000_000_25, 0.000_000_001, -0.000_000_001, 86_399.999_999_999, Double(123_456_789) / 1e9, 0.1 + 0.2, 1e-12, 12_345_678.9,
    ])
    func aDistanceReadsBack(distance: Double) throws {
        let p = provenance([distance], uncertainty: 0.500025)
        let json = try #require(p.json)
        #expect(try JSONDecoder().decode(StampProvenance.self, from: Data(json.utf8)) == p, "\(json)")
    }

    @Test func wholeNanosecondsAreWrittenAsTheirDecimal() {
        #expect(provenance([0.000_000_25], uncertainty: nil).json?.contains(#""distance_s":0.00000025}"#) == true)
        #expect(provenance([2], uncertainty: nil).json?.contains(#""distance_s":2}"#) == true)
        #expect(provenance([-1.5], uncertainty: nil).json?.contains(#""distance_s":-1.5}"#) == true)
    }

    @Test func aNumberJSONCannotHoldGivesNoText() {
        #expect(provenance([.infinity]).json == nil)
        #expect(provenance([1], uncertainty: .nan).json == nil)
        #expect(provenance([1], trip: .infinity).json == nil)
    }
}
