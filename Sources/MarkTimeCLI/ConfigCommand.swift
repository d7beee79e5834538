import ArgumentParser
import MarkTimeConfig
import MarkTimeCore
import MarkTimeDevices

extension MarkTime {
    struct ConfigCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Read and change the config file.",
            discussion: "Keys: \(Settings.keys.map { "\n  \($0.name.padding(to: 32)) \($0.help)" }.joined())",
            subcommands: [List.self, Get.self, Set.self, Unset.self, Template.self],
            defaultSubcommand: List.self)
    }
}

extension MarkTime.ConfigCommand {
    struct Template: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "template",
            abstract: "Print a config file with every key commented out at its default (the package's /etc/marktime/config.toml).")

        func run() async throws { print(ConfigFile.template, terminator: "") }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every key, its value, and whether it is the default.")

        @OptionGroup var config: ConfigOptions
        /// Accepted like everywhere else; the config file does not live in the store.
        @OptionGroup var store: StoreOptions

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let file = config.file
            let settings = try file.load(zoneExists: TZDatabase().knows)
            switch format {
            case .json:
                print(JSON.object(Settings.keys.map { key in
                    let json: JSON = switch settings.value(key.name) ?? key.defaultValue {
                    case .bool(let b): .bool(b)
                    case .int(let i): .int(Int64(i))
                    case .double(let d): .number(d)
                    case .string(let s): .string(s)
                    }
                    return (key.name, json)
                }).render())
            case .table:
                print("# \(file.path)")
                var table = TextTable(header: ["KEY", "VALUE", "", "MEANING"])
                for key in Settings.keys {
                    let problem = settings.problems[key.name] != nil
                    table.rows.append([key.name, problem ? "(wrong in the file)" : (settings.value(key.name) ?? key.defaultValue).description,
                                       problem || settings.values[key.name] != nil ? "" : "(default)", key.help])
                }
                print(table.render())
                for (_, problem) in settings.problems.sorted(by: { $0.key < $1.key }) { print(problem) }
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one key's value.")

        @OptionGroup var config: ConfigOptions
        /// Accepted like everywhere else; the config file does not live in the store.
        @OptionGroup var store: StoreOptions

        @Argument(help: "A key such as sound.volume.")
        var key: String

        func run() async throws {
            _ = try Settings.key(named: key)
            let settings = try config.settings()
            if let problem = settings.problems[key] { throw problem }
            print(Text.escaped(settings.value(key)?.description ?? ""))
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set one key.",
            discussion: "Example: marktime config set button.debounce_ms 40")

        @OptionGroup var config: ConfigOptions
        /// Accepted like everywhere else; the config file does not live in the store.
        @OptionGroup var store: StoreOptions

        @Argument(help: "A key such as sound.volume.")
        var key: String

        /// Every leftover word, so that a negative number reaches the key's own check.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Its new value.", valueName: "value"))
        var words: [String] = []

        func run() async throws {
            guard words.count == 1, let value = words.first else {
                throw ValidationError("give one value, quoted if it has spaces, e.g. `marktime config set button.debounce_ms 40`")
            }
            let file = config.file
            let parsed = try file.set(key, text: value, zoneExists: TZDatabase().knows)
            print("\(key) = \(Text.escaped(parsed.description))  (\(file.path))")
        }
    }

    struct Unset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unset", abstract: "Return one key to its default.")

        @OptionGroup var config: ConfigOptions
        /// Accepted like everywhere else; the config file does not live in the store.
        @OptionGroup var store: StoreOptions

        @Argument(help: "A key such as sound.volume.")
        var key: String

        func run() async throws {
            let k = try Settings.key(named: key)
            try config.file.set(key, to: nil)
            print("\(key) = \(k.defaultValue)  (default)")
        }
    }
}
