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
    public enum Kind: Sendable {
        case bool, int(ClosedRange<Int>), double(ClosedRange<Double>), string(allowEmpty: Bool)
        /// A tz database zone, or empty for the system's.
        case zone
        /// `HOST:PORT`.
        case address
        /// One level of an MQTT topic (an OwnTracks user or device): no `/`, `+`, `#` or
        /// control character, at most 64 characters.
        case topicLevel
        /// An OwnTracks tracker id: two characters, as the apps show it on a map.
        case trackerID
    }

    public let name: String
    public let kind: Kind
    public let defaultValue: ConfigValue
    public let help: String

    /// Reads `text` as a value for this key; `zoneExists` says whether the tz database
    /// knows a zone name.
    public func parse(_ text: String, zoneExists: (String) -> Bool = { _ in true }) throws(InputError) -> ConfigValue {
        let t = text.trimmingWhitespace()
        guard !t.unicodeScalars.contains(where: Text.isControl) else {
            throw InputError("\(name) cannot hold control characters such as newlines: '\(Text.escaped(text))'")
        }
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
            guard let v = Quantity.decimal(t), range.contains(v) else {
                throw InputError("\(name) takes a number from \(Position.plain(range.lowerBound)) to \(Position.plain(range.upperBound)), not '\(text)'")
            }
            return .double(v)
        case .string(let allowEmpty):
            guard allowEmpty || !t.isEmpty else { throw InputError("\(name) cannot be empty") }
            return .string(t)
        case .zone:
            guard t.isEmpty || zoneExists(t) else {
                throw InputError("\(name) '\(t)' is not a zone of the tz database: give one such as Australia/Brisbane or Europe/London (`marktime people zones` lists them), or leave it empty for the system's")
            }
            return .string(t)
        case .address:
            guard Self.address(t) != nil else {
                throw InputError("\(name) '\(Text.escaped(t))' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947")
            }
            return .string(t)
        case .topicLevel:
            guard Text.isTopicLevel(t) else {
                throw InputError("\(name) '\(Text.escaped(t))' is not one level of an MQTT topic: give 1 to 64 characters without /, + or #, e.g. boat")
            }
            return .string(t)
        case .trackerID:
            guard t.count == 2 else {
                throw InputError("\(name) '\(Text.escaped(t))' is not two characters: OwnTracks shows a tracker id of two on its map, e.g. MT")
            }
            return .string(t)
        }
    }

    /// `HOST:PORT` (`[::1]:2947` for IPv6): the host and the port, or `nil`.
    public static func address(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            // An IPv6 address must be in brackets; `localhost:2947:1` is no address.
            return nil
        }
        let port = text[text.index(after: colon)...]
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }), port.allSatisfy(\.isASCIIDigit),
              let p = Int(port), (1...65535).contains(p) else { return nil }
        return (host, p)
    }

    /// Checks a value read from the file: the right type and range.
    public func validate(_ value: ConfigValue, zoneExists: (String) -> Bool = { _ in true }) throws(InputError) -> ConfigValue {
        switch (kind, value) {
        case (.bool, .bool), (.string, .string), (.zone, .string), (.address, .string), (.topicLevel, .string), (.trackerID, .string): return try parse(value.description, zoneExists: zoneExists)
        case (.int, .int): return try parse(value.description)
        case (.double, .double), (.double, .int): return try parse(value.description)
        default: throw InputError("\(name) has the wrong type in the config file: \(help)")
        }
    }
}

/// The typed settings every part of marktime reads, with their defaults.
public struct Settings: Hashable, Sendable {
    /// Keys a running daemon takes on a reload (SIGHUP); the rest need a restart.
    public static let reloadable: [String] = ["sight.record_position", "sight.max_fix_age_s", "button.debounce_ms", "plan.",
                                              "button.latency_compensation_ms", "places.", "anchor.", "home.zone"]

