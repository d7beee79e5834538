import Foundation
import Logging
import MarkTimeConfig
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore

extension MarkTimeDaemon {
    /// Runs the daemon as `marktime daemon` describes: the store and config found as every
    /// command finds them, the button and gpsd from the options or the settings, and the
    /// phone page as a child when the options or `web.enabled` ask for it: `executable web`,
    /// this same executable.
    public static func run(_ arguments: DaemonArguments, executable: String, environment: [String: String]) async throws {
        let configFile = ConfigFile.resolve(explicit: arguments.config, environment: environment)
        let settings = try configFile.load(zoneExists: TZDatabase().knows)
        let store = try AppDatabase.resolving(arguments.store, environment: environment)
        var options = Options(settings: settings, buttonPath: try arguments.button ?? settings.button.device ?? "/dev/input/marktime",
                              gpsdAddress: try arguments.gpsd ?? settings.gpsdAddress)
        options.reload = { try configFile.load(zoneExists: TZDatabase().knows) }
        if try arguments.web ?? settings.web.enabled {
            options.web = [executable] + ServerArguments.page(PageArguments(store: store.path, config: configFile.path)).commandLine
        }
        try await MarkTimeDaemon(options: options, store: store, logger: Logger(label: "marktime")).run()
    }
}
