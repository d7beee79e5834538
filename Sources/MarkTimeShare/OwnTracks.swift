import Foundation
import MarkTimeCore
import MarkTimePlaces

/// OwnTracks' JSON over MQTT (owntracks.org/booklet/tech/json): the messages marktime
/// sends as the boat, and the checks every message from a phone passes before use.
public enum OwnTracks {
    /// The largest payload read; a card with a face image fits, anything bigger is refused.
    public static let maximumPayload = 64 * 1024

    /// What a topic is: `owntracks/USER/DEVICE` (locations), `…/event` (transitions) or
    /// `…/info` (cards), and whose.
    public struct Topic: Hashable, Sendable {
        public enum Kind: String, Sendable { case location, event, info }
        /// `owntracks/USER/DEVICE`: the device, whatever the kind.
        public var base: String
        public var kind: Kind

        public init?(_ topic: String) {
            let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3 || parts.count == 4, parts[0] == "owntracks", Text.isTopicLevel(parts[1]), Text.isTopicLevel(parts[2]) else { return nil }
            base = parts[0...2].joined(separator: "/")
            switch parts.count == 3 ? "" : parts[3] {
            case "": kind = .location
            case "event": kind = .event
            case "info": kind = .info
            default: return nil
            }
        }

        /// Whether `text` is a device's topic a member can be linked to.
        public static func isDevice(_ text: String) -> Bool { Topic(text).map { $0.kind == .location } ?? false }
    }

    /// A phone's message, checked.
    public enum Incoming: Hashable, Sendable {
        case location(GeoFix)
        case transition(place: String, kind: PlaceEvent.Kind, fix: GeoFix)
        case card(name: String)
        /// A message marktime has no use for (`lwt`, `status`, a `waypoint`…): seen, not applied.
        case ignored(type: String)
    }

    /// The earliest and latest `tst` believed: a phone's clock may be off, not by decades.
    public static let validTimes = UTCTime(year: 2000, month: 1, day: 1)!...UTCTime(year: 2100, month: 1, day: 1)!

    /// Reads a payload that arrived on `topic`, or says in one sentence why it is refused.
    /// How far ahead of the boat's clock a report's `tst` may be, in seconds.
    public static let maximumAhead: Int64 = 300

    /// `now` bounds the timestamps: at most `maximumAhead` ahead of the boat's clock.
    public static func read(topic: Topic, payload: [UInt8], now: UTCTime) throws(InputError) -> Incoming {
        guard payload.count <= maximumPayload else { throw InputError("payload of \(payload.count) bytes is over the \(maximumPayload)-byte limit") }
        let json: Fields
        do { json = try JSONDecoder().decode(Fields.self, from: Data(payload)) } catch {
            throw InputError("payload is not an OwnTracks JSON object: \(Self.reason(error))")
        }
        guard let type = json._type else { throw InputError("payload has no _type") }
        switch (topic.kind, type) {
        case (.location, "location"):
            return .location(try fix(json, now: now))
        case (.event, "transition"):
            guard let event = json.event, let kind = PlaceEvent.Kind(rawValue: event) else {
                throw InputError("transition's event is not enter or leave")
            }
            guard let desc = json.desc, let place = try? Text.name(desc, what: "a place", example: "Home") else {
                throw InputError("transition's desc is not a place name")
            }
            return .transition(place: place, kind: kind, fix: try fix(json, now: now))
        case (.info, "card"):
            guard let raw = json.name, let name = try? Text.name(raw, what: "a card", example: "Anna") else {
                throw InputError("card's name is missing or not a name")
            }
            return .card(name: name)
        case (_, "location"), (_, "transition"), (_, "card"):
            throw InputError("a \(type) message on a \(topic.kind.rawValue) topic")
        case (_, "lwt"), (_, "status"), (_, "waypoint"), (_, "waypoints"), (_, "steps"), (_, "beacon"), (_, "cmd"), (_, "request"):
            return .ignored(type: type)
        default:
            throw InputError("unknown _type '\(Text.escaped(String(type.prefix(40))))'")
        }
    }

