import Foundation
import MarkTimeConfig
import MarkTimeCore
import Testing

@Suite("The config file")
struct ConfigFileTests {
    let folder = NSTemporaryDirectory() + "marktime-config-" + UUID().uuidString
    var path: String { folder + "/sub/config.toml" }

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
        #expect(try s.soundVolume == 80)
        #expect(try !s.buttonGrab)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("[sound]\nvolume = 80"))
    }

    @Test func unsetReturnsToTheDefault() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = ConfigFile(path: path)
        try file.set("sound.volume", to: .int(80))
        try file.set("sound.volume", to: nil)
        #expect(try file.load().soundVolume == 100)
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

    @Test func aValueOfTheWrongTypeIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try "[button]\ndebounce_ms = \"fast\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try ConfigFile(path: path).load()
            Issue.record("a bad value loaded")
        } catch {
            #expect(error.description == "config file \(path): button.debounce_ms has the wrong type in the config file: key-downs this close to the last accepted one are bounces, in ms")
        }
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
