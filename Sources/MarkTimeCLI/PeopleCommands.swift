import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimePeople
import MarkTimeStore

/// How the people board reads in a table and in JSON.
enum PeopleView {
    static func board(_ db: AppDatabase, _ tz: TZDatabase, zone: SystemZoneRules) throws -> PeopleBoard {
        try tz.board(zone: zone, people: try db.people().filter(\.selected).map { ($0.name, $0.zone) },
                     ship: try daemonPosition(db, for: .ship))
    }

    static func cells(_ r: PersonTime) -> [String] {
        [r.name, r.city, r.local.timeText, r.dayText, r.offset.abbreviation, "UTC\(r.offset.iso)", r.offset.isDST ? "DST" : "", r.skyText]
    }

    static let columns = ["NAME", "CITY", "TIME", "DAY", "ZONE", "OFFSET", "DST", "SKY"]

    static func json(_ r: PersonTime) -> JSON {
        .object([("name", .string(r.name)), ("zone", .string(r.zone)), ("local", .string(r.local.description)),
                 ("offset", .string(r.offset.iso)), ("abbreviation", .string(r.offset.abbreviation)),
                 ("day_offset", .int(Int64(r.dayOffset))), ("dst", .bool(r.offset.isDST)),
                 ("sky", JSON.from(r.light?.shade.rawValue)), ("sun_altitude_deg", JSON.from(r.light.map { ($0.sunAltitude * 10).rounded() / 10 }))])
    }
}

/// `[at] HH:MM`, `--date`, `--zone`: the minute of the user's day to show.
struct MinuteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("at HH:MM: the minute of your day to show (default: now).", valueName: "at HH:MM"))
    var words: [String] = []

    @Option(help: ArgumentHelp("The day, YYYY-MM-DD (default: today in the zone).", valueName: "date"))
    var date: String?

    @Option(help: ArgumentHelp("Your zone: a city or tz identifier (default: config home.zone, else the system's).", valueName: "zone"))
    var zone: String?

    /// The zone, and the instant in seconds; a note when the minute happens twice.
    func resolve(_ tz: TZDatabase, _ settings: Settings) throws -> (SystemZoneRules, Int64, String?) {
        let rules = try tz.home(settings, override: zone)
        var w = words
        if w.first?.lowercased() == "at" { w.removeFirst() }
        guard w.count <= 1 else { throw ValidationError("give the time as `at HH:MM`, e.g. `marktime people at 09:30`") }
        let now = try wallClock()
        let nowSeconds = now.wholeSeconds
        let (today, _) = rules.local(atSecondsSinceEpoch: nowSeconds)
        var day = today.date
        if let date {
            day = try CivilDate.read(date, what: "--date")
        }
        guard let text = w.first else {
            if date == nil { return (rules, nowSeconds, nil) }
            let (s, note) = try rules.instant(of: LocalDateTime(date: day, minuteOfDay: today.minuteOfDay))
            return (rules, s, note)
        }
        guard let minute = LocalDateTime.minuteOfDay(text) else {
            throw InputError("cannot read the time '\(text)': use HH:MM, 24-hour, e.g. 09:30 or 21:05")
        }
        let (s, note) = try rules.instant(of: LocalDateTime(date: day, minuteOfDay: minute))
        return (rules, s, note)
    }
}

