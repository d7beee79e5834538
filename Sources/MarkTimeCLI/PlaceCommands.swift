import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeStore

extension AppDatabase {
    /// The places of this store, each change ringing its daemon.
    var placeBook: PlaceBook<AppDatabase> { PlaceBook(self, bell: StoreDoorbell(store: path)) }
}

/// `--position POS` or `--here` (the daemon's latest fix, if fresh).
struct PositionOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("A position: 27 22.84 S 153 22.84 E, 27° 22'.84 S 153° 22'.84 E or -27.3807 153.3807.", valueName: "pos"))
    var position: String?

    @Flag(help: "Use the daemon's latest GPS fix.")
    var here = false

    func resolve(_ db: AppDatabase, _ settings: Settings) throws -> Position {
        try PositionChoice(typed: position, here: here).resolve(try db.daemonStatus(), now: try SystemClock().read().instant,
                                                                use: try .place(settings), words: .init(typed: "--position", here: "--here"))
    }
}

extension PlaceKind: ExpressibleByArgument {}

/// Hours and minutes of a UTC time, `10:02 UTC`.
func hourMinute(_ t: UTCTime) -> String { "\(t.iso8601.dropFirst(11).prefix(5)) UTC" }

extension MarkTime {
    struct PlaceCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "place",
            abstract: "Named places with a radius; the daemon records entering and leaving them.",
            discussion: """
                Examples:
                  marktime place add Home --position "27 22.84 S 153 22.84 E" --radius 150 --kind home
                  marktime place add Anchorage --here --radius 300 --kind anchorage
                  marktime place list
                  marktime place history --since 2026-11-01
                Entering takes places.confirm_fixes (3) fixes in a row inside the radius; leaving as many \
                outside the radius plus a margin (places.margin_percent, 10 %, or places.margin_min_m, 20 m).
                """,
            subcommands: [Add.self, List.self, Remove.self, Rename.self, History.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a place.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument(help: "Its name (unique, whatever the case).") var name: String
            @OptionGroup var where_: PositionOptions
            @Option(parsing: .unconditional, help: "Radius in metres, more than 0 and at most 100 km.", transform: decimal) var radius: Double
            @Option(help: "home, work, school, harbour, anchorage or other.") var kind: PlaceKind = .other

            func run() async throws {
                let settings = try config.settings()
                let db = try store.open()
                let place = try Place(name: name, kind: kind, center: try where_.resolve(db, settings), radius: radius)
                try db.placeBook.add(place, now: try wallClock())
                print("added \(Text.escaped(place.name)) (\(place.kind.rawValue)): \(place.center.ddm), radius \(Quantity.metres(place.radius))")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the places.")
            @OptionGroup var store: StoreOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let places = try store.openForReading().places()
                switch format {
                case .json:
                    print(JSON.array(places.map { p in
                        .object([("name", .string(p.name)), ("kind", .string(p.kind.rawValue)), ("lat", .number(p.center.latitude)),
                                 ("lon", .number(p.center.longitude)), ("position", .string(p.center.ddm)), ("radius_m", .number(p.radius))])
                    }).render())
                case .table:
                    guard !places.isEmpty else { return print("no places yet: `marktime place add NAME --position POS --radius M`") }
                    var table = TextTable(header: ["NAME", "KIND", "POSITION", "RADIUS"])
                    for p in places { table.rows.append([p.name, p.kind.rawValue, p.center.ddm, Quantity.metres(p.radius)]) }
                    print(table.render())
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a place (its history stays).")
            @OptionGroup var store: StoreOptions
            @Argument var name: String
            func run() async throws {
                let db = try store.open()
                try db.placeBook.remove(named: name)
                print("removed \(Text.escaped(name))")
            }
        }

        struct Rename: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a place, in its history too.")
            @OptionGroup var store: StoreOptions
            @Argument var old: String
            @Argument var new: String
            func run() async throws {
                let db = try store.open()
                let kept = try db.placeBook.rename(old, to: new)
                print("renamed \(Text.escaped(old)) to \(Text.escaped(kept))")
            }
        }

        struct History: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "history", abstract: "Enter and leave events, oldest first.")
            @OptionGroup var store: StoreOptions
            @Option(help: "From this date (YYYY-MM-DD or ISO-8601, UTC).") var since: String?
            @Option(help: "Only this member's.") var member: String?
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let events = try store.openForReading().placeEvents(since: try parseBound(since, upper: false, option: "--since"), member: member)
                switch format {
                case .json:
                    print(JSON.array(events.map { e in
                        .object([("member", .string(e.member)), ("place", .string(e.event.place)), ("event", .string(e.event.kind.rawValue)),
                                 ("time", .string(e.event.time.iso8601)), ("lat", .number(e.event.position.latitude)),
                                 ("lon", .number(e.event.position.longitude))])
                    }).render())
                case .table:
                    guard !events.isEmpty else { return print("no place events yet") }
                    var table = TextTable(header: ["TIME (UTC)", "MEMBER", "EVENT", "PLACE", "POSITION"])
                    for e in events {
                        table.rows.append([e.event.time.iso8601, e.member, e.event.kind.rawValue, e.event.place, e.event.position.ddm])
                    }
                    print(table.render())
                }
            }
        }
    }

    struct Where: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "where",
            abstract: "Where you are: the place the geofence has you at, or the nearest one.",
            discussion: "Answers for the member marked --me (the daemon's GPS), or --member NAME.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Whose place (default: the member marked --me).") var member: String?
        @Option(help: "table or json.") var format: Format = .table

        func run() async throws {
            let db = try store.openForReading()
            let members = try db.members()
            let who: Member?
            if let member {
                guard let m = members.first(where: { $0.name.lowercased() == member.lowercased() }) else {
                    throw InputError("no member named '\(member)'; members: \(members.map(\.name).joined(separator: ", "))")
                }
                who = m
            } else {
                who = members.first(where: \.isMe)
            }
            let places = try db.places()
            let nearest = who?.position.flatMap { p in Place.ranked(places, from: p).nearest.first }
            let place = who?.geofence.place
            let since = who?.geofence.since
            switch format {
            case .json:
                print(JSON.object([("member", .from(who?.name)), ("place", .from(place)), ("since", .from(since?.iso8601)),
                                   ("nearest", .from(nearest?.0.name)), ("distance_m", .from(nearest?.1))]).render())
            case .table:
                if let place {
                    print("At \(Text.escaped(place))\(since.map { " since \(hourMinute($0))" } ?? "")")
                } else if let nearest {
                    print("Unknown — nearest \(Text.escaped(nearest.0.name)), \(distanceText(nearest.1))")
                } else if who?.position == nil {
                    print("Unknown — no position yet (the daemon reports the member marked --me from the GPS)")
                } else {
                    print("Unknown — no places yet (`marktime place add`)")
                }
            }
        }
    }

    struct MemberCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "member",
            abstract: "The crew or family on the clock (at most six).",
            discussion: """
                Examples:
                  marktime member add Anna --color blue --me     # the daemon moves Anna with the GPS
                  marktime member add Ben --color green
                  marktime member report Ben --position "27 28.1 S 153 01.9 E" --time 2026-11-21T09:30Z
                  marktime member link Ben owntracks/ben/phone        # Ben's OwnTracks app moves Ben
                """,
            subcommands: [Add.self, List.self, Remove.self, Report.self, Link.self, Unlink.self])

        struct Link: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "link",
                abstract: "Tie a member to an OwnTracks device topic; its locations then move the member (share.enabled).")
            @OptionGroup var store: StoreOptions
            @Argument var name: String
            @Argument(help: ArgumentHelp("owntracks/USER/DEVICE, as `marktime share status` lists them.", valueName: "topic")) var topic: String
            @Option(help: "table or json.") var format: Format = .table
            func run() async throws {
                try store.open().linkMember(name, topic: topic)
                switch format {
                case .json: print(JSON.object([("member", .string(name)), ("owntracks", .string(topic))]).render())
                case .table: print("linked \(Text.escaped(name)) to \(Text.escaped(topic))")
                }
            }
        }

        struct Unlink: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "unlink", abstract: "Untie a member from its OwnTracks topic.")
            @OptionGroup var store: StoreOptions
            @Argument var name: String
            @Option(help: "table or json.") var format: Format = .table
            func run() async throws {
                try store.open().unlinkMember(name)
                switch format {
                case .json: print(JSON.object([("member", .string(name)), ("owntracks", .null)]).render())
                case .table: print("unlinked \(Text.escaped(name))")
                }
            }
        }

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a member.")
            @OptionGroup var store: StoreOptions
            @Argument var name: String
            @Option(help: "The hand's colour: red, green, yellow, blue, magenta, cyan or white.") var color: String?
            @Flag(help: "This is the device's own member, moved by the daemon's GPS.") var me = false

            func run() async throws {
                let m = try store.open().addMember(name: name, color: try color.map(MemberColor.named), isMe: me)
                print("added \(Text.escaped(m.name)) (\(m.color.rawValue)\(me ? ", me" : ""))")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the members and where they are.")
            @OptionGroup var store: StoreOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let members = try store.openForReading().members()
                switch format {
                case .json:
                    print(JSON.array(members.map { m in
                        .object([("name", .string(m.name)), ("color", .string(m.color.rawValue)), ("me", .bool(m.isMe)),
                                 ("place", .from(m.geofence.place)), ("since", .from(m.geofence.since?.iso8601)),
                                 ("lat", .from(m.position?.latitude)), ("lon", .from(m.position?.longitude)),
                                 ("reported_at", .from(m.reportedAt?.iso8601)), ("owntracks", .from(m.shareTopic))])
                    }).render())
                case .table:
                    guard !members.isEmpty else { return print("no members yet: `marktime member add NAME`") }
                    var table = TextTable(header: ["NAME", "COLOUR", "PLACE", "SINCE", "LAST REPORT"])
                    for m in members {
                        table.rows.append([m.name + (m.isMe ? " (me)" : ""), m.color.rawValue, m.geofence.place ?? "unknown",
                                   m.geofence.since.map(hourMinute) ?? "", m.reportedAt?.iso8601 ?? "never"])
                    }
                    print(table.render())
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a member.")
            @OptionGroup var store: StoreOptions
            @Argument var name: String
            func run() async throws {
                try store.open().removeMember(named: name)
                print("removed \(Text.escaped(name))")
            }
        }

        struct Report: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "report",
                abstract: "Report where a member is; the geofence runs as for the daemon's own fixes.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Argument var name: String
            @Option(parsing: .unconditional, help: ArgumentHelp("Where they are.", valueName: "pos")) var position: String
            @Option(help: "When (ISO-8601 UTC; default now).") var time: String?
            @Option(parsing: .unconditional, help: "The report's error estimate in metres, if known.", transform: decimal) var error: Double?

            func run() async throws {
                let settings = try config.settings()
                let when = try parseBound(time, upper: false, option: "--time") ?? (try wallClock())
                let fix = try GeoFix.reported(position: try Position.parse(position), error: error, time: when)
                let events = try store.open().report(fix, member: name, rules: settings.geofenceRules)
                print(events.isEmpty ? "\(Text.escaped(name)): reported" : events.map { "\(Text.escaped(name)): \($0.kind.rawValue) \(Text.escaped($0.place))" }.joined(separator: "\n"))
            }
        }
    }
}
