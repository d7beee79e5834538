import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem

extension MarkTime {
    struct Lunar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lunar",
            abstract: "The time from a lunar distance, and so the watch's error.",
            discussion: """
                Without GPS or a time signal, the Moon is the clock: it moves about its own diameter an hour against \
                the Sun, the planets and the stars near its path. Measure the distance from the Moon's near or far \
                limb to the Sun's near limb, a planet or a star (the mean of several, with the watch time of each), \
                and give the watch time and the DR. marktime takes the distance to the centres (the Moon's \
                semi-diameter as seen from you, shortened by refraction along the line), clears it of refraction and \
                parallax with the altitudes (measured with --moon-hs and --body-hs, or else computed from the DR) by \
                the exact spherical formula, adds what the Earth's figure changes at the DR, and finds the UT at \
                which the almanac's distance between the centres is the cleared one.

                The answer is UT − watch: positive when the watch is slow. Its uncertainty is the distance's stated \
                error (--error, default 0.2', a careful mean; a single distance is good to perhaps 0.5') and the \
                almanac's (0.05') over the rate at which the distance changes (about 0.3' to 0.55' a minute of time), \
                with UT1's: 0.2' is about half a minute of time, 7' of longitude. A distance that changes less than \
                0.1' a minute is refused. With the altitudes measured, the DR matters little (only to the Earth's \
                figure); with them computed, an error in the DR's longitude moves the answer as much as it would \
                move a watch. Checked against published lunars (George Huxtable's Regulus lunar of 2005, Paul \
                Hirose's Sun lunar of 2017 and a Moon-Aldebaran lunar of 2017 worked on NavList) and 300 lunars \
                made from an independent ephemeris.

                Mark the distance with the button (or `marktime mark`) and give --sight ID: the sight's stamp is the \
                watch time (an unsynced stamp may be days off: then give --at, the watch time read at the distance), \
                and its DR, else its fix, the DR. With --set-clock the daemon takes the \
                lunar's UT as a `lunar` clock sample at that sight's kernel time, when the sight is of this boot and \
                nothing better dates it (after a reboot without GPS, RTC or time signal, nothing does): the stamps \
                of this boot's sights that were unsynced, or worse than the lunar, are re-dated from it, and presses \
                after it are carried from it.

                Examples:
                  marktime lunar --body Regulus --limb near --distance "36 48.9" --at 2005-03-26T00:00:00Z --dr "0 00 N 0 00 E"
                  marktime lunar --body Aldebaran --limb far --distance "95 53.8" --at 2017-12-24T00:05:54Z \\
                      --dr "28 41.2 N 82 18.3 W" --moon-hs "36 52.3" --moon-limb lower --body-hs "36 12.0" --eye-height 0
                  marktime lunar --body Jupiter --limb near --distance "41 12.3" --sight 42 --set-clock
                """)

        @OptionGroup var store: StoreOptions

        @Option(help: "The other body: Sun, Venus, Mars, Jupiter, Saturn or a navigational star.")
        var body: String

        @Option(help: "The Moon's limb in contact: near or far (with the Sun, always the Sun's near limb).")
        var limb: LunarObservation.MoonLimb

        @Option(parsing: .unconditional, help: "The sextant distance, e.g. \"36 48.9\" (before the index error).")
        var distance: String

        @Option(help: "The watch time of the distance, as UTC: YYYY-MM-DDTHH:MM:SSZ (with --sight: the sight's stamp unless given).")
        var at: String?

        @Option(help: "The sight marked at the distance: its stamp is the watch time, its DR (else its fix) the DR.")
        var sight: Int64?

        @Flag(help: "Give the lunar's UT to the daemon as a clock sample at --sight's instant.")
        var setClock = false

        @Option(parsing: .unconditional, help: "The DR, e.g. \"28 41.2 N 82 18.3 W\". Default: the daemon's last fix.")
        var dr: String?

        @Option(parsing: .unconditional, help: "Index error, arc-minutes, as stored: negative when on the arc.", transform: decimal)
        var ie: Double = 0

        @Option(parsing: .unconditional, help: "Hs of the Moon, measured with the distance (else computed from the DR).")
        var moonHs: String?

        @Option(help: "The Moon's limb for --moon-hs: lower or upper.")
        var moonLimb: String = "lower"

        @Option(parsing: .unconditional, help: "Hs of the other body, measured with the distance (else computed from the DR).")
        var bodyHs: String?

        @Option(help: "The other body's limb for --body-hs: lower or upper for the Sun; a star or planet is its centre.")
        var bodyLimb: String?

        @Option(parsing: .unconditional, help: "Height of eye, metres: needed with a measured altitude (its dip).", transform: decimal)
        var eyeHeight: Double?

        @Option(parsing: .unconditional, help: "Air temperature, °C (default 10).", transform: decimal)
        var temp: Double = 10

        @Option(parsing: .unconditional, help: "Air pressure, hPa (default 1010).", transform: decimal)
        var pressure: Double = 1010

        @Option(parsing: .unconditional, help: "How far the distance may be wrong, arc-minutes (default 0.2).", transform: decimal)
        var error: Double = LunarObservation.defaultDistanceError

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func validate() throws {
            if at == nil, sight == nil { throw ValidationError("give the watch time of the distance: --at TIME, or --sight ID for a marked one") }
            if setClock, sight == nil { throw ValidationError("--set-clock needs --sight ID: the sight marked at the distance ties its UT to the daemon's clock") }
            if !(0.01...30).contains(error) { throw ValidationError("--error must be 0.01' to 30', not \(Position.plain(error))'") }
            if abs(ie) > 30 { throw ValidationError("--ie \(Position.plain(ie))' is more than 30': check the index error (arc-minutes, negative on the arc)") }
            if let eyeHeight, !(0...100).contains(eyeHeight) { throw ValidationError("--eye-height must be 0 to 100 m, not \(Position.plain(eyeHeight))") }
            if !(-40...50).contains(temp) { throw ValidationError("--temp must be −40 to 50 °C, not \(Position.plain(temp))") }
            if !(850...1090).contains(pressure) { throw ValidationError("--pressure must be 850 to 1090 hPa, not \(Position.plain(pressure))") }
            if (moonHs != nil || bodyHs != nil) && eyeHeight == nil {
                throw ValidationError("a measured altitude needs --eye-height (metres; 0 for an artificial horizon's half angle): its dip")
            }
        }

        func run() async throws {
            let other = try Body.parse(body)
            let sextant = try SextantAngle.parse(distance, what: "--distance")
            let marked = try sight.map { id in try store.openForReading().sight(id: id).sight }
            // An unsynced stamp may be days off, beyond the lunar's ±12 h: --at gives the watch time then.
            let watch: UTCTime
            if let at { watch = try UTCTime.read(at, what: "--at").time } else if let marked { watch = marked.estimate.utc } else {
                throw InputError("give the watch time of the distance: --at TIME, or --sight ID for a marked one")
            }
            let fix = dr != nil ? nil : marked.flatMap { $0.dr ?? ($0.positionFlag == nil ? $0.position : nil) }
                ?? (try? daemonPosition(try store.openForReading(), for: .sky))
            guard let position = try dr.map(Position.parse) ?? fix else {
                throw InputError("no DR: give --dr (e.g. \"28 41.2 N 82 18.3 W\"), the position you reckon you are at")
            }
            var observation = LunarObservation(body: other, limb: limb, distance: sextant, watch: watch, position: position, indexError: ie,
                                               eyeHeight: eyeHeight ?? 0, celsius: temp, hectopascals: pressure, distanceError: error)
            if let moonHs {
                let limb = try Limb.parse(moonLimb)
                guard limb != .center else { throw InputError("--moon-limb is lower or upper: the Moon's centre cannot be brought to the horizon") }
                observation.moonAltitude = .init(hs: try SextantAngle.altitude(moonHs, option: "--moon-hs"), limb: limb)
            }
            if let bodyHs {
                let limb = try bodyLimb.map(Limb.parse) ?? (other == .sun ? .lower : .center)
                if other != .sun, limb != .center { throw InputError("--body-limb: \(other.name) is taken by its centre; leave --body-limb out") }
                observation.bodyAltitude = .init(hs: try SextantAngle.altitude(bodyHs, option: "--body-hs"), limb: limb)
            }
            let s: LunarSolution
            do { s = try LunarSolution(observation) } catch { throw InputError(error.description) }
            let flags = deltaTFlags([SkyTime(s.utc)].compactMap { $0 })
            let clock = try marked.flatMap { m in try setClock ? setDaemonClock(sight: m, solution: s) : nil }
            switch format {
            case .json:
                var fields: [(String, JSON)] = [
                    ("body", .string(other.name)), ("limb", .string(limb.rawValue)), ("distance_deg", .number(sextant)),
                    ("watch", .string(watch.iso8601)), ("utc", .string(s.utc.iso8601)),
                    ("error_s", .number(s.error)), ("uncertainty_s", .number(s.uncertainty)),
                    ("rate_arcmin_per_min", .number(s.rate)), ("apparent_deg", .number(s.apparent)), ("cleared_deg", .number(s.cleared)),
                    ("moon_sd_arcmin", .number(s.moonSemiDiameter)), ("body_sd_arcmin", .number(s.bodySemiDiameter)),
                    ("moon_altitude_deg", .number(s.moonAltitude)), ("moon_altitude_measured", .bool(s.moonAltitudeMeasured)),
                    ("body_altitude_deg", .number(s.bodyAltitude)), ("body_altitude_measured", .bool(s.bodyAltitudeMeasured)),
                    ("figure_arcmin", .number(s.figure)), ("dr", .string(position.ddm)), ("flags", flagsJSON(flags)),
                ]
                if let sight { fields.append(("sight", .number(Double(sight)))) }
                if let clock { fields.append(("clock", clock.json)) }
                print(JSON.object(fields).render())
            case .table:
                let minutes = { (m: Double) in (m < 0 ? "−" : "+") + String(format: "%.1f'", abs(m)) }
                let altitude = { (h: Double, measured: Bool) in SextantAngle.format(h) + (measured ? " (measured)" : " (computed from the DR)") }
                print("Lunar: the Moon's \(limb.rawValue) limb to \(other == .sun ? "the Sun's near limb" : other.name), "
                    + "\(SextantAngle.format(sextant)) at watch \(watch.iso8601), DR \(position.ddm)")
                print("  index error          \(minutes(ie))")
                print("  semi-diameters       Moon \(minutes(limb == .near ? s.moonSemiDiameter : -s.moonSemiDiameter))"
                    + (s.bodySemiDiameter > 0 ? ", Sun \(minutes(s.bodySemiDiameter))" : ""))
                print("  between the centres  \(SextantAngle.format(s.apparent))")
                print("  Moon's altitude      \(altitude(s.moonAltitude, s.moonAltitudeMeasured))")
                print("  \((other.name + "'s altitude").padding(toLength: 20, withPad: " ", startingAt: 0)) \(altitude(s.bodyAltitude, s.bodyAltitudeMeasured))")
                print("  cleared              \(SextantAngle.format(s.cleared)) (the Earth's figure \(minutes(s.figure)))")
                print(String(format: "  the distance %@ %.2f' a minute of time", s.rate >= 0 ? "grows" : "closes", abs(s.rate)))
                print(String(format: "UT of the distance    %@ ± %.0f s", s.utc.iso8601, s.uncertainty))
                let slowOrFast = abs(s.error) < 0.5 ? "right" : s.error > 0 ? String(format: "%.0f s slow", s.error) : String(format: "%.0f s fast", -s.error)
                print(String(format: "The watch is %@: UT − watch = %+.1f s ± %.1f s.", slowOrFast, s.error, s.uncertainty))
                for f in flags { print(f.message) }
                if let clock { print(clock.isLunar ? "Clock: " + clock.sentence : "Clock not set: " + clock.sentence) }
            }
            if case .refused = clock { throw ExitCode(1) }
        }

        /// Sends the lunar's UT for the marked sight's instant to the daemon; its answer.
        func setDaemonClock(sight marked: Sight, solution s: LunarSolution) throws -> TimeSignalAnswer {
            let db = try store.openForReading()
            guard case .daemon = DaemonLock.holder(store: db.path) else {
                throw InputError("no daemon is running on \(db.path): --set-clock gives the lunar's UT to the daemon's clock "
                    + "(start it with `marktime daemon`, or `sudo systemctl start marktime`); without --set-clock the lunar is only worked")
            }
            return try TimeSignalClient.tell(store: db.path, lunar: LunarTime(sight: marked.id ?? 0, instant: marked.instant, utc: s.utc, uncertainty: s.uncertainty))
        }
    }
}

extension LunarObservation.MoonLimb: ExpressibleByArgument {}
