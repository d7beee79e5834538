/// A config value as it is stored in the TOML file.
public enum ConfigValue: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool), int(Int), double(Double), string(String)

    public var description: String {
        switch self {
        case .bool(let v): String(v)
        case .int(let v): String(v)
        case .double(let v): Position.plain(v)
        case .string(let v): v
        }
    }
}

/// One key of the config file: its name, default, meaning, and how to read a value for it.
public struct ConfigKey: Sendable {
    public enum Kind: Sendable { case bool, int(ClosedRange<Int>), double(ClosedRange<Double>), string(allowEmpty: Bool) }

    public let name: String
    public let kind: Kind
    public let defaultValue: ConfigValue
    public let help: String

    /// Reads `text` as a value for this key.
    public func parse(_ text: String) throws(InputError) -> ConfigValue {
        let t = text.trimmingWhitespace()
        switch kind {
        case .bool:
            switch t.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: throw InputError("\(name) takes true or false, not '\(text)'")
            }
        case .int(let range):
            guard let v = Int(t), range.contains(v) else {
                throw InputError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return .int(v)
        case .double(let range):
            guard let v = Double(t), v.isFinite, range.contains(v) else {
                throw InputError("\(name) takes a number from \(Position.plain(range.lowerBound)) to \(Position.plain(range.upperBound)), not '\(text)'")
            }
            return .double(v)
        case .string(let allowEmpty):
            guard allowEmpty || !t.isEmpty else { throw InputError("\(name) cannot be empty") }
            return .string(t)
        }
    }

    /// Checks a value read from the file: the right type and range.
    public func validate(_ value: ConfigValue) throws(InputError) -> ConfigValue {
        switch (kind, value) {
        case (.bool, .bool), (.string, .string): return try parse(value.description)
        case (.int, .int): return try parse(value.description)
        case (.double, .double), (.double, .int): return try parse(value.description)
        default: throw InputError("\(name) has the wrong type in the config file: \(help)")
        }
    }
}

/// The typed settings every part of marktime reads, with their defaults.
public struct Settings: Hashable, Sendable {
    public static let keys: [ConfigKey] = [
        ConfigKey(name: "sound.enabled", kind: .bool, defaultValue: .bool(true), help: "beep after each sight (true/false)"),
        ConfigKey(name: "sound.volume", kind: .int(0...100), defaultValue: .int(100), help: "beep volume in percent, 0-100"),
        ConfigKey(name: "sound.device", kind: .string(allowEmpty: false), defaultValue: .string("default"), help: "ALSA PCM name, e.g. default or plughw:1,0"),
        ConfigKey(name: "sight.record_position", kind: .bool, defaultValue: .bool(true), help: "store the GPS position with each sight (true/false)"),
        ConfigKey(name: "sight.max_fix_age_s", kind: .double(0...3600), defaultValue: .double(30), help: "oldest GPS fix, in seconds, to store with a sight"),
        ConfigKey(name: "clock.nmea_uncertainty_s", kind: .double(0...10), defaultValue: .double(0.5), help: "uncertainty bound of gpsd NMEA time, in seconds"),
        ConfigKey(name: "clock.trust_system", kind: .bool, defaultValue: .bool(true), help: "count the system clock as a source when chrony or ntpd has synchronised it (true/false)"),
        ConfigKey(name: "clock.max_sample_age_s", kind: .double(1...3600), defaultValue: .double(10), help: "a clock sample older than this many seconds stops counting"),
        ConfigKey(name: "button.device", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "input device of the button; empty means /dev/input/marktime"),
        ConfigKey(name: "button.debounce_ms", kind: .int(0...1000), defaultValue: .int(30), help: "key-downs this close to the last accepted one are bounces, in ms"),
        ConfigKey(name: "button.latency_compensation_ms", kind: .int(0...1000), defaultValue: .int(0), help: "known driver delay subtracted from each key-down, in ms"),
        ConfigKey(name: "button.grab", kind: .bool, defaultValue: .bool(true), help: "grab the button so presses do not reach the console (true/false)"),
        ConfigKey(name: "places.confirm_fixes", kind: .int(1...100), defaultValue: .int(3), help: "consecutive fixes that confirm entering or leaving a place"),
        ConfigKey(name: "places.margin_percent", kind: .double(0...100), defaultValue: .double(10), help: "leave margin beyond a place's radius, in percent of the radius"),
        ConfigKey(name: "places.margin_min_m", kind: .double(0...10000), defaultValue: .double(20), help: "smallest leave margin beyond a place's radius, in metres"),
        ConfigKey(name: "places.max_fix_age_s", kind: .double(1...3600), defaultValue: .double(10), help: "oldest daemon fix, in seconds, that --here accepts"),
        ConfigKey(name: "anchor.confirm_fixes", kind: .int(1...100), defaultValue: .int(3), help: "consecutive fixes outside the swing radius that raise the anchor alarm"),
        ConfigKey(name: "anchor.gps_margin_m", kind: .double(0...1000), defaultValue: .double(10), help: "GPS margin added to a swing radius from rode and depth, in metres"),
        ConfigKey(name: "anchor.stale_s", kind: .double(1...3600), defaultValue: .double(30), help: "seconds without a fix before the anchor watch warns that it is blind"),
        ConfigKey(name: "home.zone", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "your home time zone, e.g. Australia/Brisbane; empty means the system's"),
        ConfigKey(name: "gpsd.address", kind: .string(allowEmpty: false), defaultValue: .string("localhost:2947"), help: "gpsd HOST:PORT"),
    ]

