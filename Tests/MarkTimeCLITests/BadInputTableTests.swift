import Foundation
import GRDB
import MarkTimeStore
import Testing

/// One bad input: the arguments, the exit status, and the first line of standard error.
/// In arguments, FOLDER, TEXTFILE and FOREIGN stand for a folder, a text file and another
/// program's SQLite file, LOOPLINK for a symbolic link that points at itself and FIFOFILE
/// for a FIFO that no program reads, LISTENCONF for a config whose web.listen is not this
/// machine's address; in the expected line `{dir}` stands for the test's folder.
struct BadInput: Sendable, CustomTestStringConvertible {
    var args: [String]
    var status: Int32
    var error: String
    var prefix = false

    init(_ args: [String], _ status: Int32, _ error: String, prefix: Bool = false) {
        self.args = args
        self.status = status
        self.error = error
        self.prefix = prefix
    }

    var testDescription: String { args.map { $0.debugDescription }.joined(separator: " ") }
}

/// A store with one of everything, shared by every row (each row must leave it as it was).
final class SeededStore: Sendable {
    let cli = CLI()
    var folder: String { cli.folder }

    init() throws {
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: folder + "/text.txt"))
        try FileManager.default.createDirectory(atPath: folder + "/folder", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop", withDestinationPath: folder + "/loop")
        guard mkfifo(folder + "/fifo", 0o600) == 0 else { throw POSIXError(.EEXIST) }
        try Data("[web]\nlisten = \"198.51.100.1:8080\"\n".utf8).write(to: URL(fileURLWithPath: folder + "/listen.toml"))
        let foreign = try DatabaseQueue(path: folder + "/foreign.db")
        try foreign.write { try $0.execute(sql: "CREATE TABLE foo (x); INSERT INTO foo VALUES (1)") }
        for args in [["config", "set", "home.zone", "Australia/Brisbane"], ["mark", "--note", "seed"],
                     ["place", "add", "Home", "--position", "-27.3807 153.3807", "--radius", "150"], ["member", "add", "Skipper", "--me"],
                     ["people", "add", "Mum", "London"], ["course", "add", "NAV101", "--name", "Celestial Navigation"],
                     ["course", "weight", "NAV101", "Exams", "60"], ["grade", "add", "NAV101", "Midterm", "--type", "Exams", "--score", "80"],
                     ["task", "add", "Sun sights", "--due", "2030-01-01T10:00Z"], ["day", "note", "Left harbour"]] {
            let r = try cli.run(args)
            guard r.status == 0 else { throw CLIFailure(result: r) }
        }
    }

    /// Runs a row's arguments with the store in MARKTIME_STORE, so that no row's missing
    /// value can swallow a `--store` flag.
    func run(_ args: [String]) throws -> CLI.Result {
        let real = args.map {
            $0.replacingOccurrences(of: "TEXTFILE", with: folder + "/text.txt").replacingOccurrences(of: "FOLDER", with: folder + "/folder")
                .replacingOccurrences(of: "FOREIGN", with: folder + "/foreign.db").replacingOccurrences(of: "LOOPLINK", with: folder + "/loop")
                .replacingOccurrences(of: "FIFOFILE", with: folder + "/fifo").replacingOccurrences(of: "LISTENCONF", with: folder + "/listen.toml")
        }
        return try cli.run(real, storeFlag: false, environment: ["MARKTIME_STORE": cli.store])
    }

    /// Every table's schema and rows, in a fixed order: equal dumps mean an unchanged store.
    func dump() throws -> String {
        try DatabaseQueue(path: cli.store, configuration: { var c = Configuration(); c.readonly = true; return c }()).read { db in
            var out = ""
            for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name") {
                out += "\(row["type"] as String? ?? "") \(row["name"] as String? ?? ""): \(row["sql"] as String? ?? "")\n"
                guard row["type"] as String? == "table", let name = row["name"] as String? else { continue }
                // Sorted lines, as some tables have no rowid to order by.
                out += try Row.fetchAll(db, sql: "SELECT * FROM \"\(name)\"")
                    .map { "  " + $0.databaseValues.map(\.description).joined(separator: "|") + "\n" }.sorted().joined()
            }
            return out
        }
    }

    func configBytes() -> Data { (try? Data(contentsOf: URL(fileURLWithPath: cli.config))) ?? Data() }
}

@Suite("Bad input: each is refused with one sentence and changes nothing", .serialized)
struct BadInputTableTests {
    static let seeded = Result { try SeededStore() }

    @Test(arguments: rows)
    func isRefused(_ row: BadInput) throws {
        // Given the seeded store and config
        let store = try Self.seeded.get()
        let before = try store.dump(), config = store.configBytes()
        // When the bad input is given
        let r = try store.run(row.args)
        // Then it exits with the status (not a signal), says what is wrong, and writes nothing
        #expect(r.status == row.status)
        let first = String(r.stderr.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        let expected = row.error.replacingOccurrences(of: "{dir}", with: store.folder)
        if row.prefix { #expect(first.hasPrefix(expected), "\(first)") } else { #expect(first == expected) }
        #expect(try store.dump() == before)
        #expect(store.configBytes() == config)
    }

    @Test func theTableCoversEnoughInputs() {
        #expect(Self.rows.count >= 150)
        let commands = Set(Self.rows.map { $0.args[0] })
        #expect(commands == ["mark", "now", "status", "sights", "sight", "export", "config", "beep", "daemon", "place", "where", "member", "anchor",
                             "clock", "people", "task", "course", "grade", "day", "cal", "almanac", "sky", "reduce", "fix", "user", "web", "share",
                             "average", "plot", "noon", "polaris", "identify", "plan"])
    }

