import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MarkTimeCore
import MarkTimePlot
import MarkTimeSky
import Testing

/// The elements of an SVG document, in order: name and attributes.
final class SVGElements: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []

    init(_ svg: String) throws {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append((name, attributes))
    }

    func all(_ name: String, class cls: String) -> [[String: String]] {
        elements.filter { $0.name == name && ($0.attributes["class"] ?? "").split(separator: " ").map(String.init) == cls.split(separator: " ").map(String.init) }
            .map(\.attributes)
    }
}

@Suite("The plotting sheet's geometry")
struct PlottingSheetTests {
    static let start = UTCTime(year: 2026, month: 3, day: 10, hour: 21, minute: 40)!
    static let course = 90.0, knots = 12.0

    /// Where the ship is `minutes` after the start: from 35° N 40° W, 090° at 12 knots.
    static func truth(_ minutes: Double) -> Position {
        let miles = knots * minutes / 60
        return try! Position(latitude: 35, longitude: -40 + miles / 60 / cos(35 * .pi / 180))
    }

    /// Three star sights 20 minutes apart from the moving ship, each reduced from a DR 4' off.
    static func sights() throws -> [ReducedSight] {
        try [("Sirius", 0.0), ("Capella", 20.0), ("Regulus", 40.0)].enumerated().map { k, pair in
            let t = start.adding(nanoseconds: Int64(pair.1 * 6e10))
            let here = truth(pair.1)
            var s = Sight.practice(Body(named: pair.0)!, at: t, from: here, reading: SextantReading(hs: 0, eyeHeight: 2.5),
                                   dr: try Position(latitude: here.latitude + 4.0 / 60, longitude: here.longitude - 3.0 / 60))!
            s.id = Int64(k + 1)
            s.position = here
            return try ReducedSight(s)
        }
    }

    /// Decodes a pixel back to nm east and north of the sheet's centre, as the root says it is drawn.
    struct Decoder {
        let center: Position, scale: Double
        init(_ root: [String: String]) {
            center = try! Position(latitude: Double(root["data-center-lat"]!)!, longitude: Double(root["data-center-lon"]!)!)
            scale = Double(root["data-px-per-nm"]!)!
        }
        func nm(_ x: Double, _ y: Double) -> (Double, Double) { ((x - 400) / scale, (400 - y) / scale) }
        func nm(_ p: Position) -> (Double, Double) {
            (((p.longitude - center.longitude) * 60 * cos(center.latitude * .pi / 180)), (p.latitude - center.latitude) * 60)
        }
    }

    static func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double { hypot(a.0 - b.0, a.1 - b.1) }
    static func number(_ a: [String: String], _ key: String) -> Double { Double(a[key]!)! }

