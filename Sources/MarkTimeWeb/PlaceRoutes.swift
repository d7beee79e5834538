import Foundation
import Hummingbird
import MarkTimeCore
import MarkTimePlaces
import MarkTimeStore

/// The Places page: the family clock, where everyone is, the places and their history,
/// adding a place (at the current fix or a typed position), and the anchor watch.
struct PlaceRoutes {
    let site: Site

    func add(to router: Router<WebContext>) {
        router.get("/places") { _, context in try page(context: context) }
        router.post("/places") { request, context in try await addPlace(request, context: context) }
        router.post("/places/remove") { request, context in try await removePlace(request, context: context) }
        router.post("/anchor/drop") { request, context in try await drop(request, context: context) }
        router.post("/anchor/ack") { _, context in try anchorChange(context: context, done: "Alarm silenced; watching again.") { $0.acknowledge() } }
        router.post("/anchor/lift") { _, context in try anchorChange(context: context, done: "Anchor watch ended.") { $0.lift() } }
    }

    func page(context: WebContext, error: String? = nil, notice: String? = nil, form: PlacesView.Form = .init(),
              status: HTTPResponse.Status = .ok) throws -> Response {
        let board = try site.store.familyClock()
        let view = PlacesView(
            clock: board.clock.svg(size: 320, legend: board.legend),
            members: board.members.map { m in
                .init(name: m.name, me: m.isMe, place: m.geofence.place ?? "unknown", since: m.geofence.since?.isoTimeOfDayMinutes ?? "",
                      reported: m.reportedAt?.iso8601 ?? "never")
            },
            places: try site.store.places().map { p in .init(name: p.name, kind: p.kind.rawValue, position: p.center.ddm, radius: Quantity.metres(p.radius)) },
            events: try site.store.placeEvents().suffix(20).reversed().map { e in
                .init(time: "\(e.event.time.isoDate) \(e.event.time.isoTimeOfDayMinutes)", member: e.member, kind: e.event.kind.rawValue, place: e.event.place)
            },
            kinds: PlaceKind.allCases.map { Choice(value: $0.rawValue, selected: $0.rawValue == (form.kind ?? "other")) },
            form: form, error: error, notice: notice, anchor: try AnchorView(site))
        return try site.pages.page("places", title: "Places", view, context: context, status: status, section: "/places", refresh: "/places")
    }

    /// `position` as typed, or the daemon's fix when `here` is ticked.
    func position(typed: String?, here: Bool) throws -> Position {
        try PositionChoice(typed: typed, here: here).resolve(try site.store.daemonStatus(), now: try site.clock.read().instant,
                                                             use: try .place(site.settings), words: .init(typed: "a position", here: "“At the current fix”"))
    }

    struct PlaceForm: Decodable { var name, kind, radius, position, here: String? }

    func addPlace(_ request: Request, context: WebContext) async throws -> Response {
        let f = try await request.decode(as: PlaceForm.self, context: context)
        do {
            let kind = try PlaceKind.parse(f.kind ?? "other")
            let place = try Place(name: f.name ?? "", kind: kind, center: try position(typed: f.position, here: f.here != nil),
                                  radius: try Quantity.parse(f.radius ?? "", what: "radius (metres)"))
            try site.places.add(place, now: try site.now())
            return try page(context: context, notice: "Added \(place.name): \(place.center.ddm), radius \(Quantity.metres(place.radius)).")
        } catch {
            let form = PlacesView.Form(name: f.name ?? "", kind: f.kind ?? "", radius: f.radius ?? "", position: f.position ?? "")
            return try page(context: context, error: "\(error)", form: form, status: .badRequest)
        }
    }

    func removePlace(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var name: String? }
        let name = try await request.decode(as: Form.self, context: context).name ?? ""
        do {
            try site.places.remove(named: name)
            return try page(context: context, notice: "Removed \(name).")
        } catch {
            return try page(context: context, error: "\(error)", status: .badRequest)
        }
    }

    func drop(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var position, here, radius, rode, depth, bow: String? }
        let f = try await request.decode(as: Form.self, context: context)
        func number(_ text: String?, _ what: String) throws -> Double? {
            guard let text, !text.isEmpty else { return nil }
            return try Quantity.parse(text, what: what)
        }
        do {
            let radius = try AnchorWatch.radius(given: try number(f.radius, "radius (metres)"), rode: try number(f.rode, "rode (metres)"),
                                                depth: try number(f.depth, "depth (metres)"), bow: try number(f.bow, "bow height (metres)") ?? 0,
                                                margin: try site.settings.anchor.gpsMargin)
            let at = try position(typed: f.position, here: f.here != nil)
            try site.store.dropAnchor(at: at, radius: radius, now: try site.now())
            return try page(context: context, notice: "Anchor watch set at \(at.ddm), radius \(Quantity.metres(radius)).")
        } catch {
            return try page(context: context, error: "\(error)", status: .badRequest)
        }
    }

    func anchorChange(context: WebContext, done: String, _ change: @escaping (inout AnchorWatch) -> [AnchorWatch.Action]) throws -> Response {
        guard try site.store.updateAnchorWatch(settings: site.settings, { w, _ in change(&w) }) != nil else {
            return try page(context: context, error: "No anchor watch is set.", status: .badRequest)
        }
        return try page(context: context, notice: done)
    }
}

/// The Places page: the family clock, the family, the places and their history, the
/// form to add one (again as typed after a refusal), and the anchor watch.
struct PlacesView: Encodable {
    struct Member: Encodable {
        var name: String
        var me: Bool
        var place, since, reported: String
    }

    struct PlaceRow: Encodable {
        var name, kind, position, radius: String
    }

    struct Event: Encodable {
        var time, member, kind, place: String
    }

    struct Form: Encodable {
        var name, kind, radius, position: String?
    }

    var clock: String
    var members: [Member]
    var places: [PlaceRow]
    var events: [Event]
    var kinds: [Choice]
    var form: Form
    var error, notice: String?
    var anchor: AnchorView
}

/// How the anchor watch reads on the page and in the live message.
struct AnchorView: Encodable, Equatable {
    var state: String
    var summary: String
    var on: Bool?
    var alarm: Bool?
    var anchor: String?
    var lastFix: String?

    init(_ site: Site) throws {
        guard let stored = try site.store.anchorWatch(settings: site.settings)?.live(try site.store.daemonStatus()), stored.watch.state != .off else {
            (state, summary) = ("off", "off: no anchor watch")
            return
        }
        let w = stored.watch
        (state, summary, on, alarm, anchor) = (w.state.rawValue, w.summary, true, w.state == .alarm, w.anchor.ddm)
        lastFix = w.lastFixTime.map { "\($0.isoDate) \($0.isoTimeOfDay)" } ?? "none"
    }
}
