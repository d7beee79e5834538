import Foundation
import RigSupport
import Testing
@testable import MarkTimeCLI

@Suite("marktime people")
struct PeopleCLITests {
    let cli = CLI()

    func addAnnAndRaj() throws {
        #expect(try cli.run(["people", "add", "Ann", "new york"]).status == 0)
        #expect(try cli.run(["people", "add", "Raj", "Asia/Calcutta"]).status == 0)
    }

    @Test func addStoresTheCanonicalZone() throws {
        // Given a person added by an old name of their city
        let r = try cli.run(["people", "add", "Raj", "Asia/Calcutta"])
        // Then the store keeps today's identifier
        #expect(r.stdout.hasPrefix("added Raj: Asia/Kolkata, now IST UTC+05:30"), "\(r.stderr)")
        let list = try cli.json(["people", "list"]) as? [[String: Any]] ?? []
        #expect(list.map { $0["zone"] as? String } == ["Asia/Kolkata"])
        #expect(list.first?["selected"] as? Bool == true)
    }

    @Test func aDuplicateNameInAnyCaseIsRefused() throws {
        try addAnnAndRaj()
        let r = try cli.run(["people", "add", "ANN", "Paris"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: 'Ann' is already in your people; choose another name, or `marktime people remove Ann` first\n")
        #expect((try cli.json(["people", "list"]) as? [[String: Any]])?.count == 2)
    }

    @Test func anUnknownCityIsRefusedAndNothingIsWritten() throws {
        let r = try cli.run(["people", "add", "Ann", "Brisbaine"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: no time zone matches 'Brisbaine'; did you mean Australia/Brisbane? (`marktime people zones TEXT` searches the list)\n")
        #expect((try cli.json(["people", "list"]) as? [[String: Any]])?.count == 0)
    }

    @Test func theSelectionIsKeptInTheStore() throws {
        // Given two people, when Ann is deselected
        try addAnnAndRaj()
        #expect(try cli.run(["people", "deselect", "ann"]).stdout == "deselected ann\n")
        // Then a later run shows only Raj, and lists Ann as not selected
        let shown = try cli.json(["people", "at", "09:00", "--date", "2026-01-15", "--zone", "Australia/Brisbane"]) as? [[String: Any]] ?? []
        #expect(shown.map { $0["name"] as? String } == ["Raj"])
        let list = try cli.json(["people", "list"]) as? [[String: Any]] ?? []
        #expect(list.map { $0["selected"] as? Bool } == [false, true])
    }

    @Test func renameAndRemove() throws {
        // Given Ann and Raj, when Ann is renamed and Raj removed
        try addAnnAndRaj()
        #expect(try cli.run(["people", "rename", "ann", "Annie"]).stdout == "renamed ann to Annie\n")
        #expect(try cli.run(["people", "remove", "RAJ"]).stdout == "removed RAJ\n")
        // Then only Annie is left, and an unknown name is refused with the list
        #expect((try cli.json(["people", "list"]) as? [[String: Any]])?.map { $0["name"] as? String } == ["Annie"])
        let r = try cli.run(["people", "remove", "Raj"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: no person named 'Raj'; your people: Annie\n")
    }

    @Test func atAMinuteGivesEachPersonsLocalTime() throws {
        // Given Ann in New York and Raj in Kolkata
        try addAnnAndRaj()
        // When the user in Brisbane looks at 09:00 on 15 January 2026
        let rows = try cli.json(["people", "at", "09:00", "--date", "2026-01-15", "--zone", "brisbane"]) as? [[String: Any]] ?? []
        // Then Ann is at 18:00 the day before (EST) and Raj at 04:30 (IST); New York's nautical dusk
        // was about 17:55, so its sky is astronomical twilight, and Kolkata's is night
        #expect(rows.map { $0["local"] as? String } == ["2026-01-14 18:00", "2026-01-15 04:30"])
        #expect(rows.map { $0["offset"] as? String } == ["-05:00", "+05:30"])
        #expect(rows.map { $0["dst"] as? Bool } == [false, false])
        #expect(rows.map { $0["sky"] as? String } == ["astronomical", "night"])
        #expect(rows.map { $0["sun_altitude_deg"] as? Double } == [-12.7, -24.7])
        #expect(rows.map { $0["zone"] as? String } == ["America/New_York", "Asia/Kolkata"])
        let table = try cli.run(["people", "at", "09:00", "--date", "2026-01-15", "--zone", "brisbane"]).stdout
        #expect(table == """
            You: 2026-01-15 09:00 AEST (UTC+10:00), Australia/Brisbane
            NAME  CITY      TIME   DAY  ZONE  OFFSET     DST  SKY
            Ann   New York  18:00  -1d  EST   UTC-05:00       astronomical
            Raj   Kolkata   04:30       IST   UTC+05:30       night

            """)
    }

    @Test func theHomeZoneComesFromTheConfig() throws {
        try addAnnAndRaj()
        _ = try cli.run(["config", "set", "home.zone", "Europe/London"], storeFlag: false)
        let rows = try cli.json(["people", "at", "12:00", "--date", "2026-07-01"]) as? [[String: Any]] ?? []
        #expect(rows.map { $0["local"] as? String } == ["2026-07-01 07:00", "2026-07-01 16:30"])
        #expect(rows.first?["dst"] as? Bool == true)
    }

    @Test func aMinuteInTheGapIsRefused() throws {
        try addAnnAndRaj()
        let r = try cli.run(["people", "at", "02:30", "--date", "2026-03-08", "--zone", "America/New_York"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: 02:30 does not exist on 2026-03-08 in America/New_York: the clocks go forward 60 minutes there, from EST to EDT; choose a time outside the gap\n")
    }

    @Test func aMinuteThatHappensTwiceTakesTheFirstWithANote() throws {
        try addAnnAndRaj()
        let r = try cli.run(["people", "at", "01:30", "--date", "2026-11-01", "--zone", "America/New_York", "--format", "json"])
        #expect(r.stderr == "note: 01:30 happens twice on 2026-11-01 in America/New_York (clocks go back); taking the first, EDT UTC-04:00, not the second, EST UTC-05:00\n")
        let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.map { $0["local"] as? String } == ["2026-11-01 01:30", "2026-11-01 11:00"])
    }

    @Test func anImpossibleDateIsRefused() throws {
        let r = try cli.run(["people", "at", "09:00", "--date", "2026-02-30"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: --date '2026-02-30' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21\n")
    }

    @Test func zonesSearchesTheDatabase() throws {
        let r = try cli.run(["people", "zones", "kolk"], storeFlag: false)
        #expect(r.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["ZONE", "Asia/Kolkata"])
    }

    @Test func scrollKeysMoveTheTime() {
        #expect(KeyReader.parse(Array("\u{1B}[C".utf8))! == (.move(minutes: 1), 3))
        #expect(KeyReader.parse(Array("\u{1B}OD".utf8))! == (.move(minutes: -1), 3))
        #expect(KeyReader.parse(Array("\u{1B}[A".utf8))! == (.move(minutes: 15), 3))
        #expect(KeyReader.parse(Array("\u{1B}[B".utf8))! == (.move(minutes: -15), 3))
        #expect(KeyReader.parse(Array("\u{1B}[5~".utf8))! == (.move(minutes: 60), 4))
        #expect(KeyReader.parse(Array("\u{1B}[6~".utf8))! == (.move(minutes: -60), 4))
        #expect(KeyReader.parse(Array("q".utf8))! == (.quit, 1))
        #expect(KeyReader.parse(Array("\u{1B}[".utf8)) == nil)
    }
}

/// `marktime people scroll` in a real terminal: tmux on a private socket.
@Suite("marktime people scroll, in tmux", .serialized, .tags(.tmux))
struct PeopleScrollTests {
    let cli = CLI()
    var pane: TmuxPane { TmuxPane(cli: cli) }
    func tmux(_ args: [String]) throws -> CommandResult { try pane.tmux(args) }
    func screen() throws -> [String] { try pane.screen() }
    func stopTmux() { pane.stop() }
    func terminalRestored() throws -> Bool { try pane.terminalRestored() }

    /// Starts the view in a 100×20 pane.
    func start() throws {
        #expect(try cli.run(["people", "add", "Ann", "new york"]).status == 0)
        #expect(try cli.run(["people", "add", "Raj", "Kolkata"]).status == 0)
        #expect(try pane.start("\(CLI.binary) people scroll at 09:00 --date 2026-01-15 --zone Australia/Brisbane --store \(cli.store)").status == 0)
        #expect(try eventually(within: 10) { try screen().contains("You: 2026-01-15 09:00 AEST (UTC+10:00), Australia/Brisbane") },
                "\((try? screen()) ?? [])")
    }

    @Test func sixtyRightArrowsMoveEveryClockOneHour() throws {
        // Given the view at 09:00 in Brisbane
        try start()
        defer { stopTmux() }
        #expect(try screen()[3...5] == [
            "NAME  CITY      TIME   DAY  ZONE  OFFSET     DST  SKY",
            "Ann   New York  18:00  -1d  EST   UTC-05:00       astronomical",
            "Raj   Kolkata   04:30       IST   UTC+05:30       night",
        ])
        // When → is pressed 60 times
        #expect(try tmux(["send-keys", "-N", "60", "Right"]).status == 0)
        // Then every shown time is exactly one hour later
        #expect(try eventually(within: 10) { try screen().contains("You: 2026-01-15 10:00 AEST (UTC+10:00), Australia/Brisbane") },
                "\((try? screen()) ?? [])")
        // (New York is past astronomical dusk; Kolkata, 2 minutes after nautical dawn, at −11.4°)
        #expect(try screen()[4...5] == [
            "Ann   New York  19:00  -1d  EST   UTC-05:00       night",
            "Raj   Kolkata   05:30       IST   UTC+05:30       nautical",
        ])
        // And q quits, leaving the terminal in line mode with echo
        #expect(try tmux(["send-keys", "q"]).status == 0)
        #expect(try terminalRestored())
    }

    @Test func sigtermRestoresTheTerminal() throws {
        // Given the view running
        try start()
        defer { stopTmux() }
        // When it is sent SIGTERM
        let shell = try tmux(["display-message", "-p", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let view = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        #expect(kill(view, SIGTERM) == 0)
        // Then the terminal is back in line mode with echo, off the alternate screen
        #expect(try terminalRestored())
        #expect(try !screen().contains { $0.hasPrefix("You: ") })
    }
}