    /// `sound.enabled`, `sound.volume`, … in a sentence for error messages.
    public static var keyList: String { keys.map(\.name).joined(separator: ", ") }

    public static func key(named name: String) throws(InputError) -> ConfigKey {
        guard let key = keys.first(where: { $0.name == name }) else {
            throw InputError("unknown config key '\(name)': valid keys are \(keyList)")
        }
        return key
    }

    /// The values set in the file; the rest take their defaults.
    public private(set) var values: [String: ConfigValue]

    public init(values: [String: ConfigValue] = [:]) {
        self.values = values
    }

    public func value(_ name: String) -> ConfigValue {
        values[name] ?? Self.keys.first { $0.name == name }!.defaultValue
    }

    public mutating func set(_ name: String, _ value: ConfigValue?) {
        values[name] = value
    }

    func bool(_ name: String) -> Bool { if case .bool(let v) = value(name) { v } else { false } }
    func int(_ name: String) -> Int { if case .int(let v) = value(name) { v } else { 0 } }
    func double(_ name: String) -> Double {
        switch value(name) { case .double(let v): v; case .int(let v): Double(v); default: 0 }
    }
    func string(_ name: String) -> String { value(name).description }

    public var soundEnabled: Bool { bool("sound.enabled") }
    public var soundVolume: Int { int("sound.volume") }
    public var soundDevice: String { string("sound.device") }
    public var recordPosition: Bool { bool("sight.record_position") }
    public var maxFixAge: Double { double("sight.max_fix_age_s") }
    public var nmeaUncertainty: Double { double("clock.nmea_uncertainty_s") }
    public var maxSampleAge: Double { double("clock.max_sample_age_s") }
    public var trustSystemClock: Bool { bool("clock.trust_system") }
    /// `nil` when the file leaves it empty.
    public var buttonDevice: String? { string("button.device").isEmpty ? nil : string("button.device") }
    public var debounceMilliseconds: Int { int("button.debounce_ms") }
    public var latencyCompensationMilliseconds: Int { int("button.latency_compensation_ms") }
    public var buttonGrab: Bool { bool("button.grab") }
    public var gpsdAddress: String { string("gpsd.address") }
    public var placeConfirmations: Int { int("places.confirm_fixes") }
    public var placeMarginPercent: Double { double("places.margin_percent") }
    public var placeMarginMinimum: Double { double("places.margin_min_m") }
    public var placeMaxFixAge: Double { double("places.max_fix_age_s") }
    public var anchorConfirmations: Int { int("anchor.confirm_fixes") }
    public var anchorGPSMargin: Double { double("anchor.gps_margin_m") }
    public var anchorStaleAfter: Double { double("anchor.stale_s") }
    /// `nil` when the file leaves it empty: the system zone.
    public var homeZone: String? { string("home.zone").isEmpty ? nil : string("home.zone") }
}
