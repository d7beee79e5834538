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
    func nowPage(context: WebContext, signal: [String: Any]? = nil, notice: String? = nil, error: String? = nil,
                 status: HTTPResponse.Status = .ok) throws -> Response {
        var values = try NowSnapshot.read(site).values
        values["signal"] = signal as Any
        values["notice"] = notice as Any
        values["error"] = error as Any
        return try site.pages.page("now", title: "Now", values, context: context, status: status, section: "/")
    }

    /// The log's filters, as the CLI's `sights` takes them: a date range, newest first, a
    /// page of `pageSize` at a time (`page`, from 1), so that no request holds the page for
    /// long however long the log (the CSV has the whole range at once).
    struct Filter {
        static let pageSize = 100
        var query = SightQuery(limit: pageSize)
        var page = 1
        var values: [String: Any] = [:]
        /// The range's query string, without the page.
        var range: [String] = []

        init(_ request: Request) throws(InputError) {
            let q = request.uri.queryParameters
            func text(_ name: String) -> String? { q.get(name).flatMap { $0.isEmpty ? nil : $0 } }
            if let since = text("since") {
                query.since = try UTCTime.bound(since, upper: false, what: "'from'")
                values["since"] = since
                range.append("since=\(since)")
            }
            if let until = text("until") {
                query.until = try UTCTime.bound(until, upper: true, what: "'to'")
                values["until"] = until
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
            return try site.pages.page("sights", title: "Sights", ["error": "\(error)"], context: context, status: .badRequest,
                                       section: "/sights")
        }
        var values = filter.values
        values["rows"] = sights.map(SightView.logRow).joined()
        values["total"] = total
        if !sights.isEmpty {
            values["first"] = filter.query.offset + 1
            values["last"] = filter.query.offset + sights.count
        }
        if filter.page > 1 { values["newer"] = filter.link(filter.page - 1) }
        if filter.query.offset + sights.count < total { values["older"] = filter.link(filter.page + 1) }
        values["csvQuery"] = filter.range.joined(separator: "&")
        return try site.pages.page("sights", title: "Sights", values, context: context, section: "/sights")
    }

    func sightPage(_ id: Int64, context: WebContext, form: SightEditText? = nil, error: String? = nil, notice: String? = nil,
                   status: HTTPResponse.Status = .ok) throws -> Response {
        let sight: Sight, archived: Bool
        do { (sight, archived) = try site.store.sight(id: id) } catch {
            return try site.pages.problem(.notFound, "\(error)", context: context)
        }
        var values = SightView.detail(sight, form: form ?? SightEditText(showing: sight))
        values["archived"] = archived
        if let memo = try site.store.memo(sightID: id) {
            values["memo"] = ["summary": memo.summary, "src": "/sights/\(id)/memo.flac"]
        }
        values["error"] = error as Any
        values["notice"] = notice as Any
        return try site.pages.page("sight", title: "Sight \(id)", values, context: context, status: status, section: "/sights")
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

    static func row(_ s: Sight) -> [String: Any] {
        [
            "id": s.id ?? 0, "time": s.estimate.utc.sightTimeOfDay, "date": s.estimate.utc.isoDate, "utc": s.estimate.utc.iso8601,
            "source": s.estimate.source.rawValue, "uncertainty": uncertainty(s.estimate.uncertainty),
            "trigger": s.trigger?.rawValue ?? "", "position": s.positionSummary, "body": s.body ?? "",
            "hs": s.hs.map(SextantAngle.format) ?? "",
        ]
    }

    static func detail(_ s: Sight, form: SightEditText) -> [String: Any] {
        var values = row(s)
        values["sightFormat"] = s.estimate.utc.sightFormat
        values["form"] = [
            "body": form.body ?? "", "hs": form.hs ?? "", "ie": form.ie ?? "", "eyeHeight": form.eyeHeight ?? "", "temp": form.temp ?? "",
            "pressure": form.pressure ?? "", "dr": form.dr ?? "", "note": form.note ?? "",
        ]
        values["limbs"] = [("", "—")] .map { ["value": $0.0, "label": $0.1, "selected": (form.limb ?? "").isEmpty] as [String: Any] }
            + Limb.allCases.map { ["value": $0.rawValue, "label": $0.rawValue, "selected": form.limb == $0.rawValue] as [String: Any] }
        switch Result(catching: { () throws(Unreducible) in try ReducedSight(s) }) {
        case .success(let x):
            values["reduction"] = [
                "ho": SextantAngle.format(x.ho), "hc": SextantAngle.format(x.computed.altitude),
                "zn": String(format: "%05.1f°", x.computed.azimuth),
                "intercept": String(format: "%.1f nm %@", abs(x.intercept), x.intercept >= 0 ? "toward" : "away"),
                "from": x.assumed.rawValue.uppercased(), "gpsError": x.gpsError.map { String(format: "%+.1f′", $0) } ?? "",
                "sheet": PlottingSheet(sights: [x]).svg(title: "Plotting sheet of sight \(s.id ?? 0)", embedded: true),
                "fixLink": "/fix?until=\(s.estimate.utc.iso8601)", "assumedLink": "/tools?tool=assumed&ids=\(s.id ?? 0)",
            ]
        case .failure(let e):
            values["unreduced"] = e.description
        }
        return values
    }
}
