import Foundation
import Hummingbird
import NIOCore
import MarkTimeCore
import MarkTimeDevices
import MarkTimeJournal
import MarkTimePeople
import MarkTimeStore
import MarkTimeSystem
import MultipartKit

/// The Journal page: a month's calendar with its marked days, and a day's page gathering
/// every module, where a moment, a check-in and a photo from the phone are added.
struct JournalRoutes {
    let site: Site
    let tz = TZDatabase()

    func add(to router: Router<WebContext>) {
        router.get("/journal") { request, context in
            try month(context: context, text: request.uri.queryParameters["month"].map(String.init))
        }
        router.get("/journal/:date") { _, context in try day(context: context, text: context.parameters.get("date") ?? "") }
        router.post("/journal/:date/moment") { request, context in try await moment(request, context: context) }
        router.post("/journal/:date/checkin") { request, context in try await checkIn(request, context: context) }
        router.post("/journal/:date/photo") { request, context in try await photo(request, context: context) }
        router.get("/media/:file") { _, context in try media(context.parameters.get("file") ?? "") }
    }

    func month(context: WebContext, text: String?) throws -> Response {
        let zone = try tz.home(site.settings)
        let today = zone.local(at: try site.now()).0.date
        var error: String?
        var grid = MonthGrid(year: today.year, month: today.month)
        if let text, !text.isEmpty {
            if let g = MonthGrid(text), (try? g.first.inRange(what: "the month")) != nil { grid = g } else {
                error = "'\(text)' is not a month: use YYYY-MM, e.g. 2026-11"
            }
        }
        let counts = try Journal(site.store).entryCounts(grid, zone: zone)
        let previous = grid.month == 1 ? MonthGrid(year: grid.year - 1, month: 12) : MonthGrid(year: grid.year, month: grid.month - 1)
        let next = grid.month == 12 ? MonthGrid(year: grid.year + 1, month: 1) : MonthGrid(year: grid.year, month: grid.month + 1)
        func key(_ g: MonthGrid) -> String { String(g.first.description.prefix(7)) }
        let view = MonthView(
            error: error, month: "\(MonthGrid.monthNames[grid.month - 1]) \(grid.year)", previous: key(previous), next: key(next),
            today: today.description,
            weeks: grid.weeks.map { week in
                .init(days: week.map { d in
                    guard let d else { return .init(blank: true) }
                    let date = CivilDate(year: grid.year, month: grid.month, day: d)
                    return .init(day: d, date: date.description, count: counts[d], today: date == today)
                })
            })
        return try site.pages.page("journal", title: "Journal", view, context: context, section: "/journal")
    }

    func day(context: WebContext, text: String, error: String? = nil, notice: String? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        let zone = try tz.home(site.settings)
        let date: CivilDate
        do { date = try CivilDate.read(text, what: "the day") } catch {
            return try site.pages.problem(.notFound, "\(error) Open a day from the calendar.", context: context)
        }
        let page = try Journal(site.store).dayPage(date, zone: zone, fix: try fix())
        let view = DayView(
            date: date.description, sun: page.sunLine, zone: zone.identifier, error: error, notice: notice, month: String(date.description.prefix(7)),
            entries: page.entries.map { e in
                var v = DayView.Entry(time: page.clock(e.time), kind: e.kind.rawValue, text: page.body(e))
                if e.kind == .photo, let file = e.file {
                    v.photo = "/media/" + (file as NSString).lastPathComponent
                    v.text = e.text.isEmpty ? "Photo" : e.text
                    v.size = e.width.map { "\($0)×\(e.height ?? 0)" }
                }
                return v
            })
        return try site.pages.page("day", title: page.title, view, context: context, status: status, section: "/journal",
                                   refresh: "/journal/\(date)")
    }

    /// The daemon's position while its fix is fresh enough for the Sun's events.
    func fix() throws -> Position? {
        try site.store.daemonStatus()?.usablePosition(for: .ship, now: try site.clock.read().instant)
    }

    /// The instant of the day's `time` (HH:MM), or now when no time is given.
    func instant(_ date: String, time: String?) throws -> UTCTime {
        let zone = try tz.home(site.settings)
        let day = try CivilDate.read(date, what: "the day")
        guard let time, !time.isEmpty else { return try site.now() }
        return try zone.instant(date: day, time: time, now: try site.now()).time
    }

