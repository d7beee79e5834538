import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimePlot
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem

extension SightTables: ExpressibleByArgument {}

/// Writes `text` to `output` (a regular file replaced whole once complete), else to standard output.
func writeText(_ text: String, to output: String?, example: String) throws {
    guard let output, output != "-" else {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    do { try SideFile.writeOutput(output) { write in try write(Array(text.utf8)) } } catch {
        throw cannotWrite(output, error, example: example)
    }
}

/// An average in JSON.
func averageJSON(_ a: SightAverage) -> JSON {
    .object([
        ("body", .string(a.body.name)), ("utc", .string(a.utc.iso8601)), ("hs_deg", .number(a.hs)), ("fitted_hs_deg", .from(a.fittedHs)),
        ("predicted_slope_arcmin_per_min", .number(a.predictedSlope)), ("fitted_slope_arcmin_per_min", .from(a.fittedSlope)),
        ("limit_arcmin", .number(a.limit)), ("scatter_arcmin", .number(a.scatter)),
        ("sights", .array(a.points.map { p in
            .object([("id", .from(p.id)), ("utc", .string(p.utc.iso8601)), ("hs_deg", .number(p.hs)),
                     ("off_line_arcmin", .number(p.residual)), ("rejected", .bool(p.rejected))])
        })),
    ])
}

/// The position a sight is worked from: its DR, else its GPS position unless flagged.
func workedFrom(_ s: Sight) -> Position? { s.dr ?? s.trustedPosition }

/// `--course` and `--speed`: how the ship moved between sights, or from its DR.
struct RunOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Course made good, degrees true.", transform: decimal)
    var course: Double?

    @Option(parsing: .unconditional, help: "Speed made good, knots.", transform: decimal)
    var speed: Double?

    func validate() throws {
        if (course == nil) != (speed == nil) { throw ValidationError("give --course and --speed together") }
        if let course, !(0..<360).contains(course) { throw ValidationError("--course must be 0 to 359.9 degrees, not \(course)") }
        if let speed, !(0...60).contains(speed) { throw ValidationError("--speed must be 0 to 60 knots, not \(speed)") }
    }
}

/// How `fix` and `plot` work the fix: the run, averaging, outliers.
struct FixOptions: ParsableArguments {
    @OptionGroup var run: RunOptions

    @Flag(help: "Replace each run of sights of one body (within 10 minutes) by its average, as `marktime average` gives it.")
    var average = false

    @Flag(help: "Keep every line: no outlier is left out.")
    var keepAll = false

    /// The library's options, with the config's limits; the last hour only when no sights were chosen.
    func work(_ selection: SightSelection, _ limits: SightSettings) -> FixWork.Options {
        FixWork.Options(course: run.course, knots: run.speed, average: average, rejectOutliers: !keepAll, lastHourOnly: selection.isDefault,
                        interceptLimit: limits.interceptLimit, unadvancedLimit: limits.unadvancedLimit)
    }
}

