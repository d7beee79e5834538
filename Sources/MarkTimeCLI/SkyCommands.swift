import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeSky
import MarkTimeStore

/// Where the sky is seen from: `--position`, else the daemon's GPS fix while it is fresh.
struct SkyPositionOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: "Where to see the sky from, e.g. \"27 22.84 S 153 22.84 E\" or \"-27.3807 153.3807\". Default: the daemon's current GPS fix.")
    var position: String?

    /// The position; nil when there is none and none is `required`.
    func resolve(_ store: StoreOptions, required: Bool) throws -> Position? {
        if let position { return try Position.parse(position) }
        // Without a store there is no daemon, so no fix: only a required position is missed.
        let db: AppDatabase
        do { db = try store.openForReading() } catch { if required { throw error } else { return nil } }
        if let here = try daemonPosition(db, for: .sky) { return here }
        if required, try db.daemonStatus()?.fix?.flag != nil {
            throw InputError("no position: the daemon's GPS fix is flagged (it moved faster than the boat can; see `marktime status`): "
                + "give --position, or accept the fix with `marktime clock trust-gps`")
        }
        if required {
            throw InputError("no position: give --position (e.g. \"50 10.5 N 004 20.0 W\"), or run the daemon with a GPS fix")
        }
        return nil
    }
}

/// An almanac instant from `--at`, else now; refused outside the almanac's years.
func skyTime(_ at: String?) throws -> (UTCTime, SkyTime) {
    let utc = try at.map { try UTCTime.read($0, what: "--at").time } ?? wallClock()
    return (utc, try SkyTime.checked(utc))
}

/// The ΔT flag of the latest of these almanac instants (UT1's uncertainty grows with time),
/// when it is past the measured table: every answer worked from the almanac says it.
func deltaTFlags(_ times: [SkyTime]) -> [ReductionFlag] {
    times.map(\.ut1Uncertainty).max().flatMap { ReductionFlag.deltaT(ut1Uncertainty: $0) }.map { [$0] } ?? []
}

/// Flags in JSON, as `reduce` and `fix` give them.
func flagsJSON(_ flags: [ReductionFlag]) -> JSON {
    .array(flags.map { .object([("kind", .string($0.kind.rawValue)), ("message", .string($0.message))]) })
}

/// A declination as the almanac prints it: `N 21° 44'.7`.
func declinationText(_ dec: Double) -> String { (dec < 0 ? "S " : "N ") + SextantAngle.format(abs(dec)) }

/// The sights a reduction or fix works on: IDs, else `--since`, else the newest few.
struct SightSelection: ParsableArguments {
    @Argument(help: "Sight IDs.")
    var ids: [Int64] = []

    @Option(help: "Every sight at or after this UTC date or time.")
    var since: String?

    @Option(help: "Only sights before this UTC date or time (a bare date includes that day); with --since, a time range.")
    var until: String?

    var isDefault: Bool { ids.isEmpty && since == nil }

    /// The chosen sights, oldest first; without IDs or `--since`, the newest `n` (before `--until`).
    func sights(_ store: StoreOptions, newest n: Int) throws -> [Sight] {
        let db = try store.openForReading()
        if !ids.isEmpty { return try db.sights(ids: ids) }
        let query = SightQuery(limit: since == nil ? n : nil, since: try parseBound(since, upper: false, option: "--since"),
                               until: try parseBound(until, upper: true, option: "--until"))
        try query.check()
        // Newest first, so that a limit keeps the newest; then in time order.
        return try db.sights(query).sorted { $0.estimate.utc < $1.estimate.utc }
    }
}

