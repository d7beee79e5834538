import Foundation
import MarkTimeCore
import Testing

/// Values that begin with a minus sign, as the README writes them, are values, not flags.
@Suite("values that start with a minus sign")
struct NegativeValueCLITests {
    let cli = CLI()

    @Test func aPlaceTakesSignedDecimalDegrees() throws {
        let r = try cli.run(["place", "add", "Q", "--position", "-27.3807 153.3807", "--radius", "150"])
        #expect(r.status == 0, "\(r.stderr)")
        let places = try #require(try cli.json(["place", "list"]) as? [[String: Any]])
        #expect(places.first?["lat"] as? Double == -27.3807)
        #expect(places.first?["lon"] as? Double == 153.3807)
    }

    @Test func anAnchorDropTakesSignedDecimalDegrees() throws {
        let r = try cli.run(["anchor", "drop", "--position", "-27.3807 153.3807", "--radius", "50", "--config", cli.config])
        #expect(r.status == 0, "\(r.stderr)")
        let status = try #require(try cli.json(["anchor", "status", "--config", cli.config]) as? [String: Any])
        #expect(status["state"] as? String == "watching")
    }

    @Test func aMemberReportTakesSignedDecimalDegrees() throws {
        #expect(try cli.run(["member", "add", "Ann"]).status == 0)
        let r = try cli.run(["member", "report", "Ann", "--position", "-27.3807 153.3807", "--time", "2026-11-22T01:00:00Z"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aCheckInTakesSignedDecimalDegrees() throws {
        let r = try cli.run(["day", "checkin", "--position", "-27.3807 153.3807"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aNoteMayStartWithAMinus() throws {
        let mark = try cli.run(["mark", "--note", "-5 index error"])
        #expect(mark.status == 0, "\(mark.stderr)")
        let edit = try cli.run(["sight", "edit", "1", "--note", "-2 on the arc"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try cli.database().sight(id: 1).sight.note == "-2 on the arc")
    }

    @Test("almanac and sky take a position in signed decimal degrees, the South Pole too")
    func theSkyTakesSignedDecimalDegrees() throws {
        // When the Sun is asked for from -27.38 153.38, and the sky from the South Pole
        let almanac = try cli.run(["almanac", "Sun", "--at", "2022-02-09T14:00:00Z", "--position", "-27.38 153.38"])
        let sky = try cli.run(["sky", "--at", "2022-02-09T14:00:00Z", "--position", "-90 0"])
        // Then each reads the position as written
        #expect(almanac.status == 0, "\(almanac.stderr)")
        #expect(almanac.stdout.contains("from 27° 22'.80 S  153° 22'.80 E: Hc"), "\(almanac.stdout)")
        #expect(sky.status == 0, "\(sky.stderr)")
        #expect(sky.stdout.hasPrefix("Sky at 2022-02-09T14:00:00.000Z from 90° 00'.00 S  0° 00'.00 E\n"), "\(sky.stdout)")
    }

    @Test func aDRTakesSignedDecimalDegrees() throws {
        #expect(try cli.run(["mark"]).status == 0)
        let r = try cli.run(["sight", "edit", "1", "--dr", "-27 153"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try cli.database().sight(id: 1).sight.dr == Position(latitude: -27, longitude: 153))
    }

    @Test("A negative course is refused with its range, not as a missing value")
    func aNegativeCourseGetsItsRange() throws {
        let r = try cli.run(["fix", "--course", "-10", "--speed", "5"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--course must be 0 to 359.9 degrees, not -10.0"), "\(r.stderr)")
    }
}
