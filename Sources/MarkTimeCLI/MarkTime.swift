import ArgumentParser

/// The `marktime` command: the root of every subcommand.
public struct MarkTime: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "marktime",
        abstract: "A field logger for celestial navigation: press the button at the sight, get its UTC, position and a beep.",
        discussion: """
            Sights live in one local store shared with `marktime daemon`. Times read as in Mark Time,
            `21d 13h 01m 46.654s` (day of month, UTC), and positions in degrees and decimal minutes,
            `27° 22'.84 S  153° 22'.84 E`.

            Start with `marktime mark` to record a sight now and `marktime sights` to list the last five.
            """,
        subcommands: [Mark.self, Now.self, Sights.self, SightCommand.self, Export.self, Status.self, ConfigCommand.self,
                      Daemon.self, Beep.self, Buttons.self, PlaceCommand.self, Where.self, MemberCommand.self, Anchor.self, Clock.self, People.self, TaskCommand.self, CourseCommand.self, GradeCommand.self, Day.self, Cal.self, AlmanacCommand.self, SkyCommand.self, Reduce.self, FixCommand.self, UserCommand.self, Web.self])

    public init() {}
}