    @Test func everyPointAndLineIsWhereTheReductionPutsIt() throws {
        // Given a running fix of three stars, advanced by 090° at 12 knots
        let sights = try Self.sights()
        let fix = try CelestialFix(sights, run: .courseAndSpeed(course: Self.course, knots: Self.knots))
        // When its sheet is drawn and read back
        let svg = try SVGElements(PlottingSheet(fix: fix, sights: sights).svg())
        let d = Decoder(try #require(svg.elements.first { $0.name == "svg" }).attributes)

        // Then each AP is drawn at its sight's assumed position, to 0.1 nm
        let aps = svg.all("circle", class: "ap")
        #expect(aps.count == 3)
        for (ap, s) in zip(aps, sights) {
            #expect(Self.distance(d.nm(Self.number(ap, "cx"), Self.number(ap, "cy")), d.nm(s.assumedPosition)) < 0.1)
        }
        // And each intercept runs from its AP along Zn (or against it, away) by the intercept, ending on the line
        let intercepts = svg.all("line", class: "intercept")
        for (i, s) in zip(intercepts, sights) {
            let ap = d.nm(s.assumedPosition), z = s.computed.azimuth * .pi / 180
            let foot = (ap.0 + s.intercept * sin(z), ap.1 + s.intercept * cos(z))
            #expect(Self.distance(d.nm(Self.number(i, "x2"), Self.number(i, "y2")), foot) < 0.1)
            #expect(i["data-direction"] == (s.intercept >= 0 ? "toward" : "away"))
        }
        // And each line of position passes through its foot, perpendicular to Zn
        let originals = svg.all("line", class: "lop-line original"), last = svg.all("line", class: "lop-line")
        #expect(originals.count == 2)
        #expect(last.count == 1)
        for (line, s) in zip(originals + last, sights) {
            let ap = d.nm(s.assumedPosition), z = s.computed.azimuth * .pi / 180
            let foot = (ap.0 + s.intercept * sin(z), ap.1 + s.intercept * cos(z))
            let a = d.nm(Self.number(line, "x1"), Self.number(line, "y1")), b = d.nm(Self.number(line, "x2"), Self.number(line, "y2"))
            // Through the foot, perpendicular to Zn: both ends are as far along Zn as the foot, to 0.1 nm
            for end in [a, b] { #expect(abs((end.0 - foot.0) * sin(z) + (end.1 - foot.1) * cos(z)) < 0.1) }
            // And it is drawn at length, a few miles at least
            #expect(Self.distance(a, b) > 2)
        }
        // And each advanced line is its original carried along the run: 12 knots × 40 and 20 minutes, 090°
        let advanced = svg.all("line", class: "lop-line advanced")
        #expect(advanced.count == 2)
        for (line, (s, minutes)) in zip(advanced, zip(sights, [40.0, 20.0])) {
            let ap = d.nm(s.assumedPosition), z = s.computed.azimuth * .pi / 180
            let foot = (ap.0 + s.intercept * sin(z) + Self.knots * minutes / 60, ap.1 + s.intercept * cos(z))
            let a = d.nm(Self.number(line, "x1"), Self.number(line, "y1")), b = d.nm(Self.number(line, "x2"), Self.number(line, "y2"))
            for end in [a, b] { #expect(abs((end.0 - foot.0) * sin(z) + (end.1 - foot.1) * cos(z)) < 0.1) }
        }
        // And every element lies inside the drawing
        for e in svg.elements where e.name == "line" {
            for key in ["x1", "x2", "y1", "y2"] { #expect((0...800).contains(Self.number(e.attributes, key)), "\(e.attributes)") }
        }
        #expect(svg.all("line", class: "run").count == 2)
        // And the fix, its ellipse, the DR and the GPS are where they are
        let f = try #require(svg.all("circle", class: "fix").first)
        #expect(Self.distance(d.nm(Self.number(f, "cx"), Self.number(f, "cy")), d.nm(fix.position)) < 0.1)
        let e = try #require(svg.all("ellipse", class: "ellipse").first)
        #expect(abs(Self.number(e, "rx") / d.scale - fix.ellipse.semiMajor) < 0.1)
        #expect(abs(Self.number(e, "ry") / d.scale - fix.ellipse.semiMinor) < 0.1)
        let dr = try #require(svg.all("circle", class: "dr").first)
        #expect(Self.distance(d.nm(Self.number(dr, "cx"), Self.number(dr, "cy")), d.nm(sights[2].assumedPosition)) < 0.1)
        let gps = try #require(svg.all("rect", class: "gps").first)
        #expect(Self.distance(d.nm(Self.number(gps, "x") + 6, Self.number(gps, "y") + 6), d.nm(Self.truth(40))) < 0.1)
        // And the fix is where the ship was, the sights being exact: within 0.1 nm of the GPS
        #expect(try #require(fix.gpsDistance) < 0.1)
    }

    @Test func theSheetHasItsGridScaleAndRose() throws {
        // Given the same fix's sheet
        let sights = try Self.sights()
        let fix = try CelestialFix(sights, run: .courseAndSpeed(course: Self.course, knots: Self.knots))
        let sheet = PlottingSheet(fix: fix, sights: sights)
        let svg = try SVGElements(sheet.svg())
        let d = Decoder(try #require(svg.elements.first { $0.name == "svg" }).attributes)
        // Then latitude lines are drawn at their latitudes, a whole number of minutes each
        let lats = svg.all("line", class: "grid lat")
        #expect(lats.count >= 3)
        for l in lats {
            let lat = Self.number(l, "data-lat")
            #expect(abs((lat * 60).rounded() - lat * 60) < 1e-6)
            #expect(abs(d.nm(0, Self.number(l, "y1")).1 - (lat - d.center.latitude) * 60) < 0.1)
        }
        #expect(svg.all("line", class: "grid lon").count >= 3)
        // And the scale bar is its stated miles long (to the 0.01 px the drawing is written to)
        let scale = try #require(svg.elements.firstIndex { $0.name == "g" && $0.attributes["class"] == "scale" })
        let bar = svg.elements[scale + 1].attributes
        let nm = Double(svg.elements[scale].attributes["data-nm"]!)!
        #expect(abs((Self.number(bar, "x2") - Self.number(bar, "x1")) - nm * d.scale) <= 0.02)
        // And the rose has 36 ticks
        let rose = try #require(svg.elements.firstIndex { $0.name == "g" && $0.attributes["class"] == "rose" })
        #expect(svg.elements[(rose + 1)...].prefix(37).filter { $0.name == "line" }.count == 36)
    }
}

@Suite("The drawings' labels: where else each may go")
struct LabelTests {
    static func f(_ x: Double, _ y: Double, _ side: String) -> String { String(format: "%.2f,%.2f,%@", x, y, side) }

    @Test func theSheetsLabelsComeLastEachWithItsSpots() throws {
        // Given the running fix of three stars' sheet
        let sights = try PlottingSheetTests.sights()
        let fix = try CelestialFix(sights, run: .courseAndSpeed(course: PlottingSheetTests.course, knots: PlottingSheetTests.knots))
        let sheet = PlottingSheet(fix: fix, sights: sights)
        let svg = try SVGElements(sheet.svg())
        // Then the labels are drawn last, over everything, in one group
        let group = try #require(svg.elements.firstIndex { $0.name == "g" && $0.attributes["class"] == "labels" })
        let labels = svg.elements[(group + 1)...].map(\.attributes)
        #expect(svg.elements[(group + 1)...].allSatisfy { $0.name == "text" })
        let lats = svg.all("line", class: "grid lat"), lons = svg.all("line", class: "grid lon")
        #expect(labels.map { $0["data-for"] ?? "" } == Array(repeating: "grid", count: lats.count + lons.count) + ["lop", "lop", "lop", "dr", "fix", "gps", "scale", "rose", "rose", "rose", "rose"])
        // And a latitude's label may go at either end of its line, above or below it; a longitude's at its foot or head
        for (label, line) in zip(labels, lats) {
            let y = Double(line["y1"]!)!
            #expect(label["data-spots"] == [Self.f(0, y, "ne"), Self.f(0, y, "se"), Self.f(800, y, "nw"), Self.f(800, y, "sw")].joined(separator: " "))
            #expect(label["data-rank"] == "5")
        }
        for (label, line) in zip(labels.dropFirst(lats.count), lons) {
            let x = Double(line["x1"]!)!
            #expect(label["data-spots"] == [Self.f(x, 800, "ne"), Self.f(x, 800, "nw"), Self.f(x, 0, "se"), Self.f(x, 0, "sw")].joined(separator: " "))
        }
        // And a line's label goes beside it, from near its ends toward its foot; shorter, the body, then the sight's number
        let lop = labels[lats.count + lons.count]
        let line = sheet.lines[0], foot = sheet.pixel(line.foot), half = sheet.radius * 0.6, bearing = (line.azimuth + 90) * .pi / 180
        var spots: [String] = []
        for t: Double in [0.8, -0.8, 0.6, -0.6, 0.4, -0.4, 1, -1, 0.2, -0.2] {
            let nm: Double = half * t
            let x: Double = foot.0 + nm * sheet.scale * sin(bearing), y: Double = foot.1 - nm * sheet.scale * cos(bearing)
            spots += ["ne", "sw", "nw", "se"].map { Self.f(x, y, $0) }
        }
        #expect(lop["data-spots"] == spots.joined(separator: " "))
        #expect((lop["data-sight"], lop["data-short"], lop["data-rank"]) == ("1", "Sirius|1", "0"))
        // And the fix's label may go on any side of it, up and right first; shorter, without its time
        let fixLabel = try #require(labels.first { $0["data-for"] == "fix" }), p = sheet.pixel(fix.position)
        #expect(fixLabel["data-spots"] == ["ne", "se", "nw", "sw", "e", "w", "n", "s"].map { Self.f(p.0, p.1, $0) }.joined(separator: " "))
        #expect((fixLabel["data-short"], fixLabel["data-rank"]) == ("Fix", "0"))
        // And the DR's and the GPS's first below and right
        let dr = try #require(labels.first { $0["data-for"] == "dr" }), d = sheet.pixel(sheet.dr!)
        #expect(dr["data-spots"] == ["se", "ne", "nw", "sw", "e", "w", "n", "s"].map { Self.f(d.0, d.1, $0) }.joined(separator: " "))
        #expect((dr["data-short"], dr["data-rank"]) == (nil, "3"))
        let gps = try #require(labels.first { $0["data-for"] == "gps" })
        #expect((gps["data-short"], gps["data-rank"]) == ("GPS", "2"))
        // And the scale's above or below the bar's start, else after its end
        let nm = Double(svg.elements.first { $0.name == "g" && $0.attributes["class"] == "scale" }!.attributes["data-nm"]!)!
        let end = 70 + nm * sheet.scale
        #expect(labels.first { $0["data-for"] == "scale" }?["data-spots"]
                == [Self.f(70, 750, "ne"), Self.f(70, 750, "se"), Self.f(end, 750, "e"), Self.f(end, 750, "ne")].joined(separator: " "))
        // And the rose's letters are centred 46 px from its centre (706, 94)
        #expect(labels.filter { $0["data-for"] == "rose" }.map { $0["data-spots"] ?? "" } == ["706.00,48.00,c", "752.00,94.00,c", "706.00,140.00,c", "660.00,94.00,c"])
    }

    @Test func theRunChartsLabelsKeepToItsAxesAndItsAverage() throws {
        // Given a run of three Sun sights a minute apart
        let t0 = UTCTime(year: 2026, month: 6, day: 1, hour: 14)!
        let here = try Position(latitude: 40, longitude: -70)
        var run: [(id: Int64?, utc: UTCTime, hs: Double)] = []
        for k in 0..<3 {
            let hs: Double = 30 + Double(k) * 0.1
            run.append((Int64(k + 1), t0.adding(nanoseconds: Int64(k) * 60_000_000_000), hs))
        }
        let chart = RunChart(try SightAverage(run, body: .sun, near: here, limit: 10))
        // When drawn
        let svg = try SVGElements(chart.svg())
        let labels = svg.elements.filter { $0.name == "text" }.map(\.attributes)
        // Then the times sit under the axis's ends (else above), the Hs left of its ends (else right)
        #expect(labels.map { $0["data-spots"] ?? "" }.prefix(4) == ["130.00,350.00,se 130.00,350.00,ne", "780.00,350.00,sw 780.00,350.00,nw",
                                                               "130.00,350.00,nw 130.00,350.00,ne", "130.00,30.00,sw 130.00,30.00,se"])
        #expect(labels.map { $0["data-rank"] ?? "" } == ["1", "1", "2", "2", "0"])
        // And the average's label goes round its point first up and right; shorter, its Hs alone
        let average = try #require(labels.last), a = chart.pixel(minutes: 1, hs: chart.average.hs * 60)
        #expect(average["data-for"] == "average")
        #expect(average["data-spots"] == ["ne", "se", "nw", "sw", "e", "w", "n", "s"].map { Self.f(a.0, a.1, $0) }.joined(separator: " "))
        #expect(average["data-short"] == SextantAngle.format(chart.average.hs))
    }
}

@Suite("The run chart")
struct RunChartTests {
    @Test func eachSightIsDrawnAtItsTimeAndHs() throws {
        // Given a run of three with the middle one rejected 5' high
        let t0 = UTCTime(year: 2026, month: 6, day: 1, hour: 14)!
        let here = try Position(latitude: 40, longitude: -70)
        let rate = try #require(SightAverage.altitudeRate(.sun, at: t0.adding(nanoseconds: 60_000_000_000), from: here))
        var run: [(id: Int64?, utc: UTCTime, hs: Double)] = []
        for k in 0..<3 {
            let high: Double = k == 1 ? 5 : 0
            let minutes = rate * Double(k) + high
            run.append((Int64(k + 1), t0.adding(nanoseconds: Int64(k) * 60_000_000_000), 30 + minutes / 60))
        }
        let average = try SightAverage(run, body: .sun, near: here, limit: 2)
        let chart = RunChart(average)
        // When drawn
        let svg = try SVGElements(chart.svg())
        // Then three points, the middle one hollow (rejected), each at its pixel
        let points = svg.elements.filter { $0.name == "circle" }.map(\.attributes)
        #expect(points.map { $0["class"] } == ["point", "point rejected", "point"])
        for (p, r) in zip(points, run) {
            let expected = chart.pixel(minutes: Double(r.utc.nanosecondsSinceEpoch - t0.nanosecondsSinceEpoch) / 6e10, hs: r.hs * 60)
            #expect(abs(Double(p["cx"]!)! - expected.0) < 0.01)
            #expect(abs(Double(p["cy"]!)! - expected.1) < 0.01)
        }
        // And the predicted line carries the almanac's slope
        let predicted = try #require(svg.all("line", class: "predicted").first)
        #expect(Double(predicted["data-slope"]!)! == rate)
    }
}
