import Foundation
import MarkTimeConfig
import MarkTimeCore
import Testing

@Suite("The config file")
struct ConfigFileTests {
    let folder = NSTemporaryDirectory() + "marktime-config-" + UUID().uuidString
    var path: String { folder + "/sub/config.toml" }

    @Test func theTemplateHasEveryKeyCommentedOutAtItsDefault() throws {
        // Given the template, as the package installs it
        let template = ConfigFile.template
        // When it is read as it is, and with every key line uncommented
        let asShipped = try ConfigFile.settings(toml: template, path: "config.toml")
        let uncommented = template.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("# ") && line.contains(" = ") ? String(line.dropFirst(2)) : String(line)
        }.joined(separator: "\n")
        let all = try ConfigFile.settings(toml: uncommented, path: "config.toml")
        // Then the first sets nothing, and the second sets every key to its default
        #expect(asShipped == Settings())
        #expect(all.values.count == Settings.keys.count)
        #expect(Settings.keys.allSatisfy { all.values[$0.name] == $0.defaultValue })
    }

    @Test func aMissingFileGivesTheDefaults() throws {
        #expect(try ConfigFile(path: path).load() == Settings())
    }

    @Test func setWritesTOMLThatLoadsBack() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Given two keys set, in two tables
        let file = ConfigFile(path: path)
        try file.set("sound.volume", to: .int(80))
        try file.set("button.grab", to: .bool(false))
        try file.set("clock.nmea_uncertainty_s", to: .double(0.25))
        // When it is loaded again
        let s = try file.load()
        // Then exactly those are set and the rest are defaults
        #expect(s.values == ["sound.volume": .int(80), "button.grab": .bool(false), "clock.nmea_uncertainty_s": .double(0.25)])
        #expect(try s.sound.volume == 80)
        #expect(try !s.button.grab)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("[sound]\nvolume = 80"))
    }

    @Test func unsetReturnsToTheDefault() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = ConfigFile(path: path)
        try file.set("sound.volume", to: .int(80))
        try file.set("sound.volume", to: nil)
        #expect(try file.load().sound.volume == 100)
    }

    @Test func invalidTOMLNamesTheFile() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try "[sound\nvolume = ".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try ConfigFile(path: path).load() }
        do { _ = try ConfigFile(path: path).load() } catch {
            #expect(error.description.hasPrefix("config file \(path) is not valid TOML"))
        }
    }

    @Test("A key nested 10,000 deep is refused by its line, before any parser nests a table for it")
    func aDeeplyNestedKeyIsRefused() throws {
        // Given a 20 KB file holding one key of 10,000 dotted parts
        let text = Array(repeating: "a", count: 10_000).joined(separator: ".") + " = 1\n"
        // When it is read
        // Then it is refused, naming the line and what a key is
        #expect(throws: ConfigError("config file c.toml is not valid TOML for marktime, line 1: a key of more than 4 dotted parts is not a marktime key "
            + "(they are section.name); a marktime config holds only [section] lines and key = value lines (true, false, a number or a \"string\"): "
            + "fix it or remove it to use the defaults")) {
            try ConfigFile.settings(toml: text, path: "c.toml")
        }
        #expect(throws: ConfigError.self) { try ConfigFile.settings(toml: "[" + text.dropLast(5) + "]\n", path: "c.toml") }
    }

    @Test("A config file larger than 64 KiB is refused before it is read")
    func anOversizedFileIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        // Given a file of 70,000 bytes of comments
        try String(repeating: "# x\n", count: 17_500).write(toFile: path, atomically: true, encoding: .utf8)
        // Then loading it names its size and the limit
        #expect(throws: ConfigError("config file \(path) is 70000 bytes, more than a marktime config's 65536: "
            + "`marktime config list` shows what it needs; remove the file to use the defaults")) { try ConfigFile(path: path).load() }
    }

    @Test("A FIFO given as the config file is refused, not read")
    func aFIFOIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: ConfigError("config file \(path) is not a regular file; give a file with --config, or remove it to use the defaults")) {
            try ConfigFile(path: path).load()
        }
    }

    @Test func aValueOfTheWrongTypeIsRefusedWhenItsKeyIsRead() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        // Given a file with a wrong debounce and a good volume
        try "[button]\ndebounce_ms = \"fast\"\n[sound]\nvolume = 40\n".write(toFile: path, atomically: true, encoding: .utf8)
        // When it is loaded
        let settings = try ConfigFile(path: path).load()
        // Then the good key reads, and the wrong one throws a sentence naming the file and the key
        #expect(try settings.sound.volume == 40)
        #expect(throws: InputError("config file \(path): button.debounce_ms has the wrong type in the config file: key-downs this close to the last accepted one are bounces, in ms; fix it with `marktime config set button.debounce_ms VALUE`, or `marktime config unset button.debounce_ms` for the default")) {
            try settings.button.debounceMilliseconds
        }
    }

    @Test func settingAnotherKeyKeepsAWrongValueForItsOwner() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        // Given a file with a wrong volume
        try "[sound]\nvolume = 300\n".write(toFile: path, atomically: true, encoding: .utf8)
        // When another key is set
        try ConfigFile(path: path).set("button.grab", text: "false", zoneExists: { _ in true })
        // Then the wrong volume is still in the file for its owner to fix, and the new key is set
        let settings = try ConfigFile(path: path).load()
        #expect(settings.problems.keys.sorted() == ["sound.volume"])
        #expect(try settings.button.grab == false)
    }

    @Test func aZoneTheDatabaseDoesNotKnowIsRefusedWhenSet() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // When home.zone is set to a zone that does not exist
        #expect(throws: ConfigError("home.zone 'Mars/Olympus' is not a zone of the tz database: give one such as Australia/Brisbane or Europe/London (`marktime people zones` lists them), or leave it empty for the system's (your home time zone, e.g. Australia/Brisbane; empty means the system's)")) {
            try ConfigFile(path: path).set("home.zone", text: "Mars/Olympus", zoneExists: { $0 == "Europe/London" })
        }
        // Then nothing was written
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anUnknownKeyInTheFileIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try "[sound]\ncolour = 3\n".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try ConfigFile(path: path).load()
            Issue.record("an unknown key loaded")
        } catch {
            #expect(error.description == "config file \(path): unknown config key 'sound.colour': valid keys are \(Settings.keyList)")
        }
    }

    @Test func resolutionOrder() {
        let env = ["HOME": "/home/pi", "XDG_CONFIG_HOME": "/cfg", "MARKTIME_CONFIG": "/env.toml"]
        #expect(ConfigFile.resolve(explicit: "/o.toml", environment: env, exists: { _ in true }).path == "/o.toml")
        #expect(ConfigFile.resolve(explicit: nil, environment: env, exists: { _ in true }).path == "/env.toml")
        #expect(ConfigFile.resolve(explicit: nil, environment: ["HOME": "/home/pi"], exists: { _ in true }).path == "/etc/marktime/config.toml")
        #expect(ConfigFile.resolve(explicit: nil, environment: ["HOME": "/home/pi", "XDG_CONFIG_HOME": "/cfg"], exists: { _ in false }).path == "/cfg/marktime/config.toml")
        #expect(ConfigFile.resolve(explicit: nil, environment: ["HOME": "/home/pi"], exists: { _ in false }).path == "/home/pi/.config/marktime/config.toml")
    }
}

