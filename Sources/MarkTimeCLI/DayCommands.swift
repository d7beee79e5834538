import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeJournal
import MarkTimePeople
import MarkTimePlaces
import MarkTimeStore
import MarkTimeSystem
import Rainbow

/// `--date YYYY-MM-DD` and `--time HH:MM` in the home zone; now by default.
struct WhenOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The day, YYYY-MM-DD (default: today).", valueName: "date")) var date: String?
    @Option(help: ArgumentHelp("The time, HH:MM (default: now).", valueName: "time")) var time: String?

    var given: Bool { date != nil || time != nil }

    /// The instant in `zone`; refuses a date that does not exist, and a time the clocks skip.
    func instant(_ zone: SystemZoneRules) throws -> UTCTime {
        let (at, note) = try zone.instant(date: try date.map { try CivilDate.read($0, what: "--date") }, time: time, now: try wallClock(),
                                          timeName: "--time")
        if let note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        return at
    }
}

/// The day `text` names in the home zone (today when nil).
func journalDay(_ text: String?, _ zone: SystemZoneRules) throws -> CivilDate {
    guard let text else { return zone.local(at: try wallClock()).0.date }
    return try CivilDate.read(text, what: "the day")
}

/// A day's page from the store, the Sun worked at the daemon's fix when there is no better position.
func dayPage(_ db: AppDatabase, _ date: CivilDate, _ zone: SystemZoneRules) throws -> DayPage {
    try Journal(db).dayPage(date, zone: zone, fix: try daemonPosition(db, for: .ship))
}

extension DayEntry {
    var json: JSON {
        .object([("kind", .string(kind.rawValue)), ("time", .string(time.iso8601)), ("id", JSON.from(id)), ("text", .string(text)),
                 ("position", JSON.from(position?.ddm)), ("lat", JSON.from(position?.latitude)), ("lon", JSON.from(position?.longitude)),
                 ("detail", JSON.from(detail)), ("file", JSON.from(file)), ("width", JSON.from(width)), ("height", JSON.from(height)),
                 ("hs", JSON.from(hs))])
    }
}

extension DaySun {
    var json: JSON {
        .object([("position", .string(position.ddm)), ("lat", .number(position.latitude)), ("lon", .number(position.longitude)),
                 ("source", .string(source.text))]
                + named.map { ($0.name.replacingOccurrences(of: " ", with: "_"), JSON.from($0.time?.iso8601)) })
    }
}

extension DayPage {
    var json: JSON {
        .object([("date", .string(date.description)), ("zone", .string(zone.identifier)), ("sun", sun?.json ?? .null),
                 ("entries", .array(entries.map(\.json)))])
    }
}

