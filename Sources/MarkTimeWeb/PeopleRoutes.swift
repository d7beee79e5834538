import Foundation
import Hummingbird
import MarkTimeCore
import MarkTimeDevices
import MarkTimePeople
import MarkTimeStore

/// The People page, Align's screen: everyone selected at a minute of the user's day, a
/// slider over its 1440 minutes that moves every clock and sky in the browser, and adding,
/// selecting, deselecting and removing people with the CLI's rules.
struct PeopleRoutes {
    let site: Site
    let tz = TZDatabase()

    func add(to router: Router<WebContext>) {
        router.get("/people") { request, context in
            try page(context: context, date: request.uri.queryParameters["date"].map(String.init),
                     minute: request.uri.queryParameters["minute"].map(String.init))
        }
        router.post("/people") { request, context in try await addPerson(request, context: context) }
        router.post("/people/select") { request, context in try await select(request, context: context) }
        router.post("/people/remove") { request, context in try await remove(request, context: context) }
    }

    func page(context: WebContext, date: String? = nil, minute: String? = nil, error: String? = nil, notice: String? = nil,
              form: [String: String] = [:], status: HTTPResponse.Status = .ok) throws -> Response {
        var values: [String: Any] = ["form": form, "error": error as Any, "notice": notice as Any]
        do {
            let zone = try tz.home(site.settings)
            let now = try site.now().wholeSeconds
            let (today, _) = zone.local(atSecondsSinceEpoch: now)
            let day = try date.flatMap { $0.isEmpty ? nil : $0 }.map { try CivilDate.read($0, what: "the date") } ?? today.date
            let chosen = try minute.flatMap { $0.isEmpty ? nil : $0 }.map { text -> Int in
                guard let m = Int(text), (0..<AlignDay.minutes).contains(m) else {
                    throw InputError("the minute '\(text)' is not one of the day's: 0 to 1439")
                }
                return m
            } ?? today.minuteOfDay
            let board = try tz.board(zone: zone, people: try site.store.people().filter(\.selected).map { ($0.name, $0.zone) },
                                     ship: try site.store.daemonStatus()?.usablePosition(for: .ship, now: try site.clock.read().instant))
            let at = board.instant(on: day, minute: chosen)
            let align = board.day(day)
            values["you"] = PeopleBoard.header(board.you(at: at))
            values["date"] = day.description
            values["minute"] = chosen
            values["time"] = LocalDateTime(date: day, minuteOfDay: chosen).timeText
            values["rows"] = board.rows(at: at).map { r in
                ["name": r.name, "city": r.city, "time": r.local.timeText, "day": r.dayText, "zone": r.offset.abbreviation,
                 "offset": "UTC" + r.offset.iso, "sky": r.skyText] as [String: Any]
            }
            values["align"] = try Self.json(align)
        } catch {
            values["error"] = "\(error)"
        }
        let now = try site.now().wholeSeconds
        values["people"] = try site.store.people().map { p in
            let o = (try? tz.rules(p.zone))?.offset(atSecondsSinceEpoch: now)
            return ["name": p.name, "zone": p.zone, "selected": p.selected,
                    "now": o.map { "\($0.abbreviation) UTC\($0.iso)" } ?? "not in this tz database"] as [String: Any]
        }
        return try site.pages.page("people", title: "People", values, context: context, status: status, section: "/people", refresh: "/people")
    }

    /// The day for the page's script: `<` escaped so the JSON cannot end its `<script>` element.
    static func json(_ day: AlignDay) throws -> String {
        func row(_ r: AlignDay.Row) -> [String: Any] {
            ["name": r.name, "zone": r.zone, "city": r.city,
             "segments": r.segments.map { [$0.from, $0.shift, $0.abbreviation, $0.offset, $0.dst] as [Any] },
             "sky": r.sky.map { s -> Any in s.map { [$0.shade, $0.color] } ?? NSNull() }]
        }
        let object: [String: Any] = ["date": day.date.description, "step": AlignDay.skyStep, "you": row(day.you), "rows": day.rows.map(row)]
        return JSON(any: object).compact.replacingOccurrences(of: "<", with: "\\u003c")
    }

    func addPerson(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var name, city: String? }
        let f = try await request.decode(as: Form.self, context: context)
        do {
            let zone = try tz.catalogue().resolve(f.city ?? "")
            let o = try tz.rules(zone).offset(atSecondsSinceEpoch: try site.now().wholeSeconds)
            try site.store.addPerson(Person(name: f.name ?? "", zone: zone), now: try site.now())
            return try page(context: context, notice: "Added \((f.name ?? "").trimmingWhitespace()): \(zone), now \(o.abbreviation) UTC\(o.iso).")
        } catch {
            return try page(context: context, error: "\(error)", form: ["name": f.name ?? "", "city": f.city ?? ""], status: .badRequest)
        }
    }

    func select(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var name, selected: String? }
        let f = try await request.decode(as: Form.self, context: context)
        let on = f.selected == "1"
        do {
            try site.store.selectPeople([f.name ?? ""], selected: on)
            return try page(context: context, notice: "\(on ? "Showing" : "Hiding") \(f.name ?? "").")
        } catch {
            return try page(context: context, error: "\(error)", status: .badRequest)
        }
    }

    func remove(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var name: String? }
        let name = try await request.decode(as: Form.self, context: context).name ?? ""
        do {
            try site.store.removePeople([name])
            return try page(context: context, notice: "Removed \(name).")
        } catch {
            return try page(context: context, error: "\(error)", status: .badRequest)
        }
    }
}
