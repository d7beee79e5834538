import CSV
import Foundation
import GRDB
import MarkTimeCore
import MarkTimeStore
import Testing

@Suite("marktime: export, clear, restore and config")
struct ExportAndArchiveCLITests {
    static let header = "id,utc_date,utc_time,utc,source,uncertainty_s,body,limb,hs_deg,ie_arcmin,eye_height_m,temperature_c,pressure_hpa,dr_lat,dr_lon,gps_lat,gps_lon,gps_lat_ddm,gps_lon_ddm,fix_mode,fix_age_s,position_flag,note,ho_deg,hc_deg,zn_deg,intercept_nm,gps_error_arcmin\r\n"

    @Test func exportIsRFC4180WithOneHeaderRow() throws {
        // Given a filled-in sight whose note needs quoting
        let cli = CLI()
        var s = try sight(at: 0)
        s.body = "Sun"; s.limb = .lower; s.hs = 34.205; s.indexError = -1.5; s.eyeHeight = 2.4
        s.note = "LL, \"hazy\"\nsecond line"
        _ = try cli.database().insert(s)
        // When it is exported
        let r = try cli.run(["export", "csv"])
        // Then the row is quoted as RFC 4180 says, with CRLF line ends (the Sun was below the
        // horizon there, so the reduction's columns are empty)
        #expect(r.status == 0)
        #expect(r.stdout == Self.header
            + "1,2007-04-08,09:52:55.654,2007-04-08T09:52:55.654Z,gps,0.5,Sun,lower,34.205,-1.5,2.4,,,,,"
            + "-27.21066666666667,153.052,27° 12'.64 S,153° 03'.12 E,3,0.250,,\"LL, \"\"hazy\"\"\nsecond line\",,,,,\r\n")
    }

    @Test func anEmptyExportIsTheHeaderAlone() throws {
        #expect(try CLI().run(["export", "csv"]).stdout == Self.header)
    }

    @Test func exportWritesAFileOldestFirstWithinBounds() throws {
        let cli = CLI()
        for t in [0, 86_400, 2 * 86_400] as [Int64] { _ = try cli.database().insert(try sight(at: t)) }
        let out = cli.folder + "/sights.csv"
        let r = try cli.run(["export", "csv", "--since", "2007-04-09", "-o", out])
        #expect(r.status == 0)
        #expect(r.stderr == "Wrote 2 sights to \(out).\n")
        let lines = try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("2,2007-04-09,"))
        #expect(lines[2].hasPrefix("3,2007-04-10,"))
    }

    @Test func clearWithoutATerminalOrYesArchivesNothing() throws {
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        let r = try cli.run(["sights", "clear"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: Archive 1 sights: no terminal to confirm on; add --yes to archive them\n")
        #expect(try cli.database().sightCounts() == (current: 1, archived: 0))
    }

    @Test func clearArchivesAndRestoreBringsBack() throws {
        // Given two sights
        let cli = CLI()
        for t in [0, 1] as [Int64] { _ = try cli.database().insert(try sight(at: t)) }
        // When they are cleared
        let cleared = try cli.run(["sights", "clear", "--yes"])
        #expect(cleared.stdout == "Archived 2 sights. `marktime sights restore` brings them back.\n")
        #expect(try cli.run(["sights"]).stdout == "No sights yet: press the button, or run `marktime mark`.\n")
        #expect(try #require(try cli.json(["sights", "--archived"]) as? [Any]).count == 2)
        // Then restore brings both back
        #expect(try cli.run(["sights", "restore"]).stdout == "Restored 2 sights.\n")
        #expect(try cli.database().sightCounts() == (current: 2, archived: 0))
    }

    @Test func purgeDeletesForGood() throws {
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        _ = try cli.run(["sights", "clear", "--yes"])
        _ = try cli.database().insert(try sight(at: 1))
        #expect(try cli.run(["sights", "clear", "--purge"]).status == 1)
        #expect(try cli.database().sightCounts() == (current: 1, archived: 1))
        #expect(try cli.run(["sights", "clear", "--purge", "--yes"]).stdout == "Purged 2 sights.\n")
        #expect(try cli.database().sightCounts() == (current: 0, archived: 0))
    }

    @Test func configSetGetAndRefusals() throws {
        let cli = CLI()
        #expect(try cli.run(["config", "get", "button.debounce_ms"]).stdout == "30\n")
        #expect(try cli.run(["config", "set", "button.debounce_ms", "45"]).stdout == "button.debounce_ms = 45  (\(cli.config))\n")
        #expect(try cli.run(["config", "get", "button.debounce_ms"]).stdout == "45\n")
        let unknown = try cli.run(["config", "set", "button.colour", "red"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "Error: unknown config key 'button.colour': valid keys are \(Settings.keyList)\n")
        let bad = try cli.run(["config", "set", "sound.volume", "150"])
        #expect(bad.status == 1)
        #expect(bad.stderr == "Error: sound.volume takes a whole number from 0 to 100, not '150' (beep volume in percent, 0-100)\n")
        #expect(try cli.run(["config", "get", "sound.volume"]).stdout == "100\n")
    }

    @Test func aHandEditedZoneThatDoesNotExistFailsOnlyTheCommandsThatNeedItNamingTheFile() throws {
        // Given a config file edited by hand with a zone the tz database does not know
        let cli = CLI()
        try "[home]\nzone = \"Mars/Olympus\"\n".write(toFile: cli.config, atomically: true, encoding: .utf8)
        // When a command that needs the home zone runs, and one that does not
        let day = try cli.run(["task", "add", "Sights", "--due", "tomorrow 09:00"])
        let sights = try cli.run(["sights"])
        // Then the first fails with one sentence naming the key, the file and the fix, and the second works
        #expect(day.status == 1)
        #expect(day.stderr == "Error: config file \(cli.config): home.zone 'Mars/Olympus' is not a zone of the tz database: give one such as "
            + "Australia/Brisbane or Europe/London (`marktime people zones` lists them), or leave it empty for the system's; "
            + "fix it with `marktime config set home.zone VALUE`, or `marktime config unset home.zone` for the default\n")
        #expect(sights.status == 0)
    }

    @Test func theCLIEditsWhileAnotherConnectionInserts() async throws {
        // Given a store with one sight
        let cli = CLI()
        _ = try cli.database().insert(try sight(at: 0))
        // When another connection inserts 300 sights while the CLI edits sight 1 twenty times
        let store = cli.store
        let inserter = Task.detached {
            let db = try AppDatabase(path: store, createDirectory: false)
            for t in 1...300 as ClosedRange<Int64> { _ = try db.insert(try sight(at: t, boot: "boot-b")) }
        }
        var failures: [CLI.Result] = []
        for i in 0..<20 {
            let r = try cli.run(["sight", "edit", "1", "--note", "edit \(i)"])
            if r.status != 0 { failures.append(r) }
        }
        try await inserter.value
        // Then every edit succeeded and nothing was lost
        #expect(failures.isEmpty, "\(failures)")
        let db = try cli.database()
        #expect(try db.sightCounts() == (current: 301, archived: 0))
        #expect(try db.sight(id: 1).sight.note == "edit 19")
        #expect(try db.integrityCheck() == "ok")
    }

    @Test func processesOpeningANewStoreAtOnceAllSucceed() async throws {
        // Given 30 new stores, each opened by three `marktime status` at once (the daemon
        // and the CLI on a first boot race the same way)
        let cli = CLI()
        var failures: [String] = []
        for n in 0..<30 {
            let path = cli.folder + "/race-\(n).sqlite"
            let results = try await withThrowingTaskGroup(of: CLI.Result.self) { group in
                for _ in 0..<3 { group.addTask { try cli.run(["status", "--store", path], storeFlag: false) } }
                return try await group.reduce(into: [CLI.Result]()) { $0.append($1) }
            }
            // When they have all finished, then every one succeeded
            failures += results.filter { $0.status != 0 }.map(\.stderr)
        }
        #expect(failures == [])
    }
}

@Suite("export: every field, read back by a CSV parser")
struct ExportFieldTests {
    @Test func everyFieldReadsBackAsTheSightHasIt() throws {
        // Given sights with awkward values: west and north, a position that rounds into the next
        // degree, a fix age at a rounding edge, quotes, commas, newlines and non-ASCII in the note,
        // empty fields, and a time that rounds into the next day
        let cli = CLI()
        var a = try sight(at: 0)
        a.position = try Position(latitude: 12.999999, longitude: -0.0000001)
        a.fixAge = 0.0005
        a.note = "Sun LL, \"hazy\"\r\nsecond line — café"
        a.dr = try Position(latitude: 1.5, longitude: -179.99)
        a.temperature = -3.25
        var b = try sight(at: 1)
        b.position = nil
        b.fixMode = nil
        b.fixAge = nil
        b.estimate = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 86_400_000_000_000 - 400_000), source: .unsynced, uncertainty: nil)
        var c = try sight(at: 2)
        c.hs = 89.99999999999
        c.indexError = 0.1
        c.body = "Polaris"
        c.limb = .center
        for s in [a, b, c] { _ = try cli.database().insert(s) }
        // When they are exported and parsed with CSV.swift
        let r = try cli.run(["export", "csv"])
        #expect(r.status == 0)
        let reader = try CSVReader(string: r.stdout, hasHeaderRow: true)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        // Then each field is what the sight holds, formatted independently here
        let sights = try cli.database().sights(SightQuery(oldestFirst: true))
        #expect(rows.count == 3)
        for (row, s) in zip(rows, sights) {
            func n(_ v: Double?) -> String { v.map { $0 == $0.rounded() ? String(Int64($0)) : "\($0)" } ?? "" }
            let utc = s.estimate.utc
            var expected: [String] = ["\(s.id!)", utc.isoDate, utc.isoTimeOfDay, utc.iso8601, s.estimate.source.rawValue]
            expected += [n(s.estimate.uncertainty), s.body ?? "", s.limb?.rawValue ?? ""]
            expected += [n(s.hs), n(s.indexError), n(s.eyeHeight), n(s.temperature), n(s.pressure)]
            expected += [n(s.dr?.latitude), n(s.dr?.longitude), n(s.position?.latitude), n(s.position?.longitude)]
            expected += [s.position?.latitudeDDM ?? "", s.position?.longitudeDDM ?? "", s.fixMode.map(String.init) ?? ""]
            expected += [s.fixAge.map { String(format: "%.3f", $0) } ?? "", s.positionFlag ?? "", s.note ?? "", "", "", "", "", ""]
            #expect(row == expected)
        }
        // Oldest first: b (a time 0.4 ms before 1970-01-02, shown as the next day), then a
        #expect(rows[0][3] == "1970-01-02T00:00:00.000Z")
        #expect(rows[1][17] == "13° 00'.00 N")
        #expect(rows[1][18] == "0° 00'.00 E")
        #expect(rows[1][20] == "0.001")
        #expect(rows[1][21] == "")
        #expect(rows[1][22] == "Sun LL, \"hazy\"\r\nsecond line — café")
    }
}
