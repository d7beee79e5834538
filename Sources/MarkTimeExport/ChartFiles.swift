import Foundation
import MarkTimeCore
import MarkTimeSky

/// What a chart plotter is given: sights, fixes, the boat's track, places and lines of
/// position, each named and timed as a navigator would read them on a chart.
public struct ChartData: Sendable {
    /// A named point on the chart.
    public struct Point: Sendable, Equatable {
        public var name: String
        public var position: Position
        public var utc: UTCTime?
        public var description: String
        /// `sight`, `fix` or `place`.
        public var kind: String

        public init(name: String, position: Position, utc: UTCTime?, description: String, kind: String) {
            (self.name, self.position, self.utc, self.description, self.kind) = (name, position, utc, description, kind)
        }
    }

    /// A line of position as a two-point route.
    public struct Line: Sendable, Equatable {
        public var name: String
        public var ends: (Position, Position)
        public var description: String

        public static func == (a: Line, b: Line) -> Bool {
            a.name == b.name && a.ends.0 == b.ends.0 && a.ends.1 == b.ends.1 && a.description == b.description
        }
    }

    public var name: String
    public var points: [Point]
    public var lines: [Line]
    /// The boat's positions in time order (the GPS positions its sights recorded, but flagged ones).
    public var track: [(position: Position, utc: UTCTime)]

    /// How long each line of position is drawn either side of its foot, nm.
    public static let lineHalfLength = 10.0

    /// The chart of `sights` (each at its GPS position, else its DR), their fix when there is
    /// one, their lines of position, and `places` (name, centre, radius in metres).
    public init(name: String, sights: [Sight], fix: CelestialFix?, places: [(name: String, center: Position, radius: Double)]) {
        self.name = name
        let ordered = sights.sorted { $0.estimate.utc < $1.estimate.utc }
        points = ordered.compactMap { s in
            // Its GPS position, else its DR, else a flagged GPS position, said to be one.
            guard let at = s.trustedPosition ?? s.dr ?? s.position else { return nil }
            let what = [s.body, s.limb.map { "\($0.rawValue) limb" }, s.hs.map { "Hs " + SextantAngle.format($0) }].compactMap { $0 }
            let from = s.trustedPosition != nil ? "GPS" : s.dr != nil ? "DR" : "flagged GPS (faster than the boat can)"
            return Point(name: "Sight \(s.id.map(String.init) ?? "") \(s.body ?? "")".trimmingCharacters(in: .whitespaces),
                         position: at, utc: s.estimate.utc,
                         description: (what + ["\(from) \(at.ddm)", s.estimate.utc.iso8601]).joined(separator: ", "), kind: "sight")
        }
        if let fix {
            points.append(Point(name: "Fix \(fix.utc.isoTimeOfDayMinutes)", position: fix.position, utc: fix.utc,
                                description: String(format: "%d lines, 95%% ellipse %.1f × %.1f nm%@", fix.lines.count, fix.ellipse.semiMajor,
                                                    fix.ellipse.semiMinor, fix.gpsDistance.map { String(format: ", %.1f nm from GPS", $0) } ?? ""),
                                kind: "fix"))
        }
        points += places.map { p in
            Point(name: p.name, position: p.center, utc: nil, description: "place, radius \(Position.plain(p.radius.rounded())) m", kind: "place")
        }
        lines = ordered.compactMap { s in
            guard let r = try? ReducedSight(s) else { return nil }
            return Line(name: "LOP \(r.id.map(String.init) ?? "") \(r.body.name) \(r.utc.isoTimeOfDayMinutes)",
                        ends: r.lineEnds(halfLength: Self.lineHalfLength),
                        description: String(format: "Zn %05.1f°, intercept %.1f nm %@", r.computed.azimuth, abs(r.intercept), r.intercept >= 0 ? "toward" : "away"))
        }
        track = ordered.compactMap { s in s.trustedPosition.map { ($0, s.estimate.utc) } }
    }
}