    /// What a reload to `new` changes: the keys a running daemon takes at once, and those
    /// that take effect only when it restarts. A key whose value or problem changed counts.
    public func reload(to new: Settings) -> (live: [String], restart: [String]) {
        let changed = Set(values.keys).union(new.values.keys).union(problems.keys).union(new.problems.keys)
            .filter { values[$0] != new.values[$0] || problems[$0]?.description != new.problems[$0]?.description }
            .sorted()
        let live = changed.filter { key in Self.reloadable.contains { $0.hasSuffix(".") ? key.hasPrefix($0) : key == $0 } }
        return (live, changed.filter { !live.contains($0) })
    }

    public static let keys: [ConfigKey] = [
        ConfigKey(name: "sound.enabled", kind: .bool, defaultValue: .bool(true), help: "beep after each sight (true/false)"),
        ConfigKey(name: "sound.volume", kind: .int(0...100), defaultValue: .int(100), help: "beep volume in percent, 0-100"),
        ConfigKey(name: "sound.device", kind: .string(allowEmpty: false), defaultValue: .string("default"), help: "ALSA PCM name, e.g. default or plughw:1,0"),
        ConfigKey(name: "sound.speech", kind: .bool, defaultValue: .bool(true), help: "read a keypad's entry and a preset aloud with eSpeak NG; false: a keypad's entry is confirmed by a tone (true/false)"),
        ConfigKey(name: "sound.voice", kind: .string(allowEmpty: false), defaultValue: .string("en"), help: "eSpeak NG voice for sound.speech, e.g. en, en-gb, en-us (`espeak-ng --voices` lists them)"),
        ConfigKey(name: "sight.record_position", kind: .bool, defaultValue: .bool(true), help: "store the GPS position with each sight (true/false)"),
        ConfigKey(name: "sight.max_fix_age_s", kind: .double(0...3600), defaultValue: .double(30), help: "oldest GPS fix, in seconds, to store with a sight"),
        ConfigKey(name: "sight.intercept_limit_nm", kind: .double(1...1000), defaultValue: .double(30),
                  help: "an intercept longer than this, in nautical miles, is flagged in a reduction"),
        ConfigKey(name: "sight.unadvanced_limit_min", kind: .double(0...1440), defaultValue: .double(10),
                  help: "minutes between a fix's sights beyond which lines not advanced are flagged"),
        ConfigKey(name: "clock.nmea_uncertainty_s", kind: .double(0...10), defaultValue: .double(0.5), help: "uncertainty bound of gpsd NMEA time, in seconds"),
        ConfigKey(name: "clock.trust_system", kind: .bool, defaultValue: .bool(true), help: "count the system clock as a source when chrony or ntpd has synchronised it (true/false)"),
        ConfigKey(name: "clock.signal_uncertainty_s", kind: .double(0.01...10), defaultValue: .double(0.3), help: "uncertainty of a time signal's tick pressed by hand (`marktime clock signal`): the reaction time, in seconds"),
        ConfigKey(name: "clock.max_sample_age_s", kind: .double(1...3600), defaultValue: .double(10), help: "a clock sample older than this many seconds stops counting"),
        ConfigKey(name: "clock.rtc", kind: .string(allowEmpty: true), defaultValue: .string("/dev/rtc0"), help: "the real-time clock kept as a chronometer, read at a boot without GPS; empty: none (a Pi 3, 4 or Zero has none)"),
        ConfigKey(name: "clock.rate_span_s", kind: .double(300...86_400), defaultValue: .double(3600), help: "the shortest run of good time, in seconds, that teaches the rate book a clock's rate"),
        ConfigKey(name: "button.device", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "input device of the button; empty means /dev/input/marktime"),
        ConfigKey(name: "button.debounce_ms", kind: .int(0...1000), defaultValue: .int(30), help: "key-downs this close to the last accepted one are bounces, in ms"),
        ConfigKey(name: "button.latency_compensation_ms", kind: .int(0...1000), defaultValue: .int(0), help: "known driver delay subtracted from each key-down, in ms"),
        ConfigKey(name: "button.grab", kind: .bool, defaultValue: .bool(true), help: "grab the button so presses do not reach the console (true/false)"),
        ConfigKey(name: "keypad.device", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "input device of a keypad that sets the last sight's Hs (digits then Enter: 3412.3 is 34° 12'.3), e.g. /dev/input/marktime-keypad; empty: none"),
        ConfigKey(name: "keypad.grab", kind: .bool, defaultValue: .bool(true), help: "grab the keypad so its keys do not reach the console (true/false)"),
        ConfigKey(name: "memo.device", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "ALSA capture PCM for voice memos: a press held past memo.hold_s records until released, kept with its sight (e.g. plughw:1,0 for a USB microphone); empty: no memos"),
        ConfigKey(name: "memo.hold_s", kind: .double(0.2...10), defaultValue: .double(1), help: "seconds the button must be held for its press to keep a voice memo; a shorter press keeps none"),
        ConfigKey(name: "memo.max_s", kind: .double(1...600), defaultValue: .double(60), help: "longest voice memo, in seconds: a key held longer keeps the first memo.max_s"),
        ConfigKey(name: "places.confirm_fixes", kind: .int(1...100), defaultValue: .int(3), help: "consecutive fixes that confirm entering or leaving a place"),
        ConfigKey(name: "places.margin_percent", kind: .double(0...100), defaultValue: .double(10), help: "leave margin beyond a place's radius, in percent of the radius"),
        ConfigKey(name: "places.margin_min_m", kind: .double(0...10000), defaultValue: .double(20), help: "smallest leave margin beyond a place's radius, in metres"),
        ConfigKey(name: "places.max_fix_age_s", kind: .double(1...3600), defaultValue: .double(10), help: "oldest daemon fix, in seconds, that --here accepts"),
        ConfigKey(name: "anchor.confirm_fixes", kind: .int(1...100), defaultValue: .int(3), help: "consecutive fixes outside the swing radius that raise the anchor alarm"),
        ConfigKey(name: "anchor.gps_margin_m", kind: .double(0...1000), defaultValue: .double(10), help: "GPS margin added to a swing radius from rode and depth, in metres"),
        ConfigKey(name: "anchor.stale_s", kind: .double(1...3600), defaultValue: .double(30), help: "seconds without a fix before the anchor watch warns that it is blind"),
        ConfigKey(name: "home.zone", kind: .zone, defaultValue: .string(""), help: "your home time zone, e.g. Australia/Brisbane; empty means the system's"),
        ConfigKey(name: "plan.alarms", kind: .bool, defaultValue: .bool(false), help: "chime before local apparent noon and before each twilight window at the boat's position (true/false)"),
        ConfigKey(name: "plan.alarm_min", kind: .double(1...180), defaultValue: .double(10), help: "minutes before noon and a twilight window that plan.alarms chimes"),
        ConfigKey(name: "gps.max_speed_kn", kind: .double(1...1000), defaultValue: .double(30), help: "a GPS position further from the last trusted one than the boat could sail at this many knots is flagged, never taken as a plain fix"),
        ConfigKey(name: "gpsd.address", kind: .address, defaultValue: .string("localhost:2947"), help: "gpsd HOST:PORT"),
        ConfigKey(name: "gpsd.silent_s", kind: .double(1...600), defaultValue: .double(5),
                  help: "seconds without a report before gpsd counts as silent: its time and fix stop counting and marktime reconnects"),
        ConfigKey(name: "web.enabled", kind: .bool, defaultValue: .bool(true), help: "`marktime daemon` starts and supervises the phone page, `marktime web` (true/false)"),
        ConfigKey(name: "web.listen", kind: .address, defaultValue: .string("0.0.0.0:8080"), help: "the phone page's HOST:PORT; 0.0.0.0 is every network"),
        ConfigKey(name: "web.tls_cert", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "PEM certificate file for HTTPS; empty serves plain HTTP"),
        ConfigKey(name: "web.tls_key", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "PEM private key file for HTTPS, beside web.tls_cert"),
        ConfigKey(name: "web.hosts", kind: .string(allowEmpty: true), defaultValue: .string(""),
                  help: "other names the phone page answers to, apart by commas (always: its addresses, localhost, this machine's name and NAME.local)"),
        ConfigKey(name: "share.enabled", kind: .bool, defaultValue: .bool(false), help: "share the boat and see the family over MQTT, as OwnTracks does (true/false)"),
        ConfigKey(name: "share.broker", kind: .address, defaultValue: .string("localhost:1883"), help: "the MQTT broker's HOST:PORT"),
        ConfigKey(name: "share.tls_ca", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "PEM CA file: TLS with certificate and host checks; empty: plain MQTT"),
        ConfigKey(name: "share.username", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "the broker account; empty: none"),
        ConfigKey(name: "share.password_file", kind: .string(allowEmpty: true), defaultValue: .string(""), help: "file holding the broker password, readable only by its owner (and group)"),
        ConfigKey(name: "share.user", kind: .topicLevel, defaultValue: .string("marktime"), help: "OwnTracks user: the boat publishes on owntracks/USER/DEVICE"),
        ConfigKey(name: "share.device", kind: .topicLevel, defaultValue: .string("boat"), help: "OwnTracks device, the last part of the topic"),
        ConfigKey(name: "share.tid", kind: .trackerID, defaultValue: .string("MT"), help: "OwnTracks tracker id: two characters shown on friends' maps"),
        ConfigKey(name: "share.interval_s", kind: .double(10...86400), defaultValue: .double(300), help: "publish the boat's position at least this often, in seconds"),
        ConfigKey(name: "share.min_move_m", kind: .double(1...100000), defaultValue: .double(100), help: "publish sooner when the boat has moved this far, in metres"),
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
    /// Keys whose value in the file is wrong, each with its sentence. Reading such a key
    /// throws, so only the commands that need it fail.
    public private(set) var problems: [String: InputError]

    public init(values: [String: ConfigValue] = [:], problems: [String: InputError] = [:]) {
        self.values = values
        self.problems = problems
    }

    /// The value of a key (its default when unset); `nil` for a name that is no key.
    public func value(_ name: String) -> ConfigValue? {
        values[name] ?? Self.keys.first { $0.name == name }?.defaultValue
    }

    public mutating func set(_ name: String, _ value: ConfigValue?) {
        values[name] = value
        problems[name] = nil
    }

    public mutating func setProblem(_ name: String, _ problem: InputError) {
        values[name] = nil
        problems[name] = problem
    }

    /// The key's value, or its problem.
    func checked(_ name: String) throws(InputError) -> ConfigValue {
        if let problem = problems[name] { throw problem }
        guard let v = value(name) else { throw InputError("unknown config key '\(name)'") }
        return v
    }

    func bool(_ name: String) throws(InputError) -> Bool { if case .bool(let v) = try checked(name) { v } else { false } }
    func int(_ name: String) throws(InputError) -> Int { if case .int(let v) = try checked(name) { v } else { 0 } }
    func double(_ name: String) throws(InputError) -> Double {
        switch try checked(name) { case .double(let v): v; case .int(let v): Double(v); default: 0 }
    }
    func string(_ name: String) throws(InputError) -> String { try checked(name).description }

    public var sound: SoundSettings {
        get throws(InputError) {
            SoundSettings(enabled: try bool("sound.enabled"), volume: try int("sound.volume"), device: try string("sound.device"),
                          speech: try bool("sound.speech"), voice: try string("sound.voice"))
        }
    }
    public var sight: SightSettings {
        get throws(InputError) {
            SightSettings(recordPosition: try bool("sight.record_position"), maxFixAge: try double("sight.max_fix_age_s"),
                          interceptLimit: try double("sight.intercept_limit_nm"), unadvancedLimit: try double("sight.unadvanced_limit_min"))
        }
    }
    /// `plan.alarms` and `plan.alarm_min`: minutes before noon and a twilight window that the
    /// daemon chimes; nil when the alarms are off.
    public var skyAlarmMinutes: Double? {
        get throws(InputError) { try bool("plan.alarms") ? try double("plan.alarm_min") : nil }
    }
    /// `gps.max_speed_kn`: knots beyond which a GPS position is flagged.
    public var gpsMaxSpeed: Double {
        get throws(InputError) { try double("gps.max_speed_kn") }
    }
    public var clock: ClockSettings {
        get throws(InputError) {
            let rtc = try string("clock.rtc")
            return ClockSettings(nmeaUncertainty: try double("clock.nmea_uncertainty_s"), trustSystem: try bool("clock.trust_system"),
                                 maxSampleAge: try double("clock.max_sample_age_s"), signalUncertainty: try double("clock.signal_uncertainty_s"),
                                 rtc: rtc.isEmpty ? nil : rtc, rateSpan: try double("clock.rate_span_s"))
        }
    }
    public var button: ButtonSettings {
        get throws(InputError) {
            let device = try string("button.device")
            return ButtonSettings(device: device.isEmpty ? nil : device, debounceMilliseconds: try int("button.debounce_ms"),
                                  latencyCompensationMilliseconds: try int("button.latency_compensation_ms"), grab: try bool("button.grab"))
        }
    }
    /// `keypad.*`: the keypad's device and whether it is grabbed; nil when there is none.
    public var keypad: (device: String, grab: Bool)? {
        get throws(InputError) {
            let device = try string("keypad.device")
            return device.isEmpty ? nil : (device, try bool("keypad.grab"))
        }
    }
    /// `memo.*`: the capture device, the hold that makes a memo and the longest one; nil: no memos.
    public var memo: MemoSettings? {
        get throws(InputError) {
            let device = try string("memo.device")
            return device.isEmpty ? nil : MemoSettings(device: device, hold: try double("memo.hold_s"), limit: try double("memo.max_s"))
        }
    }
    public var places: PlaceSettings {
        get throws(InputError) {
            PlaceSettings(confirmations: try int("places.confirm_fixes"), marginPercent: try double("places.margin_percent"),
                          marginMinimum: try double("places.margin_min_m"), maxFixAge: try double("places.max_fix_age_s"))
        }
    }
    public var anchor: AnchorSettings {
        get throws(InputError) {
            AnchorSettings(confirmations: try int("anchor.confirm_fixes"), gpsMargin: try double("anchor.gps_margin_m"), staleAfter: try double("anchor.stale_s"))
        }
    }
    /// `web.*`; a certificate without its key (or the other way round) is refused.
    public var web: WebSettings {
        get throws(InputError) {
            let (cert, key) = (try string("web.tls_cert"), try string("web.tls_key"))
            guard cert.isEmpty == key.isEmpty else {
                throw InputError("HTTPS needs both web.tls_cert and web.tls_key: set the other one, or unset both for plain HTTP")
            }
            return WebSettings(enabled: try bool("web.enabled"), listen: try string("web.listen"), tls: cert.isEmpty ? nil : WebSettings.TLSFiles(certificate: cert, key: key))
        }
    }
    public var gpsdAddress: String { get throws(InputError) { try string("gpsd.address") } }
    /// Seconds without a report before gpsd counts as silent.
    public var gpsdSilence: Double { get throws(InputError) { try double("gpsd.silent_s") } }
    /// `share.*`; a topic part with `/`, `+` or `#`, or a tid that is not two characters, is refused.
    public var share: ShareSettings {
        get throws(InputError) {
            for key in ["share.user", "share.device"] {
                let part = try string(key)
                guard !part.contains(where: { "/+#".contains($0) }) else {
                    throw InputError("\(key) '\(part)' cannot hold /, + or #: it is one level of the topic owntracks/USER/DEVICE")
                }
            }
            let tid = try string("share.tid")
            guard tid.count == 2 else { throw InputError("share.tid '\(tid)' must be two characters, e.g. MT") }
            func optional(_ key: String) throws(InputError) -> String? { let v = try string(key); return v.isEmpty ? nil : v }
            return ShareSettings(enabled: try bool("share.enabled"), broker: try string("share.broker"), tlsCA: try optional("share.tls_ca"),
                                 username: try optional("share.username"), passwordFile: try optional("share.password_file"),
                                 user: try string("share.user"), device: try string("share.device"), tid: tid,
                                 interval: try double("share.interval_s"), minMove: try double("share.min_move_m"))
        }
    }
    /// `nil` when the file leaves it empty: the system zone.
    public var homeZone: String? { get throws(InputError) { try string("home.zone").isEmpty ? nil : try string("home.zone") } }
}

/// `sound.*`: the confirmation beep.
public struct SoundSettings: Hashable, Sendable {
    public var enabled: Bool
    /// Percent, 0–100.
    public var volume: Int
    /// The ALSA PCM name.
    public var device: String
    /// Read a keypad's entry and a preset aloud (with sound on), and with which voice.
    public var speech: Bool
    public var voice: String
}

/// `memo.*`: voice memos recorded while the button is held.
public struct MemoSettings: Hashable, Sendable {
    /// The ALSA capture PCM.
    public var device: String
    /// Seconds held that make a press a memo.
    public var hold: Double
    /// The longest memo, in seconds.
    public var limit: Double
    /// Mono S16 at 16 kHz: speech, in a quarter of 48 kHz's room.
    public static let sampleRate = 16_000
}

/// `sight.*`: what a sight keeps with it.
public struct SightSettings: Hashable, Sendable {
    public var recordPosition: Bool
    /// The oldest GPS fix stored with a sight, in seconds.
    public var maxFixAge: Double
    /// Nautical miles: a longer intercept is flagged.
    public var interceptLimit: Double
    /// Minutes: a fix whose lines were not advanced over longer is flagged.
    public var unadvancedLimit: Double
}

/// `clock.*`: which clock samples count, and for how long.
public struct ClockSettings: Hashable, Sendable {
    /// The uncertainty bound of gpsd's NMEA time, in seconds.
    public var nmeaUncertainty: Double
    /// Counts the system clock when chrony or ntpd has synchronised it.
    public var trustSystem: Bool
    /// Seconds after which a sample stops counting.
    public var maxSampleAge: Double
    /// The uncertainty of a time signal's tick pressed by hand, in seconds.
    public var signalUncertainty: Double
    /// The RTC's device, `nil` for none.
    public var rtc: String?
    /// The shortest run of good time that teaches a rate, in seconds.
    public var rateSpan: Double
}

/// `button.*`: the evdev button.
public struct ButtonSettings: Hashable, Sendable {
    /// `nil`: `/dev/input/marktime`.
    public var device: String?
    public var debounceMilliseconds: Int
    public var latencyCompensationMilliseconds: Int
    public var grab: Bool
}

/// `places.*`: the geofence, and how old a fix `--here` takes.
public struct PlaceSettings: Hashable, Sendable {
    public var confirmations: Int
    public var marginPercent: Double
    /// Metres.
    public var marginMinimum: Double
    /// Seconds.
    public var maxFixAge: Double
}

/// `anchor.*`: the anchor watch.
public struct AnchorSettings: Hashable, Sendable {
    public var confirmations: Int
    /// Metres added to a swing radius computed from rode and depth.
    public var gpsMargin: Double
    /// Seconds without a fix before the watch warns that it is blind.
    public var staleAfter: Double
}

/// `web.*`: the phone page's address, and its certificate for HTTPS.
public struct WebSettings: Hashable, Sendable {
    /// The PEM files of HTTPS.
    public struct TLSFiles: Hashable, Sendable {
        public var certificate: String
        public var key: String
    }

    /// `marktime daemon` runs `marktime web` as its child.
    public var enabled: Bool
    public var listen: String
    /// `nil`: plain HTTP.
    public var tls: TLSFiles?
}

/// `share.*`: the boat on an MQTT broker, as an OwnTracks friend.
public struct ShareSettings: Hashable, Sendable {
    public var enabled: Bool
    /// `HOST:PORT`.
    public var broker: String
    public var tlsCA: String?
    public var username: String?
    public var passwordFile: String?
    public var user: String
    public var device: String
    public var tid: String
    /// Seconds.
    public var interval: Double
    /// Metres.
    public var minMove: Double

    /// `owntracks/USER/DEVICE`.
    public var topic: String { "owntracks/\(user)/\(device)" }
}
