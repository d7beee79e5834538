import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem

extension MarkTime {
    struct SightCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sight",
            abstract: "Show or edit one sight.",
            subcommands: [Show.self, Edit.self, Memo.self])
    }
}

extension MarkTime.SightCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one sight in full.")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The sight's id, as `marktime sights` lists it.")
        var id: Int64

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let db = try store.openForReading()
            let (sight, archived) = try db.sight(id: id)
            let memo = try db.memo(sightID: id)
            print(format == .json ? SightRendering.json(sight, memo: memo).render() : SightRendering.detail(sight, archived: archived, memo: memo))
        }
    }

    struct Memo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "memo",
            abstract: "Save a sight's voice memo as a FLAC file.",
            discussion: """
                A memo is recorded while the button is held past memo.hold_s after a press \
                (memo.device names the microphone), and kept with that sight. Any player plays \
                the file: `ffplay`, `play` (sox), a browser; `flac -d` makes it a WAV.
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: "The sight's id, as `marktime sights` lists it.")
        var id: Int64

        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output (- is standard output; a regular file is replaced whole).", valueName: "file"))
        var output: String?

        func run() async throws {
            guard let memo = try store.openForReading().memo(sightID: id) else {
                throw InputError("sight \(id) has no voice memo: hold the button past memo.hold_s after a press to record one (memo.device names the microphone)")
            }
            let path = output ?? "-"
            // FLAC is no text: never poured onto a terminal.
            guard path != "-" || !Terminal.isTerminal(STDOUT_FILENO) else {
                throw InputError("the memo is audio, not text: give a file (`marktime sight memo \(id) -o sight-\(id).flac`) or play it (`marktime sight memo \(id) | play -t flac -`)")
            }
            do { try SideFile.writeOutput(path) { write in try write(memo.data) } } catch {
                throw cannotWrite(path, error, example: "sight-\(id).flac")
            }
            if path != "-" { FileHandle.standardError.write(Data("Wrote sight \(id)'s voice memo (\(memo.summary)) to \(path).\n".utf8)) }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Fill in or correct what the navigator knows about a sight.",
            discussion: """
                Every value is checked before anything is written: one bad value changes nothing.

                Hs takes `34 12.3` (degrees, minutes), `34°12'.3` or `34.205`. \
                Positions take `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or `-27.3807 153.3807`.

                Example: marktime sight edit 12 --body Sun --limb lower --hs "34 12.3" --ie -1.5 --eye-height 2.4
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: "The sight's id.")
        var id: Int64

        @Option(help: "The body: Sun, Moon, a planet or a star.")
        var body: String?

        @Option(help: "lower, center or upper.")
        var limb: String?

        @Option(parsing: .unconditional, help: "Sextant altitude.")
        var hs: String?

        @Option(parsing: .unconditional, help: "Index error in arc-minutes, signed.")
        var ie: String?

        @Option(name: .customLong("eye-height"), parsing: .unconditional, help: "Height of eye in metres.")
        var eyeHeight: String?

        @Option(parsing: .unconditional, help: "Air temperature in °C.")
        var temp: String?

        @Option(parsing: .unconditional, help: "Air pressure in hPa.")
        var pressure: String?

        @Option(parsing: .unconditional, help: "Dead-reckoning position.")
        var dr: String?

        @Option(parsing: .unconditional, help: "A note.")
        var note: String?

        @Option(help: ArgumentHelp("Clear a field (repeatable): \(SightEdit.clearable.joined(separator: ", ")).", valueName: "field"))
        var clear: [String] = []

        @Option(help: "Output: table or json.")
        var format: Format = .table

        /// Every value parsed and checked, before the store is touched.
        func makeEdit() throws -> SightEdit {
            try SightEdit(SightEditText(body: body, limb: limb, hs: hs, ie: ie, eyeHeight: eyeHeight, temp: temp,
                                        pressure: pressure, dr: dr, note: note), clear: clear, emptyClears: false)
        }

        func run() async throws {
            let edit = try makeEdit()
            guard !edit.isEmpty else {
                throw ValidationError("nothing to change: give at least one of --body, --limb, --hs, --ie, --eye-height, --temp, --pressure, --dr, --note, --clear")
            }
            let sight = try store.open().edit(id: id, edit, now: try wallClock())
            print(format == .json ? SightRendering.json(sight).render() : SightRendering.detail(sight))
        }
    }
}
