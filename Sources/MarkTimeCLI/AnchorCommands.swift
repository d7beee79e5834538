import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimePlaces
import MarkTimeStore

extension MarkTime {
    struct Anchor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "anchor",
            abstract: "The anchor watch: a loud alarm when the boat drags.",
            discussion: """
                Examples:
                  marktime anchor drop --here --rode 50 --depth 12 --bow 1.5
                  marktime anchor drop --position "27 22.84 S 153 22.84 E" --radius 60
                  marktime anchor status
                  marktime anchor ack          # silence the alarm and re-arm (the sight button does too)
                  marktime anchor lift         # end the watch
                From rode and depth the radius is √(rode² − (depth + bow)²) plus anchor.gps_margin_m (10 m). \
                The daemon sounds the alarm after anchor.confirm_fixes (3) fixes in a row outside it, and \
                the warning tone when no fix came for anchor.stale_s (30 s).
                """,
            subcommands: [Drop.self, Status.self, Ack.self, Lift.self])

        struct Drop: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "drop", abstract: "Set the watch at the anchor's position.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @OptionGroup var where_: PositionOptions
            @Option(parsing: .unconditional, help: "The swing radius in metres.", transform: decimal) var radius: Double?
            @Option(parsing: .unconditional, help: "Rode (chain and line) out, metres.", transform: decimal) var rode: Double?
            @Option(parsing: .unconditional, help: "Depth of water, metres.", transform: decimal) var depth: Double?
            @Option(parsing: .unconditional, help: "Height of the bow roller above the water, metres.", transform: decimal) var bow: Double = 0

            func run() async throws {
                let settings = try config.settings()
                let db = try store.open()
                let r = try AnchorWatch.radius(given: radius, rode: rode, depth: depth, bow: bow, margin: settings.anchor.gpsMargin)
                let position = try where_.resolve(db, settings)
                try db.dropAnchor(at: position, radius: r, now: try wallClock())
                print("anchor watch set at \(position.ddm), radius \(Quantity.metres(r))")
            }
        }

        struct Status: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "status", abstract: "The watch: state, distance from the anchor and bearing.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let db = try store.openForReading()
                let stored = try db.anchorWatch(settings: try config.settings())?.live(try db.daemonStatus())
                let w = stored?.watch
                let state = w?.state.rawValue ?? "off"
                switch format {
                case .json:
                    print(JSON.object([("state", .string(state)), ("distance_m", .from(w?.distance)), ("radius_m", .from(w?.radius)),
                                       ("bearing_deg", .from(w?.bearing)), ("last_fix", .from(w?.lastFixTime?.iso8601)),
                                       ("anchor", .from(w?.anchor.ddm))]).render())
                case .table:
                    guard let w, w.state != .off else { return print("off: no anchor watch (`marktime anchor drop`)") }
                    print("\(w.summary); anchor \(w.anchor.ddm); last fix \(w.lastFixTime?.iso8601 ?? "none")")
                }
            }
        }

        struct Ack: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "ack", abstract: "Silence the alarm and re-arm the watch.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            func run() async throws {
                let result = try store.open().updateAnchorWatch(settings: try config.settings()) { w, _ in w.acknowledge() }
                guard let result else { throw InputError("no anchor watch is set") }
                print(result.1.isEmpty ? "no alarm to silence; watching" : "alarm silenced; watching again")
            }
        }

        struct Lift: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "lift", abstract: "End the watch.")
            @OptionGroup var store: StoreOptions
            @OptionGroup var config: ConfigOptions
            func run() async throws {
                guard try store.open().updateAnchorWatch(settings: try config.settings(), { w, _ in w.lift() }) != nil else {
                    throw InputError("no anchor watch is set")
                }
                print("anchor watch ended")
            }
        }
    }
}