    func moment(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var text, time: String? }
        let date = context.parameters.get("date") ?? ""
        let f = try await request.decode(as: Form.self, context: context)
        do {
            let id = try Journal(site.store).addMoment(f.text ?? "", at: try instant(date, time: f.time), now: try site.now())
            return try day(context: context, text: date, notice: "Moment \(id) added.")
        } catch {
            return try day(context: context, text: date, error: "\(error)", status: .badRequest)
        }
    }

    func checkIn(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var name, position, here: String? }
        let date = context.parameters.get("date") ?? ""
        let f = try await request.decode(as: Form.self, context: context)
        do {
            let at = try PlaceRoutes(site: site).position(typed: f.position, here: f.here != nil)
            let c = try Journal(site.store).checkIn(at: at, name: f.name.flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }, time: try site.now(), now: try site.now())
            let nearest = c.inside != nil ? "" : c.nearest.isEmpty ? " No known places yet."
                : " Not within a known place; nearest: " + c.nearest.prefix(3).map { "\($0.place.name) \(Quantity.metres($0.metres))" }.joined(separator: ", ") + "."
            return try day(context: context, text: date, notice: "Checked in at \(c.name), \(at.ddm).\(nearest)")
        } catch {
            return try day(context: context, text: date, error: "\(error)", status: .badRequest)
        }
    }

    /// A photo from the day page: the script's whole-body upload or the form's multipart post.
    /// The body goes to a nameless file as it arrives, counted against the limit, so an upload
    /// holds a chunk of memory until it is whole; then photos are checked and kept one at a time.
    func photo(_ request: Request, context: WebContext) async throws -> Response {
        let date = context.parameters.get("date") ?? ""
        let tooLarge = "The photo is over \(ImageInfo.maximumBytes / 1_048_576) MB: send a smaller one."
        do {
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > ImageInfo.maximumBytes {
                return try day(context: context, text: date, error: tooLarge, status: .contentTooLarge)
            }
            let spool = try SpoolFile(in: site.store.folder)
            for try await chunk in request.body {
                guard spool.count + chunk.readableBytes <= ImageInfo.maximumBytes else {
                    return try day(context: context, text: date, error: tooLarge, status: .contentTooLarge)
                }
                try spool.append(chunk.readableBytesView)
            }
            let form = PhotoUpload.Form(type: request.headers[.contentType] ?? "",
                                        name: request.uri.queryParameters["name"].map(String.init),
                                        caption: request.uri.queryParameters["caption"].map(String.init))
            let zone = try tz.home(site.settings)
            let site = site
            let p = try await site.photoTurns.run {
                try await site.offLoop {
                    let upload = try PhotoUpload(form, body: spool)
                    return try Journal(site.store).addPhoto(upload.bytes, name: upload.name, caption: upload.caption, given: nil, zone: zone, now: try site.now())
                }
            }
            let text = p.added ? "Photo \(p.id) added: \(p.info.width)×\(p.info.height) \(p.info.format.rawValue), \(zone.localText(p.time))."
                : "Photo \(p.id) already has this image: kept once."
            return try day(context: context, text: date, notice: text)
        } catch {
            return try day(context: context, text: date, error: "\(error)", status: .badRequest)
        }
    }

    /// A kept photo, by its file name (`<sha256>.jpg`); nothing else in the folder is served.
    func media(_ file: String) throws -> Response {
        let parts = file.split(separator: ".")
        guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit), ["jpg", "png"].contains(parts[1]),
              let data = FileManager.default.contents(atPath: site.store.mediaFolder + "/" + file) else {
            throw HTTPError(.notFound, message: "no such photo")
        }
        return Response(status: .ok, headers: [.contentType: parts[1] == "jpg" ? "image/jpeg" : "image/png", .cacheControl: "private, max-age=31536000, immutable"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A photo as the day page sends it: the file as the body with the caption and name in the
/// query (the page's script), or the form's `multipart/form-data` (no script).
struct PhotoUpload {
    var bytes: [UInt8]
    var name: String
    var caption: String

    /// What the request says of its body: its type, and the script's name and caption.
    struct Form: Sendable {
        var type: String
        var name: String?
        var caption: String?
    }

    /// The photo in `body`, read a chunk at a time: only the photo's own bytes are kept.
    init(_ form: Form, body: SpoolFile) throws {
        guard form.type.lowercased().hasPrefix("multipart/form-data") else {
            bytes = try body.bytes()
            name = form.name ?? "the file"
            caption = form.caption ?? ""
            return
        }
        // MultipartKit's parser traps on an empty boundary: refuse it here.
        guard let boundary = Self.parameter("boundary", of: form.type), !boundary.isEmpty else {
            throw InputError("the form's data has no boundary (multipart/form-data): send it again")
        }
        // Each part: its field name and file name from Content-Disposition, then its bytes.
        var parts: [(field: String, file: String?, body: [UInt8])] = []
        var field = "", file: String?, part: [UInt8] = []
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { header, value in
            guard header.lowercased() == "content-disposition" else { return }
            field = Self.parameter("name", of: value) ?? ""
            file = Self.parameter("filename", of: value)
        }
        parser.onBody = { buffer in part += buffer.readableBytesView }
        parser.onPartComplete = {
            parts.append((field, file, part))
            field = ""; file = nil; part = []
        }
        do { try body.forEachChunk { try parser.execute($0) } } catch let error as SystemError { throw error } catch {
            throw InputError("the form's data could not be read (multipart/form-data): send it again")
        }
        guard let photo = parts.first(where: { $0.field == "photo" }), !photo.body.isEmpty else {
            throw InputError("no photo was sent: choose a JPEG or PNG image first")
        }
        bytes = photo.body
        name = photo.file.flatMap { $0.isEmpty ? nil : $0 } ?? "the file"
        caption = parts.first(where: { $0.field == "caption" }).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
    }

    /// A header parameter's value (`boundary=...`, `filename="..."`), unquoted.
    static func parameter(_ key: String, of header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == key else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }
}

/// The journal's month: its weeks of days, each with its count of entries.
struct MonthView: Encodable {
    struct Week: Encodable {
        var days: [Day]
    }

    struct Day: Encodable {
        var blank: Bool?
        var day: Int?
        var date: String?
        var count: Int?
        var today: Bool?
    }

    var error: String?
    var month, previous, next, today: String
    var weeks: [Week]
}

/// One day of the journal: the Sun's line and the entries, a photo with its size.
struct DayView: Encodable {
    struct Entry: Encodable {
        var time, kind, text: String
        var photo, size: String?
    }

    var date, sun, zone: String
    var error, notice: String?
    var month: String
    var entries: [Entry]
}
