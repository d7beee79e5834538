import Foundation
import GRDB
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import Testing

@Suite("marktime: the sight log")
struct SightLogCLITests {
    @Test func markStoresASightFromTheSystemClock() throws {
        // Given an empty store and no daemon
        let cli = CLI()
        let expectedSource = try SystemClock().read().synchronised ? "system" : "unsynced"
        // When a sight is marked
        let r = try cli.run(["mark", "--note", "first", "--format", "json"])
        // Then it is stored, stamped by the system clock, and printed
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["id"] as? Int == 1)
        #expect(json["note"] as? String == "first")
        #expect(json["trigger"] as? String == "cli")
        #expect(json["source"] as? String == expectedSource)
        #expect(json["lat"] is NSNull)
        let stored = try cli.database().sight(id: 1).sight
        #expect(stored.estimate.utc.iso8601 == json["utc"] as? String)
        #expect(stored.instant.bootID == (try SystemClock().bootID))
    }

    @Test func markQuietPrintsOnlyTheID() throws {
        let cli = CLI()
        _ = try cli.run(["mark"])
        #expect(try cli.run(["mark", "--quiet"]).stdout == "2\n")
    }

    @Test func markUsesTheDaemonsFreshGPSClockAndFix() throws {
        // Given a daemon that published a GPS sample of 2007-04-08 and a fix, just now in this boot
        let cli = CLI()
        let now = try SystemClock().read().instant
        let fix = Fix(position: try Position(latitude: -(27 + 12.64 / 60), longitude: 153 + 3.12 / 60), mode: 3,
                      horizontalError: 9, time: UTCTime(nanosecondsSinceEpoch: logDay), receivedAt: now)
        try cli.database().publish(DaemonStatus(
            pid: 1, bootID: now.bootID, startedAt: now.nanoseconds, heartbeat: now.nanoseconds,
            clock: ClockSample(source: .gps, monotonicNanoseconds: now.nanoseconds, utc: UTCTime(nanosecondsSinceEpoch: logDay), uncertainty: 0.5),
            fix: fix, gpsd: "connected", buttonState: "waiting"))
        // When a sight is marked from the CLI
        let json = try #require(try cli.json(["mark"]) as? [String: Any])
        // Then it carries the log's date, the gps source and the fix
        #expect(json["source"] as? String == "gps")
        #expect((json["utc"] as? String)?.hasPrefix("2007-04-08T09:5") == true)
        #expect(json["lat_ddm"] as? String == "27° 12'.64 S")
        #expect(json["lon_ddm"] as? String == "153° 03'.12 E")
        #expect(json["fix_mode"] as? Int == 3)
    }

    @Test func sightsListsTheLastFiveNewestFirst() throws {
        // Given six sights a second apart
        let cli = CLI()
        let db = try cli.database()
        for t in 0..<6 as Range<Int64> { _ = try db.insert(try sight(at: t)) }
        // When they are listed with no options
        let r = try cli.run(["sights"])
        // Then the last five show in Mark Time's format with the date and DDM positions
        #expect(r.status == 0)
        #expect(r.stdout == """
            ID  TIME (UTC)           DATE        SOURCE  ±        POSITION                     BODY  LIMB  HS
            6   08d 09h 53m 00.654s  2007-04-08  gps     ±500 ms  27° 12'.64 S  153° 03'.12 E
            5   08d 09h 52m 59.654s  2007-04-08  gps     ±500 ms  27° 12'.64 S  153° 03'.12 E
            4   08d 09h 52m 58.654s  2007-04-08  gps     ±500 ms  27° 12'.64 S  153° 03'.12 E
            3   08d 09h 52m 57.654s  2007-04-08  gps     ±500 ms  27° 12'.64 S  153° 03'.12 E
            2   08d 09h 52m 56.654s  2007-04-08  gps     ±500 ms  27° 12'.64 S  153° 03'.12 E

            """)
    }

    @Test func sightsTakesCountAllAndDateBounds() throws {
        let cli = CLI()
        let db = try cli.database()
        for t in [0, 86_400, 2 * 86_400] as [Int64] { _ = try db.insert(try sight(at: t)) }
        func ids(_ args: [String]) throws -> [Int] {
            try #require(try cli.json(["sights"] + args) as? [[String: Any]]).compactMap { $0["id"] as? Int }
        }
        #expect(try ids(["-n", "1"]) == [3])
        #expect(try ids(["--all"]) == [3, 2, 1])
        #expect(try ids(["--all", "--since", "2007-04-09"]) == [3, 2])
        #expect(try ids(["--all", "--until", "2007-04-09"]) == [2, 1])
        #expect(try ids(["--all", "--since", "2007-04-09T09:52:56Z"]) == [3])
    }

    @Test func sightsJSONHasTheDocumentedFields() throws {
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        let rows = try #require(try cli.json(["sights"]) as? [[String: Any]])
        let s = try #require(rows.first)
        #expect(s["id"] as? Int == 1)
        #expect(s["utc"] as? String == "2007-04-08T09:52:55.654Z")
        #expect(s["source"] as? String == "gps")
        #expect(s["uncertainty_s"] as? Double == 0.5)
        #expect(s["lat"] as? Double == -(27 + 12.64 / 60))
        #expect(s["lon"] as? Double == 153 + 3.12 / 60)
        for key in ["body", "limb", "hs", "note"] { #expect(s[key] is NSNull, "\(key)") }
    }

    @Test func editTakesEveryWrittenForm() throws {
        // Given a sight
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        // When the navigator fills it in
        let r = try cli.run(["sight", "edit", "1", "--body", "Sun", "--limb", "LL", "--hs", "34°12'.3", "--ie", "-1.5",
                             "--eye-height", "2.4", "--temp", "18", "--pressure", "1013.2",
                             "--dr", "27° 22'.84 S 153° 22'.84 E", "--note", "first of three"])
        #expect(r.status == 0)
        // Then every field reads back exactly
        let s = try #require(try cli.json(["sight", "show", "1"]) as? [String: Any])
        #expect(s["body"] as? String == "Sun")
        #expect(s["limb"] as? String == "lower")
        #expect(s["hs"] as? Double == 34 + 12.3 / 60)
        #expect(s["ie_arcmin"] as? Double == -1.5)
        #expect(s["eye_height_m"] as? Double == 2.4)
        #expect(s["temperature_c"] as? Double == 18)
        #expect(s["pressure_hpa"] as? Double == 1013.2)
        #expect(s["dr_lat"] as? Double == -(27 + 22.84 / 60))
        #expect(s["dr_lon"] as? Double == 153 + 22.84 / 60)
        #expect(s["note"] as? String == "first of three")
        #expect(s["edited_at"] is String)
    }

    @Test func editClearsAField() throws {
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        _ = try cli.run(["sight", "edit", "1", "--hs", "34 12.3", "--body", "Moon"])
        #expect(try cli.run(["sight", "edit", "1", "--clear", "hs"]).status == 0)
        let s = try cli.database().sight(id: 1).sight
        #expect(s.hs == nil)
        #expect(s.body == "Moon")
    }

    @Test(arguments: [
        (["--hs", "34 61"], "Error: cannot read Hs '34 61': minutes and seconds must be under 60, not 61\n"),
        (["--dr", "91 00.0 N 10 00.0 E"], "Error: latitude 91° is out of range: it must be between 90° S and 90° N\n"),
        (["--dr", "10 00.0 N 181 00.0 E"], "Error: longitude 181° is out of range: it must be between 180° W and 180° E\n"),
        (["--limb", "side"], "Error: unknown limb 'side': use lower, center or upper\n"),
        (["--body", "Sun", "--hs", "high"], "Error: cannot read Hs 'high': unexpected 'h'; write it as `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`\n"),
    ])
    func aBadValueWritesNothing(args: [String], message: String) throws {
        // Given a sight
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        // When an edit carries one bad value
        let r = try cli.run(["sight", "edit", "1"] + args)
        // Then it fails with one sentence, and nothing at all was written
        #expect(r.status == 1)
        #expect(r.stderr == message)
        let s = try cli.database().sight(id: 1).sight
        #expect(s.editedAt == nil)
        #expect(s.body == nil)
    }

    @Test func anUnknownIDIsNamed() throws {
        let cli = CLI()
        let r = try cli.run(["sight", "edit", "42", "--body", "Sun"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: no sight with id 42: `marktime sights --all` lists the ids\n")
        #expect(try cli.run(["sight", "show", "42"]).stderr == "Error: no sight with id 42: `marktime sights --all` lists the ids\n")
    }

    @Test func aCorruptStoreIsNamed() throws {
        let cli = CLI()
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: cli.store))
        let r = try cli.run(["sights"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: store \(cli.store) is not a readable marktime store (it does not start with the SQLite header); move it aside and restore a backup, or choose another with --store\n")
    }

    @Test func aNewerSchemaRefusesToWrite() throws {
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        _ = try cli.run(["mark"])
        try DatabaseQueue(path: cli.store).write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
        let r = try cli.run(["mark"])
        // The store is not written, and the press waits beside it for a daemon that may write it
        #expect(r.status == 1)
        #expect(r.stderr == "Error: the store did not take the sight (store \(cli.store) was written by a newer marktime (schema v99); "
            + "this binary only reads it: upgrade marktime to change it); it is kept safe in \(cli.store)-pending.jsonl, "
            + "and `marktime daemon` stores it as soon as the store takes writes again\n")
        #expect(try cli.run(["sights"]).status == 0)
        #expect(try cli.database().sightCounts().current == 2)
        #expect(PendingPresses(storePath: cli.store).load().map(\.trigger) == [.cli])
    }

    @Test func theStoreComesFromTheEnvironmentWithoutTheOption() throws {
        let cli = CLI()
        let r = try cli.run(["mark", "--quiet"], storeFlag: false, environment: ["MARKTIME_STORE": cli.store])
        #expect(r.status == 0)
        #expect(try cli.database().sightCounts().current == 1)
    }

    @Test func theOptionBeatsTheEnvironment() throws {
        let cli = CLI()
        let other = cli.folder + "/other.sqlite"
        _ = try cli.run(["mark", "--quiet"], environment: ["MARKTIME_STORE": other])
        #expect(try cli.database().sightCounts().current == 1)
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    @Test func helpTeachesTheForms() throws {
        let r = try CLI().run(["sight", "edit", "--help"], storeFlag: false)
        #expect(r.status == 0)
        #expect(r.stdout.contains("Hs takes `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`."))
        #expect(r.stdout.contains("--store <path>"))
    }
}