    /// The fields marktime reads; any of them with the wrong JSON type refuses the payload.
    struct Fields: Decodable {
        var _type: String?
        var lat, lon, tst, acc: Double?
        var event, desc, name: String?
    }

    /// A decoding error in a few words: which field, or that the JSON is broken.
    static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let c) where c.codingPath.isEmpty:
            return "the JSON is not an object"
        case .valueNotFound(_, let c) where c.codingPath.isEmpty:
            return "the JSON is null, not an object"
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "\(c.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
        case .dataCorrupted(let c) where !c.codingPath.isEmpty:
            return "\(c.codingPath.map(\.stringValue).joined(separator: ".")) is not readable"
        default:
            return "not valid JSON"
        }
    }

    /// `lat`, `lon`, `tst` and `acc` of a location or transition.
    static func fix(_ json: Fields, now: UTCTime) throws(InputError) -> GeoFix {
        guard let lat = json.lat, let lon = json.lon, lat.isFinite, lon.isFinite else { throw InputError("lat and lon must be numbers") }
        guard let position = try? Position(latitude: lat, longitude: lon) else {
            throw InputError("lat \(lat), lon \(lon) is not a position on Earth")
        }
        guard let tst = json.tst, tst.isFinite, let time = UTCTime(secondsSinceEpoch: tst.rounded(.down)), validTimes.contains(time) else {
            throw InputError("tst is missing, or not a time from 2000 on")
        }
        // A report from the future would make every true one after it look old.
        let ahead = (time.nanosecondsSinceEpoch - now.nanosecondsSinceEpoch) / 1_000_000_000
        guard ahead <= maximumAhead else {
            throw InputError("tst is \(ahead) s ahead of the boat's clock (more than \(maximumAhead) s): the phone's clock, or the boat's, is wrong")
        }
        if let acc = json.acc, !(acc.isFinite && acc >= 0 && acc <= 100_000) { throw InputError("acc must be metres from 0 to 100 km") }
        return GeoFix(position: position, error: json.acc, time: time)
    }

    /// A request to the boat on its `…/cmd` topic: `reportLocation` or `waypoints`; nil for
    /// anything else (other actions, or not a `cmd`).
    public static func command(_ payload: [UInt8]) -> String? {
        struct Command: Decodable { var _type: String?; var action: String? }
        guard payload.count <= maximumPayload, let c = try? JSONDecoder().decode(Command.self, from: Data(payload)), c._type == "cmd",
              let action = c.action, ["reportLocation", "waypoints"].contains(action) else { return nil }
        return action
    }

    // MARK: What the boat sends

    /// The boat's `location`: `t` is the trigger (`p` ping for the interval, `t` a move, `c` a region change).
    public static func location(_ fix: Fix, time: UTCTime, tid: String, trigger: String, inRegions: [String]) -> [UInt8] {
        var json: [(String, JSON)] = [
            ("_type", .string("location")), ("lat", degrees(fix.position.latitude)), ("lon", degrees(fix.position.longitude)),
            ("tst", .int(time.nanosecondsSinceEpoch / 1_000_000_000)), ("tid", .string(tid)), ("t", .string(trigger)),
        ]
        // Left out when unknown or 0, as the apps leave them out: no accuracy, or at rest
        // (where a course means nothing; a course of 0 under way is north, and is kept).
        if let e = fix.horizontalError, e.rounded() > 0 { json.append(("acc", .int(Int64(e.rounded())))) }
        if let v = fix.speed, (v * 3.6).rounded() > 0 {
            json.append(("vel", .int(Int64((v * 3.6).rounded()))))
            if let c = fix.course { json.append(("cog", .int(Int64(c.rounded()) % 360))) }
        }
        json.append(("inregions", .array(inRegions.map(JSON.string))))
        return payload(json)
    }

    /// The boat's `transition` for an enter or leave of one of its places; `wtst` is the
    /// place's waypoint `tst` (see `waypointTimes`), 0 for a place no longer stored.
    public static func transition(_ event: PlaceEvent, tid: String, error: Double?, waypointTime: Int64?) -> [UInt8] {
        var json: [(String, JSON)] = [
            ("_type", .string("transition")), ("event", .string(event.kind.rawValue)), ("desc", .string(event.place)),
            ("lat", degrees(event.position.latitude)), ("lon", degrees(event.position.longitude)),
            ("tst", .int(event.time.nanosecondsSinceEpoch / 1_000_000_000)), ("wtst", .int(waypointTime ?? 0)), ("tid", .string(tid)),
            ("t", .string("c")),
        ]
        if let error, error.rounded() > 0 { json.append(("acc", .int(Int64(error.rounded())))) }
        return payload(json)
    }

    /// The boat's `card`: the name friends see.
    public static func card(name: String, tid: String) -> [UInt8] {
        payload([("_type", .string("card")), ("name", .string(name)), ("tid", .string(tid))])
    }

    /// The places, as OwnTracks' `waypoints` (each a circular region), each with its
    /// `waypointTimes` stamp.
    public static func waypoints(_ places: [Place]) -> [UInt8] {
        let times = waypointTimes(places)
        let list = places.map { p in
            JSON.object([("_type", .string("waypoint")), ("desc", .string(p.name)), ("lat", degrees(p.center.latitude)),
                         ("lon", degrees(p.center.longitude)), ("rad", .int(Int64(p.radius.rounded()))), ("tst", .int(times[p.name] ?? 0))])
        }
        return payload([("_type", .string("waypoints")), ("waypoints", .array(list))])
    }

    /// Each place's waypoint `tst`, by name: when it was created, in whole seconds. The apps
    /// take it as the waypoint's identity, so it is the same at every publish; places
    /// created within one second take the next free second, in the order they were created
    /// (places never stored come last).
    public static func waypointTimes(_ places: [Place]) -> [String: Int64] {
        let ordered = places.sorted { a, b in
            let (x, y) = (a.created?.nanosecondsSinceEpoch ?? .max, b.created?.nanosecondsSinceEpoch ?? .max)
            return x != y ? x < y : a.name < b.name
        }
        var times: [String: Int64] = [:], last = Int64.min
        for p in ordered {
            let own = p.created.map { $0.nanosecondsSinceEpoch / 1_000_000_000 } ?? 0
            last = last == .min ? own : max(own, last + 1)
            times[p.name] = last
        }
        return times
    }

    /// The last will: the broker sends it for the boat when the daemon vanishes.
    public static func lastWill(time: UTCTime) -> [UInt8] {
        payload([("_type", .string("lwt")), ("tst", .int(time.nanosecondsSinceEpoch / 1_000_000_000))])
    }

    /// A message's bytes: one line of JSON, keys in the order given.
    static func payload(_ members: [(String, JSON)]) -> [UInt8] { Array(JSON.object(members).compact.utf8) }

    /// Degrees to 1e-7 (about a centimetre), as a phone sends them.
    static func degrees(_ value: Double) -> JSON { .number((value * 1e7).rounded() / 1e7) }
}

/// When the boat's position goes out: the first fix, then whenever it has moved
/// `minMove` metres (trigger `t`) or `interval` seconds have passed (trigger `p`).
public struct LocationPolicy: Hashable, Sendable {
    public let interval: Double
    public let minMove: Double
    public private(set) var last: GeoFix?

    public init(interval: Double, minMove: Double) {
        self.interval = interval
        self.minMove = minMove
    }

    /// The trigger to publish `fix` with, or nil to let it pass.
    public mutating func consider(_ fix: GeoFix) -> String? {
        let trigger: String?
        if let last {
            if GreatCircle.distance(last.position, fix.position) >= minMove { trigger = "t" }
            else if fix.time.secondsSinceEpoch - last.time.secondsSinceEpoch >= interval { trigger = "p" }
            else { trigger = nil }
        } else {
            trigger = "p"
        }
        if trigger != nil { last = fix }
        return trigger
    }
}
