import Foundation
import MarkTimeCore
import MarkTimeStore
import Testing

@Suite("gaps and stamp provenance on the command line")
struct StampProvenanceCLITests {
    let cli = CLI()

    @Test func theSightListShowsAGapBetweenTheSightsAroundIt() throws {
        // Given sights at +10 s and +30 s, and input dropped between +18 s and +20 s
        let db = try cli.database()
        _ = try db.insert(try sight(at: 10))
        _ = try db.insert(try sight(at: 30))
        try db.recordGap(InputGap(bootID: "boot-a", fromNanoseconds: 18 * second, toNanoseconds: 20 * second,
                                  from: UTCTime(nanosecondsSinceEpoch: logDay + 18 * second),
                                  to: UTCTime(nanosecondsSinceEpoch: logDay + 20 * second)))
        // When they are listed
        let r = try cli.run(["sights"])
        // Then the gap is a line between them, newest first
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("2 "))
        #expect(lines[2] == "--  08d 09h 53m 15.000s  2007-04-08  GAP              input dropped since 08d 09h 53m 13.000s: presses may be lost")
        #expect(lines[3].hasPrefix("1 "))
    }

    @Test func sightShowAndJSONSayWhatTheStampCameFrom() throws {
        // Given a sight interpolated between two GPS samples
        var s = try sight(at: 10)
        s.estimate.provenance = StampProvenance(method: .interpolated, samples: [
            .init(source: .gps, monotonicNanoseconds: 0, utcNanoseconds: logDay, uncertainty: 0.5, distance: 10),
            .init(source: .gps, monotonicNanoseconds: 60 * second, utcNanoseconds: logDay + 60 * second, uncertainty: 0.5, distance: -50),
        ])
        _ = try cli.database().insert(s)
        // Then `sight show` names both samples and their distances
        let shown = try cli.run(["sight", "show", "1"])
        #expect(shown.stdout.contains("stamped from  interpolated between gps sample 10.000 s before (±500 ms) and gps sample 50.000 s after (±500 ms)"),
                "\(shown.stdout)")
        // And the JSON carries them field by field
        let json = try #require(try cli.json(["sights"]) as? [[String: Any]])
        let provenance = try #require(json.first?["provenance"] as? [String: Any])
        #expect(provenance["method"] as? String == "interpolated")
        let samples = try #require(provenance["samples"] as? [[String: Any]])
        #expect(samples.map { $0["distance_s"] as? Double } == [10, -50])
        #expect(samples.map { $0["utc"] as? String } == ["2007-04-08T09:52:55.000Z", "2007-04-08T09:53:55.000Z"])
        #expect(provenance["phone_round_trip_s"] == nil)
    }

    @Test func aPhonesMarkNamesItsClockSyncRoundTrip() throws {
        // Given a phone's sight, carried from a GPS sample, mapped by a 4 ms round trip
        var s = try sight(at: 10)
        s.trigger = .phone
        s.estimate.provenance = StampProvenance(method: .projected, samples: [
            .init(source: .gps, monotonicNanoseconds: 9 * second, utcNanoseconds: logDay + 9 * second, uncertainty: 0.5, distance: 1),
        ], phoneRoundTrip: 0.004)
        _ = try cli.database().insert(s)
        // Then `sight show` and the JSON give the round trip and the half of it in the stamp
        let shown = try cli.run(["sight", "show", "1"])
        #expect(shown.stdout.contains("stamped from  carried from gps sample 1.000 s before (±500 ms); the phone's clock sync round trip 4.000 ms (±2.000 ms)"),
                "\(shown.stdout)")
        let json = try #require(try cli.json(["sights"]) as? [[String: Any]])
        let provenance = try #require(json.first?["provenance"] as? [String: Any])
        #expect(provenance["phone_round_trip_s"] as? Double == 0.004)
    }
}
