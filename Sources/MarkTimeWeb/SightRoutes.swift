import Foundation
import Hummingbird
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import MarkTimeExport
import MarkTimePlot

/// The Now page (clock, fix, last sights, MARK), the sight log with its filters, a
/// sight's page with every field editable and its reduction, and the CSV download.
struct SightRoutes {
    let site: Site

    func add(to router: Router<WebContext>) {
        router.get("/") { _, context in try nowPage(context: context) }
        router.get("/sights") { request, context in try listPage(request, context: context) }
        router.get("/sights.csv") { request, context in try await csv(request, context: context) }
        router.get("/sights.gpx") { request, context in try await chart(request, context: context, kml: false) }
        router.get("/sights.kml") { request, context in try await chart(request, context: context, kml: true) }
        router.get("/sights/{id}") { _, context in try sightPage(try context.parameters.require("id", as: Int64.self), context: context) }
        router.post("/sights/{id}") { request, context in try await edit(request, context: context) }
        router.get("/sights/{id}/memo.flac") { _, context in try memo(try context.parameters.require("id", as: Int64.self), context: context) }
    }

    // MARK: Pages

    /// The Now page; with a time signal's answer, or its refusal and what was typed.
    func nowPage(context: WebContext, signal: TimeSignalForm? = nil, notice: String? = nil, error: String? = nil,
                 status: HTTPResponse.Status = .ok) throws -> Response {
        let view = NowView(now: try NowSnapshot.read(site), signal: signal, notice: notice, error: error)
        return try site.pages.page("now", title: "Now", view, context: context, status: status, section: "/")
    }

    /// The log's filters, as the CLI's `sights` takes them: a date range, newest first, a
    /// page of `pageSize` at a time (`page`, from 1), so that no request holds the page for
    /// long however long the log (the CSV has the whole range at once).
    struct Filter {
        static let pageSize = 100
        var query = SightQuery(limit: pageSize)
        var page = 1
        /// The range as typed.
        var since, until: String?
        /// The range's query string, without the page.
        var range: [String] = []

        init(_ request: Request) throws(InputError) {
            let q = request.uri.queryParameters
            func text(_ name: String) -> String? { q.get(name).flatMap { $0.isEmpty ? nil : $0 } }
            if let since = text("since") {
                query.since = try UTCTime.bound(since, upper: false, what: "'from'")
                self.since = since
                range.append("since=\(since)")
            }
            if let until = text("until") {
                query.until = try UTCTime.bound(until, upper: true, what: "'to'")
                self.until = until
                range.append("until=\(until)")
            }
            if let page = text("page") {
                guard let n = Int(page), n >= 1 else { throw InputError("the page '\(Text.escaped(page))' is not a page number: give 1, 2, 3…") }
                self.page = n
            }
            query.offset = (page - 1) * Self.pageSize
        }

        /// The link to page `n` of the same range.
        func link(_ n: Int) -> String { "/sights?" + (range + ["page=\(n)"]).joined(separator: "&") }
    }

    func listPage(_ request: Request, context: WebContext) throws -> Response {
        let filter: Filter, sights: [Sight], total: Int
        do {
            filter = try Filter(request)
            (sights, total) = (try site.store.sights(filter.query), try site.store.countSights(filter.query))
        } catch {
            return try site.pages.page("sights", title: "Sights", Pages.Message(error: "\(error)"), context: context, status: .badRequest,
                                       section: "/sights")
        }
        let view = SightsView(since: filter.since, until: filter.until, rows: sights.map(SightView.logRow).joined(), total: total,
                              first: sights.isEmpty ? nil : filter.query.offset + 1,
                              last: sights.isEmpty ? nil : filter.query.offset + sights.count,
                              newer: filter.page > 1 ? filter.link(filter.page - 1) : nil,
                              older: filter.query.offset + sights.count < total ? filter.link(filter.page + 1) : nil,
                              csvQuery: filter.range.joined(separator: "&"))
        return try site.pages.page("sights", title: "Sights", view, context: context, section: "/sights")
    }

    func sightPage(_ id: Int64, context: WebContext, form: SightEditText? = nil, error: String? = nil, notice: String? = nil,
                   status: HTTPResponse.Status = .ok) throws -> Response {
        let sight: Sight, archived: Bool
        do { (sight, archived) = try site.store.sight(id: id) } catch {
            return try site.pages.problem(.notFound, "\(error)", context: context)
        }
        var view = SightView.Detail(sight, form: form ?? SightEditText(showing: sight))
        view.archived = archived
        view.memo = try site.store.memo(sightID: id).map { .init(summary: $0.summary, src: "/sights/\(id)/memo.flac") }
        (view.error, view.notice) = (error, notice)
        return try site.pages.page("sight", title: "Sight \(id)", view, context: context, status: status, section: "/sights")
    }

