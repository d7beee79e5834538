import Foundation
import Hummingbird
import MarkTimeCore
import MarkTimePlot
import MarkTimeSky
import MarkTimeStore

/// The fix page (the fix of chosen sights, its lines and its plotting sheet) and the
/// navigator's tools (noon, Polaris, naming a body, averaging a run, the tables' working):
/// each a form read with GET, worked by the same library operation as the command line.
struct NavigationRoutes {
    let site: Site

    func add(to router: Router<WebContext>) {
        router.get("/fix") { request, context in try fixPage(request, context: context) }
        router.get("/tools") { request, context in try toolsPage(request, context: context) }
        router.get("/tools/preset") { request, context in try presetNow(request, context: context) }
    }

    /// A query's text fields, empty ones as absent.
    struct Query {
        let parameters: [String: String]
        /// As a browser sends a form by GET (application/x-www-form-urlencoded: `+` is a
        /// space, `%2B` a plus), read by the decoder the POST forms go through.
        init(_ request: Request) throws(InputError) {
            let all: [String: String]
            do { all = try URLEncodedFormDecoder().decode([String: String].self, from: request.uri.query ?? "") } catch {
                throw InputError("the address's query cannot be read as a form (\(error)): open the page from its form again")
            }
            parameters = all.filter { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        subscript(_ name: String) -> String? { parameters[name] }

        func decimal(_ name: String, label: String, range: ClosedRange<Double>) throws(InputError) -> Double? {
            guard let text = self[name] else { return nil }
            guard let v = Quantity.decimal(text), range.contains(v) else {
                throw InputError("\(label) '\(Text.escaped(text))' is not a number from \(Position.plain(range.lowerBound)) to \(Position.plain(range.upperBound))")
            }
            return v
        }

        /// Sight IDs written `12, 13 14`.
        func ids() throws(InputError) -> [Int64] {
            guard let text = self["ids"] else { return [] }
            let words = text.split(whereSeparator: { $0 == "," || $0 == " " })
            var ids: [Int64] = []
            for w in words {
                guard let id = Int64(w), id > 0 else { throw InputError("'\(Text.escaped(String(w)))' is not a sight number: write them like 12, 13, 14") }
                ids.append(id)
            }
            return ids
        }
    }

    /// The sights a fix or a run works on: `ids`, else `since`/`until`, else the newest 200.
    func sights(_ q: Query) throws -> (sights: [Sight], chosen: Bool) {
        let ids = try q.ids()
        if !ids.isEmpty { return (try site.store.sights(ids: ids), true) }
        var query = SightQuery(limit: 200)
        query.since = try q["since"].map { text throws(InputError) in try UTCTime.bound(text, upper: false, what: "'from'") }
        query.until = try q["until"].map { text throws(InputError) in try UTCTime.bound(text, upper: true, what: "'to'") }
        return (try site.store.sights(query).sorted { $0.estimate.utc < $1.estimate.utc }, query.since != nil)
    }

    // MARK: The fix

    func fixPage(_ request: Request, context: WebContext) throws -> Response {
        let q: Query
        do { q = try Query(request) } catch {
            return try site.pages.page("fix", title: "Fix", Pages.Message(error: "\(error)"), context: context, status: .badRequest, section: "/tools")
        }
        var view = FixView(ids: q["ids"] ?? "", since: q["since"] ?? "", until: q["until"] ?? "", course: q["course"] ?? "", speed: q["speed"] ?? "",
                           average: q["average"] != nil, keepAll: q["keepAll"] != nil)
        do {
            let course = try q.decimal("course", label: "the course", range: 0...359.9)
            let speed = try q.decimal("speed", label: "the speed", range: 0...60)
            if (course == nil) != (speed == nil) { throw InputError("give the course and the speed together") }
            let (sights, chosen) = try sights(q)
            let limits = try site.settings.sight
            let work = try FixWork(sights, options: .init(course: course, knots: speed, average: q["average"] != nil, rejectOutliers: q["keepAll"] == nil,
                                                          lastHourOnly: !chosen, interceptLimit: limits.interceptLimit, unadvancedLimit: limits.unadvancedLimit))
            let fix = work.fix
            view.fix = FixView.Fix(
                named: work.flags.contains { $0.kind == .notAdvanced } ? "Lines meet (not a fix)" : "Fix",
                utc: fix.utc.iso8601, position: fix.position.ddm,
                summary: String(format: "%d lines, RMS %.2f nm; 95 %% ellipse %.1f × %.1f nm, long axis %03.0f°%@", fix.lines.count, fix.rms,
                                fix.ellipse.semiMajor, fix.ellipse.semiMinor, fix.ellipse.orientation, fix.ellipse.sigmaAssumed ? " (σ assumed 1′)" : ""),
                run: work.runText,
                gps: fix.gpsDistance.map { d in String(format: "%.1f nm from the GPS position, bearing %03.0f°", d, fix.gpsBearing ?? 0) } ?? "",
                lines: fix.lines.map { l in
                    .init(id: l.id.map(String.init) ?? "avg", time: l.utc.sightTimeOfDay, body: l.body.name, zn: String(format: "%05.1f°", l.azimuth),
                          residual: String(format: "%+.2f nm", l.residual), advance: l.advance.rawValue)
                },
                rejected: work.rejected.map { "sight \($0.id.map(String.init) ?? "?") (\($0.body.name)) left out: \($0.reason)" },
                flags: work.warnings,
                skipped: work.skipped.map { "sight \($0.sight.id.map(String.init) ?? "?") left out: \($0.why.description)" },
                averages: work.averages.map { a in
                    .init(text: "\(a.body.name) at \(a.utc.sightTimeOfDay): average of sights \(a.points.compactMap { $0.id.map(String.init) }.joined(separator: ", "))",
                          chart: RunChart(a).svg(embedded: true))
                },
                sheet: PlottingSheet(fix: fix, sights: work.reduced).svg(title: "Plotting sheet of the fix at \(fix.utc.sightTimeOfDay)", embedded: true))
        } catch {
            view.error = "\(error)"
            return try site.pages.page("fix", title: "Fix", view, context: context, status: .badRequest, section: "/tools")
        }
        return try site.pages.page("fix", title: "Fix", view, context: context, section: "/tools")
    }

    // MARK: The tools

    func toolsPage(_ request: Request, context: WebContext) throws -> Response {
        let q: Query
        do { q = try Query(request) } catch {
            return try site.pages.page("tools", title: "Tools", Pages.Message(error: "\(error)"), context: context, status: .badRequest, section: "/tools")
        }
        var view = ToolsView(q: .init(typed: q.parameters, evening: q["twilight"] == "evening", morning: q["twilight"] == "morning", four: q["bodies"] == "4"))
        do {
            switch q["tool"] {
            case "noon"?: view.noon = try noon(q)
            case "polaris"?: view.polaris = try polaris(q)
            case "identify"?: view.identify = try identify(q)
            case "average"?: view.average = try average(q)
            case "assumed"?: view.assumed = try assumed(q)
            case "plan"?: view.plan = try plan(q)
            case nil: break
            case let other?: throw InputError("no tool '\(Text.escaped(other))': choose noon, polaris, identify, average, assumed or plan")
            }
        } catch {
            view.error = "\(error)"
            return try site.pages.page("tools", title: "Tools", view, context: context, status: .badRequest, section: "/tools")
        }
        return try site.pages.page("tools", title: "Tools", view, context: context, section: "/tools")
    }

    /// The position typed, else the daemon's fix for the sky.
    func position(_ q: Query) throws -> Position {
        if let text = q["position"] { return try Position.parse(text) }
        let status = try site.store.daemonStatus()
        guard let here = status?.usablePosition(for: .sky, now: try site.clock.read().instant) else {
            if status?.fix?.flag != nil {
                throw InputError("no position: the daemon's GPS fix is flagged (it moved faster than the boat can): type one, or accept the fix with `marktime clock trust-gps`")
            }
            throw InputError("no position: type one (e.g. 50 10.5 N 004 20.0 W), or run the daemon with a GPS fix")
        }
        return here
    }

    func instant(_ q: Query) throws -> (UTCTime, SkyTime) {
        let utc = try q["at"].map { try UTCTime.read($0, what: "the time").time } ?? site.now()
        return (utc, try SkyTime.checked(utc))
    }

    /// The ΔT flag of the latest of these almanac instants, as the command line gives it.
    func deltaT(_ times: [SkyTime]) -> [String] {
        times.map(\.ut1Uncertainty).max().flatMap { ReductionFlag.deltaT(ut1Uncertainty: $0) }.map { [$0.message] } ?? []
    }

    func noon(_ q: Query) throws -> ToolsView.Noon {
        let at = try position(q)
        let (utc, _) = try instant(q)
        let course = try q.decimal("course", label: "the course", range: 0...359.9), speed = try q.decimal("speed", label: "the speed", range: 0...60)
        let lan = try MeridianPassage.noon(DeadReckoning(at, at: utc, course: course ?? 0, knots: speed ?? 0))
        let time = try SkyTime.checked(lan.utc)
        var result = ToolsView.Noon(utc: lan.utc.iso8601, position: lan.position.ddm)
        var flags: [String] = []
        if let text = q["ho"] {
            let ho = try SextantAngle.altitude(text, option: "Ho")
            let dec = Almanac.entry(.sun, at: time).declination
            let lat = MeridianPassage.latitude(ho: ho, declination: dec, bearsSouth: dec < at.latitude)
            result.latitude = "Ho \(SextantAngle.format(ho)), Dec \((dec < 0 ? "S " : "N ") + SextantAngle.format(abs(dec))): latitude "
                + Position.ddm(lat, positive: "N", negative: "S")
            if let warning = MeridianPassage.nearZenith(ho) { flags.append(warning) }
        }
        result.flagged = .init(flags + deltaT([time]))
        return result
    }

    func polaris(_ q: Query) throws -> ToolsView.Polaris {
        guard let text = q["ho"] else { throw InputError("type Polaris's Ho, e.g. 50 04.3") }
        let ho = try SextantAngle.altitude(text, option: "Ho")
        let zn = try q.decimal("zn", label: "the bearing", range: 0...359.9)
        let near = try position(q)
        let (utc, time) = try instant(q)
        let p = try PolarisLatitude.observed(ho: ho, at: time, near: near, bearing: zn)
        return .init(utc: utc.iso8601, lha: SextantAngle.format(p.lha), ho: SextantAngle.format(ho), less: SextantAngle.format(ho - 1),
                     correction: SextantAngle.format(p.correction), latitude: Position.ddm(p.latitude, positive: "N", negative: "S"),
                     formula: p.formulaHolds ? Position.ddm(p.almanacFormula, positive: "N", negative: "S") : "—",
                     flagged: .init(p.notes(bearingGiven: zn != nil, field: "Zn") + deltaT([time])))
    }

    func identify(_ q: Query) throws -> ToolsView.Identify {
        guard let altitudeText = q["altitude"] else { throw InputError("type the altitude seen, e.g. 40 12") }
        let altitude = try SextantAngle.altitude(altitudeText, option: "the altitude")
        guard let zn = try q.decimal("zn", label: "the bearing", range: 0...359.9) else { throw InputError("type the true bearing, 0 to 359.9") }
        let from = try position(q)
        let (utc, time) = try instant(q)
        let list = BodyIdentification.candidates(altitude: altitude, azimuth: zn, at: time, from: from)
        return .init(utc: utc.iso8601, none: list.isEmpty,
                     candidates: list.map { c in
                         .init(body: c.body.name, hc: SextantAngle.format(c.altitude), zn: String(format: "%05.1f°", c.azimuth),
                               distance: String(format: "%.1f°", c.distance), magnitude: c.magnitude.map { String(format: "%.1f", $0) } ?? "")
                     },
                     flagged: .init(deltaT([time])))
    }

    /// How the page asks for a height of eye.
    static let eyeHeightHint = "type one in metres (Height of eye), or set it on a sight's page"

    /// What to shoot (`marktime plan`): the set, and every body's predicted sextant reading.
    func plan(_ q: Query) throws -> ToolsView.Plan {
        let from = try position(q)
        let (at, _) = try instant(q)
        let twilight: Bool? = switch q["twilight"] {
        case nil, ""?: nil
        case "morning"?: true
        case "evening"?: false
        case let other?: throw InputError("no twilight '\(Text.escaped(other))': choose morning or evening, or none for the time given")
        }
        let count: Int
        switch q["bodies"] {
        case nil, ""?, "3"?: count = 3
        case "4"?: count = 4
        case let other?: throw InputError("a fix is planned from 3 or 4 bodies, not '\(Text.escaped(other))'")
        }
        let newest = try site.store.sights(SightQuery(limit: 50)).first { $0.eyeHeight != nil }
        let sextant = try SextantReading.planned(eyeHeight: try q["eye"].map(SightField.eyeHeight), indexError: try q["ie"].map(SightField.indexError),
                                                 celsius: nil, hectopascals: nil, limb: try q["limb"].map(Limb.parse) ?? .lower, newest: newest,
                                                 eyeHeightHint: Self.eyeHeightHint)
        let (utc, window) = try SightPlan.time(at: at, twilight: twilight, from: from)
        let plan = try SightPlan(at: utc, from: from, sextant: sextant, options: .init(count: count))
        func name(_ l: SightPlan.Line) -> String {
            l.body == .sun || l.body == .moon ? "\(l.body.name) \(sextant.limb == .upper ? "UL" : "LL")" : l.body.name
        }
        func row(_ l: SightPlan.Line) -> ToolsView.Plan.Row {
            .init(body: name(l), zn: String(format: "%05.1f°", l.computed.azimuth), hc: SextantAngle.format(l.computed.altitude),
                  hs: SextantAngle.format(l.hs), rate: String(format: "%+.1f′/min", l.hsPerMinute), magnitude: String(format: "%.1f", l.magnitude),
                  reason: l.reason ?? "")
        }
        var result = ToolsView.Plan(
            utc: utc.iso8601, position: from.ddm,
            sextant: "height of eye \(Position.plain(sextant.eyeHeight)) m, index error \(Position.plain(sextant.indexError))′, "
                + "\(Position.plain(sextant.celsius)) °C, \(Position.plain(sextant.hectopascals)) hPa",
            chosen: plan.chosen.map(row), others: plan.lines.filter { !$0.chosen }.map(row))
        if let window { result.window = "twilight \(window.start.isoTimeOfDayMinutes)–\(window.end.isoTimeOfDayMinutes) UTC" }
        // The live preset's source: this set, this DR and sextant, this window.
        var live = URLComponents()
        live.path = "/tools/preset"
        live.queryItems = [URLQueryItem(name: "bodies", value: plan.chosen.map(\.body.name).joined(separator: ",")),
                           URLQueryItem(name: "position", value: from.ddm), URLQueryItem(name: "eye", value: Position.plain(sextant.eyeHeight)),
                           URLQueryItem(name: "ie", value: Position.plain(sextant.indexError)), URLQueryItem(name: "limb", value: sextant.limb.rawValue),
                           URLQueryItem(name: "temp", value: Position.plain(sextant.celsius)), URLQueryItem(name: "pressure", value: Position.plain(sextant.hectopascals))]
            + (window.map { [URLQueryItem(name: "start", value: $0.start.iso8601), URLQueryItem(name: "end", value: $0.end.iso8601)] } ?? [])
        result.live = live.string ?? ""
        result.flagged = .init((plan.warning.map { [$0] } ?? []) + deltaT([try SkyTime.checked(utc)]))
        return result
    }

    /// The live preset (`plan --live`) as JSON, for the plan tool's ticking list: each of
    /// `bodies` at the Pi's now, from `position` with the sextant given, and where now stands
    /// in the window `start`–`end`.
    func presetNow(_ request: Request, context: WebContext) throws -> Response {
        let json: JSON
        do {
            let q = try Query(request)
            let names = (q["bodies"] ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard (1...4).contains(names.count) else { throw InputError("give the plan's bodies, 1 to 4, e.g. bodies=Vega,Capella,Fomalhaut") }
            var bodies: [Body] = []
            for n in names { bodies.append(try Body.parse(n)) }
            let sextant = try SextantReading.planned(eyeHeight: try q["eye"].map(SightField.eyeHeight), indexError: try q["ie"].map(SightField.indexError),
                                                     celsius: try q["temp"].map(SightField.temperature), hectopascals: try q["pressure"].map(SightField.pressure),
                                                     limb: try q["limb"].map(Limb.parse) ?? .lower, newest: nil, eyeHeightHint: Self.eyeHeightHint)
            var window: ClosedRange<UTCTime>?
            if let a = q["start"], let b = q["end"] {
                let (start, end) = (try UTCTime.read(a, what: "the window's start").time, try UTCTime.read(b, what: "the window's end").time)
                guard start <= end else { throw InputError("the window's start \(a) is after its end \(b)") }
                window = start...end
            }
            let exact = try site.now()
            let now = UTCTime(wholeSeconds: exact.wholeSeconds)
            let preset = LivePreset(bodies: bodies, position: try position(q), sextant: sextant, window: window)
            json = .object([
                ("utc", .string(now.iso8601)), ("now_ms", .number(Double(exact.nanosecondsSinceEpoch / 1_000_000))),
                ("window", preset.windowText(at: now).map(JSON.string) ?? .null),
                ("bodies", .array(try preset.lines(at: now).map { l in
                    .object([("body", .string(l.body == .sun || l.body == .moon ? "\(l.body.name) \(sextant.limb == .upper ? "UL" : "LL")" : l.body.name)),
                             ("hs_deg", .number(l.hs)), ("hs", .string(SextantAngle.format(l.hs))), ("zn", .string(String(format: "%05.1f°", l.computed.azimuth))),
                             ("hc", .string(SextantAngle.format(l.computed.altitude))), ("hs_arcmin_per_min", .number(l.hsPerMinute)),
                             ("spoken", .string(LivePreset.spoken(l, limb: sextant.limb)))])
                })),
            ])
        } catch {
            json = .object([("error", .string("\(error)"))])
            return Response(status: .badRequest, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: json.render())))
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: json.render())))
    }

    func average(_ q: Query) throws -> ToolsView.Average {
        let ids = try q.ids()
        guard !ids.isEmpty else { throw InputError("type the sights of the run, e.g. 31, 32, 33") }
        let sights = try site.store.sights(ids: ids)
        let names = Set(sights.map { $0.body ?? "(no body)" })
        guard names.count == 1, let name = sights[0].body else { throw InputError(SightAverage.Failure.mixedBodies(names.sorted()).description) }
        guard let near = sights.lazy.compactMap({ $0.dr ?? $0.trustedPosition }).last else { throw InputError("the sights have no DR and no GPS position that is not flagged") }
        guard sights.allSatisfy({ $0.hs != nil }) else { throw InputError("every sight of the run needs its Hs") }
        let limit = try q.decimal("limit", label: "the limit", range: 0.1...60) ?? SightAverage.defaultLimit
        let a = try SightAverage(sights.map { ($0.id, $0.estimate.utc, $0.hs!) }, body: try Body.parse(name), near: near, limit: limit)
        return .init(body: a.body.name, utc: a.utc.iso8601, hs: SextantAngle.format(a.hs),
                     slopes: String(format: "the almanac's %+.2f′/min, the run's %@", a.predictedSlope, a.fittedSlope.map { String(format: "%+.2f′/min", $0) } ?? "—"),
                     points: a.points.map { p in
                         .init(id: p.id.map(String.init) ?? "", time: p.utc.sightTimeOfDay, hs: SextantAngle.format(p.hs),
                               off: String(format: "%+.1f′", p.residual), rejected: p.rejected)
                     },
                     chart: RunChart(a).svg(embedded: true), ids: ids.map(String.init).joined(separator: ","))
    }

    func assumed(_ q: Query) throws -> ToolsView.Assumed {
        let ids = try q.ids()
        guard let id = ids.first, ids.count == 1 else { throw InputError("type one sight's number") }
        let r = try ReducedSight(try site.store.sight(id: id).sight)
        let tables = SightTables(rawValue: q["tables"] ?? "ho229") ?? .ho229
        let time = try SkyTime.checked(r.utc)
        let e = Almanac.entry(r.body, at: time)
        let t = TableReduction(ho: r.ho, gha: e.gha, declination: e.declination, near: r.assumedPosition, tables: tables)
        let step = tables == .ho229 ? "%.1f" : "%.0f"
        return .init(title: "Sight \(id), \(r.body.name), \(tables == .ho229 ? "HO 229" : "Pub. 249")",
                rows: [
                    ["AP", t.assumedPosition.ddm], ["GHA", SextantAngle.format(t.gha)], ["LHA", "\(t.lha)°"],
                    ["Dec", "\(t.declination < 0 ? "S" : "N") \(t.declinationDegrees)° + \(String(format: "%.1f", t.declinationIncrement))′ (\(t.sameName ? "same" : "contrary") name)"],
                    ["Tab Hc", SextantAngle.format(t.tabulatedHc)], ["d", String(format: "%+" + step.dropFirst(), t.d) + "′"], ["Tab Z", String(format: step, t.tabulatedZ) + "°"],
                    ["d corr", String(format: "%+.1f′", t.dCorrection)], ["Hc", SextantAngle.format(t.hc)], ["Exact Hc", SextantAngle.format(t.exactHc)],
                    ["Ho", SextantAngle.format(t.ho)], ["Intercept", String(format: "%.1f nm %@", abs(t.intercept), t.intercept >= 0 ? "toward" : "away")],
                    ["Zn", String(format: "%05.1f°", t.zn)], ["Exact Zn", String(format: "%05.1f°", t.exactZn)],
                ].map { .init(label: $0[0], value: $0[1]) },
                ids: String(id), flagged: .init(deltaT([time])))
    }
}