extension MarkTime {
    struct People: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "people",
            abstract: "People ashore in their time zones: who is awake, at any minute of your day.",
            discussion: """
                Examples:
                  marktime people add Ann "new york"
                  marktime people add Raj Asia/Calcutta        (stored as Asia/Kolkata)
                  marktime people                              (everyone selected, now)
                  marktime people at 07:30 --date 2026-12-24
                  marktime people scroll                       (arrow keys move the time)
                Your zone is config home.zone (`marktime config set home.zone Australia/Brisbane`), else the \
                system's. When the daemon has a fix from the last hour, a Ship row shows zone time for the \
                longitude: ZD = longitude / 15, rounded, signed so that ZT + ZD = UT (150° E is ZD −10). \
                SKY is the Sun's altitude at the zone's city (the tz database's zone1970.tab) or at the ship:
                day, then civil, nautical and astronomical twilight down to −6°, −12° and −18°, then night; \
                "-" for a zone with no city (Etc/GMT+5). \
                Names and rules come from the machine's tz database (/usr/share/zoneinfo).
                """,
            subcommands: [Show.self, Add.self, List.self, Select.self, Deselect.self, Remove.self, Rename.self, Zones.self, Scroll.self],
            defaultSubcommand: Show.self)

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Each selected person's local time at a minute of your day.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @OptionGroup var minute: MinuteOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let settings = try config.settings()
                let tz = TZDatabase()
                let (zone, seconds, note) = try minute.resolve(tz, settings)
                let view = try PeopleView.board(try store.openForReading(), tz, zone: zone)
                if let note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
                let rows = view.rows(at: seconds)
                switch format {
                case .json:
                    print(JSON.array(rows.map(PeopleView.json)).render())
                case .table:
                    print("You: " + PeopleBoard.header(view.you(at: seconds)))
                    if rows.isEmpty {
                        print("nobody selected: `marktime people add NAME CITY`, or `marktime people select NAME`")
                    } else {
                        print(TextTable(header: PeopleView.columns, rows: rows.map(PeopleView.cells)).render())
                    }
                }
            }
        }

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Place someone in a city's time zone.",
                discussion: """
                    CITY is a tz identifier (America/New_York), a city of the tz database in any case ("new york", \
                    Brisbane), or an old name (Asia/Calcutta), stored as today's identifier (Asia/Kolkata). \
                    Not every city has a zone of its own: use the city whose clocks it shares (Sydney for Canberra).
                    """)
            @OptionGroup var store: StoreOptions
            @Argument(help: "Their name (unique, whatever the case).") var name: String
            @Argument(help: "Their city or tz identifier.") var city: String

            func run() async throws {
                let tz = TZDatabase()
                let zone = try tz.catalogue().resolve(city)
                let rules = try tz.rules(zone)
                try store.open().addPerson(try Person.checked(name: name, zone: zone), now: try wallClock())
                let o = rules.offset(atSecondsSinceEpoch: try wallClock().wholeSeconds)
                print("added \(Text.escaped(name.trimmingWhitespace())): \(zone), now \(o.abbreviation) UTC\(o.iso)")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "Everyone saved: zone, offset now, and whether selected.")
            @OptionGroup var store: StoreOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let tz = TZDatabase()
                let now = try wallClock().wholeSeconds
                let people = try store.openForReading().people()
                let offsets = people.map { p in (try? tz.rules(p.zone))?.offset(atSecondsSinceEpoch: now) }
                switch format {
                case .json:
                    print(JSON.array(zip(people, offsets).map { p, o in
                        .object([("name", .string(p.name)), ("zone", .string(p.zone)), ("offset", JSON.from(o?.iso)),
                                 ("abbreviation", JSON.from(o?.abbreviation)), ("dst", JSON.from(o?.isDST)), ("selected", .bool(p.selected))])
                    }).render())
                case .table:
                    guard !people.isEmpty else { print("no people yet: `marktime people add NAME CITY`"); return }
                    print(TextTable(header: ["NAME", "ZONE", "NOW", "SELECTED"], rows: zip(people, offsets).map { p, o in
                        [p.name, p.zone, o.map { "\($0.abbreviation) UTC\($0.iso)\($0.isDST ? " DST" : "")" } ?? "not in this tz database",
                         p.selected ? "yes" : "no"]
                    }).render())
                }
            }
        }

        struct Select: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "select", abstract: "Show these people (kept in the store).")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Names.") var names: [String]

            func run() async throws {
                try store.open().selectPeople(names, selected: true)
                print("selected \(Text.escaped(names.joined(separator: ", ")))")
            }
        }

        struct Deselect: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "deselect", abstract: "Hide these people without removing them.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Names.") var names: [String]

            func run() async throws {
                try store.open().selectPeople(names, selected: false)
                print("deselected \(Text.escaped(names.joined(separator: ", ")))")
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove people.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Names.") var names: [String]

            func run() async throws {
                try store.open().removePeople(names)
                print("removed \(Text.escaped(names.joined(separator: ", ")))")
            }
        }

        struct Rename: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename someone.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Their name now.") var old: String
            @Argument(help: "The new name.") var new: String

            func run() async throws {
                try store.open().renamePerson(old, to: try Person.checkedName(new))
                print("renamed \(Text.escaped(old)) to \(Text.escaped(new.trimmingWhitespace()))")
            }
        }

        struct Zones: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "zones",
                abstract: "The tz database's zones whose name (or an old name) contains SEARCH, with their offset now.",
                discussion: "  marktime people zones york\n  marktime people zones australia")
            @Argument(help: "Part of a zone or city name; spaces match underscores.") var search: String = ""

            func run() async throws {
                let tz = TZDatabase()
                let now = try wallClock().wholeSeconds
                let zones = try tz.catalogue().search(search)
                guard !zones.isEmpty else { throw InputError("no zone matches '\(search)'") }
                print(TextTable(header: ["ZONE", "NOW"], rows: zones.map { z in
                    [z, (try? tz.rules(z)).map { r in let o = r.offset(atSecondsSinceEpoch: now); return "\(o.abbreviation) UTC\(o.iso)" } ?? ""]
                }).render())
            }
        }
    }
}