extension MarkTime {
    struct AlmanacCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "almanac",
            abstract: "A body's GHA, declination, SHA, semi-diameter and horizontal parallax, and its Hc and Zn.",
            discussion: """
                Computed on the device for 1990–2060 (VSOP87 and ELP-2000/82 as Meeus truncates them, Hipparcos \
                stars), within 0.1' of the Nautical Almanac (0.2' for the Moon). BODY is an almanac name in any \
                case (Sun, Moon, Venus, Mars, Jupiter, Saturn, Vega, Polaris…) or a star's number 1–57, or \
                Aries for GHA♈ (a star's GHA is GHA♈ + its SHA); --hourly gives the day's 24 hours, as the \
                almanac's daily page does. The almanac's argument is UT1: --at is UTC, and the difference is \
                taken from IERS tables.

                Examples:
                  marktime almanac Sun
                  marktime almanac vega --at 2026-11-22T18:30:00Z --position "50 10 N 4 20 W"
                  marktime almanac Aries --at 2026-11-22 --hourly
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var where_: SkyPositionOptions

        @Argument(help: "The body.")
        var body: String

        @Option(help: "UTC instant, YYYY-MM-DDTHH:MM[:SS]Z. Default: now.")
        var at: String?

        @Flag(help: "Every whole hour of --at's UTC day (Aries only), as the almanac's daily page lists GHA♈.")
        var hourly = false

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            if Aries.isNamed(body) { return try aries() }
            if hourly { throw InputError("--hourly is for Aries: `marktime almanac Aries --hourly`") }
            let body = try Body.parse(body)
            let (utc, time) = try skyTime(at)
            let e = Almanac.entry(body, at: time)
            let position = try where_.resolve(store, required: false)
            let c = position.map { Computed(gha: e.gha, declination: e.declination, latitude: $0.latitude, longitude: $0.longitude) }
            let flags = deltaTFlags([time])
            switch format {
            case .json:
                print(JSON.object([
                    ("body", .string(body.name)), ("utc", .string(utc.iso8601)), ("gha_deg", .number(e.gha)),
                    ("dec_deg", .number(e.declination)), ("sha_deg", .from(e.sha)), ("sd_arcmin", .number(e.semiDiameter)),
                    ("hp_arcmin", .number(e.horizontalParallax)), ("hc_deg", .from(c?.altitude)), ("zn_deg", .from(c?.azimuth)),
                    ("flags", flagsJSON(flags)),
                ]).render())
            case .table:
                print("\(body.name) at \(utc.iso8601)")
                print("  GHA  \(SextantAngle.format(e.gha))")
                if let sha = e.sha { print("  SHA  \(SextantAngle.format(sha))") }
                print("  Dec  \(declinationText(e.declination))")
                if e.semiDiameter > 0 { print("  SD   \(String(format: "%.1f", e.semiDiameter))'") }
                if e.horizontalParallax > 0 { print("  HP   \(String(format: "%.1f", e.horizontalParallax))'") }
                if let c, let position {
                    print("  from \(position.ddm): Hc \(SextantAngle.format(c.altitude))  Zn \(String(format: "%05.1f", c.azimuth))°")
                }
                for f in flags { print(f.message) }
            }
        }

        /// GHA♈ at --at, or hour by hour through its day, with LHA♈ from --position.
        func aries() throws {
            let (utc, _) = try skyTime(at)
            let instants = hourly ? Aries.hours(ofDayOf: utc) : [utc]
            let times = try instants.map { t throws -> (UTCTime, SkyTime) in
                let time = try SkyTime.checked(t)
                return (t, time)
            }
            let rows = times.map { ($0.0, Almanac.ariesGHA($0.1)) }
            let flags = deltaTFlags(times.map(\.1))
            let position = try where_.resolve(store, required: false)
            let lha = { (gha: Double) in position.map { Aries.localHourAngle(gha: gha, longitude: $0.longitude) } }
            switch format {
            case .json:
                let items = rows.map { t, gha in
                    JSON.object([("body", .string("Aries")), ("utc", .string(t.iso8601)), ("gha_deg", .number(gha)), ("lha_deg", .from(lha(gha))),
                                 ("flags", flagsJSON(flags))])
                }
                print((hourly ? JSON.array(items) : items[0]).render())
            case .table:
                print("Aries (GHA♈)\(position.map { " from \($0.ddm)" } ?? "")")
                for (t, gha) in rows {
                    print("  \(t.iso8601)  GHA \(SextantAngle.format(gha))\(lha(gha).map { "  LHA \(SextantAngle.format($0))" } ?? "")")
                }
                for f in flags { print(f.message) }
            }
        }
    }

    struct SkyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sky",
            abstract: "The bodies above the horizon, brightest first, with Hc and Zn: a star finder.",
            discussion: """
                With --twilight, the sky at the next civil twilight (the Sun 6° below the horizon), when stars and \
                the horizon are both in sight.