extension MarkTime {
    struct Plot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plot",
            abstract: "Draw a plotting sheet (SVG) of sights and their fix.",
            discussion: """
                A universal plotting sheet around the fix (else the last sight's DR): latitude and longitude lines \
                with labels, a nautical-mile scale and a compass rose. Each sight's assumed position (a circle), its \
                azimuth (dotted) and intercept with an arrow toward or away from the body, and its line of position \
                perpendicular to Zn, labelled with the body and time. A running fix shows each earlier line dashed \
                where it was, the run, and the line advanced; the fix is a dot with its 95 % ellipse, the DR a ring, \
                the GPS position a square with its distance. A line `fix` left out as an outlier is dotted red. \
                Sights are chosen, advanced and averaged as `marktime fix` does; one sight, or lines that do not \
                meet, are drawn without a fix. The sheet is SVG: open it in a browser, or see it on the phone page.

                Examples:
                  marktime plot -o sheet.svg
                  marktime plot 21 22 23 --course 235 --speed 6.5 -o running-fix.svg
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions
        @OptionGroup var selection: SightSelection
        @OptionGroup var fixOptions: FixOptions

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the SVG to this file (default: standard output).", valueName: "file"))
        var output: String?

        /// What `plot` writes.
        enum Output: String, ExpressibleByArgument, CaseIterable { case svg, json }

        @Option(help: "Output: svg (the sheet), or json (what it draws: every point in degrees).")
        var format: Output = .svg

        func run() async throws {
            let limits = try config.settings().sight
            let sights = try selection.sights(store, newest: 200)
            let options = fixOptions.work(selection, limits)
            let sheet: PlottingSheet
            do {
                let work = try FixWork(sights, options: options)
                sheet = PlottingSheet(fix: work.fix, sights: work.reduced)
            } catch {
                let reduced = sights.compactMap { try? ReducedSight($0) }
                guard !reduced.isEmpty else { throw InputError("nothing to plot: no sight can be reduced\n" + error.description) }
                FileHandle.standardError.write(Data("no fix (\(error.failure.description)); the lines are drawn alone\n".utf8))
                sheet = PlottingSheet(sights: reduced)
            }
            try writeText(format == .svg ? sheet.svg() : Self.json(sheet).render() + "\n", to: output, example: format == .svg ? "sheet.svg" : "sheet.json")
            if let output, output != "-" { FileHandle.standardError.write(Data("Wrote the plotting sheet to \(output).\n".utf8)) }
        }
    }

    struct Average: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "average",
            abstract: "Average a run of sights of one body, and find the bad ones.",
            discussion: """
                Over a few minutes a body's altitude changes at a rate the almanac gives (its slope at the DR). The \
                line with that slope through the run's mean is the run's best estimate: each sight's distance from it \
                (OFF LINE, arc-minutes) shows a bad one, and a sight farther than --limit (default 2') is left out, \
                the farthest first, while two remain. The averaged sight is read off the line at --at (default: the \
                kept sights' mean time). The least-squares slope of the run is given beside the almanac's: they agree \
                when the run is good. `marktime reduce --average` and `marktime fix --average` use the average in \
                place of the run. --chart writes Hs against time with both lines (SVG).

                Examples:
                  marktime average 31 32 33 34 35
                  marktime average --since 2026-11-22T17:40:00Z --at 2026-11-22T17:45:00Z --chart run.svg
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var selection: SightSelection

        @Option(help: "The time to average to, UTC. Default: the kept sights' mean time.")
        var at: String?

        @Option(parsing: .unconditional, help: "How far from the line a sight may lie and be kept, arc-minutes.", transform: decimal)
        var limit: Double = SightAverage.defaultLimit

        @Option(help: ArgumentHelp("Also write the chart of Hs against time (SVG) to this file.", valueName: "file"))
        var chart: String?

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func validate() throws {
            if !(0.1...60).contains(limit) { throw ValidationError("--limit must be 0.1 to 60 arc-minutes, not \(limit)") }
        }

