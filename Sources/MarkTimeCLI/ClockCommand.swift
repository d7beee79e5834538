import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimePlaces
import MarkTimeStore
import MarkTimeSystem
import Rainbow

extension MarkTime {
    struct Clock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The family clock: one hand per member, pointing at the kind of place they are at.",
            discussion: """
                Sectors are the place kinds (home, work, school, harbour, anchorage, other) and Unknown. \
                Members come from `marktime member add`; the daemon moves the one marked --me.
                  marktime clock
                  marktime clock --svg clock.svg
                """)
        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp("Write the clock as an SVG picture to this file.", valueName: "file")) var svg: String?

        func run() async throws {
            let board = try store.openForReading().familyClock()
            let (clock, members, legend) = (board.clock, board.members, board.legend)
            if let svg {
                do { try SideFile.writeOutput(svg) { write in try write(Array(clock.svg(legend: legend).utf8)) } } catch { throw cannotWrite(svg, error, example: "clock.svg") }
                print("wrote \(svg)")
                return
            }
            for row in clock.text() {
                print(row.map { cell in Self.paint(String(cell.0), cell.1) }.joined().replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            }
            if members.isEmpty { print("no members yet: `marktime member add NAME --me`") }
            for (m, line) in zip(members, legend) { print(Self.paint("●", m.color) + " " + line) }
        }

        static func paint(_ text: String, _ color: MemberColor?) -> String {
            switch color {
            case .red: text.red
            case .green: text.green
            case .yellow: text.yellow
            case .blue: text.blue
            case .magenta: text.magenta
            case .cyan: text.cyan
            case .white: text.white
            case nil: text
            }
        }
    }
}