    /// A sight's voice memo, as FLAC (every browser the page supports plays it).
    func memo(_ id: Int64, context: WebContext) throws -> Response {
        guard let memo = try site.store.memo(sightID: id) else {
            return try site.pages.problem(.notFound, "Sight \(id) has no voice memo.", context: context)
        }
        return Response(status: .ok, headers: [.contentType: "audio/flac", .cacheControl: "no-store",
                                               .contentDisposition: "inline; filename=\"sight-\(id).flac\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: memo.data)))
    }

    func edit(_ request: Request, context: WebContext) async throws -> Response {
        let id = try context.parameters.require("id", as: Int64.self)
        struct Form: Decodable { var body, limb, hs, ie, eyeHeight, temp, pressure, dr, note: String? }
        let f = try await request.decode(as: Form.self, context: context)
        let sent = SightEditText(body: f.body, limb: f.limb, hs: f.hs, ie: f.ie, eyeHeight: f.eyeHeight, temp: f.temp,
                                 pressure: f.pressure, dr: f.dr, note: f.note)
        do {
            let (sight, _) = try site.store.sight(id: id)
            let edit = try SightEdit(sent.changed(from: SightEditText(showing: sight)))
            if !edit.isEmpty { _ = try site.store.edit(id: id, edit, now: try site.now()) }
            return try sightPage(id, context: context, notice: edit.isEmpty ? "Nothing changed." : "Saved.")
        } catch {
            return try sightPage(id, context: context, form: sent, error: "\(error)", status: .badRequest)
        }
    }

    /// The range's whole CSV, made off the event loop (a long log takes a while).
    func csv(_ request: Request, context: WebContext) async throws -> Response {
        let bytes: [UInt8]
        do {
            var query = try Filter(request).query
            (query.limit, query.offset) = (nil, 0)
            query.oldestFirst = true
            let (site, range) = (site, query)
            bytes = try await site.offLoop {
                var bytes: [UInt8] = []
                _ = try SightCSV.export(site.store, range, forSpreadsheets: true) { bytes += $0 }
                return bytes
            }
        } catch {
            return try site.pages.problem(.badRequest, "\(error)", context: context)
        }
        return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                               .contentDisposition: "attachment; filename=\"marktime-sights.csv\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension SightRoutes {
    /// The range's sights, their fix and the places, for a chart plotter: what `marktime
    /// export gpx` (or `kml`) writes.
    func chart(_ request: Request, context: WebContext, kml: Bool) async throws -> Response {
        let text: String
        do {
            var query = try Filter(request).query
            (query.limit, query.offset) = (nil, 0)
            query.oldestFirst = true
            let (site, range) = (site, query)
            text = try await site.offLoop {
                let sights = try site.store.sights(range)
                let chart = ChartData(name: "marktime", sights: sights, fix: try? FixWork(sights, options: .init()).fix,
                                      places: try site.store.places().map { (name: $0.name, center: $0.center, radius: $0.radius) })
                return kml ? KMLDocument.text(chart) : GPXDocument.text(chart)
            }
        } catch {
            return try site.pages.problem(.badRequest, "\(error)", context: context)
        }
        return Response(status: .ok, headers: [.contentType: kml ? "application/vnd.google-earth.kml+xml" : "application/gpx+xml",
                                               .contentDisposition: "attachment; filename=\"marktime-sights.\(kml ? "kml" : "gpx")\""],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The sight log's page of rows (written as HTML), its range and its links to the pages beside it.
struct SightsView: Encodable {
    var since, until: String?
    var rows: String
    var total: Int
    var first, last: Int?
    var newer, older: String?
    var csvQuery: String
}

/// How a sight reads on the page.
enum SightView {
    static func uncertainty(_ seconds: Double?) -> String { UTCEstimate.text(uncertainty: seconds) }

    /// A row of the sight log as HTML: written here, not by the template, because a page of
    /// 100 rows looked up through Mustache's dynamic casts took 70 % of the server's time
    /// (`Tests/bench/web`).
    static func logRow(_ s: Sight) -> String {
        func e(_ text: String) -> String { HTML.escaped(text) }
        let id = s.id ?? 0
        return "<tr data-id=\"\(id)\"><td><a href=\"/sights/\(id)\">\(id)</a></td><td class=\"num\">\(e(s.estimate.utc.isoDate)) \(e(s.estimate.utc.sightTimeOfDay))</td>"
            + "<td data-label=\"source\">\(e(s.estimate.source.rawValue)) \(e(uncertainty(s.estimate.uncertainty)))</td>"
            + "<td class=\"num\" data-label=\"GPS\">\(e(s.positionSummary))</td><td data-label=\"body\">\(e(s.body ?? ""))</td>"
            + "<td class=\"num\" data-label=\"Hs\">\(e(s.hs.map(SextantAngle.format) ?? ""))</td></tr>\n"
    }

    /// A sight as a list shows it, and as the live messages carry it.
    struct Row: Encodable {
        var id: Int64
        var time, date, utc, source, uncertainty, trigger, position, body, hs: String

        init(_ s: Sight) {
            (id, time, date, utc) = (s.id ?? 0, s.estimate.utc.sightTimeOfDay, s.estimate.utc.isoDate, s.estimate.utc.iso8601)
            (source, uncertainty) = (s.estimate.source.rawValue, SightView.uncertainty(s.estimate.uncertainty))
            (trigger, position, body) = (s.trigger?.rawValue ?? "", s.positionSummary, s.body ?? "")
            hs = s.hs.map(SextantAngle.format) ?? ""
        }
    }

    /// A sight's page: the row, its edit form (again as typed after a refusal), its
    /// reduction or why it has none, and its voice memo.
    struct Detail: Encodable {
        struct Form: Encodable {
            var body, hs, ie, eyeHeight, temp, pressure, dr, note: String
        }

        struct Reduction: Encodable {
            var ho, hc, zn, intercept, from, gpsError, sheet, fixLink, assumedLink: String
        }

        struct Memo: Encodable {
            var summary, src: String
        }

        var row: Row
        var sightFormat: String
        var form: Form
        var limbs: [Choice]
        var reduction: Reduction?
        var unreduced: String?
        var archived = false
        var memo: Memo?
        var error, notice: String?

        init(_ s: Sight, form: SightEditText) {
            row = Row(s)
            sightFormat = s.estimate.utc.sightFormat
            self.form = Form(body: form.body ?? "", hs: form.hs ?? "", ie: form.ie ?? "", eyeHeight: form.eyeHeight ?? "", temp: form.temp ?? "",
                             pressure: form.pressure ?? "", dr: form.dr ?? "", note: form.note ?? "")
            limbs = [Choice(value: "", label: "—", selected: (form.limb ?? "").isEmpty)]
                + Limb.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: form.limb == $0.rawValue) }
            switch Result(catching: { () throws(Unreducible) in try ReducedSight(s) }) {
            case .success(let x):
                reduction = Reduction(
                    ho: SextantAngle.format(x.ho), hc: SextantAngle.format(x.computed.altitude), zn: String(format: "%05.1f°", x.computed.azimuth),
                    intercept: String(format: "%.1f nm %@", abs(x.intercept), x.intercept >= 0 ? "toward" : "away"),
                    from: x.assumed.rawValue.uppercased(), gpsError: x.gpsError.map { String(format: "%+.1f′", $0) } ?? "",
                    sheet: PlottingSheet(sights: [x]).svg(title: "Plotting sheet of sight \(s.id ?? 0)", embedded: true),
                    fixLink: "/fix?until=\(s.estimate.utc.iso8601)", assumedLink: "/tools?tool=assumed&ids=\(s.id ?? 0)")
            case .failure(let e):
                unreduced = e.description
            }
        }

        /// The row's fields beside the page's own, as the template reads them.
        func encode(to encoder: any Encoder) throws {
            try row.encode(to: encoder)
            enum Keys: String, CodingKey { case sightFormat, form, limbs, reduction, unreduced, archived, memo, error, notice }
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(sightFormat, forKey: .sightFormat)
            try c.encode(form, forKey: .form)
            try c.encode(limbs, forKey: .limbs)
            try c.encodeIfPresent(reduction, forKey: .reduction)
            try c.encodeIfPresent(unreduced, forKey: .unreduced)
            try c.encode(archived, forKey: .archived)
            try c.encodeIfPresent(memo, forKey: .memo)
            try c.encodeIfPresent(error, forKey: .error)
            try c.encodeIfPresent(notice, forKey: .notice)
        }
    }
}