@Suite("Config files found by fuzzing")
struct ConfigFuzzRegressionTests {
    static let tail = "; a marktime config holds only [section] lines and key = value lines (true, false, a number or a \"string\"): fix it or remove it to use the defaults"

    /// Each input made toml++ assert and abort the process (Tests/fuzz/run, target config).
    @Test(arguments: [
        ("[é]\n", 1, "a key is letters, digits, _ and -, or quoted"),
        ("[!]\n", 1, "a key is letters, digits, _ and -, or quoted"),
        ("[[é]]\n", 1, "arrays of tables ([[…]]) are not part of a marktime config"),
        ("\u{FEFF}[\u{1}", 1, "it has a control character (\\u{1})"),
        ("[\u{B}]", 1, "it has a control character (\\u{B})"),
        ("[\n\u{57E}st\"\n", 1, "a key is letters, digits, _ and -, or quoted"),
        ("[\ne", 1, "a key is letters, digits, _ and -, or quoted"),
        ("[d]\ne=0\nc=\"\"\n[\n", 4, "a key is letters, digits, _ and -, or quoted"),
        ("s=[}", 1, "a value is true, false, a number or a \"string\""),
    ])
    func aLineOutsideTheConfigSubsetIsRefusedNotAborted(_ text: String, _ line: Int, _ problem: String) {
        // Given a file that aborted marktime
        // When it is read, then it is one error naming the line and the problem
        #expect(throws: ConfigError("config file c.toml is not valid TOML for marktime, line \(line): \(problem)" + Self.tail)) {
            try ConfigFile.settings(toml: text, path: "c.toml")
        }
    }

    @Test func everyFormMarktimeWritesStillReads() throws {
        // Given quoted and bare names, comments, a BOM, CRLF, literal and escaped strings
        let text = "\u{FEFF}# comment\r\n[\"sound\"]\r\nvolume = 40 # loud\r\ndevice = 'plughw:1,0'\n[ button ]\ngrab = false\n"
            + "[home]\nzone = \"Europe/London\"\n[clock]\nnmea_uncertainty_s = 0.5\n"
        // When it is read, then every value arrives
        let settings = try ConfigFile.settings(toml: text, path: "c.toml")
        #expect(try settings.sound.volume == 40)
        #expect(try settings.sound.device == "plughw:1,0")
        #expect(try settings.button.grab == false)
        #expect(try settings.homeZone == "Europe/London")
        #expect(try settings.clock.nmeaUncertainty == 0.5)
    }

    @Test func whatConfigSetWritesReadsBack() throws {
        // Given a file written by `config set` for every kind of value
        let folder = NSTemporaryDirectory() + "marktime-config-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = ConfigFile(path: folder + "/config.toml")
        for (key, text) in [("sound.device", "plughw:1,0"), ("sound.volume", "40"), ("button.grab", "false"), ("clock.nmea_uncertainty_s", "0.25")] {
            try file.set(key, text: text, zoneExists: { _ in true })
        }
        // When it is loaded, then it passes the subset check and holds the values
        let settings = try file.load()
        #expect(settings.problems.isEmpty)
        #expect(try settings.sound.device == "plughw:1,0")
        #expect(try settings.clock.nmeaUncertainty == 0.25)
    }
}
