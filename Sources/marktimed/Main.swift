import Foundation
import Logging
import MarkTimeConfig
import MarkTimeCore
import MarkTimeDaemon
import MarkTimeSystem
import MarkTimeWeb

/// `marktimed`: the daemon (`marktime daemon`) and the phone page (`marktime web`), which
/// those commands exec with their options.
@main
enum ServerEntry {
    static func main() async {
        // As every marktime process: a `-shm` made immutable under the store must not kill it.
        try? SharedMemoryGuard.install()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        do {
            switch try ServerArguments(parsing: arguments) {
            case .daemon(let options):
                try await MarkTimeDaemon.run(options, executable: Files.ownExecutable, environment: environment)
            case .page(let options):
                try await WebServer.run(options, environment: environment)
            }
        } catch {
            // Worded as the command line words an error, so `marktime daemon` reads the same.
            FileHandle.standardError.write(Data(Text.errorReport("Error: \(error)", arguments: arguments).utf8))
            exit(1)
        }
    }
}