                Examples:
                  marktime sky --twilight evening --position "50 10 N 4 20 W"
                  marktime sky --at 2026-11-22T06:45:00Z --format json
                """)

        enum Twilight: String, ExpressibleByArgument, CaseIterable { case morning, evening }

        @OptionGroup var store: StoreOptions
        @OptionGroup var where_: SkyPositionOptions

        @Option(help: "UTC instant. Default: now.")
        var at: String?

        @Option(help: "The next civil twilight after --at: morning or evening.")
        var twilight: Twilight?

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let position = try where_.resolve(store, required: true)!
            var (utc, time) = try skyTime(at)
            if let twilight {
                guard let t = SunEvents.next(-6, rising: twilight == .morning, after: utc, from: position) else {
                    if SunEvents.outside(from: utc, hours: 36) != nil {
                        throw InputError("the next 36 hours from \(utc.iso8601) run past the almanac's end (\(SkyTime.years.upperBound)-12-31), "
                            + "so the next civil twilight cannot be found: give --at at least 36 hours before it")
                    }
                    throw InputError("the Sun does not \(twilight == .morning ? "rise" : "set") through 6° below the horizon at \(position.ddm) in the next 36 hours (polar day or night)")
                }
                (utc, time) = try skyTime(t.iso8601)
            }
            let bodies = Almanac.visible(at: time, from: position)
            let flags = deltaTFlags([time])
            switch format {
            case .json:
                print(JSON.object([
                    ("utc", .string(utc.iso8601)), ("lat", .number(position.latitude)), ("lon", .number(position.longitude)),
                    ("bodies", .array(bodies.map { b in
                        .object([("body", .string(b.body.name)), ("magnitude", .number((b.magnitude * 10).rounded() / 10)),
                                 ("hc_deg", .number(b.computed.altitude)), ("zn_deg", .number(b.computed.azimuth))])
                    })),
                    ("flags", flagsJSON(flags)),
                ]).render())
            case .table:
                print("Sky at \(utc.iso8601) from \(position.ddm)")
                var table = TextTable(header: ["BODY", "MAG", "HC", "ZN"])
                for b in bodies {
                    table.rows.append([b.body.name, String(format: "%.1f", b.magnitude), SextantAngle.format(b.computed.altitude),
                                       String(format: "%05.1f°", b.computed.azimuth)])
                }
                print(bodies.isEmpty ? "Nothing above the horizon." : table.render())
                for f in flags { print(f.message) }
            }
        }
    }

    struct Reduce: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reduce",
            abstract: "Reduce sights: Ho, Hc, Zn, the intercept, and each sight's error against the GPS.",
            discussion: """
                Hs → Ho: index error (--ie as stored: negative when on the arc), dip from the height of eye, \
                refraction (the sight's temperature and pressure, else 10 °C and 1010 hPa), semi-diameter for the \
                limb, parallax from HP, and the phase of Venus and Mars; for the Moon, its limb as seen from the \
                observer, parallax at its centre's altitude and OB for the Earth's figure, exactly. Hc and Zn are worked \
                from the sight's DR when set, else from its GPS position. The intercept is in nautical miles, \
                positive toward the body. GPS-ERR is the intercept from the GPS position at the mark: the sight's \
                own error, in arc-minutes. RUN is a sight's distance from the line through three or more sights of \
                one body within ten minutes: a large one marks a bad sight.

                --assumed works each sight as HO 229 (or, with --tables pub249, Pub. 249 Vol. 2/3) does, to check \
                hand work line by line: the assumed position is the DR's latitude to the whole degree and the \
                longitude nearest the DR that makes LHA whole; the tables are entered with LHA, that latitude and \
                the whole degree of declination (same or contrary name), giving the tabulated Hc, d and Z; d × the \
                declination's minutes / 60 corrects Hc; the tabulated Z becomes Zn by the tables' rules. The exact Hc \
                and Zn at the AP are printed beside: the tables differ from them by their rounding and the second difference. \
                --average replaces each run of one body by its average (`marktime average`).

                Examples:
                  marktime reduce              the last ten sights
                  marktime reduce 12 13 14
                  marktime reduce --since 2026-11-22 --format json
                  marktime reduce 12 --assumed
                  marktime reduce 12 --assumed --tables pub249
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions
        @OptionGroup var selection: SightSelection

        @Flag(help: "Reduce from an assumed position, as the sight reduction tables lay it out.")
        var assumed = false

        @Option(name: .customLong("tables"), help: "With --assumed: ho229 (the default) or pub249.")
        var tablesChosen: SightTables?

        var tables: SightTables { tablesChosen ?? .ho229 }

        @Flag(help: "Replace each run of one body (within 10 minutes) by its average.")
        var average = false

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func validate() throws {
            if let tablesChosen, !assumed {
                throw ValidationError("--tables chooses the tables for --assumed: give both, e.g. `marktime reduce ID --assumed --tables \(tablesChosen.rawValue)`")
            }
        }

        func run() async throws {
            let limit = try config.settings().sight.interceptLimit
            var sights = try selection.sights(store, newest: 10)
            if average { sights = Sight.averagingRuns(sights).0 }
            if assumed { return try reduceAssumed(sights) }
            let results: [(Sight, Result<ReducedSight, Unreducible>)] = sights.map { s in
                (s, Result { () throws(Unreducible) in try ReducedSight(s) })
            }
            // Each reduced sight's run residual, by its place in `results` (an average has no ID).
            let reducedAt = results.indices.filter { (try? results[$0].1.get()) != nil }
            let reduced = reducedAt.map { try! results[$0].1.get() }
            var runs = [Double?](repeating: nil, count: results.count)
            for (k, residual) in zip(reducedAt, SightRun.residuals(reduced)) { runs[k] = residual }
            switch format {
            case .json:
                print(JSON.array(results.enumerated().map { k, result in
                    let (s, r) = result
                    return switch r {
                    case .success(let x):
                        .object([
                            ("id", .from(x.id)), ("utc", .string(x.utc.iso8601)), ("body", .string(x.body.name)),
                            ("ho_deg", .number(x.ho)), ("hc_deg", .number(x.computed.altitude)), ("zn_deg", .number(x.computed.azimuth)),
                            ("intercept_nm", .number(x.intercept)), ("assumed", .string(x.assumed.rawValue)),
                            ("assumed_lat", .number(x.assumedPosition.latitude)), ("assumed_lon", .number(x.assumedPosition.longitude)),
                            ("gps_error_arcmin", .from(x.gpsError)), ("run_residual_arcmin", .from(runs[k])),
                            ("ie", .number(x.corrections.index)), ("dip", .number(x.corrections.dip)),
                            ("refraction", .number(x.corrections.refraction)), ("sd", .number(x.corrections.semiDiameter)),
                            ("parallax", .number(x.corrections.parallax)), ("ob", .number(x.corrections.oblateness)),
                            ("phase", .number(x.corrections.phase)),
                            ("flags", .array(x.flags(interceptLimit: limit).map { f in
                                .object([("kind", .string(f.kind.rawValue)), ("message", .string(f.message))])
                            })),
                        ])
                    case .failure(let e):
                        .object([("id", .from(s.id)), ("utc", .string(s.estimate.utc.iso8601)), ("body", .from(s.body)),
                                 ("error", .string(e.description))])
                    }
                }).render())
            case .table:
                if results.isEmpty { print("No sights yet: press the button, or run `marktime mark`.") }
                var table = TextTable(header: ["ID", "UTC", "BODY", "HO", "HC", "ZN", "INTERCEPT", "FROM", "GPS-ERR", "RUN"])
                var failures: [String] = [], notes: [String] = []
                for (k, (s, r)) in results.enumerated() {
                    switch r {
                    case .success(let x):
                        notes += x.flags(interceptLimit: limit).map { "sight \(x.id.map(String.init) ?? "?"): \($0.message)" }
                        table.rows.append([
                            x.id.map(String.init) ?? "", x.utc.sightTimeOfDay, x.body.name, SextantAngle.format(x.ho),
                            SextantAngle.format(x.computed.altitude), String(format: "%05.1f°", x.computed.azimuth),
                            String(format: "%.1f nm %@", abs(x.intercept), x.intercept >= 0 ? "toward" : "away"),
                            x.assumed.rawValue.uppercased(), x.gpsError.map { String(format: "%+.1f'", $0) } ?? "",
                            runs[k].map { String(format: "%+.1f'", $0) } ?? "",
                        ])
                    case .failure(let e):
                        failures.append("sight \(s.id.map(String.init) ?? "?") cannot be reduced: \(e.description)")
                    }
                }
                if !table.rows.isEmpty { print(table.render()) }
                for n in notes { print(n) }
                for f in failures { print(f) }
            }
            if !results.isEmpty, reduced.isEmpty { throw ExitCode.failure }
        }

        /// Each sight worked from an assumed position as the tables lay it out.
        func reduceAssumed(_ sights: [Sight]) throws {
            let results: [(Sight, Result<(ReducedSight, TableReduction), Unreducible>)] = sights.map { s in
                (s, Result { () throws(Unreducible) in
                    let r = try ReducedSight(s)
                    let e = Almanac.entry(r.body, at: SkyTime(r.utc)!)
                    return (r, TableReduction(ho: r.ho, gha: e.gha, declination: e.declination, near: r.assumedPosition, tables: tables))
                })
            }
            switch format {
            case .json:
                print(JSON.array(results.map { s, result in
                    switch result {
                    case .success(let (r, t)):
                        .object([
                            ("id", .from(r.id)), ("utc", .string(r.utc.iso8601)), ("body", .string(r.body.name)), ("tables", .string(t.tables.rawValue)),
                            ("ap_lat", .number(t.assumedPosition.latitude)), ("ap_lon", .number(t.assumedPosition.longitude)),
                            ("gha_deg", .number(t.gha)), ("lha_deg", .int(Int64(t.lha))), ("dec_deg", .number(t.declination)),
                            ("dec_whole_deg", .int(Int64(t.declinationDegrees))), ("dec_increment_arcmin", .number(t.declinationIncrement)),
                            ("same_name", .bool(t.sameName)), ("tab_hc_deg", .number(t.tabulatedHc)), ("d_arcmin", .number(t.d)),
                            ("tab_z_deg", .number(t.tabulatedZ)), ("d_correction_arcmin", .number(t.dCorrection)), ("hc_deg", .number(t.hc)),
                            ("exact_hc_deg", .number(t.exactHc)), ("zn_deg", .number(t.zn)), ("exact_zn_deg", .number(t.exactZn)), ("ho_deg", .number(t.ho)),
                            ("intercept_nm", .number(t.intercept)),
                            ("flags", flagsJSON(ReductionFlag.deltaT(ut1Uncertainty: r.ut1Uncertainty).map { [$0] } ?? [])),
                        ])
                    case .failure(let e):
                        .object([("id", .from(s.id)), ("utc", .string(s.estimate.utc.iso8601)), ("body", .from(s.body)), ("error", .string(e.description))])
                    }
                }).render())
            case .table:
                if results.isEmpty { print("No sights yet: press the button, or run `marktime mark`.") }
                let step = tables == .ho229 ? "%.1f" : "%.0f"
                for (s, result) in results {
                    switch result {
                    case .success(let (r, t)):
                        print("Sight \(r.id.map(String.init) ?? "avg") \(r.body.name) at \(r.utc.iso8601), \(tables == .ho229 ? "HO 229" : "Pub. 249")")
                        print("  AP           \(t.assumedPosition.ddm)")
                        print("  GHA          \(SextantAngle.format(t.gha))")
                        print("  LHA          \(t.lha)°")
                        print("  Dec          \(declinationText(t.declination)) (\(t.sameName ? "same" : "contrary") name): \(t.declinationDegrees)° + \(String(format: "%.1f", t.declinationIncrement))'")
                        print("  Tab Hc       \(SextantAngle.format(t.tabulatedHc))    d \(String(format: "%+" + step.dropFirst(), t.d))'    Z \(String(format: step, t.tabulatedZ))°")
                        print("  d corr       \(String(format: "%+.1f", t.dCorrection))'")
                        print("  Hc           \(SextantAngle.format(t.hc))    (exact at the AP \(SextantAngle.format(t.exactHc)))")
                        print("  Ho           \(SextantAngle.format(t.ho))")
                        print(String(format: "  Intercept    %.1f nm %@", abs(t.intercept), t.intercept >= 0 ? "toward" : "away"))
                        print("  Zn           \(String(format: "%05.1f", t.zn))° from tab Z    (exact at the AP \(String(format: "%05.1f", t.exactZn))°)")
                        if let f = ReductionFlag.deltaT(ut1Uncertainty: r.ut1Uncertainty) { print("  " + f.message) }
                    case .failure(let e):
                        print("sight \(s.id.map(String.init) ?? "?") cannot be reduced: \(e.description)")
                    }
                }
            }
            if !results.isEmpty, !results.contains(where: { (try? $0.1.get()) != nil }) { throw ExitCode.failure }
        }
    }

