import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeStore
import MarkTimeSystem
import MarkTimeExport
import MarkTimeSky

extension MarkTime {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export sights for sight reduction, or for a chart plotter (GPX, KML).",
            subcommands: [CSVExport.self, GPXExport.self, KMLExport.self])
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

/// What `export gpx` and `export kml` share: the sights chosen, their fix, the places.
struct ChartExportOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions

    @Option(help: "Only sights at or after this UTC date or time.")
    var since: String?

    @Option(help: "Only sights before this UTC date or time (a bare date includes that day).")
    var until: String?

    @Flag(help: "Leave out the places.")
    var noPlaces = false

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output (a regular file is replaced whole).", valueName: "file"))
    var output: String?

    /// The chart: the sights, their fix (as `marktime fix` works it, when they make one), the places.
    func chart() throws -> ChartData {
        let query = SightQuery(since: try parseBound(since, upper: false, option: "--since"),
                               until: try parseBound(until, upper: true, option: "--until"), oldestFirst: true)
        let db = try store.openForReading()
        let sights = try db.sights(query)
        let fix = try? FixWork(sights, options: .init()).fix
        let places = noPlaces ? [] : try db.places().map { (name: $0.name, center: $0.center, radius: $0.radius) }
        return ChartData(name: "marktime", sights: sights, fix: fix, places: places)
    }

    func write(_ text: String, what: String, count: ChartData, example: String) throws {
        try writeText(text, to: output, example: example)
        if let output, output != "-" {
            FileHandle.standardError.write(Data(("Wrote \(count.points.count) waypoints, \(count.lines.count) lines of position and "
                + "\(count.track.count) track points to \(output) (\(what)).\n").utf8))
        }
    }
}

extension MarkTime.Export {
    struct GPXExport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gpx",
            abstract: "Write sights, their fix, lines of position, the track and places as GPX 1.1.",
            discussion: """
                Waypoints: each sight at its GPS position (else its DR), named `Sight ID BODY`, with its time and \
                Hs; the fix of the sights (as `marktime fix` works it) when they make one; each place. Routes: \
                each sight's line of position, 10 nm either side of the intercept's foot. Track: the GPS positions \
                the sights recorded, in time order. OpenCPN: Route & Mark Manager → Import GPX…; the lines \
                appear under Routes, the sights, fix and places under Marks, the track under Tracks.

                Example: marktime export gpx --since 2026-11-22 -o passage.gpx
                """)

        @OptionGroup var options: ChartExportOptions

        func run() async throws {
            let chart = try options.chart()
            try options.write(GPXDocument.text(chart), what: "GPX 1.1", count: chart, example: "passage.gpx")
        }
    }

    struct KMLExport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kml",
            abstract: "Write the same as `export gpx`, as KML for Google Earth and other viewers.",
            discussion: """
                Folders of placemarks: Sights, Fixes, Places, Lines of position (line strings) and the Track. \
                OpenCPN reads GPX: for it, use `marktime export gpx`.

                Example: marktime export kml --since 2026-11-22 -o passage.kml
                """)

        @OptionGroup var options: ChartExportOptions

        func run() async throws {
            let chart = try options.chart()
            try options.write(KMLDocument.text(chart), what: "KML 2.2", count: chart, example: "passage.kml")
        }
    }
}
