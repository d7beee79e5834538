import ArgumentParser
import Foundation
import Logging
import MarkTimeConfig
import MarkTimeCore
import MarkTimeSystem

extension MarkTime {
    struct Web: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "web",
            abstract: "Serve the phone page: the clock and MARK, the sight log, settings, behind a login.",
            discussion: """
                Open http://PI-ADDRESS:8080/ on a phone on the same network. Accounts come from `marktime user add` \
                and `marktime user invite`. The page works the same store as the CLI, in its own process: nothing in it \
                can stop the daemon recording a sight. Under systemd it is its own unit, marktime-web.service.

                HTTPS: set web.tls_cert and web.tls_key to PEM files; the session cookie is then Secure.

                Example: marktime web --listen 0.0.0.0:8080
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Option(help: ArgumentHelp("Where to listen (default: web.listen, 0.0.0.0:8080).", valueName: "host:port"))
        var listen: String?

        func run() async throws {
            try MarkTime.execServer(.page(PageArguments(store: store.store, config: config.config, listen: listen)))
        }

    }
}
