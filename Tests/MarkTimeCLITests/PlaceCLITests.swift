import Foundation
import MarkTimeSystem
import RigSupport
import Testing

@Suite("marktime place, member and where")
struct PlaceCLITests {
    let cli = CLI()
    let home = "27 22.84 S 153 22.84 E"

    @Test func addListAndRename() throws {
        // Given a place added in DDM
        let add = try cli.run(["place", "add", "Home", "--position", home, "--radius", "150", "--kind", "home"])
        #expect(add.stdout == "added Home (home): 27° 22'.84 S  153° 22'.84 E, radius 150 m\n", "\(add.stderr)")
        // When it is renamed, then the list shows the new name
        #expect(try cli.run(["place", "rename", "home", "Base"]).status == 0)
        let list = try cli.json(["place", "list"]) as? [[String: Any]] ?? []
        #expect(list.map { $0["name"] as? String } == ["Base"])
        #expect(list.first?["radius_m"] as? Double == 150)
        #expect(list.first?["position"] as? String == "27° 22'.84 S  153° 22'.84 E")
    }

    @Test func eachPlaceAndTaskCommandThatChangesSomethingRingsTheDaemonOnce() throws {
        // Given the daemon's doorbell beside the store (the store made first, as the daemon makes it)
        _ = try cli.database()
        let bell = try Doorbell(path: Doorbell.path(forStore: cli.store))
        // When a place is added, renamed (to a name with spaces round it) and removed, a task added and done, and one place refused
        for args in [["place", "add", "Home", "--position", home, "--radius", "150"], ["place", "rename", "Home", " Base "],
                     ["place", "remove", "Base"], ["task", "add", "Wind the chronometer", "--due", "2099-01-01T09:00Z"], ["task", "done", "1"]] {
            let r = try cli.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            if args[1] == "rename" { #expect(r.stdout == "renamed Home to Base\n") }
        }
        #expect(try cli.run(["place", "remove", "Base"]).status == 1)
        // Then the share service was told three times and the reminder thread twice, and the refusal told no one
        #expect(bell.drain().map(\.text) == ["places", "places", "places", "tasks", "tasks"])
    }

    @Test func aDuplicateNameInAnyCaseIsRefused() throws {
        _ = try cli.run(["place", "add", "Home", "--position", home, "--radius", "150"])
        let again = try cli.run(["place", "add", "HOME", "--position", home, "--radius", "90"])
        #expect(again.status == 1)
        #expect(again.stderr == "Error: a place named 'Home' already exists; choose another name, or `marktime place remove Home` first\n")
        #expect((try cli.json(["place", "list"]) as? [[String: Any]])?.count == 1)
    }

    @Test func aLatitudeOver90IsRefused() throws {
        let r = try cli.run(["place", "add", "Nowhere", "--position", "91 00.0 N 153 00.0 E", "--radius", "100"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: latitude 91° is out of range"), "\(r.stderr)")
        #expect((try cli.json(["place", "list"]) as? [[String: Any]])?.count == 0)
    }

    @Test func aNonPositiveRadiusIsRefused() throws {
        let r = try cli.run(["place", "add", "Home", "--position", home, "--radius", "0"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: radius 0 m is not positive: give the place's radius in metres, e.g. --radius 150\n")
        #expect((try cli.json(["place", "list"]) as? [[String: Any]])?.count == 0)
    }

    @Test func hereWithNoFixIsRefused() throws {
        let r = try cli.run(["place", "add", "Home", "--here", "--radius", "100"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: --here needs a GPS fix, and the daemon has published none: is `marktime daemon` running with a receiver? Or give --position\n")
        #expect((try cli.json(["place", "list"]) as? [[String: Any]])?.count == 0)
    }

    @Test func anUnknownMemberIsRefused() throws {
        _ = try cli.run(["member", "add", "Anna"])
        let r = try cli.run(["member", "report", "Zed", "--position", home])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: no member named 'Zed'; members: Anna\n")
        #expect(try cli.json(["place", "history"]) as? [Any] == nil || (try cli.json(["place", "history"]) as? [Any])?.isEmpty == true)
    }

    @Test func reportsRunTheGeofence() throws {
        // Given Home and a member
        _ = try cli.run(["place", "add", "Home", "--position", home, "--radius", "150", "--kind", "home"])
        _ = try cli.run(["member", "add", "Ben", "--color", "green"])
        // When three reports fall inside and three 11 km away
        var out: [String] = []
        for (i, pos) in [home, home, home, "27 28.8 S 153 22.84 E", "27 28.8 S 153 22.84 E", "27 28.8 S 153 22.84 E"].enumerated() {
            out.append(try cli.run(["member", "report", "Ben", "--position", pos, "--time", "2025-03-14T10:0\(i):00Z"]).stdout)
        }
        // Then Ben entered at the third and left at the sixth
        #expect(out == ["Ben: reported\n", "Ben: reported\n", "Ben: enter Home\n", "Ben: reported\n", "Ben: reported\n", "Ben: leave Home\n"])
        let history = try cli.json(["place", "history"]) as? [[String: Any]] ?? []
        #expect(history.map { "\($0["event"] ?? "") \($0["place"] ?? "") \($0["time"] ?? "")" }
                == ["enter Home 2025-03-14T10:02:00.000Z", "leave Home 2025-03-14T10:05:00.000Z"])
        #expect(try cli.run(["where", "--member", "Ben"]).stdout == "Unknown — nearest Home, 6.0 nm\n")
    }

    @Test func atMostSixMembers() throws {
        for n in ["A", "B", "C", "D", "E", "F"] { #expect(try cli.run(["member", "add", n]).status == 0) }
        let seventh = try cli.run(["member", "add", "G"])
        #expect(seventh.status == 1)
        #expect(seventh.stderr == "Error: the clock has six hands: remove a member before adding another\n")
    }

    @Test func theClockShowsEachMemberAndWritesSVG() throws {
        // Given a member at Home and one unknown
        _ = try cli.run(["place", "add", "Home", "--position", home, "--radius", "150", "--kind", "home"])
        _ = try cli.run(["member", "add", "Anna", "--color", "blue"])
        _ = try cli.run(["member", "add", "Ben", "--color", "green"])
        for i in 0..<3 { _ = try cli.run(["member", "report", "Anna", "--position", home, "--time", "2025-03-14T10:0\(i):00Z"]) }
        // When the clock is drawn, then the legend says where each is, with no colour codes off a terminal
        let text = try cli.run(["clock"]).stdout
        #expect(text.hasSuffix("● Anna: at Home since 10:02 UTC\n● Ben: unknown\n"), "\(text)")
        #expect(!text.contains("\u{1B}["))
        #expect(text.contains("HOME") && text.contains("UNKN"))
        // When it is written as SVG, then the file has both hands
        let file = cli.folder + "/clock.svg"
        #expect(try cli.run(["clock", "--svg", file]).stdout == "wrote \(file)\n")
        let svg = try String(contentsOfFile: file, encoding: .utf8)
        #expect(svg.contains("stroke=\"blue\"") && svg.contains("stroke=\"green\""))
        #expect(svg.contains(">Anna: at Home since 10:02 UTC</text>"))
    }
}
