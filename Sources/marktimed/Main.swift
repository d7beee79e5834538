import Foundation
import Logging
import MarkTimeDaemon

/// `marktimed`: the daemon in an executable of its own, which `marktime daemon` execs.
@main
enum DaemonEntry {
    static func main() async {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        do {
            let arguments = try DaemonArguments(parsing: Array(CommandLine.arguments.dropFirst()))
            try await MarkTimeDaemon.run(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            // As the command line words an error, so `marktime daemon` reads the same either way.
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(1)
        }
    }
}
