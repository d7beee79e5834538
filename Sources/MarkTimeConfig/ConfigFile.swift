import Foundation
import MarkTimeCore
import MarkTimeSystem
import TOMLKit

/// The TOML config file: where it lives, reading it, and changing one key without losing the rest.
public struct ConfigFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The largest config file read, in bytes: every key with a comment fits in a few.
    public static let maximumSize = 64 * 1024

    /// `--config PATH`, then `$MARKTIME_CONFIG`, then `/etc/marktime/config.toml`
    /// if it exists, then `$XDG_CONFIG_HOME/marktime/config.toml` (default `~/.config`).
    public static func resolve(explicit: String?, environment: [String: String],
                               exists: (String) -> Bool = FileManager.default.fileExists(atPath:)) -> ConfigFile {
        if let explicit, !explicit.isEmpty { return ConfigFile(path: explicit) }
        if let env = environment["MARKTIME_CONFIG"], !env.isEmpty { return ConfigFile(path: env) }
        let system = "/etc/marktime/config.toml"
        if exists(system) { return ConfigFile(path: system) }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return ConfigFile(path: base + "/marktime/config.toml")
    }

    /// The settings in the file; defaults when it does not exist. A key with a wrong value
    /// is kept as a problem that names the file and the key, so that only the commands
    /// reading that key fail; an unknown key (a typo) fails every command. `zoneExists`
    /// says whether the tz database knows a zone name.
    public func load(zoneExists: (String) -> Bool = { _ in true }) throws(ConfigError) -> Settings {
        // Checked before it is read: a FIFO would block, a huge file would fill memory. A
        // symbolic link is followed to its file (/etc/marktime/config.toml kept elsewhere).
        let size: Int
        switch FileKind(path) {
        // No file (or a link to none yet): the defaults, as `config set` will make it.
        case .missing: return Settings()
        case .regular(let bytes): size = Int(bytes)
        case .loop:
            throw ConfigError("config file \(path): its symbolic links go round in a loop; point the link at a file, or remove it to use the defaults")
        case .nameTooLong:
            throw ConfigError("config file \(path): its name is too long (\(FileKind.nameLimits)); give a shorter one with --config")
        case .unknown(let reason):
            throw ConfigError("cannot read config file \(path): \(reason); let this user read it, or give another with --config")
        case .folder, .fifo, .socket, .device:
            throw ConfigError("config file \(path) is not a regular file; give a file with --config, or remove it to use the defaults")
        }
        if size > Self.maximumSize {
            throw ConfigError("config file \(path) is \(size) bytes, more than a marktime config's \(Self.maximumSize): "
                + "`marktime config list` shows what it needs; remove the file to use the defaults")
        }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            let reason = Files.reason(error)
            throw ConfigError("cannot read config file \(path): \(reason); "
                + (reason == "permission denied" ? "let this user read it, or give another with --config" : "save it as UTF-8 text, or remove it to use the defaults"))
        }
        return try Self.settings(toml: text, path: path, zoneExists: zoneExists)
    }

    /// The settings a config file's text holds; `path` names it in errors.
    public static func settings(toml text: String, path: String, zoneExists: (String) -> Bool = { _ in true }) throws(ConfigError) -> Settings {
        try checkSubset(text, path: path)
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch {
            throw ConfigError("config file \(path) is not valid TOML: \(error); fix it or remove it to use the defaults")
        }
        var settings = Settings()
        for (name, value) in flatten(table, prefix: "") {
            let key: ConfigKey
            do { key = try Settings.key(named: name) } catch { throw ConfigError("config file \(path): \(error)") }
            do {
                settings.set(name, try key.validate(value, zoneExists: zoneExists))
            } catch {
                settings.setProblem(name, InputError("config file \(path): \(error); fix it with `marktime config set \(name) VALUE`, or `marktime config unset \(name)` for the default"))
            }
        }
        return settings
    }

    /// Sets (or with `nil`, removes) one key, then writes the whole file atomically.
    /// Other keys with problems are written back as they were read.
    public func set(_ name: String, to value: ConfigValue?) throws(ConfigError) {
        var settings = try load()
        settings.set(name, value)
        try write(settings, keeping: Set(settings.problems.keys))
    }

    /// Reads `text` for key `name` and sets it: the one way a front end changes a key.
    /// Returns the value as stored.
    @discardableResult
    public func set(_ name: String, text: String, zoneExists: (String) -> Bool) throws(ConfigError) -> ConfigValue {
        let value: ConfigValue
        do {
            let key = try Settings.key(named: name)
            do { value = try key.parse(text, zoneExists: zoneExists) } catch { throw InputError("\(error) (\(key.help))") }
        } catch {
            throw ConfigError("\(error)")
        }
        try set(name, to: value)
        return value
    }

    /// A config file with every key commented out at its default, under its section, with its meaning.
    public static var template: String {
        var out = """
            # marktime configuration. Every key is here at its default, commented out: remove
            # the # to change one, or run `marktime config set KEY VALUE`. `marktime config list`
            # shows what is in effect.

            """
        var section = ""
        for key in Settings.keys {
            let parts = key.name.split(separator: ".", maxSplits: 1).map(String.init)
            if parts[0] != section {
                section = parts[0]
                out += "\n[\(section)]\n"
            }
            let value: String
            switch key.defaultValue {
            case .string(let v): value = "\"" + v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            default: value = key.defaultValue.description
            }
            out += "# \(key.help)\n# \(parts[1]) = \(value)\n"
        }
        return out
    }

    func write(_ settings: Settings, keeping broken: Set<String> = []) throws(ConfigError) {
        let root = TOMLTable()
        var values = settings.values
        if !broken.isEmpty, let text = try? String(contentsOfFile: path, encoding: .utf8), (try? Self.checkSubset(text, path: path)) != nil,
           let table = try? TOMLTable(string: text) {
            for (name, value) in Self.flatten(table, prefix: "") where broken.contains(name) { values[name] = value }
        }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            let parts = name.split(separator: ".").map(String.init)
            var table = root
            for part in parts.dropLast() {
                if let existing = table[part]?.table { table = existing } else {
                    let sub = TOMLTable()
                    table[part] = sub
                    table = table[part]!.table!
                }
            }
            switch value {
            case .bool(let v): table[parts.last!] = v
            case .int(let v): table[parts.last!] = v
            case .double(let v): table[parts.last!] = v
            case .string(let v): table[parts.last!] = v
            }
        }
        let text = "# marktime configuration: `marktime config list` shows every key.\n" + root.convert(to: .toml) + "\n"
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Through a symbolic link to its file, which is replaced whole; the link stays.
            try SideFile.writeOutput(path) { write in try write(Array(text.utf8)) }
        } catch {
            throw ConfigError("cannot write config file \(path): \(Files.reason(error)); check its permissions or use --config")
        }
    }

    /// toml++ (under TOMLKit) asserts, and so aborts the process, on some malformed input
    /// (`[é]`, `[` alone on a line, `s=[}`; found by Tests/fuzz/run). So the text must first
    /// fit the part of TOML a marktime config uses, line by line: blank lines, comments,
    /// `[section]` headers, and `key = value` where the value is true, false, a number or a
    /// one-line string. Anything else (arrays, inline tables, multi-line strings, control
    /// characters) is refused with its line, and never reaches toml++.
    static func checkSubset(_ text: String, path: String) throws(ConfigError) {
        guard text.utf8.count <= maximumSize else {
            throw ConfigError("config file \(path) is \(text.utf8.count) bytes, more than a marktime config's \(maximumSize): "
                + "`marktime config list` shows what it needs; remove the file to use the defaults")
        }
        var body = Substring(text).unicodeScalars
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        for (index, raw) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Array(raw)
            if line.last == "\r" { line.removeLast() }
            if let problem = SubsetLine(line).problem {
                throw ConfigError("config file \(path) is not valid TOML for marktime, line \(index + 1): \(problem); a marktime config holds only [section] lines "
                    + "and key = value lines (true, false, a number or a \"string\"): fix it or remove it to use the defaults")
            }
        }
    }

    static func flatten(_ table: TOMLTable, prefix: String) -> [(String, ConfigValue)] {
        var out: [(String, ConfigValue)] = []
        for key in table.keys {
            let name = prefix.isEmpty ? key : prefix + "." + key
            guard let value = table[key] else { continue }
            if let sub = value.table {
                out += flatten(sub, prefix: name)
            } else if let v = value.bool {
                out.append((name, .bool(v)))
            } else if let v = value.int {
                out.append((name, .int(v)))
            } else if let v = value.double {
                out.append((name, .double(v)))
            } else if let v = value.string {
                out.append((name, .string(v)))
            } else {
                out.append((name, .string("\(value)")))
            }
        }
        return out
    }
}

