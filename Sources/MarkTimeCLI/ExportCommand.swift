import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeStore

extension MarkTime {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export sights for sight reduction.",
            subcommands: [CSVExport.self])
    }
}

extension MarkTime.Export {
    struct CSVExport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "Write current sights as RFC 4180 CSV, oldest first.",
            discussion: """
                Columns: \(SightRendering.csvHeader.joined(separator: ", ")).
                Angles are decimal degrees; gps_lat_ddm and gps_lon_ddm repeat the position as a navigator writes it.

                Example: marktime export csv --since 2026-11-01 -o sights.csv
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: "Only sights at or after this UTC date or time.")
        var since: String?

        @Option(help: "Only sights before this UTC date or time (a bare date includes that day).")
        var until: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?

        func run() async throws {
            let query = SightQuery(since: try parseBound(since, upper: false, option: "--since"),
                                   until: try parseBound(until, upper: true, option: "--until"), oldestFirst: true)
            let sights = try store.open().sights(query)
            let text = try SightRendering.csv(sights)
            guard let output else { return print(text, terminator: "") }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw InputError("cannot write \(output): \(error.localizedDescription)")
            }
            FileHandle.standardError.write(Data("Wrote \(sights.count) sights to \(output).\n".utf8))
        }
    }
}
