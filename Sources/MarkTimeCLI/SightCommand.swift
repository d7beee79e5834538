import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore

extension MarkTime {
    struct SightCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sight",
            abstract: "Show or edit one sight.",
            subcommands: [Show.self, Edit.self])
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
            let (sight, archived) = try store.openForReading().sight(id: id)
            print(format == .json ? SightRendering.json(sight).render() : SightRendering.detail(sight, archived: archived))
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