/// The Fix page: its form as typed, and the fix with its lines, what was left out and
/// why, the runs averaged and the plotting sheet.
struct FixView: Encodable {
    struct Line: Encodable {
        var id, time, body, zn, residual, advance: String
    }

    struct Run: Encodable {
        var text, chart: String
    }

    struct Fix: Encodable {
        var named, utc, position, summary, run, gps: String
        var lines: [Line]
        var rejected, flags, skipped: [String]
        var averages: [Run]
        var sheet: String
    }

    var ids, since, until, course, speed: String
    var average, keepAll: Bool
    var fix: Fix?
    var error: String?
}

/// The Tools page: the form as typed, and the answer of the tool chosen.
struct ToolsView: Encodable {
    /// The query as typed, and which of the plan's choices were chosen.
    struct Typed: Encodable {
        var typed: [String: String]
        var evening, morning, four: Bool

        func encode(to encoder: any Encoder) throws {
            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            var c = encoder.container(keyedBy: Key.self)
            for (name, value) in typed { try c.encode(value, forKey: Key(stringValue: name)) }
            try c.encode(evening, forKey: Key(stringValue: "evening"))
            try c.encode(morning, forKey: Key(stringValue: "morning"))
            try c.encode(four, forKey: Key(stringValue: "four"))
        }
    }