extension MarkTime {
    struct Day: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "day",
            abstract: "The day journal: moments, check-ins and photos, with the day's sights, places and tasks.",
            discussion: """
                Examples:
                  marktime day note "Dolphins off the bow"
                  marktime day checkin --here          (named after the place you are in)
                  marktime day photo ~/sunset.jpg --caption "Green flash"
                  marktime day                         (today's page)
                  marktime day 2026-11-21 --format json
                  marktime day export 2026-11-21 -o log-2026-11-21.md
                  marktime cal 2026-11                 (which days have entries)
                Days and times are in the home zone (config home.zone, else the system's). \
                The page opens with the Sun's day: astronomical, nautical and civil dawn (the Sun's centre \
                at −18°, −12°, −6°), sunrise and sunset (the upper limb on the horizon: the centre at \
                −0° 50′), then the dusks; worked at the day's last recorded position (a sight's GPS fix, \
                a check-in, a place), else the daemon's current fix, else the place of kind home.
                """,
            subcommands: [Show.self, Note.self, Checkin.self, Photo.self, Export.self, Remove.self],
            defaultSubcommand: Show.self)

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Every entry of a day, in time order.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The day, YYYY-MM-DD (default: today).") var date: String?
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let page = try dayPage(try store.openForReading(), try journalDay(date, zone), zone)
                switch format {
                case .json: print(page.json.render())
                case .table:
                    print(page.title + "  (\(zone.identifier))")
                    print(page.sunLine)
                    guard !page.entries.isEmpty else { print("nothing recorded: `marktime day note TEXT` adds a moment"); return }
                    print(TextTable(header: ["TIME", "KIND", "ID", "ENTRY"], rows: page.entries.map { e in
                        [page.clock(e.time), e.kind.rawValue, e.id.map(String.init) ?? "",
                         page.body(e)]
                    }).render())
                }
            }
        }

        struct Note: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "note", abstract: "Add a moment: a quick sentence.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "What happened.") var text: String
            @OptionGroup var when: WhenOptions

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let at = try when.instant(zone)
                let id = try Journal(try store.open()).addMoment(text, at: at, now: try wallClock())
                print("moment \(id) at \(zone.localText(at))")
            }
        }

        struct Checkin: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "checkin",
                abstract: "Check in where you are: named after the nearest known place whose radius you are in.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Option(parsing: .unconditional, help: ArgumentHelp("A position (default: the daemon's fix, as --here).", valueName: "pos"))
            var position: String?
            @Flag(help: "Use the daemon's latest GPS fix.") var here = false
            @Option(help: "Its name (default: the place you are in).") var name: String?
            @OptionGroup var when: WhenOptions

            func run() async throws {
                let settings = try config.settings()
                let zone = try TZDatabase().home(settings)
                let db = try store.open()
                var options = PositionOptions()
                options.position = position
                options.here = here || position == nil
                let at = try options.resolve(db, settings)
                let time = try when.instant(zone)
                let c = try Journal(db).checkIn(at: at, name: name, time: time, now: try wallClock())
                print("check-in \(c.id): \(Text.escaped(c.name)) at \(at.ddm), \(zone.localText(time))")
                if c.inside == nil {
                    print(c.nearest.isEmpty ? "no known places: `marktime place add` adds them"
                          : "not within a known place; nearest: " + c.nearest.prefix(3).map { "\(Text.escaped($0.place.name)) \(distanceText($0.metres))" }.joined(separator: ", "))
                }
            }
        }

        struct Photo: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "photo",
                abstract: "Add a photo (JPEG or PNG), kept in the store's media folder by its SHA-256.",
                subcommands: [AddPhoto.self, RemovePhoto.self], defaultSubcommand: AddPhoto.self)
        }

        struct AddPhoto: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Add a photo; its time is the EXIF capture time when it has one, else now (or --date/--time).")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The JPEG or PNG file.") var file: String
            @Option(help: "A caption.") var caption = ""
            @OptionGroup var when: WhenOptions

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let db = try store.open()
                let p = try Journal(db).addPhoto(try PhotoFile.read(file), name: file, caption: caption,
                                                 given: when.given ? try when.instant(zone) : nil, zone: zone, now: try wallClock())
                print(p.added ? "photo \(p.id): \(p.info.width)×\(p.info.height) \(p.info.format.rawValue), \(zone.localText(p.time))"
                              : "photo \(p.id) already has this image: kept once")
            }
        }

        struct RemovePhoto: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a photo and its file.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "The photo's id.") var id: Int64

            func run() async throws {
                try store.open().removePhoto(id)
                print("photo \(id) removed")
            }
        }

        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "export", abstract: "Write a day's page as Markdown (or JSON).")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "The day, YYYY-MM-DD.") var date: String
            @Option(help: "md or json.") var format: PageFormat = .md
            @Option(name: .short, help: ArgumentHelp("Write to this file instead of standard output (- is standard output; a FIFO or device is written through; a regular file is replaced whole).", valueName: "file")) var output: String?

            enum PageFormat: String, ExpressibleByArgument, CaseIterable { case md, json }

            func run() async throws {
                let zone = try TZDatabase().home(try config.settings())
                let page = try dayPage(try store.openForReading(), try journalDay(date, zone), zone)
                let text = format == .md ? page.markdown : page.json.render() + "\n"
                guard let output else { print(text, terminator: ""); return }
                do { try SideFile.writeOutput(output) { write in try write(Array(text.utf8)) } } catch { throw cannotWrite(output, error, example: "day.md") }
                print("wrote \(output)")
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a moment or check-in (asks first unless --yes).")
            @OptionGroup var store: StoreOptions
            @Argument(help: "moment or checkin.") var kind: Kind
            @Argument(help: "Its id.") var id: Int64
            @Flag(help: "Do not ask.") var yes = false

            enum Kind: String, ExpressibleByArgument, CaseIterable { case moment, checkin }

            func run() async throws {
                let db = try store.open()
                let text = try db.journalText(kind: kind.rawValue, id: id)
                if !yes, try !confirm("Delete \(kind.rawValue) \(id) “\(text)” for good?", hint: "add --yes to delete without asking") {
                    print("kept \(kind.rawValue) \(id)")
                    return
                }
                try db.removeJournal(kind: kind.rawValue, id: id)
                print("\(kind.rawValue) \(id) removed")
            }
        }
    }

    struct Cal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cal",
            abstract: "A month like `cal`; days with journal entries, sights, places or tasks are marked *.",
            discussion: "  marktime cal\n  marktime cal 2026-11 --format json")
        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions
        @Argument(help: "The month, YYYY-MM (default: this month).") var month: String?
        @Option(help: "table or json.") var format: Format = .table

        func run() async throws {
            let zone = try TZDatabase().home(try config.settings())
            let grid: MonthGrid
            if let month {
                guard let g = MonthGrid(month) else { throw InputError("'\(month)' is not a month: use YYYY-MM, e.g. 2026-11") }
                grid = g
                _ = try g.first.inRange(what: "the month '\(month)'")
            } else {
                let today = try journalDay(nil, zone)
                grid = MonthGrid(year: today.year, month: today.month)
            }
            let counts = try Journal(try store.openForReading()).entryCounts(grid, zone: zone)
            switch format {
            case .json:
                print(JSON.array(counts.keys.sorted().map { d in
                    .object([("date", .string(CivilDate(year: grid.year, month: grid.month, day: d).description)), ("entries", .int(Int64(counts[d]!)))])
                }).render())
            case .table:
                for line in grid.lines(marked: Set(counts.keys), paint: { $0.bold.cyan }) { print(line) }
            }
        }
    }
}
