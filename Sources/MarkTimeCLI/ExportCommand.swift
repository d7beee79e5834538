import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeStore
import MarkTimeSystem
import MarkTimeExport

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
                Columns: \(SightRendering.csvHeader.joined(separator: ", ")). \
                Angles are decimal degrees; gps_lat_ddm and gps_lon_ddm repeat the position as a navigator writes it.

                Notes are written as they were typed. With --for-spreadsheets, a text cell that a \
                spreadsheet would run as a formula (starting with =, +, -, @, a tab or CR) gets a \
                leading ', shown as text; numbers are never changed. The phone page's download does this.

                Example: marktime export csv --since 2026-11-01 -o sights.csv
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: "Only sights at or after this UTC date or time.")
        var since: String?

        @Option(help: "Only sights before this UTC date or time (a bare date includes that day).")
        var until: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output (- is standard output; a FIFO or device is written through; a regular file is replaced whole).", valueName: "file"))
        var output: String?

        @Flag(help: "Keep spreadsheets from running notes as formulas (a leading ' on =, +, -, @).")
        var forSpreadsheets = false

        func run() async throws {
            let query = SightQuery(since: try parseBound(since, upper: false, option: "--since"),
                                   until: try parseBound(until, upper: true, option: "--until"), oldestFirst: true)
            let db = try store.openForReading()
            guard let output else {
                _ = try SightCSV.export(db, query, forSpreadsheets: forSpreadsheets) { chunk in FileHandle.standardOutput.write(Data(chunk)) }
                return
            }
            // A regular file: a new one beside it, synced and renamed over it once complete.
            let count: Int
            // The output's own failure (a full disk), which the export reports as the store's.
            var outputError: SystemError?
            do {
                count = try SideFile.writeOutput(output) { write in
                    // The export has written every chunk by the time it returns.
                    try withoutActuallyEscaping(write) { write in
                        try SightCSV.export(db, query, forSpreadsheets: forSpreadsheets) { chunk in
                            do { try write(chunk) } catch {
                                outputError = error as? SystemError
                                throw error
                            }
                        }
                    }
                }
            } catch let error as SystemError {
                throw cannotWrite(output, error, example: "sights.csv")
            } catch {
                if let outputError { throw cannotWrite(output, outputError, example: "sights.csv") }
                throw error
            }
            FileHandle.standardError.write(Data("Wrote \(count) sights to \(output == "-" ? "standard output" : output).\n".utf8))
        }
    }
}