/// A config file that could not be read or written.
public struct ConfigError: Error, CustomStringConvertible, Hashable, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One line of a config file, checked against the subset of TOML marktime reads.
struct SubsetLine {
    let chars: [Unicode.Scalar]
    var i = 0

    init(_ chars: [Unicode.Scalar]) { self.chars = chars }

    var problem: String? {
        var me = self
        do { try me.line(); return nil } catch { return error.description }
    }

    struct Refusal: Error, CustomStringConvertible { var description: String }

    var peek: Unicode.Scalar? { i < chars.count ? chars[i] : nil }

    mutating func spaces() { while peek == " " || peek == "\t" { i += 1 } }

    mutating func line() throws(Refusal) {
        if let c = chars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw Refusal(description: "it has a control character (\(Text.escaped(String(c))))")
        }
        spaces()
        guard let first = peek, first != "#" else { return }
        if first == "[" {
            i += 1
            if peek == "[" { throw Refusal(description: "arrays of tables ([[…]]) are not part of a marktime config") }
            spaces()
            try dottedKey()
            guard peek == "]" else { throw Refusal(description: "a [section] line must end its name with ]") }
            i += 1
        } else {
            try dottedKey()
            guard peek == "=" else { throw Refusal(description: "expected = after the key") }
            i += 1
            spaces()
            try value()
        }
        spaces()
        guard peek == nil || peek == "#" else { throw Refusal(description: "unexpected text after the value") }
    }

    /// A marktime key is `section.name`; a dotted key of more parts than this is not one,
    /// and is refused before toml++ nests a table for each part.
    static let maximumParts = 4

    mutating func dottedKey() throws(Refusal) {
        for _ in 0..<Self.maximumParts {
            try key()
            spaces()
            guard peek == "." else { return }
            i += 1
            spaces()
        }
        throw Refusal(description: "a key of more than \(Self.maximumParts) dotted parts is not a marktime key (they are section.name)")
    }

    mutating func key() throws(Refusal) {
        if peek == "\"" || peek == "'" { return try string() }
        let start = i
        while let c = peek, c.isASCII, ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-" { i += 1 }
        guard i > start else { throw Refusal(description: "a key is letters, digits, _ and -, or quoted") }
    }

    mutating func value() throws(Refusal) {
        guard let c = peek else { throw Refusal(description: "a key needs a value after =") }
        if c == "\"" || c == "'" { return try string() }
        let start = i
        while let c = peek, c.isASCII, ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
            || c == "_" || c == "-" || c == "+" || c == "." || c == ":" { i += 1 }
        guard i > start else { throw Refusal(description: "a value is true, false, a number or a \"string\"") }
    }

    /// A one-line basic ("…", with backslash escapes) or literal ('…') string.
    mutating func string() throws(Refusal) {
        let quote = peek!
        if i + 2 < chars.count, chars[i + 1] == quote, chars[i + 2] == quote {
            throw Refusal(description: "multi-line strings are not part of a marktime config")
        }
        i += 1
        while let c = peek {
            i += 1
            if c == quote { return }
            if quote == "\"", c == "\\" {
                guard peek != nil else { break }
                i += 1
            }
        }
        throw Refusal(description: "a string is not closed on its line")
    }
}