    /// What must be said beside a tool's answer; nil (no list drawn) when there is nothing.
    struct Flagged: Encodable {
        var items: [String]
        init?(_ items: [String]) {
            guard !items.isEmpty else { return nil }
            self.items = items
        }
    }

    struct Noon: Encodable {
        var utc, position: String
        var latitude: String?
        var flagged: Flagged?
    }

    struct Polaris: Encodable {
        var utc, lha, ho, less, correction, latitude, formula: String
        var flagged: Flagged?
    }

    struct Identify: Encodable {
        struct Candidate: Encodable {
            var body, hc, zn, distance, magnitude: String
        }

        var utc: String
        var none: Bool
        var candidates: [Candidate]
        var flagged: Flagged?
    }

    struct Plan: Encodable {
        struct Row: Encodable {
            var body, zn, hc, hs, rate, magnitude, reason: String
        }

        var utc, position, sextant: String
        var chosen, others: [Row]
        var window: String?
        var live = ""
        var flagged: Flagged?
    }

    struct Average: Encodable {
        struct Point: Encodable {
            var id, time, hs, off: String
            var rejected: Bool
        }

        var body, utc, hs, slopes: String
        var points: [Point]
        var chart, ids: String
    }

    struct Assumed: Encodable {
        struct Row: Encodable {
            var label, value: String
        }

        var title: String
        var rows: [Row]
        var ids: String
        var flagged: Flagged?
    }

    var q: Typed
    var noon: Noon?
    var polaris: Polaris?
    var identify: Identify?
    var average: Average?
    var assumed: Assumed?
    var plan: Plan?
    var error: String?
}
