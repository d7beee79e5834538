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
}
