import MarkTimeCore

/// The command line of `marktimed`, the executable that runs the daemon and the phone page:
/// `marktime daemon` and `marktime web` check their options and exec it with them, so the
/// processes that run all day map neither the other commands nor the libraries they need
/// (see the Benchmarks article).
public enum ServerArguments: Hashable, Sendable {
    case daemon(DaemonArguments)
    case page(PageArguments)

    /// `web` and the page's options, or the daemon's options.
    public init(parsing arguments: [String]) throws(InputError) {
        if arguments.first == "web" {
            self = .page(try PageArguments(parsing: Array(arguments.dropFirst())))
        } else {
            self = .daemon(try DaemonArguments(parsing: arguments))
        }
    }

    /// The arguments that `init(parsing:)` reads back as these.
    public var commandLine: [String] {
        switch self {
        case .daemon(let d): d.commandLine
        case .page(let p): ["web"] + p.commandLine
        }
    }

    /// Reads `--NAME VALUE` or `--NAME=VALUE` for each of `values` (keyed by the name), and
    /// each of `flags` as the key and value it stands for; the last of each key counts.
    static func read(_ arguments: [String], command: String, values: Set<String>, flags: [String: (key: String, value: String)] = [:])
        throws(InputError) -> [String: String] {
        var found: [String: String] = [:]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let equals = argument.firstIndex(of: "=")
            let name = equals.map { String(argument[..<$0]) } ?? argument
            if values.contains(name) {
                if let equals {
                    found[name] = String(argument[argument.index(after: equals)...])
                } else if let next = rest.popFirst() {
                    found[name] = next
                } else {
                    throw InputError("\(name) needs a value: see `marktime \(command) --help`")
                }
            } else if let flag = flags[argument] {
                found[flag.key] = flag.value
            } else {
                throw InputError("unknown argument '\(Text.escaped(argument))': marktimed takes the options of `marktime \(command)` (see `marktime \(command) --help`), which starts it")
            }
        }
        return found
    }

    /// `value`, read as `config set` reads an address, for the option `name`.
    public static func checkedAddress(_ value: String, option name: String, example: String) throws(InputError) -> String {
        guard ConfigKey.address(value) != nil else {
            throw InputError("\(name) '\(Text.escaped(value))' is not HOST:PORT with a port from 1 to 65535, e.g. \(example)")
        }
        return value
    }
}

/// The options of `marktime daemon`.
public struct DaemonArguments: Hashable, Sendable {
    public var store: String?
    public var config: String?
    public var button: String?
    public var gpsd: String?
    public var web: Bool?

    public init(store: String? = nil, config: String? = nil, button: String? = nil, gpsd: String? = nil, web: Bool? = nil) {
        (self.store, self.config, self.button, self.gpsd, self.web) = (store, config, button, gpsd, web)
    }

    public init(parsing arguments: [String]) throws(InputError) {
        let found = try ServerArguments.read(arguments, command: "daemon", values: ["--store", "--config", "--button", "--gpsd"],
                                             flags: ["--web": ("web", "yes"), "--no-web": ("web", "no")])
        self.init(store: found["--store"], config: found["--config"], button: found["--button"],
                  gpsd: try found["--gpsd"].map(Self.checkedGPSD), web: found["web"].map { $0 == "yes" })
    }

    /// The arguments that `init(parsing:)` reads back as these.
    public var commandLine: [String] {
        [("--store", store), ("--config", config), ("--button", button), ("--gpsd", gpsd)]
            .flatMap { name, value in value.map { [name, $0] } ?? [] }
            + (web.map { [$0 ? "--web" : "--no-web"] } ?? [])
    }

    /// `--gpsd`, read as `config set gpsd.address` reads it.
    public static func checkedGPSD(_ text: String) throws(InputError) -> String {
        try ServerArguments.checkedAddress(text, option: "--gpsd", example: "localhost:2947")
    }
}

/// The options of `marktime web`.
public struct PageArguments: Hashable, Sendable {
    public var store: String?
    public var config: String?
    public var listen: String?

    public init(store: String? = nil, config: String? = nil, listen: String? = nil) {
        (self.store, self.config, self.listen) = (store, config, listen)
    }

    public init(parsing arguments: [String]) throws(InputError) {
        let found = try ServerArguments.read(arguments, command: "web", values: ["--store", "--config", "--listen"])
        self.init(store: found["--store"], config: found["--config"], listen: found["--listen"])
    }

    /// The arguments that `init(parsing:)` reads back as these.
    public var commandLine: [String] {
        [("--store", store), ("--config", config), ("--listen", listen)].flatMap { name, value in value.map { [name, $0] } ?? [] }
    }
}
