import Logging
import MarkTimeConfig
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeSystem

/// The command line of `marktimed`, the daemon's own executable: the options of
/// `marktime daemon`, which checks them and execs it with them. The daemon runs apart from
/// the command line's other commands and the phone page, so its process maps only what it
/// runs (see the Benchmarks article).
public struct DaemonArguments: Hashable, Sendable {
    public var store: String?
    public var config: String?
    public var button: String?
    public var gpsd: String?
    public var web: Bool?
    /// The `marktime` binary that runs the phone page (`marktime web`) as the daemon's child.
    public var marktime: String?

    public init(store: String? = nil, config: String? = nil, button: String? = nil, gpsd: String? = nil,
                web: Bool? = nil, marktime: String? = nil) {
        (self.store, self.config, self.button, self.gpsd, self.web, self.marktime) = (store, config, button, gpsd, web, marktime)
    }

    /// The arguments that `init(parsing:)` reads back as these.
    public var commandLine: [String] {
        [("--store", store), ("--config", config), ("--button", button), ("--gpsd", gpsd), ("--marktime", marktime)]
            .flatMap { name, value in value.map { [name, $0] } ?? [] }
            + (web.map { [$0 ? "--web" : "--no-web"] } ?? [])
    }

    /// Reads `--store`, `--config`, `--button`, `--gpsd` and `--marktime` with a value (as the
    /// next argument or after `=`), and `--web` or `--no-web`; the last of each counts.
    public init(parsing arguments: [String]) throws(InputError) {
        self.init()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (name, attached) = argument.firstIndex(of: "=").map { (String(argument[..<$0]), Optional(String(argument[argument.index(after: $0)...]))) }
                ?? (argument, nil)
            func value() throws(InputError) -> String {
                if let attached { return attached }
                guard let next = rest.popFirst() else { throw InputError("\(name) needs a value: see `marktime daemon --help`") }
                return next
            }
            switch name {
            case "--store": store = try value()
            case "--config": config = try value()
            case "--button": button = try value()
            case "--gpsd": gpsd = try Self.checkedGPSD(try value())
            case "--marktime": marktime = try value()
            case "--web" where attached == nil: web = true
            case "--no-web" where attached == nil: web = false
            default:
                throw InputError("unknown argument '\(Text.escaped(argument))': marktimed takes the options of `marktime daemon` (see `marktime daemon --help`), which starts it")
            }
        }
    }

    /// `--gpsd`, read as `config set gpsd.address` reads it.
    public static func checkedGPSD(_ text: String) throws(InputError) -> String {
        guard ConfigKey.address(text) != nil else {
            throw InputError("--gpsd '\(Text.escaped(text))' is not HOST:PORT with a port from 1 to 65535, e.g. localhost:2947")
        }
        return text
    }
}

extension MarkTimeDaemon {
    /// Runs the daemon as `marktime daemon` describes: the store and config found as every
    /// command finds them, the button and gpsd from the options or the settings, and the
    /// phone page as a child when the options or `web.enabled` ask for it.
    public static func run(_ arguments: DaemonArguments, environment: [String: String]) async throws {
        let exists = { (path: String) in FileKind(path) != .missing }
        let configFile = ConfigFile.resolve(explicit: arguments.config, environment: environment, exists: exists)
        let settings = try configFile.load(zoneExists: TZDatabase().knows)
        let (path, isDefault) = StorePath.resolve(explicit: arguments.store, environment: environment, exists: exists)
        try AppDatabase.checkNotVanished(path)
        let store = try AppDatabase(path: path, createDirectory: isDefault)
        var options = Options(settings: settings, buttonPath: try arguments.button ?? settings.button.device ?? "/dev/input/marktime",
                              gpsdAddress: try arguments.gpsd ?? settings.gpsdAddress)
        options.reload = { try configFile.load(zoneExists: TZDatabase().knows) }
        if try arguments.web ?? settings.web.enabled {
            options.web = [arguments.marktime ?? "/usr/bin/marktime", "web", "--store", store.path, "--config", configFile.path]
        }
        try await MarkTimeDaemon(options: options, store: store, logger: Logger(label: "marktime")).run()
    }
}
