import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeSystem

/// The `marktime` command: the root of every subcommand.
public struct MarkTime: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "marktime",
        abstract: "A field logger for celestial navigation: press the button at the sight, get its UTC, position and a beep.",
        discussion: """
            Sights live in one local store shared with `marktime daemon`. Times read as in Mark Time, \
            `21d 13h 01m 46.654s` (day of month, UTC), and positions in degrees and decimal minutes, \
            `27° 22'.84 S  153° 22'.84 E`.

            Start with `marktime mark` to record a sight now and `marktime sights` to list the last five.
            """,
        groupedSubcommands: [
            CommandGroup(name: "Sights", subcommands: [Mark.self, Now.self, Sights.self, SightCommand.self, Export.self]),
            CommandGroup(name: "Sky", subcommands: [AlmanacCommand.self, SkyCommand.self, Reduce.self, FixCommand.self, Plot.self, Average.self,
                                                   Noon.self, PolarisCommand.self, Identify.self, Lunar.self, Plan.self]),
            CommandGroup(name: "Places and crew", subcommands: [PlaceCommand.self, Where.self, MemberCommand.self, Anchor.self, Clock.self]),
            CommandGroup(name: "People", subcommands: [People.self]),
            CommandGroup(name: "Tasks and courses", subcommands: [TaskCommand.self, CourseCommand.self, GradeCommand.self]),
            CommandGroup(name: "Journal", subcommands: [Day.self, Cal.self]),
            CommandGroup(name: "Phone page and sharing", subcommands: [Web.self, UserCommand.self, ShareCommand.self]),
            CommandGroup(name: "System", subcommands: [Daemon.self, Status.self, ConfigCommand.self, Buttons.self, Beep.self, Say.self]),
        ])

    public init() {}

    /// Runs the command. A parse error caused by a word such as `-1` or `-12.5` says why
    /// (`ParseHint`): ArgumentParser reads it as an option, so `sight show -1` would
    /// otherwise only say that the id is missing.
    public static func main() async {
        // Every command may open the store; a `-shm` made immutable meanwhile must not kill it.
        try? SharedMemoryGuard.install()
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(arguments)
        } catch {
            let message = fullMessage(for: error)
            var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard exitCode(for: error) == .validationFailure, let first = lines.first,
                  let hinted = ParseHint.line(first, arguments: arguments, usage: message)
            else { fail(error) }
            lines[0] = hinted
            FileHandle.standardError.write(Data(Text.errorReport(lines.joined(separator: "\n") + "\n", arguments: Array(arguments)).utf8))
            Foundation.exit(exitCode(for: error).rawValue)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand { try await asyncCommand.run() } else { try command.run() }
        } catch {
            fail(error)
        }
    }

    /// Prints an error's message and exits with its code. A value the user typed that holds
    /// an escape sequence or another control character is shown escaped (`\u{1B}[2J`),
    /// never sent raw to the terminal. Help (`--help`) goes out as argument-parser writes it.
    static func fail(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let text = Text.errorReport(fullMessage(for: error), arguments: Array(CommandLine.arguments.dropFirst()))
        FileHandle.standardError.write(Data(text.utf8))
        Foundation.exit(code.rawValue)
    }
}
