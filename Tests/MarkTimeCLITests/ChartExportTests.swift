import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MarkTimeCore
import MarkTimePlaces
import MarkTimeSky
import MarkTimeStore
import RigSupport
import Testing

/// What gpsbabel wrote back as GPX: waypoints, routes and tracks, with names and points.
final class GPXReadBack: NSObject, XMLParserDelegate {
    struct Point: Equatable {
        var name: String?
        var lat: Double
        var lon: Double
        var time: String?
    }
    var waypoints: [Point] = []
    var routes: [(name: String?, points: [Point])] = []
    var tracks: [(name: String?, points: [Point])] = []
    private var path: [String] = []
    private var text = ""
    private var current: Point? = nil

    init(_ file: String) throws {
        super.init()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: file)))
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        path.append(name)
        text = ""
        switch name {
        case "wpt", "rtept", "trkpt": current = Point(name: nil, lat: Double(attributes["lat"]!)!, lon: Double(attributes["lon"]!)!, time: nil)
        case "rte": routes.append((nil, []))
        case "trk": tracks.append((nil, []))
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        path.removeLast()
        switch name {
        case "name" where path.last == "wpt" || path.last == "rtept" || path.last == "trkpt": current?.name = text
        case "name" where path.last == "rte": routes[routes.count - 1].name = text
        case "name" where path.last == "trk": tracks[tracks.count - 1].name = text
        case "time" where current != nil: current?.time = text
        case "wpt": waypoints.append(current!); current = nil
        case "rtept": routes[routes.count - 1].points.append(current!); current = nil
        case "trkpt": tracks[tracks.count - 1].points.append(current!); current = nil
        default: break
        }
    }
}

@Suite("Charts: GPX and KML read back by gpsbabel", .tags(.gpsbabel))
struct ChartExportTests {
    static let truth = try! Position(latitude: 35, longitude: -40)
    static let evening = UTCTime(year: 2026, month: 3, day: 10, hour: 22)!

    /// Three star sights from 35° N 40° W, a minute apart, and the place Home.
    func seeded() throws -> (CLI, [Sight]) {
        let cli = CLI()
        let sights = try ["Sirius", "Capella", "Regulus"].enumerated().map { k, name in
            try cli.database().insert(practiceSight(Body(named: name)!, at: Self.evening.adding(nanoseconds: Int64(k) * 60_000_000_000),
                                                    from: Self.truth, dr: try Position(latitude: 35.1, longitude: -40.2)))
        }
        try cli.database().addPlace(try Place(name: "Home & <harbour>", kind: .harbour, center: try Position(latitude: -27.5, longitude: 153.25), radius: 250),
                                    now: Self.evening)
        return (cli, sights)
    }

    /// gpsbabel converting `file` (format `from`) to GPX; the read-back.
    func throughGPSBabel(_ file: String, from: String, folder: String) throws -> GPXReadBack {
        let back = folder + "/back-\(from).gpx"
        let r = try runCommand("/usr/bin/gpsbabel", ["-i", from, "-f", file, "-o", "gpx", "-F", back], environment: ["PATH": "/usr/bin:/bin"])
        #expect(r.status == 0, "gpsbabel: \(r.stderr)")
        return try GPXReadBack(back)
    }

    @Test func gpxReadsBackWithEveryWaypointLineAndTrackPoint() throws {
        // Given three sights and a place; when exported as GPX
        let (cli, sights) = try seeded()
        let file = cli.folder + "/passage.gpx"
        let r = try cli.run(["export", "gpx", "-o", file])
        #expect(r.status == 0, "\(r.stderr)")
        // Then gpsbabel reads it back: 3 sights, the fix and the place as waypoints, with their names and times
        let back = try throughGPSBabel(file, from: "gpx", folder: cli.folder)
        let fix = try FixWork(sights, options: .init()).fix
        #expect(back.waypoints.map(\.name) == ["Sight 1 Sirius", "Sight 2 Capella", "Sight 3 Regulus", "Fix 22:02", "Home & <harbour>"])
        #expect(back.waypoints.prefix(3).map(\.time) == ["2026-03-10T22:00:00Z", "2026-03-10T22:01:00Z", "2026-03-10T22:02:00Z"])
        for w in back.waypoints.prefix(3) { #expect(abs(w.lat - 35) < 1e-7 && abs(w.lon - -40) < 1e-7) }
        #expect(abs(back.waypoints[3].lat - fix.position.latitude) < 1e-7)
        #expect(abs(back.waypoints[4].lat - -27.5) < 1e-7 && abs(back.waypoints[4].lon - 153.25) < 1e-7)
        // And each line of position is a route of its two ends, 10 nm either side of its foot
        #expect(back.routes.count == 3)
        for (route, s) in zip(back.routes, sights) {
            let ends = try ReducedSight(s).lineEnds(halfLength: 10)
            #expect(route.points.count == 2)
            #expect(abs(route.points[0].lat - ends.0.latitude) < 1e-7 && abs(route.points[1].lon - ends.1.longitude) < 1e-7)
            #expect(route.name?.hasPrefix("LOP \(s.id!) ") == true)
        }
        // And the track is the sights' GPS positions, in time order
        #expect(back.tracks.count == 1)
        #expect(back.tracks.first?.points.count == 3)
    }

    @Test func kmlReadsBackWithTheSamePlacesAndLines() throws {
        // Given the same; when exported as KML and read back by gpsbabel
        let (cli, sights) = try seeded()
        let file = cli.folder + "/passage.kml"
        #expect(try cli.run(["export", "kml", "-o", file]).status == 0)
        let back = try throughGPSBabel(file, from: "kml", folder: cli.folder)
        // Then the placemarks are the same waypoints, and the lines of position and track come back as paths
        let fix = try FixWork(sights, options: .init()).fix
        #expect(back.waypoints.map(\.name) == ["Sight 1 Sirius", "Sight 2 Capella", "Sight 3 Regulus", "Fix 22:02", "Home & <harbour>"])
        for (w, expected) in zip(back.waypoints, [Self.truth, Self.truth, Self.truth, fix.position, try Position(latitude: -27.5, longitude: 153.25)]) {
            #expect(abs(w.lat - expected.latitude) < 1e-7 && abs(w.lon - expected.longitude) < 1e-7)
        }
        let paths = back.routes.map(\.points.count) + back.tracks.map(\.points.count)
        #expect(paths.sorted() == [2, 2, 2, 3])
    }
}
