import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeSky
import RigSupport
import Testing

/// `marktime plan --live` in a real terminal (#59 item 2): the chosen set's preset ticking on the system clock.
@Suite("marktime plan --live, in tmux", .serialized, .tags(.tmux))
struct PlanLiveTests {
    let cli = CLI()
    var pane: TmuxPane { TmuxPane(cli: cli) }

    /// A DR on the equator where it is midnight now: stars, whatever the hour the test runs.
    static func midnight() throws -> String {
        let sun = Almanac.entry(.sun, at: try #require(SkyTime(try SystemClock().read().realtime)))
        var lon = (180 - sun.gha).truncatingRemainder(dividingBy: 360)
        if lon > 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        return String(format: "0 00 N %.0f %@", abs(lon), lon < 0 ? "W" : "E")
    }

    /// The screen's time and its rows (marked, body, HS), once a whole frame is drawn.
    func frame() throws -> (utc: String, rows: [(next: Bool, body: String, hs: String)])? {
        let lines = try pane.screen()
        guard let clock = lines.first(where: { $0.contains(" UTC  from ") }) else { return nil }
        let utc = String(clock.prefix(19)).replacingOccurrences(of: " ", with: "T") + "Z"
        guard let header = lines.firstIndex(where: { $0.contains("BODY") && $0.contains("HS/MIN") }) else { return nil }
        let rows = lines[(header + 1)...].filter { !$0.isEmpty }.map { line -> (Bool, String, String) in
            let cells = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").filter { !$0.isEmpty }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let marked = cells.first == "▶"
            let rest = marked ? Array(cells.dropFirst()) : cells
            return (marked, rest.first ?? "", rest.count > 1 ? rest[1] : "")
        }
        return rows.count == 3 ? (utc, rows.map { (next: $0.0, body: $0.1, hs: $0.2) }) : nil
    }

    /// Each shown HS is `marktime plan`'s for that body at the frame's time.
    func agreesWithThePlan(_ f: (utc: String, rows: [(next: Bool, body: String, hs: String)]), dr: String) throws -> Bool {
        let plan = try #require(try cli.json(["plan", "--at", f.utc, "--position", dr, "--eye-height", "2.5", "--format", "json"]) as? [String: Any])
        let bodies = try #require(plan["bodies"] as? [[String: Any]])
        return f.rows.allSatisfy { row in
            // The Sun and the Moon are shown with their limb, "Moon LL"
            let name = row.body.hasSuffix(" LL") || row.body.hasSuffix(" UL") ? String(row.body.dropLast(3)) : row.body
            return bodies.first { $0["body"] as? String == name }.flatMap { $0["hs_deg"] as? Double }.map(SextantAngle.format) == row.hs
        }
    }

    @Test func theChosenSetsHsTicksAsThePlanGivesItAndNMarksTheNextBody() throws {
        // Given the live plan from a DR where it is midnight
        let dr = try Self.midnight()
        #expect(try pane.start("\(CLI.binary) plan --live --position '\(dr)' --eye-height 2.5 --store \(cli.store)").status == 0)
        defer { pane.stop() }
        // Then three bodies are shown, the first marked next, each HS the plan's at the second shown
        var first: (utc: String, rows: [(next: Bool, body: String, hs: String)])?
        #expect(try eventually(within: 20) {
            guard let f = try frame(), try agreesWithThePlan(f, dr: dr) else { return false }
            first = f
            return true
        }, "\((try? pane.screen()) ?? [])")
        let shown = try #require(first)
        #expect(shown.rows.map(\.next) == [true, false, false])
        // And the clock moves on, the HS with it
        #expect(try eventually(within: 20) {
            guard let f = try frame(), f.utc != shown.utc else { return false }
            return try agreesWithThePlan(f, dr: dr)
        }, "\((try? pane.screen()) ?? [])")
        // When n is pressed, the second body is marked
        #expect(try pane.tmux(["send-keys", "n"]).status == 0)
        #expect(try eventually(within: 10) { try frame()?.rows.map(\.next) == [false, true, false] }, "\((try? pane.screen()) ?? [])")
        // And q quits, leaving the terminal in line mode with echo
        #expect(try pane.tmux(["send-keys", "q"]).status == 0)
        #expect(try pane.terminalRestored())
    }

    @Test func liveWithATimeOrJSONIsRefusedInWords() throws {
        #expect(try cli.run(["plan", "--live", "--at", "2026-11-27T17:00:00Z", "--position", "50 10 N 4 20 W", "--eye-height", "2.5"]).stderr
            == "Error: --live ticks the present moment: leave out --at\n")
        #expect(try cli.run(["plan", "--live", "--format", "json", "--position", "50 10 N 4 20 W", "--eye-height", "2.5"]).stderr
            == "Error: --live draws a screen, not --format json\n")
        #expect(try cli.run(["plan", "--live", "--position", "50 10 N 4 20 W", "--eye-height", "2.5"]).stderr
            == "Error: plan --live needs a terminal; `marktime plan` prints the same plan once\n")
    }
}