    struct FixCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fix",
            abstract: "The position from two or more sights, and how far it is from the GPS.",
            discussion: """
                The Nautical Almanac's least-squares fix, iterated until it moves less than 0.01'. Earlier lines \
                are advanced to the time of the last sight: by --course and --speed when given, else along the GPS \
                positions recorded with the sights, else not at all. The 95 % ellipse uses σ from the residuals with \
                three lines or more, else an assumed 1'. Without IDs or --since, the sights taken within an hour of \
                the newest reducible one.

                Outliers: with four lines or more, the line farthest from the fix of the others is left out when it \
                passes more than 3 σ of theirs, and more than 2 nm, from it; again while four remain. Each line left \
                out is named with its distance (--keep-all keeps every line). --average replaces each run of one \
                body by its averaged sight (see `marktime average`). `marktime plot` draws the fix.

                Examples:
                  marktime fix
                  marktime fix 21 22 23
                  marktime fix --since 2026-11-22T09:00:00Z --course 235 --speed 6.5
                  marktime fix --since 2026-11-22T17:40:00Z --average
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions
        @OptionGroup var selection: SightSelection
        @OptionGroup var fixOptions: FixOptions

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let limits = try config.settings().sight
            let sights = try selection.sights(store, newest: 200)
            let work: FixWork
            do {
                work = try FixWork(sights, options: fixOptions.work(selection, limits))
            } catch {
                throw InputError(error.description)
            }
            let (fix, flags, skipped, runText) = (work.fix, work.flags, work.skipped.map { ($0.sight, $0.why) }, work.runText)
            switch format {
            case .json:
                print(JSON.object([
                    ("utc", .string(fix.utc.iso8601)), ("lat", .number(fix.position.latitude)), ("lon", .number(fix.position.longitude)),
                    ("lat_ddm", .string(fix.position.latitudeDDM)), ("lon_ddm", .string(fix.position.longitudeDDM)),
                    ("rms_nm", .number(fix.rms)),
                    ("ellipse", .object([
                        ("semi_major_nm", .number(fix.ellipse.semiMajor)), ("semi_minor_nm", .number(fix.ellipse.semiMinor)),
                        ("orientation_deg", .number(fix.ellipse.orientation)), ("sigma_nm", .number(fix.ellipse.sigma)),
                        ("sigma_assumed", .bool(fix.ellipse.sigmaAssumed)),
                    ])),
                    ("lines", .array(fix.lines.map { l in
                        .object([("id", .from(l.id)), ("body", .string(l.body.name)), ("utc", .string(l.utc.iso8601)),
                                 ("zn_deg", .number(l.azimuth)), ("residual_nm", .number(l.residual)), ("advance", .string(l.advance.rawValue))])
                    })),
                    ("flags", .array(flags.map { .object([("kind", .string($0.kind.rawValue)), ("message", .string($0.message))]) })),
                    ("run", .string(runText)), ("iterations", .int(Int64(fix.iterations))),
                    ("gps_distance_nm", .from(fix.gpsDistance)), ("gps_bearing_deg", .from(fix.gpsBearing)),
                    ("skipped", .array(skipped.map { .object([("id", .from($0.0.id)), ("error", .string($0.1.description))]) })),
                    ("rejected", .array(work.rejected.map { r in
                        .object([("id", .from(r.id)), ("body", .string(r.body.name)), ("utc", .string(r.utc.iso8601)),
                                 ("residual_nm", .number(r.residual)), ("threshold_nm", .number(r.threshold)), ("reason", .string(r.reason))])
                    })),
                    ("averaged", .array(work.averages.map(averageJSON))),
                ]).render())
            case .table:
                // Lines not advanced over a run meet somewhere, but not where the ship was.
                let named = flags.contains { $0.kind == .notAdvanced } ? "Lines meet (not a fix: see below)" : "Fix"
                print("\(named) at \(fix.utc.iso8601): \(fix.position.ddm)")
                print(String(format: "  %d lines, RMS %.2f nm; 95%% ellipse %.1f × %.1f nm, long axis %03.0f°%@",
                             fix.lines.count, fix.rms, fix.ellipse.semiMajor, fix.ellipse.semiMinor, fix.ellipse.orientation,
                             fix.ellipse.sigmaAssumed ? " (σ assumed 1')" : ""))
                print("  lines advanced: \(runText)")
                if let d = fix.gpsDistance, let b = fix.gpsBearing {
                    print(String(format: "  %.1f nm from the GPS position, bearing %03.0f°", d, b))
                }
                var table = TextTable(header: ["ID", "UTC", "BODY", "ZN", "RESIDUAL", "ADVANCED"])
                for l in fix.lines {
                    table.rows.append([l.id.map(String.init) ?? "avg", l.utc.sightTimeOfDay, l.body.name,
                                       String(format: "%05.1f°", l.azimuth), String(format: "%+.2f nm", l.residual), l.advance.rawValue])
                }
                print(table.render())
                for r in work.rejected { print("sight \(r.id.map(String.init) ?? "?") (\(r.body.name)) left out: \(r.reason)") }
                for a in work.averages {
                    print("\(a.body.name) at \(a.utc.sightTimeOfDay): the average of sights \(a.points.compactMap { $0.id.map(String.init) }.joined(separator: ", "))")
                }
                for f in flags { print(f.message) }
                for (s, e) in skipped { print("sight \(s.id.map(String.init) ?? "?") left out: \(e.description)") }
            }
        }
    }
}
