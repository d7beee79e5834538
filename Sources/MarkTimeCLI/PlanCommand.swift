import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem

extension MarkTime {
    struct Plan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "What to shoot: the best three or four bodies for a fix, and what the sextant will read.",
            discussion: """
                For a time (--at, default now) or the next twilight window (--twilight morning|evening: the Sun's \
                centre between 3° and 10° below the horizon, --sun-high and --sun-low), from the daemon's GPS fix \
                or --position: the set of 3 (or --bodies 4) spread best in azimuth (120° apart for three, 90° for \
                four), between --lowest and --highest (15° and 70°) and brighter than magnitude --faintest (3), \
                the Moon and the planets with the stars. Every other body above the horizon is listed with the \
                reason it was left out.

                HS is the predicted sextant reading, to preset the sextant so the body shows in the horizon \
                glass: Hc with the reduction's corrections run backwards (index error, dip from the height of \
                eye, refraction at the temperature and pressure, semi-diameter for the limb, parallax), so that a \
                sight read at HS at that time reduces to an intercept of 0.0' at the position. The Sun and the \
                Moon are planned on their lower limb unless --limb upper. HS/MIN is how fast the reading changes.
                The height of eye, index error, temperature and pressure are those given, else the newest sight's.

                --live keeps the chosen set on the screen and ticks each body's HS and ZN every second on the \
                system clock, with the minutes left in the twilight window: the body to shoot next is marked \
                (n or → the next, ← the one before, q quits).

                Examples:
                  marktime plan --twilight evening --position "50 10 N 4 20 W" --eye-height 2.5 --ie -1.2
                  marktime plan --at 2026-11-22T06:45:00Z --bodies 4 --format json
                  marktime plan --twilight evening --live
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var where_: SkyPositionOptions

        @Option(help: "UTC instant. Default: now.")
        var at: String?

        @Option(help: "The next twilight window after --at: morning or evening.")
        var twilight: SkyCommand.Twilight?

        @Option(name: .customLong("sun-high"), parsing: .unconditional, help: "The twilight window's bright end: the Sun's altitude, degrees.", transform: decimal)
        var sunHigh: Double = -3

        @Option(name: .customLong("sun-low"), parsing: .unconditional, help: "The twilight window's dark end: the Sun's altitude, degrees.", transform: decimal)
        var sunLow: Double = -10

        @Option(help: "How many bodies: 3 or 4.")
        var bodies: Int = 3

        @Option(parsing: .unconditional, help: "The lowest altitude to shoot, degrees.", transform: decimal)
        var lowest: Double = 15

        @Option(parsing: .unconditional, help: "The highest altitude to shoot, degrees.", transform: decimal)
        var highest: Double = 70

        @Option(parsing: .unconditional, help: "The faintest star to plan, magnitude.", transform: decimal)
        var faintest: Double = 3

        @Option(name: .customLong("eye-height"), help: "Height of eye, metres. Default: the newest sight's.")
        var eyeHeight: String?

        @Option(parsing: .unconditional, help: "Index error, arc-minutes (negative when on the arc). Default: the newest sight's, else 0.")
        var ie: String?

        @Option(parsing: .unconditional, help: "Air temperature, °C. Default: the newest sight's, else 10.")
        var temp: String?

        @Option(parsing: .unconditional, help: "Air pressure, hPa. Default: the newest sight's, else 1010.")
        var pressure: String?

        @Option(help: "The Sun's and the Moon's limb: lower or upper.")
        var limb: String = "lower"

        @Option(help: "Output: table or json.")
        var format: Format = .table

        @Flag(help: "Tick the chosen set's HS and ZN every second in the terminal (n or → the next body, ← the one before, q quits).")
        var live = false

        func run() async throws {
            if live {
                guard self.at == nil else { throw InputError("--live ticks the present moment: leave out --at") }
                guard format == .table else { throw InputError("--live draws a screen, not --format json") }
                guard Terminal.isTerminal(STDIN_FILENO), Terminal.isTerminal(STDOUT_FILENO) else {
                    throw InputError("plan --live needs a terminal; `marktime plan` prints the same plan once")
                }
            }
            guard lowest < highest else {
                throw InputError("the altitude band --lowest \(Position.plain(lowest))° to --highest \(Position.plain(highest))° must "
                    + "run upward within 0° to 90° (default 15° to 70°)")
            }
            let limb = try Limb.parse(self.limb)
            let position = try where_.resolve(store, required: true)!
            let newest: Sight? = (try? store.openForReading()).flatMap { db in
                (try? db.sights(SightQuery(limit: 50)))?.first { $0.eyeHeight != nil }
            }
            let sextant = try SextantReading.planned(eyeHeight: try eyeHeight.map(SightField.eyeHeight), indexError: try ie.map(SightField.indexError),
                                                     celsius: try temp.map(SightField.temperature), hectopascals: try pressure.map(SightField.pressure),
                                                     limb: limb, newest: newest)
            let (at, _) = try skyTime(self.at)
            let (utc, window) = try SightPlan.time(at: at, twilight: twilight.map { $0 == .morning }, from: position, bright: sunHigh, dark: sunLow)
            let plan = try SightPlan(at: utc, from: position, sextant: sextant,
                                     options: .init(band: lowest...highest, count: bodies, faintest: faintest))
            let flags = deltaTFlags([try SkyTime.checked(utc)])
            if live {
                return try Self.tick(LivePreset(plan, sextant: sextant, window: window.map { $0.start...$0.end }), twilight: twilight)
            }
            switch format {
            case .json:
                print(JSON.object([
                    ("utc", .string(utc.iso8601)), ("lat", .number(position.latitude)), ("lon", .number(position.longitude)),
                    ("window_start", window.map { .string($0.start.iso8601) } ?? .null), ("window_end", window.map { .string($0.end.iso8601) } ?? .null),
                    ("eye_height_m", .number(sextant.eyeHeight)), ("ie_arcmin", .number(sextant.indexError)),
                    ("temperature_c", .number(sextant.celsius)), ("pressure_hpa", .number(sextant.hectopascals)),
                    ("bodies", .array(plan.lines.map { l in
                        .object([("body", .string(l.body.name)), ("chosen", .bool(l.chosen)), ("utc", .string(utc.iso8601)),
                                 ("magnitude", .number((l.magnitude * 10).rounded() / 10)),
                                 ("zn_deg", .number(l.computed.azimuth)), ("hc_deg", .number(l.computed.altitude)), ("hs_deg", .number(l.hs)),
                                 ("limb", .string(l.body == .sun || l.body == .moon ? limb.rawValue : Limb.center.rawValue)),
                                 ("hs_arcmin_per_min", .number(l.hsPerMinute)), ("reason", l.reason.map(JSON.string) ?? .null)])
                    })),
                    ("sun_altitude_deg", .number(plan.sunAltitude)), ("warning", plan.warning.map(JSON.string) ?? .null),
                    ("flags", flagsJSON(flags)),
                ]).render())
            case .table:
                let when = window.map { " (\(twilight!.rawValue) twilight \($0.start.isoTimeOfDayMinutes)–\($0.end.isoTimeOfDayMinutes) UTC)" } ?? ""
                print("Plan for \(utc.iso8601)\(when) from \(position.ddm)")
                print("Sextant: height of eye \(Position.plain(sextant.eyeHeight)) m, index error \(Position.plain(sextant.indexError))', "
                    + "\(Position.plain(sextant.celsius)) °C, \(Position.plain(sextant.hectopascals)) hPa")
                var chosen = TextTable(header: ["BODY", "MAG", "ZN", "HC", "HS", "HS/MIN"])
                for l in plan.chosen {
                    chosen.rows.append([l.body == .sun || l.body == .moon ? "\(l.body.name) \(limb == .lower ? "LL" : "UL")" : l.body.name,
                                        String(format: "%.1f", l.magnitude), String(format: "%05.1f°", l.computed.azimuth),
                                        SextantAngle.format(l.computed.altitude), SextantAngle.format(l.hs), String(format: "%+.1f'", l.hsPerMinute)])
                }
                print(chosen.render())
                var others = TextTable(header: ["LEFT OUT", "MAG", "ZN", "HC", "HS", "WHY"])
                for l in plan.lines where !l.chosen {
                    others.rows.append([l.body.name, String(format: "%.1f", l.magnitude), String(format: "%05.1f°", l.computed.azimuth),
                                        SextantAngle.format(l.computed.altitude), SextantAngle.format(l.hs), l.reason ?? ""])
                }
                if !others.rows.isEmpty { print(others.render()) }
                if let warning = plan.warning { print("Warning: " + warning) }
                for f in flags { print(f.message) }
            }
        }

        /// The live screen, redrawn every second until q.
        static func tick(_ preset: LivePreset, twilight: SkyCommand.Twilight?) throws {
            var preset = preset
            let terminal = RawTerminal()
            defer { terminal.restore() }
            var keys = KeyReader()
            while true {
                // Drawn for each whole second as it turns: the values are the second's shown.
                let now = try wallClock()
                terminal.draw(try frame(preset, at: UTCTime(wholeSeconds: now.wholeSeconds), twilight: twilight))
                let left = 1 - Double(now.nanosecondsSinceEpoch - now.wholeSeconds * 1_000_000_000) / 1e9
                switch keys.next(wait: left) {
                case nil: continue
                case .quit: return
                case .now, .move(minutes: 1): preset.advance()
                case .move(minutes: -1): preset.advance(by: -1)
                case .move: continue
                }
            }
        }

        /// The live screen's lines at `now`.
        static func frame(_ preset: LivePreset, at now: UTCTime, twilight: SkyCommand.Twilight?) throws -> [String] {
            let limb = preset.sextant.limb
            var table = TextTable(header: ["", "BODY", "HS", "ZN", "HC", "HS/MIN"])
            for (i, l) in try preset.lines(at: now).enumerated() {
                table.rows.append([i == preset.next ? "▶" : "", l.body == .sun || l.body == .moon ? "\(l.body.name) \(limb == .upper ? "UL" : "LL")" : l.body.name,
                                   SextantAngle.format(l.hs), String(format: "%05.1f°", l.computed.azimuth), SextantAngle.format(l.computed.altitude),
                                   String(format: "%+.1f'", l.hsPerMinute)])
            }
            let window = preset.windowText(at: now).map { "\(twilight?.rawValue.capitalized ?? "The") twilight window: \($0)" }
            return ["\u{1B}[2mmarktime plan --live   n/→ next body   ← the one before   q quit\u{1B}[0m",
                    "\u{1B}[1m\(now.iso8601.prefix(19).replacingOccurrences(of: "T", with: " ")) UTC  from \(preset.position.ddm)\u{1B}[0m",
                    window ?? "No twilight window: the plan's set at this moment", ""]
                + table.render().split(separator: "\n").map(String.init)
        }
    }
}
