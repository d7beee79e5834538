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
              form: PeopleView.Form = .init(), status: HTTPResponse.Status = .ok) throws -> Response {
        var view = PeopleView(form: form, error: error, notice: notice)
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
            view.you = PeopleBoard.header(board.you(at: at))
            view.date = day.description
            view.minute = chosen
            view.time = LocalDateTime(date: day, minuteOfDay: chosen).timeText
            view.rows = board.rows(at: at).map { r in
                .init(name: r.name, city: r.city, time: r.local.timeText, day: r.dayText, zone: r.offset.abbreviation,
                      offset: "UTC" + r.offset.iso, sky: r.skyText)
            }
            view.align = Self.json(align)
        } catch {
            view.error = "\(error)"
        }
        let now = try site.now().wholeSeconds
        view.people = try site.store.people().map { p in
            let o = (try? tz.rules(p.zone))?.offset(atSecondsSinceEpoch: now)
            return .init(name: p.name, zone: p.zone, selected: p.selected, now: o.map { "\($0.abbreviation) UTC\($0.iso)" } ?? "not in this tz database")
        }
        return try site.pages.page("people", title: "People", view, context: context, status: status, section: "/people", refresh: "/people")
    }

    /// The day for the page's script: `<` escaped so the JSON cannot end its `<script>` element.
    static func json(_ day: AlignDay) -> String {
        LiveConnection.json(AlignData(day)).replacingOccurrences(of: "<", with: "\\u003c")
    }

    func addPerson(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var name, city: String? }
        let f = try await request.decode(as: Form.self, context: context)
        do {
            let zone = try tz.catalogue().resolve(f.city ?? "")
            let o = try tz.rules(zone).offset(atSecondsSinceEpoch: try site.now().wholeSeconds)
            try site.store.addPerson(try Person.checked(name: f.name ?? "", zone: zone), now: try site.now())
            return try page(context: context, notice: "Added \((f.name ?? "").trimmingWhitespace()): \(zone), now \(o.abbreviation) UTC\(o.iso).")
        } catch {
            return try page(context: context, error: "\(error)", form: .init(name: f.name ?? "", city: f.city ?? ""), status: .badRequest)
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

/// The People page: the day's alignment at the chosen minute, the people, and the form to add one.
struct PeopleView: Encodable {
    struct Form: Encodable {
        var name, city: String?
    }

    struct Row: Encodable {
        var name, city, time, day, zone, offset, sky: String
    }

    struct Person: Encodable {
        var name, zone: String
        var selected: Bool
        var now: String
    }

    var form: Form
    var error, notice: String?
    var you, date, time, align: String?
    var minute: Int?
    var rows: [Row]?
    var people: [Person] = []
}

/// The day for the page's script: each row's clock segments (`[from, shift, abbreviation,
/// offset, dst]`) and its sky every `step` minutes (`[shade, colour]`, null where the zone
/// has no place).
struct AlignData: Encodable {
    struct Row: Encodable {
        var row: AlignDay.Row

        func encode(to encoder: any Encoder) throws {
            enum Keys: String, CodingKey { case name, zone, city, segments, sky }
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(row.name, forKey: .name)
            try c.encode(row.zone, forKey: .zone)
            try c.encode(row.city, forKey: .city)
            var segments = c.nestedUnkeyedContainer(forKey: .segments)
            for s in row.segments {
                var tuple = segments.nestedUnkeyedContainer()
                try tuple.encode(s.from)
                try tuple.encode(s.shift)
                try tuple.encode(s.abbreviation)
                try tuple.encode(s.offset)
                try tuple.encode(s.dst)
            }
            var sky = c.nestedUnkeyedContainer(forKey: .sky)
            for sample in row.sky {
                guard let sample else { try sky.encodeNil(); continue }
                try sky.encode([sample.shade, sample.color])
            }
        }
    }

    var date: String
    var step = AlignDay.skyStep
    var you: Row
    var rows: [Row]

    init(_ day: AlignDay) {
        (date, you, rows) = (day.date.description, Row(row: day.you), day.rows.map(Row.init))
    }
}