    static let rows: [BadInput] = [
        BadInput(["plan", "--position", "50 10 N 4 20 W", "--at", "2026-11-27T17:00:32Z", "--eye-height", "2.5", "--bodies", "5"], 1, "Error: a fix is planned from 3 or 4 bodies, not 5"),
        BadInput(["plan", "--position", "50 10 N 4 20 W", "--at", "2026-11-27T17:00:32Z", "--eye-height", "2.5", "--lowest", "70", "--highest", "15"], 1, "Error: the altitude band --lowest 70° to --highest 15° must run upward within 0° to 90° (default 15° to 70°)"),
        BadInput(["plan", "--position", "50 10 N 4 20 W", "--at", "2026-11-27T17:00:32Z", "--eye-height", "2.5", "--limb", "center"], 1, "Error: the Sun's and the Moon's centre cannot be set on the horizon: give --limb lower or upper"),
        BadInput(["plan", "--position", "50 10 N 4 20 W", "--at", "2026-11-27T17:00:32Z"], 1, "Error: no height of eye: give one (--eye-height, in metres), or set it on a sight (`marktime sight edit ID --eye-height 2.5`)"),
        BadInput(["plan", "--position", "78 N 15 E", "--at", "2026-06-21T00:00:00Z", "--eye-height", "2.5", "--twilight", "evening"], 1, "Error: the Sun does not set through -3° and -10° at 78° 00'.00 N  15° 00'.00 E in the next 36 hours (polar day or night): no evening twilight to plan; give --at for a daylight plan of the Sun, the Moon and Venus"),
        BadInput(["plan", "--position", "50 10 N 4 20 W", "--at", "2026-11-27T17:00:32Z", "--eye-height", "2.5", "--twilight", "evening", "--sun-high", "-10", "--sun-low", "-3"], 1, "Error: the twilight window is the Sun between --sun-high (default -3°) and --sun-low (default -10°), both from 0° to -18° and --sun-low the lower; got --sun-high -10° and --sun-low -3°"),
        BadInput(["plan", "--position", "50 10 N 4 20 W", "--at", "2026-11-27T17:00:32Z", "--eye-height", "2.5", "--lowest", "80", "--highest", "90"], 1, "Error: only 1 body is between 80° and 90° and brighter than magnitude 3.0 at 2026-11-27T17:00:32.000Z from 50° 10'.00 N  4° 20'.00 W: a fix needs 3; widen the band (--lowest, --highest) or choose another time"),
        BadInput(["plan", "--position", "50 10 N 4 20 W", "--at", "2026-11-27T17:00:32Z", "--eye-height", "600"], 1, "Error: height of eye 600 m is out of range: it must be between 0 and 500 m"),
        BadInput(["user", "add", "skip per"], 1, "Error: the account name 'skip per' may have only letters, digits, '.', '_' and '-', at most 32, e.g. skipper"),
        BadInput(["user", "add", "skipper", "--password-stdin"], 1, "Error: --password-stdin: standard input was empty; pipe the password in, e.g. `printf '%s\\n' \"$PW\" | marktime user add skipper --password-stdin`"),
        BadInput(["user", "remove", "nobody"], 1, "Error: no account named 'nobody'; there are none yet: `marktime user add NAME`"),
        BadInput(["user", "passwd", "nobody", "--password-stdin"], 1, "Error: no account named 'nobody'; there are none yet: `marktime user add NAME`"),
        BadInput(["user", "logout", "nobody"], 1, "Error: no account named 'nobody'; there are none yet: `marktime user add NAME`"),
        BadInput(["mark", "--note"], 64, "Error: Missing value for '--note <note>'"),
        BadInput(["web", "--listen", "everywhere"], 1, "Error: --listen 'everywhere' is not HOST:PORT with a port from 1 to 65535, e.g. 0.0.0.0:8080"),
        BadInput(["web", "--listen", "0.0.0.0:99999"], 1, "Error: --listen '0.0.0.0:99999' is not HOST:PORT with a port from 1 to 65535, e.g. 0.0.0.0:8080"),
        BadInput(["web", "--bogus"], 64, "Error: Unknown option '--bogus'"),
        BadInput(["mark", "--bogus"], 64, "Error: Unknown option '--bogus'"),
        BadInput(["mark", "extra"], 64, "Error: Unexpected argument 'extra'"),
        BadInput(["now", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'table' and 'json'."),
        BadInput(["status", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'table' and 'json'."),
        BadInput(["sights", "--since", "yesterday"], 1, "Error: cannot read --since 'yesterday': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)"),
        BadInput(["sights", "--since", "1600-01-01"], 1, "Error: --since '1600-01-01' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["sights", "--since", "9999-12-31"], 1, "Error: --since '9999-12-31' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["sights", "--since", "2026-02-30"], 1, "Error: cannot read --since '2026-02-30': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)"),
        BadInput(["sights", "--until", "2026-13-01"], 1, "Error: cannot read --until '2026-13-01': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)"),
        BadInput(["sights", "--since", "2026-11-22", "--until", "2026-11-01"], 1, "Error: the range ends (2026-11-02T00:00:00.000Z) before it starts (2026-11-22T00:00:00.000Z), so no sight can match: swap --since and --until"),
        BadInput(["sights", "-n", "-1"], 64, "Error: -n must be at least 1, not -1"),
        BadInput(["sights", "-n", "abc"], 64, "Error: The value 'abc' is invalid for '-n <n>'"),
        BadInput(["sights", "-n", "0"], 64, "Error: -n must be at least 1, not 0"),
        BadInput(["sights", "-n", "5", "--all"], 64, "Error: give either -n N or --all, not both"),
        BadInput(["sights", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'table', 'json' or 'csv'."),
        BadInput(["sights", "clear", "--bogus"], 64, "Error: Unknown option '--bogus'"),
        BadInput(["sights", "restore", "extra"], 64, "Error: Unexpected argument 'extra'"),
        BadInput(["sight", "show", "abc"], 64, "Error: The value 'abc' is invalid for '<id>'"),
        BadInput(["sight", "show", "-1"], 64, "Error: Missing expected argument '<id>': '-1' was read as an option; an id or a count is a whole number from 1 up, and a negative value goes after its option (--ie -1.5)"),
        BadInput(["sight", "show", "999"], 1, "Error: no sight with id 999: `marktime sights --all` lists the ids"),
        BadInput(["sight", "show"], 64, "Error: Missing expected argument '<id>'"),
        BadInput(["sight", "edit", "999", "--body", "Sun"], 1, "Error: no sight with id 999: `marktime sights --all` lists the ids"),
        BadInput(["sight", "edit", "1", "--hs", "abc"], 1, "Error: cannot read Hs 'abc': unexpected 'a'; write it as `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`"),
        BadInput(["sight", "edit", "1", "--hs", "181 0"], 1, "Error: Hs 181° is out of range: it must be between 0° and 180°"),
        BadInput(["sight", "edit", "1", "--hs", "-5"], 1, "Error: Hs -5° is out of range: it must be between 0° and 180°"),
        BadInput(["sight", "edit", "1", "--hs", "34 61.0"], 1, "Error: cannot read Hs '34 61.0': minutes and seconds must be under 60, not 61"),
        BadInput(["sight", "edit", "1", "--ie", "abc"], 1, "Error: cannot read index error 'abc': give a number such as -2.4 (arc-minutes, negative when on the arc)"),
        BadInput(["sight", "edit", "1", "--ie", "1e400"], 1, "Error: cannot read index error '1e400': give a number such as -2.4 (arc-minutes, negative when on the arc)"),
        BadInput(["sight", "edit", "1", "--ie", "nan"], 1, "Error: cannot read index error 'nan': give a number such as -2.4 (arc-minutes, negative when on the arc)"),
        BadInput(["sight", "edit", "1", "--eye-height", "-1"], 1, "Error: height of eye -1 m is out of range: it must be between 0 and 500 m"),
        BadInput(["sight", "edit", "1", "--eye-height", "1e9"], 1, "Error: height of eye 1000000000 m is out of range: it must be between 0 and 500 m"),
        BadInput(["sight", "edit", "1", "--temp", "1000"], 1, "Error: temperature 1000 °C is out of range: it must be between -60 and 60 °C"),
        BadInput(["sight", "edit", "1", "--temp", "-300"], 1, "Error: temperature -300 °C is out of range: it must be between -60 and 60 °C"),
        BadInput(["sight", "edit", "1", "--pressure", "-5"], 1, "Error: pressure -5 hPa is out of range: it must be between 850 and 1100 hPa"),
        BadInput(["sight", "edit", "1", "--pressure", "5000"], 1, "Error: pressure 5000 hPa is out of range: it must be between 850 and 1100 hPa"),
        BadInput(["sight", "edit", "1", "--limb", "sideways"], 1, "Error: unknown limb 'sideways': use lower, center or upper"),
        BadInput(["sight", "edit", "1", "--dr", "nowhere"], 1, "Error: cannot read position 'nowhere': unexpected 'o'; write it as `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`"),
        BadInput(["sight", "edit", "1", "--dr", "91 0 N 0 0 E"], 1, "Error: latitude 91° is out of range: it must be between 90° S and 90° N"),
        BadInput(["sight", "edit", "1", "--body", "Sun\nMoon"], 1, "Error: a body's name 'Sun\\nMoon' has a control character (a newline, tab or escape): give one line of plain text, e.g. Sun, Moon, Venus or Sirius"),
        BadInput(["sight", "edit", "1", "--body", "Vegga"], 1, "Error: unknown body 'Vegga': give an almanac name (Sun, Moon, Venus, Mars, Jupiter, Saturn, a navigational star or Polaris) or a star's number 1–57; nearest: Vega, Venus, Adhara"),
        BadInput(["almanac", "Sun", "--at", "1982-07-19T05:37:30Z"], 1, "Error: 1982-07-19T05:37:30.000Z is outside the almanac's years 1990–2060"),
        BadInput(["almanac", "Vegga"], 1, "Error: unknown body 'Vegga': give an almanac name (Sun, Moon, Venus, Mars, Jupiter, Saturn, a navigational star or Polaris) or a star's number 1–57; nearest: Vega, Venus, Adhara"),
        BadInput(["sky", "--at", "2026-11-22T12:00:00Z"], 1, "Error: no position: give --position (e.g. \"50 10.5 N 004 20.0 W\"), or run the daemon with a GPS fix"),
        BadInput(["reduce", "999"], 1, "Error: no sight with id 999: `marktime sights --all` lists the ids"),
        BadInput(["fix", "--course", "90"], 64, "Error: give --course and --speed together"),
        BadInput(["fix", "--course", "400", "--speed", "5"], 64, "Error: --course must be 0 to 359.9 degrees, not 400.0"),
        BadInput(["sight", "edit", "1"], 64, "Error: nothing to change: give at least one of --body, --limb, --hs, --ie, --eye-height, --temp, --pressure, --dr, --note, --clear"),
        BadInput(["export", "csv", "--since", "yesterday"], 1, "Error: cannot read --since 'yesterday': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)"),
        BadInput(["export", "csv", "--since", "2026-11-22", "--until", "2026-11-01"], 1, "Error: the range ends (2026-11-02T00:00:00.000Z) before it starts (2026-11-22T00:00:00.000Z), so no sight can match: swap --since and --until"),
        BadInput(["export", "csv", "--until", "3000-01-01"], 1, "Error: --until '3000-01-01' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["export", "csv", "--output", "/nonexistent/dir/x.csv"], 1, "Error: cannot write /nonexistent/dir/x.csv: folder /nonexistent/dir does not exist; create it, or choose another file"),
        BadInput(["sight", "edit", "1", "--hs", ""], 1, "Error: --hs is empty: give a value, or `--clear hs` to clear the field"),
        BadInput(["sight", "edit", "1", "--ie", "  "], 1, "Error: --ie is empty: give a value, or `--clear ie` to clear the field"),
        BadInput(["sight", "edit", "1", "--dr", ""], 1, "Error: --dr is empty: give a value, or `--clear dr` to clear the field"),
        BadInput(["sight", "edit", "1", "--body", "\t"], 1, "Error: --body is empty: give a value, or `--clear body` to clear the field"),
        BadInput(["sight", "edit", "1", "--limb", ""], 1, "Error: --limb is empty: give a value, or `--clear limb` to clear the field"),
        BadInput(["sight", "edit", "1", "--note", ""], 1, "Error: --note is empty: give a value, or `--clear note` to clear the field"),
        BadInput(["sight", "edit", "1", "--clear", "body", "--body", "Sun"], 1, "Error: --clear body and --body contradict each other: give one of them"),
        BadInput(["config", "set", "gpsd.address", "localhost:2947:1"], 1, "Error: gpsd.address 'localhost:2947:1' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947 (gpsd HOST:PORT)"),
        BadInput(["config", "set", "share.user", "a/b"], 1, "Error: share.user 'a/b' is not one level of an MQTT topic: give 1 to 64 characters without /, + or #, e.g. boat (OwnTracks user: the boat publishes on owntracks/USER/DEVICE)"),
        BadInput(["config", "set", "share.device", "#"], 1, "Error: share.device '#' is not one level of an MQTT topic: give 1 to 64 characters without /, + or #, e.g. boat (OwnTracks device, the last part of the topic)"),
        BadInput(["config", "set", "share.user", "+"], 1, "Error: share.user '+' is not one level of an MQTT topic: give 1 to 64 characters without /, + or #, e.g. boat (OwnTracks user: the boat publishes on owntracks/USER/DEVICE)"),
        BadInput(["config", "set", "sound.volume", "0x10"], 1, "Error: sound.volume takes a whole number from 0 to 100, not '0x10' (beep volume in percent, 0-100)"),
        BadInput(["config", "set", "share.interval_s", "1e3"], 1, "Error: share.interval_s takes a number from 10 to 86400, not '1e3' (publish the boat's position at least this often, in seconds)"),
        BadInput(["daemon", "--gpsd", "nohost"], 1, "Error: --gpsd 'nohost' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947"),
        BadInput(["daemon", "--gpsd", "localhost:0"], 1, "Error: --gpsd 'localhost:0' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947"),
        BadInput(["daemon", "--gpsd", "localhost:99999"], 1, "Error: --gpsd 'localhost:99999' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947"),
        BadInput(["daemon", "--gpsd", ""], 1, "Error: --gpsd '' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947"),
        BadInput(["place", "add", "X", "--position", "1 2", "--radius", "0x10"], 64, "Error: The value '0x10' is invalid for '--radius <radius>': '0x10' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["grade", "add", "NAV101", "M", "--score", "0x10"], 64, "Error: The value '0x10' is invalid for '--score <score>': '0x10' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["anchor", "drop", "--radius", "1e308"], 64, "Error: The value '1e308' is invalid for '--radius <radius>': '1e308' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["beep", "--tone", "alarm", "--seconds", "inf"], 64, "Error: The value 'inf' is invalid for '--seconds <seconds>': 'inf' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["course", "add", "C1", "--name", "x", "--scale", "A=90,B=95"], 1, "Error: the scale 'A=90,B=95' is out of order: B=95 follows A=90; give the letters from the highest percent down, e.g. \"A=90,B=80,C=70,D=60\""),
        BadInput(["course", "add", "C1", "--name", "x", "--scale", "A=90,,B=80"], 1, "Error: cannot read the scale 'A=90,,B=80': use LETTER=PERCENT pairs, e.g. \"A=90,B=80,C=70,D=60\""),
        BadInput(["sights", "--store", "/nonexistent-dir/x.sqlite"], 1, "Error: cannot open store /nonexistent-dir/x.sqlite: there is no store: folder /nonexistent-dir does not exist; check --store or MARKTIME_STORE"),
        BadInput(["mark", "--store", "FOLDER/x.sqlite/"], 1, "Error: cannot open store {dir}/folder/x.sqlite/: a store path cannot end with /; give the file, e.g. --store {dir}/folder/x.sqlite"),
        BadInput(["export", "csv", "--output", "/dev/full"], 1, "Error: cannot write /dev/full: the disk holding /dev is full; free space on it (`df -h /dev` shows it), or choose another disk"),
        BadInput(["sight", "edit", "1", "--hs", "1e308"], 1, "Error: cannot read Hs '1e308': write the altitude as a plain number, not in exponent form; write it as `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`"),
        BadInput(["sights", "--since", "\u{1B}[2J"], 1, "Error: cannot read --since '\\u{1B}[2J': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)"),
        BadInput(["config", "set", "sound.volume", "\u{1B}]0;pwned\u{07}"], 1, "Error: sound.volume cannot hold control characters such as newlines: '\\u{1B}]0;pwned\\u{7}' (beep volume in percent, 0-100)"),
        BadInput(["status", "--config", "FOREIGN"], 1, "Error: cannot read config file {dir}/foreign.db: it is not UTF-8 text; save it as UTF-8 text, or remove it to use the defaults"),
        BadInput(["export", "csv", "--output", "new.csv/"], 1, "Error: cannot write new.csv/: a file name cannot end with /; give a file name, e.g. new.csv"),
        BadInput(["clock", "--svg", "FOLDER/"], 1, "Error: cannot write {dir}/folder/: a file name cannot end with /; give a file name, e.g. {dir}/folder"),
        BadInput(["export", "csv", "--output", "."], 1, "Error: cannot write .: it is a folder; give a file name, e.g. ./sights.csv"),
        BadInput(["export", "tsv"], 64, "Error: Unexpected argument 'tsv'"),
        BadInput(["export", "csv", "--output", "FOLDER"], 1, "Error: cannot write {dir}/folder: it is a folder; give a file name, e.g. {dir}/folder/sights.csv"),
        BadInput(["config", "get", "sound.colour"], 1, "Error: unknown config key 'sound.colour': valid keys are sound.enabled, sound.volume, sound.device, sound.speech, sound.voice, sight.record_position, sight.max_fix_age_s, sight.intercept_limit_nm, sight.unadvanced_limit_min, clock.nmea_uncertainty_s, clock.trust_system, clock.signal_uncertainty_s, clock.max_sample_age_s, clock.rtc, clock.rate_span_s, button.device, button.debounce_ms, button.latency_compensation_ms, button.grab, keypad.device, keypad.grab, memo.device, memo.hold_s, memo.max_s, places.confirm_fixes, places.margin_percent, places.margin_min_m, places.max_fix_age_s, anchor.confirm_fixes, anchor.gps_margin_m, anchor.stale_s, home.zone, plan.alarms, plan.alarm_min, gps.max_speed_kn, gpsd.address, gpsd.silent_s, web.enabled, web.listen, web.tls_cert, web.tls_key, web.hosts, share.enabled, share.broker, share.tls_ca, share.username, share.password_file, share.user, share.device, share.tid, share.interval_s, share.min_move_m"),
        BadInput(["config", "set", "sound.colour", "3"], 1, "Error: unknown config key 'sound.colour': valid keys are sound.enabled, sound.volume, sound.device, sound.speech, sound.voice, sight.record_position, sight.max_fix_age_s, sight.intercept_limit_nm, sight.unadvanced_limit_min, clock.nmea_uncertainty_s, clock.trust_system, clock.signal_uncertainty_s, clock.max_sample_age_s, clock.rtc, clock.rate_span_s, button.device, button.debounce_ms, button.latency_compensation_ms, button.grab, keypad.device, keypad.grab, memo.device, memo.hold_s, memo.max_s, places.confirm_fixes, places.margin_percent, places.margin_min_m, places.max_fix_age_s, anchor.confirm_fixes, anchor.gps_margin_m, anchor.stale_s, home.zone, plan.alarms, plan.alarm_min, gps.max_speed_kn, gpsd.address, gpsd.silent_s, web.enabled, web.listen, web.tls_cert, web.tls_key, web.hosts, share.enabled, share.broker, share.tls_ca, share.username, share.password_file, share.user, share.device, share.tid, share.interval_s, share.min_move_m"),
        BadInput(["config", "set", "sound.volume", "300"], 1, "Error: sound.volume takes a whole number from 0 to 100, not '300' (beep volume in percent, 0-100)"),
        BadInput(["config", "set", "sound.volume", "abc"], 1, "Error: sound.volume takes a whole number from 0 to 100, not 'abc' (beep volume in percent, 0-100)"),
        BadInput(["config", "set", "sound.volume", "-1"], 1, "Error: sound.volume takes a whole number from 0 to 100, not '-1' (beep volume in percent, 0-100)"),
        BadInput(["config", "set", "home.zone", "Mars/Olympus"], 1, "Error: home.zone 'Mars/Olympus' is not a zone of the tz database: give one such as Australia/Brisbane or Europe/London (`marktime people zones` lists them), or leave it empty for the system's (your home time zone, e.g. Australia/Brisbane; empty means the system's)"),
        BadInput(["config", "set", "gpsd.address", "nohost"], 1, "Error: gpsd.address 'nohost' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947 (gpsd HOST:PORT)"),
        BadInput(["config", "set", "gpsd.address", "host:99999"], 1, "Error: gpsd.address 'host:99999' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947 (gpsd HOST:PORT)"),
        BadInput(["config", "set", "button.debounce_ms", "-5"], 1, "Error: button.debounce_ms takes a whole number from 0 to 1000, not '-5' (key-downs this close to the last accepted one are bounces, in ms)"),
        BadInput(["config", "set", "clock.nmea_uncertainty_s", "nan"], 1, "Error: clock.nmea_uncertainty_s takes a number from 0 to 10, not 'nan' (uncertainty bound of gpsd NMEA time, in seconds)"),
        BadInput(["config", "set", "clock.nmea_uncertainty_s", "inf"], 1, "Error: clock.nmea_uncertainty_s takes a number from 0 to 10, not 'inf' (uncertainty bound of gpsd NMEA time, in seconds)"),
        BadInput(["config", "set", "clock.rate_span_s", "60"], 1, "Error: clock.rate_span_s takes a number from 300 to 86400, not '60' (the shortest run of good time, in seconds, that teaches the rate book a clock's rate)"),
        BadInput(["config", "set", "sound.device", ""], 1, "Error: sound.device cannot be empty (ALSA PCM name, e.g. default or plughw:1,0)"),
        BadInput(["config", "set", "sound.enabled", "maybe"], 1, "Error: sound.enabled takes true or false, not 'maybe' (beep after each sight (true/false))"),
        BadInput(["config", "set", "sight.max_fix_age_s", "1e400"], 1, "Error: sight.max_fix_age_s takes a number from 0 to 3600, not '1e400' (oldest GPS fix, in seconds, to store with a sight)"),
        BadInput(["config", "unset", "sound.colour"], 1, "Error: unknown config key 'sound.colour': valid keys are sound.enabled, sound.volume, sound.device, sound.speech, sound.voice, sight.record_position, sight.max_fix_age_s, sight.intercept_limit_nm, sight.unadvanced_limit_min, clock.nmea_uncertainty_s, clock.trust_system, clock.signal_uncertainty_s, clock.max_sample_age_s, clock.rtc, clock.rate_span_s, button.device, button.debounce_ms, button.latency_compensation_ms, button.grab, keypad.device, keypad.grab, memo.device, memo.hold_s, memo.max_s, places.confirm_fixes, places.margin_percent, places.margin_min_m, places.max_fix_age_s, anchor.confirm_fixes, anchor.gps_margin_m, anchor.stale_s, home.zone, plan.alarms, plan.alarm_min, gps.max_speed_kn, gpsd.address, gpsd.silent_s, web.enabled, web.listen, web.tls_cert, web.tls_key, web.hosts, share.enabled, share.broker, share.tls_ca, share.username, share.password_file, share.user, share.device, share.tid, share.interval_s, share.min_move_m"),
        BadInput(["config", "set", "sound.device", "a\u{1B}[2Jb"], 1, "Error: sound.device cannot hold control characters such as newlines: 'a\\u{1B}[2Jb' (ALSA PCM name, e.g. default or plughw:1,0)"),
        BadInput(["config", "list", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'table' and 'json'."),
        BadInput(["beep", "--tone", "nope"], 64, "Error: The value 'nope' is invalid for '--tone <tone>'. Please provide one of 'ok', 'warning', 'failure', 'alarm' or 'chime'."),
        BadInput(["beep", "--seconds", "-1"], 1, "Error: --seconds -1 is out of range: give a number from 0 s to 600 s"),
        BadInput(["beep", "--seconds", "nan"], 64, "Error: The value 'nan' is invalid for '--seconds <seconds>': 'nan' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["place", "add"], 64, "Error: Missing expected argument '<name>'"),
        BadInput(["place", "add", "Q"], 64, "Error: Missing expected argument '--radius <radius>'"),
        BadInput(["place", "add", "Q", "--position", "1,1"], 64, "Error: Missing expected argument '--radius <radius>'"),
        BadInput(["place", "add", "Q", "--position", "1,1", "--radius", "0"], 1, "Error: radius 0 m is not positive: give the place's radius in metres, e.g. --radius 150"),
        BadInput(["place", "add", "Q", "--position", "1,1", "--radius", "-5"], 1, "Error: radius -5 m is not positive: give the place's radius in metres, e.g. --radius 150"),
        BadInput(["place", "add", "Q", "--position", "1,1", "--radius", "1e19"], 64, "Error: The value '1e19' is invalid for '--radius <radius>': '1e19' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["place", "add", "Q", "--position", "1,1", "--radius", "nan"], 64, "Error: The value 'nan' is invalid for '--radius <radius>': 'nan' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["place", "add", "Q", "--position", "1,1", "--radius", "0.3"], 1, "Error: radius 0.3 m is under 1 m: a fix is never that exact; give the place's radius in metres, e.g. --radius 150"),
        BadInput(["place", "add", "Q", "--position", "nowhere", "--radius", "100"], 1, "Error: cannot read position 'nowhere': unexpected 'o'; write it as `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`"),
        BadInput(["place", "add", "Q", "--position", "91 0 N 0 0 E", "--radius", "100"], 1, "Error: latitude 91° is out of range: it must be between 90° S and 90° N"),
        BadInput(["place", "add", "Q", "--position", "0 0 N 181 0 E", "--radius", "100"], 1, "Error: longitude 181° is out of range: it must be between 180° W and 180° E"),
        BadInput(["place", "add", "Q", "--position", "1e5 3", "--radius", "100"], 1, "Error: cannot read position '1e5 3': it needs one of N/S and one of E/W; write it as `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`"),
        BadInput(["place", "add", "Q", "--position", "1,1", "--radius", "100", "--kind", "castle"], 64, "Error: The value 'castle' is invalid for '--kind <kind>'. Please provide one of the following:"),
        BadInput(["place", "add", "Home", "--position", "1,1", "--radius", "100"], 1, "Error: a place named 'Home' already exists; choose another name, or `marktime place remove Home` first"),
        BadInput(["place", "add", "Nav\nHome", "--position", "1,1", "--radius", "100"], 1, "Error: a place's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. Home"),
        BadInput(["place", "add", "Nav\tHome", "--position", "1,1", "--radius", "100"], 1, "Error: a place's name 'Nav\\tHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. Home"),
        BadInput(["place", "add", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "--position", "1,1", "--radius", "100"], 1, "Error: a place's name is 101 characters long: give at most 100, e.g. Home"),
        BadInput(["place", "add", "  ", "--position", "1,1", "--radius", "100"], 1, "Error: a place needs a name, e.g. Home"),
        BadInput(["place", "add", "Q", "--here", "--radius", "100"], 1, "Error: --here needs a GPS fix, and the daemon has published none: is `marktime daemon` running with a receiver? Or give --position"),
        BadInput(["place", "remove", "Nowhere"], 1, "Error: no place named 'Nowhere'; known places: Home"),
        BadInput(["place", "rename", "Nowhere", "X"], 1, "Error: no place named 'Nowhere'; known places: Home"),
        BadInput(["place", "rename", "Home", "Nav\nHome"], 1, "Error: a place's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. Home"),
        BadInput(["place", "rename", "Home", ""], 1, "Error: a place needs a name, e.g. Home"),
        BadInput(["place", "history", "--since", "bad"], 1, "Error: cannot read --since 'bad': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)"),
        BadInput(["place", "history", "--member", "Nobody"], 1, "Error: no member named 'Nobody'; members: Skipper"),
        BadInput(["place", "list", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'table' and 'json'."),
        BadInput(["where", "--member", "Nobody"], 1, "Error: no member named 'Nobody'; members: Skipper"),
        BadInput(["member", "add", ""], 1, "Error: a member needs a name, e.g. Skipper"),
        BadInput(["member", "add", "Nav\nHome"], 1, "Error: a member's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. Skipper"),
        BadInput(["member", "add", "Q", "--color", "purple"], 1, "Error: unknown colour 'purple': use red, green, yellow, blue, magenta, cyan, white"),
        BadInput(["member", "link", "Skipper", "owntracks/anna"], 1, "Error: 'owntracks/anna' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them"),
        BadInput(["member", "link", "Skipper", "owntracks/anna/phone/event"], 1, "Error: 'owntracks/anna/phone/event' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them"),
        BadInput(["member", "link", "Skipper", "owntracks/+/+"], 1, "Error: 'owntracks/+/+' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them"),
        BadInput(["member", "link", "Skipper", "owntracks/anna/ph#"], 1, "Error: 'owntracks/anna/ph#' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them"),
        BadInput(["member", "link", "Skipper", "owntracks/anna/ph\none"], 1, "Error: 'owntracks/anna/ph\\none' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them"),
        BadInput(["member", "link", "Skipper", "owntracks/anna/\u{1B}[2J"], 1, "Error: 'owntracks/anna/\\u{1B}[2J' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them"),
        BadInput(["member", "link", "Skipper", "owntracks/anna/" + String(repeating: "x", count: 10_000)], 1, "Error: 'owntracks/anna/" + String(repeating: "x", count: 57) + "… (10015 characters)' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them"),
        BadInput(["place", "add", "\u{200B}", "--position", "1 2", "--radius", "100"], 1, "Error: a place's name has no visible character (only spaces or invisible marks such as a zero-width space): give a name, e.g. Home"),
        BadInput(["member", "link", "Nobody", "owntracks/anna/phone"], 1, "Error: no member named 'Nobody'; members: Skipper"),
        BadInput(["member", "unlink", "Nobody"], 1, "Error: no member named 'Nobody'; members: Skipper"),
        BadInput(["share", "status", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'", prefix: true),
        BadInput(["config", "set", "share.broker", "mqtt.example.org"], 1, "Error: share.broker 'mqtt.example.org' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947 (the MQTT broker's HOST:PORT)"),
        BadInput(["config", "set", "share.interval_s", "5"], 1, "Error: share.interval_s takes a number from 10 to 86400, not '5' (publish the boat's position at least this often, in seconds)"),
        BadInput(["member", "add", "Skipper"], 1, "Error: a member named 'Skipper' already exists"),
        BadInput(["member", "remove", "Nobody"], 1, "Error: no member named 'Nobody'; members: Skipper"),
        BadInput(["member", "report", "Nobody", "--position", "1,1"], 1, "Error: no member named 'Nobody'; members: Skipper"),
        BadInput(["member", "report", "Skipper", "--position", "nowhere"], 1, "Error: cannot read position 'nowhere': unexpected 'o'; write it as `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`"),
        BadInput(["member", "report", "Skipper", "--position", "1,1", "--time", "bad"], 1, "Error: cannot read --time 'bad': use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z (UTC)"),
        BadInput(["member", "report", "Skipper", "--position", "1,1", "--time", "3000-01-01"], 1, "Error: --time '3000-01-01' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["member", "report", "Skipper", "--position", "1,1", "--error", "-5"], 1, "Error: --error -5 is out of range: give a number from 0 m to 100000 m"),
        BadInput(["member", "report", "Skipper", "--position", "1,1", "--error", "nan"], 64, "Error: The value 'nan' is invalid for '--error <error>': 'nan' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["member", "report", "Skipper"], 64, "Error: Missing expected argument '--position <pos>'"),
        BadInput(["anchor", "drop", "--position", "1,1"], 1, "Error: give --radius M, or --rode M and --depth M (with --bow M if you like)"),
        BadInput(["anchor", "drop", "--position", "1,1", "--radius", "1e300"], 64, "Error: The value '1e300' is invalid for '--radius <radius>': '1e300' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["anchor", "drop", "--position", "1,1", "--radius", "-1"], 1, "Error: a swing radius of -1 m is out of range: the watch takes 1 m to 5000 m"),
        BadInput(["anchor", "drop", "--position", "1,1", "--rode", "30"], 1, "Error: give --radius M, or --rode M and --depth M (with --bow M if you like)"),
        BadInput(["anchor", "drop", "--position", "1,1", "--rode", "5", "--depth", "10"], 1, "Error: rode 5 m does not reach the bottom from 10 m (depth + bow): let out more rode"),
        BadInput(["anchor", "drop", "--position", "1,1", "--rode", "nan", "--depth", "3"], 64, "Error: The value 'nan' is invalid for '--rode <rode>': 'nan' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["anchor", "drop", "--position", "1,1", "--rode", "30", "--depth", "3", "--bow", "-1"], 1, "Error: --bow -1 is out of range: give a number from 0 m to 100 m"),
        BadInput(["anchor", "drop", "--position", "nowhere", "--radius", "50"], 1, "Error: cannot read position 'nowhere': unexpected 'o'; write it as `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`"),
        BadInput(["anchor", "drop", "--position", "1,1", "--radius", "50", "--rode", "30", "--depth", "3"], 1, "Error: give --radius M, or --rode M and --depth M (with --bow M if you like)"),
        BadInput(["anchor", "status", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'table' and 'json'."),
        BadInput(["anchor", "ack"], 1, "Error: no anchor watch is set"),
        BadInput(["anchor", "lift"], 1, "Error: no anchor watch is set"),
        BadInput(["clock", "--svg", "/nonexistent/dir/x.svg"], 1, "Error: cannot write /nonexistent/dir/x.svg: folder /nonexistent/dir does not exist; create it, or choose another file"),
        BadInput(["clock", "signal", "25:00"], 1, "Error: '25:00' is not a time of day: give the tick's UTC minute as HH:MM, or HH:MM:SS (e.g. 14:05)"),
        BadInput(["clock", "signal", "14:05:60"], 1, "Error: '14:05:60' is not a time of day: give the tick's UTC minute as HH:MM, or HH:MM:SS (e.g. 14:05)"),
        BadInput(["clock", "signal", "noon"], 1, "Error: 'noon' is not a time of day: give the tick's UTC minute as HH:MM, or HH:MM:SS (e.g. 14:05)"),
        BadInput(["clock", "signal", "14:05", "--within", "0"], 1, "Error: --within 0: give the seconds to wait for the press, 1 to 3600"),
        BadInput(["clock", "signal", "14:05", "--within", "99999"], 1, "Error: --within 99999: give the seconds to wait for the press, 1 to 3600"),
        BadInput(["clock", "signal", "14:05"], 1, "Error: no daemon is running on {dir}/marktime.sqlite: the time signal is taken from the daemon's button (start it with `marktime daemon`, or `sudo systemctl start marktime`)"),
        BadInput(["people", "at", "25:00"], 1, "Error: cannot read the time '25:00': use HH:MM, 24-hour, e.g. 09:30 or 21:05"),
        BadInput(["people", "at", "10:61"], 1, "Error: cannot read the time '10:61': use HH:MM, 24-hour, e.g. 09:30 or 21:05"),
        BadInput(["people", "at", "noon"], 1, "Error: cannot read the time 'noon': use HH:MM, 24-hour, e.g. 09:30 or 21:05"),
        BadInput(["people", "at", "10:00", "--date", "2026-02-30"], 1, "Error: --date '2026-02-30' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21"),
        BadInput(["people", "at", "10:00", "--date", "9999-01-01"], 1, "Error: --date '9999-01-01' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["people", "--zone", "Mars/Olympus"], 1, "Error: no time zone matches 'Mars/Olympus' (`marktime people zones TEXT` searches the list)"),
        BadInput(["people", "add", "Q", "Atlantis"], 1, "Error: no time zone matches 'Atlantis'; did you mean America/Halifax, Africa/Tunis, Europe/Athens? (`marktime people zones TEXT` searches the list)"),
        BadInput(["people", "add", "Nav\nHome", "London"], 1, "Error: a person's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. Mum"),
        BadInput(["people", "add", "Mum", "London"], 1, "Error: 'Mum' is already in your people; choose another name, or `marktime people remove Mum` first"),
        BadInput(["people", "add", "", "London"], 1, "Error: a person needs a name, e.g. Mum"),
        BadInput(["people", "remove", "Nobody"], 1, "Error: no person named 'Nobody'; your people: Mum"),
        BadInput(["people", "rename", "Nobody", "X"], 1, "Error: no person named 'Nobody'; your people: Mum"),
        BadInput(["people", "rename", "Mum", "Nav\tHome"], 1, "Error: a person's name 'Nav\\tHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. Mum"),
        BadInput(["people", "select", "Nobody"], 1, "Error: no person named 'Nobody'; your people: Mum"),
        BadInput(["people", "deselect", "Nobody"], 1, "Error: no person named 'Nobody'; your people: Mum"),
        BadInput(["task", "add", "Q"], 64, "Error: Missing expected argument '--due <when>'"),
        BadInput(["task", "add", "Q", "--due", "whenever"], 1, "Error: --due: cannot read the time 'whenever': use 2026-11-21T17:00Z (ISO-8601 with Z or +10:00), 2026-11-21 17:00 (home zone), today 17:00, tomorrow 09:00, fri 17:00, +2h, +1h30m, +20s, or 30m-before (reminders only)"),
        BadInput(["task", "add", "Q", "--due", "9999-01-01T10:00Z"], 1, "Error: --due: '9999-01-01T10:00Z' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["task", "add", "Q", "--due", "+2h", "--remind", "+3h"], 1, "Error: the reminder (", prefix: true),
        BadInput(["task", "add", "Q", "--due", "+2h", "--course", "NOPE"], 1, "Error: no course NOPE; courses: NAV101"),
        BadInput(["task", "add", "Nav\nHome", "--due", "+2h"], 1, "Error: a task's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. \"Sun sights\""),
        BadInput(["task", "add", "", "--due", "+2h"], 1, "Error: a task needs a name, e.g. \"Sun sights\""),
        BadInput(["task", "add", "Q", "--due", "+0h"], 1, "Error: --due: cannot read the time '+0h': use 2026-11-21T17:00Z (ISO-8601 with Z or +10:00), 2026-11-21 17:00 (home zone), today 17:00, tomorrow 09:00, fri 17:00, +2h, +1h30m, +20s, or 30m-before (reminders only)"),
        BadInput(["task", "add", "Q", "--due", "+1x"], 1, "Error: --due: cannot read the time '+1x': use 2026-11-21T17:00Z (ISO-8601 with Z or +10:00), 2026-11-21 17:00 (home zone), today 17:00, tomorrow 09:00, fri 17:00, +2h, +1h30m, +20s, or 30m-before (reminders only)"),
        BadInput(["task", "add", "Q", "--due", "30m-before"], 1, "Error: --due: '30m-before' counts back from the due time, so it only works for --remind"),
        BadInput(["task", "done", "999"], 1, "Error: no task with id 999: `marktime task list --all` lists them"),
        BadInput(["task", "done", "abc"], 64, "Error: The value 'abc' is invalid for '<id>'"),
        BadInput(["task", "undo", "999"], 1, "Error: no task with id 999: `marktime task list --all` lists them"),
        BadInput(["task", "remove", "999"], 1, "Error: no task with id 999: `marktime task list --all` lists them"),
        BadInput(["task", "edit", "999", "--title", "X"], 1, "Error: no task with id 999: `marktime task list --all` lists them"),
        BadInput(["task", "edit", "1", "--due", "whenever"], 1, "Error: --due: cannot read the time 'whenever': use 2026-11-21T17:00Z (ISO-8601 with Z or +10:00), 2026-11-21 17:00 (home zone), today 17:00, tomorrow 09:00, fri 17:00, +2h, +1h30m, +20s, or 30m-before (reminders only)"),
        BadInput(["task", "edit", "1", "--title", "Nav\tHome"], 1, "Error: a task's name 'Nav\\tHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. \"Sun sights\""),
        BadInput(["task", "list", "--format", "xml"], 64, "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'table' and 'json'."),
        BadInput(["course", "add", "NAV 1", "--name", "X"], 1, "Error: a course code is one word of at most 20 characters, e.g. NAV101"),
        BadInput(["course", "add", "NAV101", "--name", "Again"], 1, "Error: course NAV101 already exists; `marktime course remove NAV101` first to replace it"),
        BadInput(["course", "add", "NAV2", "--name", ""], 1, "Error: a course needs a name, e.g. --name \"Celestial Navigation\""),
        BadInput(["course", "add", "NAV2", "--name", "Nav\nHome"], 1, "Error: a course's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. --name \"Celestial Navigation\""),
        BadInput(["course", "add", "NAV2", "--name", "X", "--scale", "bad"], 1, "Error: cannot read the scale 'bad': use LETTER=PERCENT pairs, e.g. \"A=90,B=80,C=70,D=60\""),
        BadInput(["course", "add", "NAV2", "--name", "X", "--scale", "A=200"], 1, "Error: cannot read the scale 'A=200': use LETTER=PERCENT pairs, e.g. \"A=90,B=80,C=70,D=60\""),
        BadInput(["course", "add", "NAV2", "--name", "X", "--scale", "A=90,A=80"], 1, "Error: the scale 'A=90,A=80' gives A twice"),
        BadInput(["course", "weight", "NOPE", "Exams", "10"], 1, "Error: no course NOPE; courses: NAV101"),
        BadInput(["course", "weight", "NAV101", "Labs", "-5"], 1, "Error: a weight is a percent from 0 to 100, not -5"),
        BadInput(["course", "weight", "NAV101", "Labs", "200"], 1, "Error: a weight is a percent from 0 to 100, not 200"),
        BadInput(["course", "weight", "NAV101", "Labs", "nan"], 1, "Error: a weight is a percent from 0 to 100, not 'nan'"),
        BadInput(["course", "weight", "NAV101", "Labs", "50"], 1, "Error: the weights of NAV101 would total 110%, over 100: they total 60% now (Exams 60)"),
        BadInput(["course", "show", "NOPE"], 1, "Error: no course NOPE; courses: NAV101"),
        BadInput(["course", "need", "NAV101", "Z"], 1, "Error: 'Z' is neither a letter of NAV101's scale (A=90,B=80,C=70,D=60) nor a percent from 0 to 100"),
        BadInput(["course", "need", "NAV101", "150"], 1, "Error: '150' is neither a letter of NAV101's scale (A=90,B=80,C=70,D=60) nor a percent from 0 to 100"),
        BadInput(["course", "need", "NOPE", "A"], 1, "Error: no course NOPE; courses: NAV101"),
        BadInput(["course", "remove", "NOPE"], 1, "Error: no course NOPE; courses: NAV101"),
        BadInput(["grade", "add", "NOPE", "T", "--type", "Exams"], 1, "Error: no course NOPE; courses: NAV101"),
        BadInput(["grade", "add", "NAV101", "T", "--type", "Labs"], 1, "Error: NAV101 has no assignment type 'Labs': its types are Exams"),
        BadInput(["grade", "add", "NAV101", "T", "--type", "Exams", "--score", "-1"], 1, "Error: score -1 is outside 0…100 (--out-of 100)"),
        BadInput(["grade", "add", "NAV101", "T", "--type", "Exams", "--score", "101"], 1, "Error: score 101 is outside 0…100 (--out-of 100)"),
        BadInput(["grade", "add", "NAV101", "T", "--type", "Exams", "--out-of", "0"], 1, "Error: --out-of must be more than 0, not 0"),
        BadInput(["grade", "add", "NAV101", "T", "--type", "Exams", "--out-of", "nan"], 64, "Error: The value 'nan' is invalid for '--out-of <out-of>': 'nan' is not a decimal number: write it like 150, 2.5 or -1.5"),
        BadInput(["grade", "add", "NAV101", "Nav\nHome", "--type", "Exams"], 1, "Error: an assignment's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. \"Sun run fix\""),
        BadInput(["grade", "add", "NAV101", "T", "--type", "Exams", "--due", "whenever"], 1, "Error: --due: cannot read the time 'whenever': use 2026-11-21T17:00Z (ISO-8601 with Z or +10:00), 2026-11-21 17:00 (home zone), today 17:00, tomorrow 09:00, fri 17:00, +2h, +1h30m, +20s, or 30m-before (reminders only)"),
        BadInput(["grade", "add", "NAV101", "T", "--type", "Exams", "--weight", "500"], 1, "Error: explicit weights of Exams would total 500%, over the type's 60%"),
        BadInput(["grade", "edit", "999", "--score", "5"], 1, "Error: no assignment with id 999: `marktime course show CODE` lists them"),
        BadInput(["grade", "remove", "999"], 1, "Error: no assignment with id 999: `marktime course show CODE` lists them"),
        BadInput(["day", "2026-02-30"], 1, "Error: the day '2026-02-30' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21"),
        BadInput(["day", "9999-01-01"], 1, "Error: the day '9999-01-01' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["day", "show", "abc"], 1, "Error: the day 'abc' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21"),
        BadInput(["day", "note", "X", "--date", "bad"], 1, "Error: --date 'bad' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21"),
        BadInput(["day", "note", "X", "--time", "25:00"], 1, "Error: --time '25:00' is not a time of day: use HH:MM, 24-hour"),
        BadInput(["day", "note", "X", "--date", "1500-01-01"], 1, "Error: --date '1500-01-01' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["day", "checkin", "--position", "nowhere"], 1, "Error: cannot read position 'nowhere': unexpected 'o'; write it as `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`"),
        BadInput(["day", "checkin", "--position", "1,1", "--name", "Nav\nHome"], 1, "Error: a check-in's name 'Nav\\nHome' has a control character (a newline, tab or escape): give one line of plain text, e.g. --name \"Fuel dock\""),
        BadInput(["day", "photo", "add", "/nonexistent.jpg"], 1, "Error: cannot read /nonexistent.jpg: there is no such file; check the path"),
        BadInput(["day", "photo", "add", "FOLDER"], 1, "Error: {dir}/folder is not a regular file: give a JPEG or PNG photo's file"),
        BadInput(["day", "photo", "add", "/dev/zero"], 1, "Error: /dev/zero is not a regular file: give a JPEG or PNG photo's file"),
        BadInput(["day", "photo", "add", "TEXTFILE"], 1, "Error: {dir}/text.txt is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added"),
        BadInput(["day", "photo", "remove", "999"], 1, "Error: no photo with id 999: `marktime day DATE` lists the day's entries with their ids"),
        BadInput(["day", "remove", "moment", "999"], 1, "Error: no moment with id 999: `marktime day DATE` lists the day's entries with their ids"),
        BadInput(["day", "remove", "sight", "1"], 64, "Error: The value 'sight' is invalid for '<kind>'. Please provide one of 'moment' and 'checkin'."),
        BadInput(["day", "export", "bad"], 1, "Error: the day 'bad' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21"),
        BadInput(["day", "export", "2026-11-22", "-o", "/nonexistent/dir/x.md"], 1, "Error: cannot write /nonexistent/dir/x.md: folder /nonexistent/dir does not exist; create it, or choose another file"),
        BadInput(["cal", "2026-13"], 1, "Error: '2026-13' is not a month: use YYYY-MM, e.g. 2026-11"),
        BadInput(["cal", "9999-01"], 1, "Error: the month '9999-01' is out of range: marktime keeps times from the year 1678 to 2261 (UTC)"),
        BadInput(["cal", "abc"], 1, "Error: 'abc' is not a month: use YYYY-MM, e.g. 2026-11"),
        BadInput(["sights", "--store", ""], 1, "Error: cannot open store '': the store path is empty; give a file with --store PATH, or unset MARKTIME_STORE"),
        BadInput(["mark", "--store", ""], 1, "Error: cannot open store '': the store path is empty; give a file with --store PATH, or unset MARKTIME_STORE"),
        BadInput(["sights", "--store", "FOLDER"], 1, "Error: cannot open store {dir}/folder: it is a folder; give the store file inside it, e.g. --store {dir}/folder/marktime.sqlite"),
        BadInput(["mark", "--store", "FOLDER"], 1, "Error: cannot open store {dir}/folder: it is a folder; give the store file inside it, e.g. --store {dir}/folder/marktime.sqlite"),
        BadInput(["sights", "--store", "TEXTFILE"], 1, "Error: store {dir}/text.txt is not a readable marktime store (it does not start with the SQLite header); move it aside and restore a backup, or choose another with --store"),
        BadInput(["mark", "--store", "TEXTFILE"], 1, "Error: store {dir}/text.txt is not a readable marktime store (it does not start with the SQLite header); move it aside and restore a backup, or choose another with --store"),
        BadInput(["sights", "--store", "FOREIGN"], 1, "Error: {dir}/foreign.db is another program's SQLite database (tables: foo), not a marktime store; marktime leaves it as it is: choose another file with --store"),
        BadInput(["mark", "--store", "FOREIGN"], 1, "Error: {dir}/foreign.db is another program's SQLite database (tables: foo), not a marktime store; marktime leaves it as it is: choose another file with --store"),
        BadInput(["place", "list", "--store", "FOREIGN"], 1, "Error: {dir}/foreign.db is another program's SQLite database (tables: foo), not a marktime store; marktime leaves it as it is: choose another file with --store"),
        BadInput(["task", "list", "--store", "FOREIGN"], 1, "Error: {dir}/foreign.db is another program's SQLite database (tables: foo), not a marktime store; marktime leaves it as it is: choose another file with --store"),
        BadInput(["reduce", "1", "1", "1"], 1, "Error: sight 1 is given 3 times: a sight counts once in a reduction, an average or a fix; give each ID once"),
        BadInput(["average", "1", "1"], 1, "Error: sight 1 is given twice: a sight counts once in a reduction, an average or a fix; give each ID once"),
        BadInput(["fix", "1", "1"], 1, "Error: sight 1 is given twice: a sight counts once in a reduction, an average or a fix; give each ID once"),
        BadInput(["plot", "1", "1"], 1, "Error: sight 1 is given twice: a sight counts once in a reduction, an average or a fix; give each ID once"),
        BadInput(["noon", "1", "1"], 1, "Error: sight 1 is given twice: a sight counts once in a reduction, an average or a fix; give each ID once"),
        BadInput(["reduce", "1", "--tables", "pub249"], 64, "Error: --tables chooses the tables for --assumed: give both, e.g. `marktime reduce ID --assumed --tables pub249`"),
        BadInput(["polaris", "--ho", "20", "--at", "2026-02-01T03:00:00Z", "--position", "27 S 153 E"], 1, "Error: Polaris is below the horizon at 27° 00'.00 S  153° 00'.00 E (Hc -26° 51'.6): it is seen only north of about 0° 38' S; check the DR (the position given, or the sight's)"),
        BadInput(["polaris", "1", "--ho", "50"], 64, "Error: give a sight of Polaris (`marktime polaris 1`) or --ho with --at, not both: a sight carries its own Ho and time"),
        BadInput(["polaris", "--ho", "91", "--at", "2026-02-01T03:00:00Z", "--position", "50 N 4 W"], 1, "Error: --ho 91° 00'.0 is above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give one such as \"40 12.5\""),
        BadInput(["polaris", "--ho", "50", "--zn", "400", "--at", "2026-02-01T03:00:00Z", "--position", "50 N 4 W"], 64, "Error: --zn must be 0 to 359.9 degrees, not 400"),
        BadInput(["identify", "--altitude", "91", "--zn", "100", "--position", "40 N 70 W"], 1, "Error: --altitude 91° 00'.0 is above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give one such as \"40 12.5\""),
        BadInput(["sky", "--twilight", "evening", "--at", "2060-12-31T20:00:00Z", "--position", "0 0"], 1, "Error: the next 36 hours from 2060-12-31T20:00:00.000Z run past the almanac's end (2060-12-31), so the next civil twilight cannot be found: give --at at least 36 hours before it"),
        BadInput(["config", "set", "share.tid", "ABC"], 1, "Error: share.tid 'ABC' is not two characters: OwnTracks shows a tracker id of two on its map, e.g. MT (OwnTracks tracker id: two characters shown on friends' maps)"),
        BadInput(["config", "set", "sound.volume", String(repeating: "7", count: 10_000)], 1, "Error: sound.volume takes a whole number from 0 to 100, not '" + String(repeating: "7", count: 72) + "… (10000 characters)' (beep volume in percent, 0-100)"),
        BadInput(["export", "csv", "--output", ""], 1, "Error: the output file's name is empty: give a file, e.g. sights.csv, or - for standard output"),
        BadInput(["export", "csv", "--output", "FIFOFILE"], 1, "Error: cannot write {dir}/fifo: it is a FIFO (named pipe) that no program read within 5 s; start its reader first, or choose a file"),
        BadInput(["sights", "--store", "LOOPLINK"], 1, "Error: cannot open store {dir}/loop: its symbolic links go round in a loop; point the link at the store file, or give another with --store"),
        BadInput(["mark", "--store", "LOOPLINK"], 1, "Error: cannot open store {dir}/loop: its symbolic links go round in a loop; point the link at the store file, or give another with --store"),
        BadInput(["status", "--store", "FIFOFILE"], 1, "Error: cannot open store {dir}/fifo: it is a FIFO (named pipe), not a file: a store is a regular file; give one with --store, e.g. --store marktime.sqlite"),
        BadInput(["mark", "--store", "FIFOFILE"], 1, "Error: cannot open store {dir}/fifo: it is a FIFO (named pipe), not a file: a store is a regular file; give one with --store, e.g. --store marktime.sqlite"),
        BadInput(["status", "--config", "LOOPLINK"], 1, "Error: config file {dir}/loop: its symbolic links go round in a loop; point the link at a file, or remove it to use the defaults"),
        BadInput(["web", "--listen", "nohost.invalid:8080"], 1, "Error: cannot listen on 'nohost.invalid:8080' (--listen): nohost.invalid is no address or name this machine can find (", prefix: true),
        BadInput(["average", "--limit", "-1"], 64, "Error: --limit must be 0.1 to 60 arc-minutes, not -1.0"),
        BadInput(["identify", "--altitude", "40", "--zn", "100", "--radius", "-5", "--position", "40 N 70 W"], 64, "Error: --radius must be 0.1 to 90 degrees, not -5.0"),
        BadInput(["identify", "--altitude", "-5", "--zn", "100", "--position", "40 N 70 W"], 1, "Error: --altitude -5 is below the horizon: an altitude is from 0° on the horizon to 90° at the zenith; give one such as \"40 12.5\""),
        BadInput(["polaris", "--ho", "-0 30", "--at", "2026-02-01T03:00:00Z", "--position", "50 N 4 W"], 1, "Error: --ho -0 30 is below the horizon: an altitude is from 0° on the horizon to 90° at the zenith; give one such as \"40 12.5\""),
        BadInput(["export", "csv", "--output", "/proc/version"], 1, "Error: cannot write /proc/version: folder /proc takes no new files (a system folder such as /proc or /sys); choose a file in another folder"),
        // Negative numbers and missing options: the cause and the fix, not a value taken for an option (issue 57)
        BadInput(["sky", "--lon", "-12.5", "--at", "2026-11-22T12:00:00Z"], 64, "Error: there is no --lon: give the position as one value, e.g. --position \"50 10.5 N 004 20.0 W\", or in signed decimal degrees --position \"50.175 -4.333\" (south and west negative)"),
        BadInput(["noon", "--lat", "50", "--lon", "-4"], 64, "Error: there is no --lat: give the position as one value, e.g. --position \"50 10.5 N 004 20.0 W\", or in signed decimal degrees --position \"50.175 -4.333\" (south and west negative)"),
        BadInput(["sky", "--position", "-50", "-12.5", "--at", "2026-11-22T12:00:00Z"], 64, "Error: Unknown option '-12.5': '-12.5' was read as an option; a value with a space is one argument: quote it, e.g. --position \"-50 -12.5\""),
        BadInput(["almanac", "Sun", "--position", "50", "N", "-4.5"], 64, "Error: Unknown option '-4.5': '-4.5' was read as an option; a value with a space is one argument: quote it, e.g. --position \"50 N -4.5\""),
        BadInput(["sight", "edit", "1", "--hs", "-0", "30"], 64, "Error: Unexpected argument '30': a value with a space is one argument: quote it, e.g. --hs \"-0 30\""),
        BadInput(["task", "add", "X", "--due", "-2h"], 64, "Error: Missing value for '--due <when>': '-2h' was read as an option; give a value that starts with - after =, e.g. --due=-2h"),
        BadInput(["mark", "--ie", "-2"], 64, "Error: Unknown option '--ie'. Did you mean '--note'?"),
        BadInput(["polaris", "--ho", "abc", "--at", "2026-02-01T03:00:00Z", "--position", "50 N 4 W"], 1, "Error: cannot read --ho 'abc': unexpected 'a'; write it as `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`"),
        BadInput(["identify", "--altitude", "4O", "--zn", "100", "--position", "40 N 70 W"], 1, "Error: cannot read --altitude '4O': unexpected 'O'; write it as `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`"),
        // Names longer than a file may have: said so, with the limits, and the name cut
        BadInput(["export", "csv", "--output", "/tmp/" + String(repeating: "x", count: 300)], 1, "Error: cannot write " + "/tmp/" + String(repeating: "x", count: 67) + "… (305 characters)" + ": its name is too long (a file's name may have at most 255 bytes, and its path 4095); give a shorter one"),
        BadInput(["sights", "--store", "/tmp/" + String(repeating: "x", count: 300)], 1, "Error: cannot open store " + "/tmp/" + String(repeating: "x", count: 67) + "… (305 characters)" + ": its name is too long: SQLite keeps a -wal and a -shm file beside it, so a store's name may have at most 251 bytes; give a shorter one with --store"),
        BadInput(["mark", "--store", "/tmp/" + String(repeating: "s", count: 253)], 1, "Error: cannot open store /tmp/" + String(repeating: "s", count: 67) + "… (258 characters): its name is too long: SQLite keeps a -wal and a -shm file beside it, so a store's name may have at most 251 bytes; give a shorter one with --store"),
        BadInput(["status", "--config", "/tmp/" + String(repeating: "x", count: 300)], 1, "Error: config file " + "/tmp/" + String(repeating: "x", count: 67) + "… (305 characters)" + ": its name is too long (a file's name may have at most 255 bytes, and its path 4095); give a shorter one with --config"),
        BadInput(["day", "photo", "add", "/tmp/" + String(repeating: "x", count: 300)], 1, "Error: cannot read " + "/tmp/" + String(repeating: "x", count: 67) + "… (305 characters)" + ": its name is too long (a file's name may have at most 255 bytes, and its path 4095); check the path"),
        // A listening address that is not this machine's: the setting named, with its fix
        BadInput(["web", "--listen", "198.51.100.1:8080"], 1, "Error: cannot listen on 198.51.100.1:8080 (--listen): 198.51.100.1 is not an address of this machine; give 0.0.0.0 for every network, or one that `ip -brief address` lists, e.g. --listen 0.0.0.0:8080"),
        BadInput(["web", "--config", "LISTENCONF"], 1, "Error: cannot listen on 198.51.100.1:8080 (web.listen in {dir}/listen.toml): 198.51.100.1 is not an address of this machine; give 0.0.0.0 for every network, or one that `ip -brief address` lists, e.g. `marktime config set web.listen 0.0.0.0:8080`"),
        BadInput(["mark", "--store", "/nonexistent/dir/s.sqlite"], 1, "Error: cannot open store /nonexistent/dir/s.sqlite: folder /nonexistent/dir does not exist; create it, or choose another store with --store"),
    ]
}