/// Text for XML: the five characters XML reserves, escaped.
func xml(_ s: String) -> String { Text.markup(s) }

/// Degrees to 7 decimals (about a centimetre).
func coordinate(_ v: Double) -> String { String(format: "%.7f", v) }

/// GPX 1.1 (topografix.com/GPX/1/1): sights, fixes and places as waypoints, lines of
/// position as routes, the boat's positions as a track; what OpenCPN and chart plotters import.
public enum GPXDocument {
    public static func text(_ chart: ChartData) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.1\" creator=\"marktime\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        out += "  <metadata><name>\(xml(chart.name))</name></metadata>\n"
        for p in chart.points {
            out += "  <wpt lat=\"\(coordinate(p.position.latitude))\" lon=\"\(coordinate(p.position.longitude))\">"
            if let t = p.utc { out += "<time>\(t.iso8601)</time>" }
            out += "<name>\(xml(p.name))</name><desc>\(xml(p.description))</desc><sym>\(p.kind == "place" ? "anchorage" : "circle")</sym>"
            out += "<type>\(p.kind)</type></wpt>\n"
        }
        for l in chart.lines {
            out += "  <rte><name>\(xml(l.name))</name><desc>\(xml(l.description))</desc>"
            for e in [l.ends.0, l.ends.1] { out += "<rtept lat=\"\(coordinate(e.latitude))\" lon=\"\(coordinate(e.longitude))\"/>" }
            out += "</rte>\n"
        }
        if !chart.track.isEmpty {
            out += "  <trk><name>\(xml(chart.name)) track</name><trkseg>\n"
            for t in chart.track {
                out += "    <trkpt lat=\"\(coordinate(t.position.latitude))\" lon=\"\(coordinate(t.position.longitude))\"><time>\(t.utc.iso8601)</time></trkpt>\n"
            }
            out += "  </trkseg></trk>\n"
        }
        return out + "</gpx>\n"
    }
}

/// KML 2.2 (opengis.net/kml/2.2): the same as `GPXDocument`, in folders, for Google Earth
/// and tools that read KML.
public enum KMLDocument {
    public static func text(_ chart: ChartData) -> String {
        func coordinates(_ ps: [Position]) -> String { ps.map { "\(coordinate($0.longitude)),\(coordinate($0.latitude)),0" }.joined(separator: " ") }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n<Document><name>\(xml(chart.name))</name>\n"
        for (kind, title) in [("sight", "Sights"), ("fix", "Fixes"), ("place", "Places")] {
            let points = chart.points.filter { $0.kind == kind }
            guard !points.isEmpty else { continue }
            out += "<Folder><name>\(title)</name>\n"
            for p in points {
                out += "<Placemark><name>\(xml(p.name))</name><description>\(xml(p.description))</description>"
                if let t = p.utc { out += "<TimeStamp><when>\(t.iso8601)</when></TimeStamp>" }
                out += "<Point><coordinates>\(coordinates([p.position]))</coordinates></Point></Placemark>\n"
            }
            out += "</Folder>\n"
        }
        if !chart.lines.isEmpty {
            out += "<Folder><name>Lines of position</name>\n"
            for l in chart.lines {
                out += "<Placemark><name>\(xml(l.name))</name><description>\(xml(l.description))</description>"
                out += "<LineString><coordinates>\(coordinates([l.ends.0, l.ends.1]))</coordinates></LineString></Placemark>\n"
            }
            out += "</Folder>\n"
        }
        if !chart.track.isEmpty {
            out += "<Folder><name>Track</name>\n<Placemark><name>\(xml(chart.name)) track</name>"
            out += "<LineString><coordinates>\(coordinates(chart.track.map(\.position)))</coordinates></LineString></Placemark>\n</Folder>\n"
        }
        return out + "</Document>\n</kml>\n"
    }
}