        func run() async throws {
            let sights = try selection.sights(store, newest: 5)
            let names = Set(sights.map { $0.body ?? "(no body)" })
            guard names.count <= 1 else { throw InputError(SightAverage.Failure.mixedBodies(names.sorted()).description) }
            guard let first = sights.first else { throw InputError(SightAverage.Failure.tooFew(0).description) }
            guard let name = first.body else {
                throw InputError("sight \(first.id.map(String.init) ?? "?") has no body: name it with `marktime sight edit \(first.id.map(String.init) ?? "ID") --body Sun`")
            }
            let body = try Body.parse(name)
            let missing = sights.filter { $0.hs == nil }.compactMap(\.id)
            guard missing.isEmpty else {
                throw InputError("no Hs for sight\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")): add it with `marktime sight edit ID --hs`")
            }
            guard let near = sights.lazy.compactMap(workedFrom).last else {
                throw InputError("no position for the almanac's slope: set a DR (`marktime sight edit ID --dr \"50 10 N 4 20 W\"`) or mark with a GPS fix")
            }
            let chosen = try at.map { try UTCTime.read($0, what: "--at").time }
            let average: SightAverage
            do { average = try SightAverage(sights.map { ($0.id, $0.estimate.utc, $0.hs!) }, body: body, near: near, at: chosen, limit: limit) } catch {
                throw InputError(error.description)
            }
            if let chart { try writeText(RunChart(average).svg(), to: chart, example: "run.svg") }
            switch format {
            case .json:
                print(averageJSON(average).render())
            case .table:
                var table = TextTable(header: ["ID", "UTC", "HS", "OFF LINE", ""])
                for p in average.points {
                    table.rows.append([p.id.map(String.init) ?? "", p.utc.sightTimeOfDay, SextantAngle.format(p.hs),
                                       String(format: "%+.1f'", p.residual), p.rejected ? String(format: "left out: over %@'", Position.plain(limit)) : ""])
                }
                print(table.render())
                print(String(format: "Slope: the almanac's %+.2f'/min at %@%@", average.predictedSlope, near.ddm,
                             average.fittedSlope.map { String(format: "; the run's %+.2f'/min (least squares)", $0) } ?? ""))
                let kept = average.points.filter { !$0.rejected }.count
                print("Average: \(body.name) at \(average.utc.iso8601), Hs \(SextantAngle.format(average.hs)) "
                    + "(\(kept) of \(average.points.count) sights, scatter \(String(format: "%.1f", average.scatter))')")
                print("Use it: marktime fix --average, or marktime reduce --average")
                if let chart { FileHandle.standardError.write(Data("Wrote the chart to \(chart).\n".utf8)) }
            }
        }
    }

    struct Noon: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "noon",
            abstract: "Local apparent noon at the DR, and the latitude from a meridian altitude.",
            discussion: """
                Noon is when the Sun's LHA is 0° at the ship: on the DR's local date, at --position (default: the \
                daemon's GPS fix), carried along --course and --speed from --at when given. With sights (IDs): one \
                sight gives the latitude from its Ho reduced to the meridian from the DR (Ho + Hc on the meridian − \
                Hc at the sight, at the DR's latitude): only while the body's altitude changes by under 1' a minute \
                of time, so that 15' of longitude in the DR moves the latitude by under 1'; a sight farther from the \
                meridian is refused with how far it is and the limit. Three or more around noon give the latitude \
                from the highest Ho of the run (a parabola fitted to Ho against time). Latitude = zenith distance \
                (90° − Ho) named opposite to the body's bearing, plus the declination; the body bears south when its \
                declination is south of the DR's latitude. A meridian altitude above 85° is warned of: near the \
                zenith the altitude is no parabola in time.

                Examples:
                  marktime noon --position "30 31 N 76 47 W" --at 2006-10-26T12:00:00Z
                  marktime noon --course 235 --speed 6.5
                  marktime noon 41 42 43 44 45
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var where_: SkyPositionOptions

        @Argument(help: "Sights taken at noon (one, or a run around it).")
        var ids: [Int64] = []

        @Option(help: "The DR's time, UTC (default: now, or the first sight's).")
        var at: String?

        @OptionGroup var run: RunOptions

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let sights = ids.isEmpty ? [] : try store.openForReading().sights(ids: ids).sorted { $0.estimate.utc < $1.estimate.utc }
            let position = try where_.position.map { try Position.parse($0) } ?? sights.lazy.compactMap(workedFrom).first
                ?? where_.resolve(store, required: true)!
            let utc = try at.map { try UTCTime.read($0, what: "--at").time } ?? sights.first?.estimate.utc ?? wallClock()
            let dr = DeadReckoning(position, at: utc, course: run.course ?? 0, knots: run.speed ?? 0)
            let noon = try MeridianPassage.noon(dr)
            var times = [SkyTime(noon.utc)!]
            var flags: [ReductionFlag] = []
            var latitude: (utc: UTCTime, ho: Double, dec: Double, lat: Double, body: Body, from: String, reduction: MeridianReduction?)?
            if !sights.isEmpty {
                let reduced: [ReducedSight]
                do { reduced = try sights.map { s throws(Unreducible) in try ReducedSight(s) } } catch {
                    throw InputError("a sight cannot be reduced: \(error.description)")
                }
                let bodies = Set(reduced.map(\.body.name))
                guard bodies.count == 1 else { throw InputError(SightAverage.Failure.mixedBodies(bodies.sorted()).description) }
                times += reduced.map { SkyTime($0.utc)! }
                let at: (utc: UTCTime, ho: Double), from: String
                var reduction: MeridianReduction?
                if reduced.count == 1 {
                    // One sight: reduced to the meridian from the DR, while the rule holds.
                    let r = reduced[0]
                    let e = Almanac.entry(r.body, at: SkyTime(r.utc)!)
                    let m = MeridianReduction(gha: e.gha, declination: e.declination, dr: dr.position(at: r.utc))
                    guard m.holds else { throw InputError(Self.notMeridian(r, m)) }
                    reduction = m
                    at = (r.utc, r.ho + m.correction / 60)
                    from = "sight \(r.id.map(String.init) ?? "?")"
                } else {
                    guard let top = MeridianPassage.maximum(of: reduced.map { ($0.utc, $0.ho) }) else {
                        throw InputError("the run has no highest point within it (it does not rise and fall): take sights from before noon until the altitude falls")
                    }
                    at = top
                    from = "the highest of \(reduced.count) sights"
                }
                if let warning = MeridianPassage.nearZenith(at.ho) { flags.append(ReductionFlag(.highAltitude, warning)) }
                let dec = Almanac.entry(reduced[0].body, at: SkyTime(at.utc)!).declination
                let lat = MeridianPassage.latitude(ho: at.ho, declination: dec, bearsSouth: dec < position.latitude)
                latitude = (at.utc, at.ho, dec, lat, reduced[0].body, from, reduction)
            }
            flags += deltaTFlags(times)
            switch format {
            case .json:
                print(JSON.object([
                    ("lan_utc", .string(noon.utc.iso8601)), ("lat", .number(noon.position.latitude)), ("lon", .number(noon.position.longitude)),
                    ("meridian", latitude.map { l in
                        .object([("body", .string(l.body.name)), ("utc", .string(l.utc.iso8601)), ("ho_deg", .number(l.ho)),
                                 ("dec_deg", .number(l.dec)), ("latitude", .number(l.lat)), ("latitude_ddm", .string(Position.ddm(l.lat, positive: "N", negative: "S"))),
                                 ("from", .string(l.from)), ("minutes_from_meridian", .from(l.reduction?.minutesFromMeridian)),
                                 ("reduction_arcmin", .from(l.reduction?.correction)), ("rate_arcmin_per_min", .from(l.reduction?.rate)),
                                 ("limit_min", .from(l.reduction?.limit))])
                    } ?? .null),
                    ("flags", flagsJSON(flags)),
                ]).render())
            case .table:
                print("Local apparent noon: \(noon.utc.iso8601) at \(noon.position.ddm)")
                if let l = latitude {
                    print("\(l.body.name) on the meridian at \(l.utc.sightTimeOfDay) (\(l.from)): Ho \(SextantAngle.format(l.ho)), Dec \(declinationText(l.dec))")
                    if let m = l.reduction, abs(m.minutesFromMeridian) >= 0.05 {
                        print(String(format: "Reduced to the meridian: %+.1f' for %@ %@ the passage at the DR (the altitude changing %.1f' a minute; "
                            + "a sight is reduced while it changes under %@' a minute)", m.correction, Self.duration(abs(m.minutesFromMeridian)),
                            m.minutesFromMeridian < 0 ? "before" : "after", m.rate, Position.plain(MeridianReduction.maximumRate)))
                    }
                    print("Latitude: \(Position.ddm(l.lat, positive: "N", negative: "S"))  (90° − Ho \(l.dec < position.latitude ? "+" : "−") … = zenith distance "
                        + "\(SextantAngle.format(90 - l.ho)) \(l.dec < position.latitude ? "N" : "S") of the body, plus the declination)")
                }
                for f in flags { print(f.message) }
            }
        }

        /// Why a sight is too far from the meridian to be reduced to it, with how far and the limit.
        static func notMeridian(_ r: ReducedSight, _ m: MeridianReduction) -> String {
            let id = r.id.map(String.init) ?? "?"
            let when = "\(duration(abs(m.minutesFromMeridian))) \(m.minutesFromMeridian < 0 ? "before" : "after") the \(r.body.name)'s meridian passage at the DR"
            let limit = m.limit.map { "within \(duration($0)) of the passage here" } ?? "nearer the passage"
            return "sight \(id) was taken \(when), where its altitude changed \(String(format: "%.1f", m.rate))' a minute: a meridian sight is taken while it "
                + "changes under \(Position.plain(MeridianReduction.maximumRate))' a minute (so that 15' of longitude in the DR moves the latitude under 1'), "
                + "\(limit); reduce it as a line of position with `marktime fix`, or give a sight taken nearer noon"
        }

        /// `2 h 59 min`, `30 min 10 s`, `45 s`.
        static func duration(_ minutes: Double) -> String {
            let seconds = Int((minutes * 60).rounded())
            if seconds >= 3600 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
            if seconds >= 60 { return "\(seconds / 60) min \(seconds % 60) s" }
            return "\(seconds) s"
        }
    }

    struct PolarisCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "polaris",
            abstract: "The latitude from an altitude of Polaris.",
            discussion: """
                The Nautical Almanac gives Lat = Ho − 1° + a0 + a1 + a2 from its Polaris tables. marktime solves the \
                same triangle exactly from Polaris's place at the time (the tables' source) and prints the sum the \
                three corrections would make, with the almanac's own formula beside it (its tables cover 0° to 68° N). \
                Give a sight of Polaris (its Ho from its Hs), or --ho, --at and --position for hand work. Polaris is \
                below the horizon south of about 0° 38' S: a DR there is refused. Within a degree or so of the pole two \
                latitudes see Polaris at one Ho (it bears north from one, south from the other): the one whose \
                bearing is nearer --zn is given when it is given, else the one nearer the DR, and the other with its bearing.

                Examples:
                  marktime polaris 52
                  marktime polaris --ho "50 04.3" --at 2026-02-01T03:00:00Z --position "49 41 N 6 17 W"
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var where_: SkyPositionOptions

        @Argument(help: "A sight of Polaris.")
        var id: Int64?

        @Option(name: .customLong("ho"), parsing: .unconditional, help: "Observed altitude Ho, e.g. \"50 04.3\" (instead of a sight).")
        var observed: String?

        @Option(help: "UTC of the observation (with --ho).")
        var at: String?

        @Option(parsing: .unconditional, help: "Polaris's true bearing as seen, roughly (000 or 180): near the pole, it chooses between the two latitudes that fit.",
                transform: decimal)
        var zn: Double?

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func validate() throws {
            if let zn, !(0..<360).contains(zn) { throw ValidationError("--zn must be 0 to 359.9 degrees, not \(Position.plain(zn))") }
            if let id, observed != nil || at != nil {
                throw ValidationError("give a sight of Polaris (`marktime polaris \(id)`) or --ho with --at, not both: a sight carries its own Ho and time")
            }
        }

        func run() async throws {
            let polaris = Body(named: "Polaris")!
            let ho: Double, utc: UTCTime, near: Position
            if let id {
                let sight = try store.openForReading().sight(id: id).sight
                guard sight.body.flatMap(Body.init(named:)) == polaris else {
                    throw InputError("sight \(id) is of \(sight.body ?? "no body"), not Polaris: name it with `marktime sight edit \(id) --body Polaris`")
                }
                let r: ReducedSight
                do { r = try ReducedSight(sight) } catch { throw InputError("sight \(id) cannot be reduced: \(error.description)") }
                (ho, utc, near) = (r.ho, r.utc, try where_.position.map(Position.parse) ?? r.assumedPosition)
            } else {
                guard let text = observed else { throw InputError("give a sight of Polaris (`marktime polaris ID`), or --ho with --at and --position") }
                ho = try SextantAngle.altitude(text, option: "--ho")
                guard let at else { throw InputError("--ho needs --at: the UTC of the observation") }
                utc = try UTCTime.read(at, what: "--at").time
                near = try where_.resolve(store, required: true)!
            }
            let time = try SkyTime.checked(utc)
            let p = try PolarisLatitude.observed(ho: ho, at: time, near: near, bearing: zn)
            let e = Almanac.entry(polaris, at: time)
            let flags = deltaTFlags([time])
            let ddm = { (lat: Double) in Position.ddm(lat, positive: "N", negative: "S") }
            switch format {
            case .json:
                print(JSON.object([
                    ("utc", .string(utc.iso8601)), ("ho_deg", .number(ho)), ("lha_deg", .number(p.lha)), ("dec_deg", .number(e.declination)),
                    ("correction_deg", .number(p.correction)), ("latitude", .number(p.latitude)),
                    ("latitude_ddm", .string(ddm(p.latitude))), ("zn_deg", .number(p.azimuth)),
                    ("almanac_formula_latitude", p.formulaHolds ? .number(p.almanacFormula) : .null),
                    ("other_latitude", .from(p.alternative?.latitude)), ("other_zn_deg", .from(p.alternative?.azimuth)),
                    ("flags", flagsJSON(flags)),
                ]).render())
            case .table:
                print("Polaris at \(utc.iso8601) from \(near.ddm): LHA \(SextantAngle.format(p.lha)), Dec \(declinationText(e.declination))")
                print("  Ho                  \(SextantAngle.format(ho))")
                print("  − 1°                \(SextantAngle.format(ho - 1))")
                print(String(format: "  + a0 + a1 + a2      %@ (exact)", SextantAngle.format(p.correction)))
                print("  Latitude            \(ddm(p.latitude))")
                let notes = p.notes(bearingGiven: zn != nil, field: "--zn")
                if p.formulaHolds { print("  (the almanac's formula: \(ddm(p.almanacFormula)))") } else { print("  (\(notes[0]))") }
                for note in notes.dropFirst(p.formulaHolds ? 0 : 1) { print(note) }
                for f in flags { print(f.message) }
            }
        }
    }

    struct Identify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "identify",
            abstract: "Name a star or planet from its altitude and bearing.",
            discussion: """
                For a sight of "a bright star through a gap in the clouds": every star and planet above the horizon \
                at the sight's time and DR (or GPS position), nearest first to where it was seen (its Hs, or \
                --altitude, and --zn, its bearing by compass corrected to true). DIST is the angle on the sky. \
                --name sets the sight's body to the nearest.

                Examples:
                  marktime identify 52 --zn 235
                  marktime identify 52 --zn 235 --name
                  marktime identify --altitude 40 --zn 120 --at 2026-02-01T18:30:00Z --position "50 10 N 4 20 W"
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var where_: SkyPositionOptions

        @Argument(help: "The sight to name.")
        var id: Int64?

        @Option(parsing: .unconditional, help: "The body's true bearing, degrees.", transform: decimal)
        var zn: Double

        @Option(parsing: .unconditional, help: "Its altitude, e.g. \"40 12\" (instead of a sight's Hs).")
        var altitude: String?

        @Option(help: "UTC of the observation (without a sight). Default: now.")
        var at: String?

        @Option(parsing: .unconditional, help: "How far from the observation to look, degrees.", transform: decimal)
        var radius: Double = 10

        @Flag(help: "Set the sight's body to the nearest candidate.")
        var name = false

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func validate() throws {
            if !(0..<360).contains(zn) { throw ValidationError("--zn must be 0 to 359.9 degrees, not \(zn)") }
            if !(0.1...90).contains(radius) { throw ValidationError("--radius must be 0.1 to 90 degrees, not \(radius)") }
            if name && id == nil { throw ValidationError("--name names a sight: give its ID") }
        }

        func run() async throws {
            var altitudeSeen: Double, utc: UTCTime, from: Position
            if let id {
                let sight = try store.openForReading().sight(id: id).sight
                guard let hs = try altitude.map({ text throws(InputError) in try SextantAngle.altitude(text, option: "--altitude") }) ?? sight.hs else {
                    throw InputError("sight \(id) has no Hs: give --altitude, or `marktime sight edit \(id) --hs`")
                }
                guard let p = try where_.position.map(Position.parse) ?? workedFrom(sight) else {
                    throw InputError("sight \(id) has no DR and no GPS position: give --position")
                }
                (altitudeSeen, utc, from) = (hs, sight.estimate.utc, p)
            } else {
                guard let text = altitude else { throw InputError("give a sight (`marktime identify ID --zn 235`), or --altitude with --zn") }
                altitudeSeen = try SextantAngle.altitude(text, option: "--altitude")
                utc = try at.map { try UTCTime.read($0, what: "--at").time } ?? wallClock()
                from = try where_.resolve(store, required: true)!
            }
            let time = try SkyTime.checked(utc)
            let list = BodyIdentification.candidates(altitude: altitudeSeen, azimuth: zn, at: time, from: from, within: radius)
            let flags = deltaTFlags([time])
            if name, let id, let best = list.first {
                _ = try store.open().edit(id: id, try SightEdit(SightEditText(body: best.body.name)), now: try wallClock())
            }
            switch format {
            case .json:
                print(JSON.object([
                    ("utc", .string(utc.iso8601)), ("altitude_deg", .number(altitudeSeen)), ("zn_deg", .number(zn)),
                    ("named", name ? .from(list.first?.body.name) : .null),
                    ("candidates", .array(list.map { c in
                        .object([("body", .string(c.body.name)), ("hc_deg", .number(c.altitude)), ("zn_deg", .number(c.azimuth)),
                                 ("distance_deg", .number(c.distance)), ("magnitude", .from(c.magnitude))])
                    })),
                    ("flags", flagsJSON(flags)),
                ]).render())
            case .table:
                guard !list.isEmpty else {
                    print(String(format: "No star or planet within %@° of altitude %@, bearing %05.1f°: check the bearing (true, not magnetic) and the time.",
                                 Position.plain(radius), SextantAngle.format(altitudeSeen), zn))
                    throw ExitCode.failure
                }
                var table = TextTable(header: ["BODY", "HC", "ZN", "DIST", "MAG"])
                for c in list {
                    table.rows.append([c.body.name, SextantAngle.format(c.altitude), String(format: "%05.1f°", c.azimuth),
                                       String(format: "%.1f°", c.distance), c.magnitude.map { String(format: "%.1f", $0) } ?? ""])
                }
                print(table.render())
                if name, let id, let best = list.first { print("Sight \(id) is now named \(best.body.name).") }
                for f in flags { print(f.message) }
            }
        }
    }
}

extension MarkTime.Plot {
    /// What the sheet draws, every point in decimal degrees.
    static func json(_ sheet: PlottingSheet) -> JSON {
        func point(_ p: Position?) -> JSON { p.map { .object([("lat", .number($0.latitude)), ("lon", .number($0.longitude))]) } ?? .null }
        return .object([
            ("center", point(sheet.center)), ("radius_nm", .number(sheet.radius)), ("utc", .from(sheet.utc?.iso8601)),
            ("lines", .array(sheet.lines.map { l in
                .object([("id", .from(l.id)), ("body", .string(l.body)), ("utc", .string(l.utc.iso8601)), ("ap", point(l.assumedPosition)),
                         ("zn_deg", .number(l.azimuth)), ("intercept_nm", .number(l.intercept)), ("foot", point(l.foot)),
                         ("advanced_foot", point(l.advancedFoot)), ("rejected", .bool(l.rejected))])
            })),
            ("dr", point(sheet.dr)), ("fix", point(sheet.fix)),
            ("ellipse", sheet.ellipse.map { e in
                .object([("semi_major_nm", .number(e.semiMajor)), ("semi_minor_nm", .number(e.semiMinor)), ("orientation_deg", .number(e.orientation))])
            } ?? .null),
            ("gps", point(sheet.gps)), ("gps_distance_nm", .from(sheet.gpsDistance)),
        ])
    }
}
