import Foundation
import MarkTimeCore
import MarkTimeSky

/// Builds SVG text: elements with escaped attributes and text.
struct SVGWriter {
    private(set) var text = ""
    /// The drawing's width and height: lines are clipped to it and labels kept inside, so
    /// that nothing reaches outside the picture (a phone's page would scroll sideways).
    let width: Double, height: Double
    /// The labels, written last (`close`), over everything else.
    private var labels: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    static func escaped(_ s: String) -> String { Text.markup(s) }

    static func number(_ v: Double) -> String { String(format: "%.2f", v) }

    mutating func raw(_ s: String) { text += s + "\n" }

    static func element(_ name: String, _ attributes: [(String, String)], content: String? = nil) -> String {
        let attrs = attributes.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
        if let content { return "<\(name)\(attrs)>\(escaped(content))</\(name)>" } else { return "<\(name)\(attrs)/>" }
    }

    mutating func element(_ name: String, _ attributes: [(String, String)], content: String? = nil) {
        raw(Self.element(name, attributes, content: content))
    }

    /// A line from `a` to `b`, the part inside the drawing (Liang–Barsky); nothing when none is.
    mutating func line(_ a: (Double, Double), _ b: (Double, Double), _ attributes: [(String, String)]) {
        let dx = b.0 - a.0, dy = b.1 - a.1
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.0), (dx, width - a.0), (-dy, a.1), (dy, height - a.1)] {
            if p == 0 {
                if q < 0 { return }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            }
        }
        guard t0 <= t1 else { return }
        let c = (a.0 + t0 * dx, a.1 + t0 * dy), d = (a.0 + t1 * dx, a.1 + t1 * dy)
        element("line", [("x1", Self.number(c.0)), ("y1", Self.number(c.1)), ("x2", Self.number(d.0)), ("y2", Self.number(d.1))] + attributes)
    }

    /// A label of `label.for`, drawn at `at` (moved in from the edges so that all of it is
    /// inside: 22 px type, about 12.5 px a character) and carrying where else it may go, for
    /// the page's script to place it at the page's text size (`Label`).
    mutating func label(_ at: (Double, Double), _ text: String, _ label: Label, class cls: String = "label") {
        let x = max(2, min(at.0, width - 2 - 12.5 * Double(text.count))), y = max(22, min(at.1, height - 6))
        labels.append(Self.element("text", [("x", Self.number(x)), ("y", Self.number(y)), ("class", cls)] + label.attributes, content: text))
    }

    /// The labels, over everything drawn, and the end of the drawing.
    mutating func close() {
        if !labels.isEmpty { raw("<g class=\"labels\">\n" + labels.joined(separator: "\n") + "\n</g>") }
        raw("</svg>")
    }
}

/// Where a drawing's label may go, for the phone page's script, which shows the labels at
/// the page's text size whatever the drawing's scale: it takes the labels by `rank` (0
/// first; in a rank, the one with the fewest spots first, or in the order written when that
/// places more), and puts each at the first of its `spots` (then in its `shorter` forms) where it
/// overlaps no label placed before it, no marker (a fix, DR, GPS, AP, a run's point) and
/// stays inside the drawing; a label with no such spot is hidden.
struct Label: Hashable {
    /// A point beside which the label may sit, and the side of it: `ne` puts the label's
    /// bottom-left corner just up and right of the point, `n` its bottom edge centred just
    /// above it, `c` its centre on it.
    struct Spot: Hashable {
        enum Side: String { case ne, se, sw, nw, n, e, s, w, c }
        var x: Double, y: Double, side: Side

        init(_ p: (Double, Double), _ side: Side) { (x, y, self.side) = (p.0, p.1, side) }
    }

    /// What it labels (`fix`, `lop`, `grid`…), and the sight, for a line's.
    var what: String
    var sight: Int64? = nil
    var rank: Int
    var spots: [Spot]
    /// Shorter forms to try, longest first, when the whole label has no room.
    var shorter: [String] = []

    /// Every side of a point, the first ones first.
    static func around(_ p: (Double, Double), first: [Spot.Side]) -> [Spot] {
        (first + [.ne, .se, .nw, .sw, .e, .w, .n, .s].filter { !first.contains($0) }).map { Spot(p, $0) }
    }

    /// Its attributes: `data-for`, `data-sight`, `data-rank`, `data-spots` (`x,y,side`
    /// separated by spaces) and `data-short` (the shorter forms separated by `|`).
    var attributes: [(String, String)] {
        var all = [("data-for", what)]
        if let sight { all.append(("data-sight", String(sight))) }
        all.append(("data-rank", String(rank)))
        all.append(("data-spots", spots.map { s in "\(SVGWriter.number(s.x)),\(SVGWriter.number(s.y)),\(s.side.rawValue)" }.joined(separator: " ")))
        if !shorter.isEmpty { all.append(("data-short", shorter.joined(separator: "|"))) }
        return all
    }
}

/// The styles every marktime drawing uses (`plot.css`): colours from CSS variables that
/// the phone page's themes set, with day colours when a drawing stands alone.
public enum PlotStyle {
    public static let bytes: [UInt8] = PackageResources.plot_css
    public static let css = String(decoding: bytes, as: UTF8.self)

    /// The `<style>` element of a standalone drawing; none when the page's stylesheet styles it.
    static func element(embedded: Bool) -> String { embedded ? "" : "<style>\n" + css + "</style>" }
}

/// A latitude or longitude as a plotting sheet labels it: `27°20'S`, `153°05'E`.
func gridLabel(_ value: Double, positive: String, negative: String) -> String {
    let minutes = Int((abs(value) * 60).rounded())
    return String(format: "%d°%02d'%@", minutes / 60, minutes % 60, value < 0 ? negative : (value == 0 ? "" : positive))
}

extension PlottingSheet {
    /// The order in which a page places the sheet's labels (`Label`): the fix and the lines first, the grid last.
    enum Rank {
        static let fix = 0, lop = 0, scale = 1, gps = 2, dr = 3, rose = 4, grid = 5
    }

    /// The drawing's side, px (its viewBox; it scales to its container).
    public static let side = 800.0
    /// Room for the grid's labels, px.
    static let margin = 60.0

    /// Pixels per nautical mile.
    public var scale: Double { (Self.side / 2 - Self.margin) / radius }

    /// Where `p` is drawn, px.
    public func pixel(_ p: Position) -> (Double, Double) {
        let q = plane(p)
        return (Self.side / 2 + q.x * scale, Self.side / 2 - q.y * scale)
    }

    /// The point `nm` along true bearing `bearing` from pixel `from`.
    func toward(_ from: (Double, Double), bearing: Double, nm: Double) -> (Double, Double) {
        (from.0 + nm * scale * sin(radians(bearing)), from.1 - nm * scale * cos(radians(bearing)))
    }

    /// The sheet as a standalone SVG document.
    /// With `embedded`, for a page that links `plot.css` (whose CSP refuses inline styles).
    public func svg(title: String = "Plotting sheet", embedded: Bool = false) -> String {
        var w = SVGWriter(width: Self.side, height: Self.side)
        let s = Self.side
        w.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(s)) \(Int(s))\" class=\"drawing plotting-sheet\" role=\"img\" "
            + "data-center-lat=\"\(center.latitude)\" data-center-lon=\"\(center.longitude)\" data-px-per-nm=\"\(scale)\" "
            + "aria-label=\"\(SVGWriter.escaped(title))\">")
        w.element("title", [], content: title)
        w.raw(PlotStyle.element(embedded: embedded))
        w.raw("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\">"
            + "<path class=\"arrowhead\" d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>")
        w.element("rect", [("class", "sheet-bg"), ("x", "0"), ("y", "0"), ("width", "\(Int(s))"), ("height", "\(Int(s))")])
        drawGrid(&w)
        for line in lines { drawLine(line, &w) }
        if let dr {
            let p = pixel(dr)
            w.element("circle", [("class", "dr"), ("cx", SVGWriter.number(p.0)), ("cy", SVGWriter.number(p.1)), ("r", "7"),
                                 ("data-lat", "\(dr.latitude)"), ("data-lon", "\(dr.longitude)")])
            w.label((p.0 + 10, p.1 + 18), "DR", Label(what: "dr", rank: Rank.dr, spots: Label.around(p, first: [.se])))
        }
        if let fix {
            let p = pixel(fix)
            if let e = ellipse {
                w.element("ellipse", [("class", "ellipse"), ("cx", SVGWriter.number(p.0)), ("cy", SVGWriter.number(p.1)),
                                      ("rx", SVGWriter.number(e.semiMajor * scale)), ("ry", SVGWriter.number(e.semiMinor * scale)),
                                      ("transform", "rotate(\(SVGWriter.number(e.orientation - 90)) \(SVGWriter.number(p.0)) \(SVGWriter.number(p.1)))"),
                                      ("data-semi-major-nm", "\(e.semiMajor)"), ("data-semi-minor-nm", "\(e.semiMinor)"),
                                      ("data-orientation", "\(e.orientation)")])
            }
            w.element("circle", [("class", "fix"), ("cx", SVGWriter.number(p.0)), ("cy", SVGWriter.number(p.1)), ("r", "6"),
                                 ("data-lat", "\(fix.latitude)"), ("data-lon", "\(fix.longitude)")])
            w.label((p.0 + 10, p.1 - 10), "Fix" + (utc.map { " " + $0.isoTimeOfDayMinutes } ?? ""),
                    Label(what: "fix", rank: Rank.fix, spots: Label.around(p, first: [.ne]), shorter: utc == nil ? [] : ["Fix"]))
        }
        if let gps {
            let p = pixel(gps)
            w.element("rect", [("class", "gps"), ("x", SVGWriter.number(p.0 - 6)), ("y", SVGWriter.number(p.1 - 6)), ("width", "12"), ("height", "12"),
                               ("data-lat", "\(gps.latitude)"), ("data-lon", "\(gps.longitude)")])
            let distance = gpsDistance.map { String(format: " %.1f nm", $0) } ?? ""
            w.label((p.0 + 10, p.1 + 22), "GPS" + distance,
                    Label(what: "gps", rank: Rank.gps, spots: Label.around(p, first: [.se]), shorter: distance.isEmpty ? [] : ["GPS"]))
        }
        drawScale(&w)
        drawRose(&w)
        w.close()
        return w.text
    }

    func drawGrid(_ w: inout SVGWriter) {
        let steps: [Double] = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1200]
        let step = steps.first { 2 * radius / $0 <= 6 } ?? 1200
        let s = Self.side
        let minLat = center.latitude - radius / 60, maxLat = center.latitude + radius / 60
        var m = (minLat * 60 / step).rounded(.up) * step
        while m <= maxLat * 60 {
            let lat = m / 60
            guard abs(lat) < 90, let p = try? Position(latitude: lat, longitude: center.longitude) else { m += step; continue }
            let y = pixel(p).1
            w.line((0, y), (s, y), [("class", "grid lat"), ("data-lat", "\(lat)")])
            w.label((4, y - 6), gridLabel(lat, positive: "N", negative: "S"),
                    Label(what: "grid", rank: Rank.grid, spots: [.init((0, y), .ne), .init((0, y), .se), .init((s, y), .nw), .init((s, y), .sw)]),
                    class: "grid-label")
            m += step
        }
        let halfLon = radius / 60 / max(0.01, cos(radians(center.latitude)))
        var n = ((center.longitude - halfLon) * 60 / step).rounded(.up) * step
        while n <= (center.longitude + halfLon) * 60 {
            var lon = n / 60
            lon -= 360 * (lon / 360).rounded()
            let x = pixel(try! Position(latitude: center.latitude, longitude: lon)).0
            w.line((x, 0), (x, s), [("class", "grid lon"), ("data-lon", "\(lon)")])
            w.label((x + 4, s - 8), gridLabel(lon, positive: "E", negative: "W"),
                    Label(what: "grid", rank: Rank.grid, spots: [.init((x, s), .ne), .init((x, s), .nw), .init((x, 0), .se), .init((x, 0), .sw)]),
                    class: "grid-label")
            n += step
        }
    }

    func drawLine(_ line: PlottingSheet.Line, _ w: inout SVGWriter) {
        let ap = pixel(line.assumedPosition), foot = pixel(line.foot)
        let id = line.id.map(String.init) ?? ""
        let half = radius * 0.6
        w.raw("<g class=\"lop\" data-sight=\"\(id)\" data-body=\"\(SVGWriter.escaped(line.body))\" data-zn=\"\(line.azimuth)\" data-intercept-nm=\"\(line.intercept)\">")
        w.element("circle", [("class", "ap"), ("cx", SVGWriter.number(ap.0)), ("cy", SVGWriter.number(ap.1)), ("r", "4"),
                             ("data-lat", "\(line.assumedPosition.latitude)"), ("data-lon", "\(line.assumedPosition.longitude)")])
        w.line(ap, toward(ap, bearing: line.azimuth, nm: max(abs(line.intercept), radius * 0.15) + radius * 0.1), [("class", "azimuth")])
        // The intercept from the AP to the line: its arrow points toward the body, or away.
        w.line(ap, foot, [("class", "intercept"), ("marker-end", "url(#arrow)"),
                          ("data-direction", line.intercept >= 0 ? "toward" : "away")])
        let advanced = line.advancedFoot != nil
        w.line(toward(foot, bearing: line.azimuth - 90, nm: half), toward(foot, bearing: line.azimuth + 90, nm: half),
               [("class", line.rejected ? "lop-line rejected" : advanced ? "lop-line original" : "lop-line"), ("data-foot-lat", "\(line.foot.latitude)"), ("data-foot-lon", "\(line.foot.longitude)")])
        let labelAt = toward(foot, bearing: line.azimuth + 90, nm: half * 0.8)
        // Beside the line, from near its end toward its middle, on either side of the foot.
        let along = [0.8, -0.8, 0.6, -0.6, 0.4, -0.4, 1, -1, 0.2, -0.2].map { toward(foot, bearing: line.azimuth + 90, nm: half * $0) }
        w.label((labelAt.0 + 4, labelAt.1 - 6), "\(line.body) \(line.utc.isoTimeOfDayMinutes)",
                Label(what: "lop", sight: line.id, rank: Rank.lop, spots: along.flatMap { p in [Label.Spot.Side.ne, .sw, .nw, .se].map { Label.Spot(p, $0) } },
                      shorter: [line.body] + (line.id.map { [String($0)] } ?? [])))
        if let a = line.advancedFoot {
            let p = pixel(a)
            w.line(foot, p, [("class", "run"), ("marker-end", "url(#arrow)")])
            w.line(toward(p, bearing: line.azimuth - 90, nm: half), toward(p, bearing: line.azimuth + 90, nm: half),
                   [("class", "lop-line advanced"), ("data-foot-lat", "\(a.latitude)"), ("data-foot-lon", "\(a.longitude)")])
        }
        w.raw("</g>")
    }

    func drawScale(_ w: inout SVGWriter) {
        let choices: [Double] = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        let nm = choices.last { $0 <= radius / 2 } ?? 0.5
        let y = Self.side - 50, x = Self.margin + 10
        w.raw("<g class=\"scale\" data-nm=\"\(nm)\">")
        w.line((x, y), (x + nm * scale, y), [])
        let end = (x + nm * scale, y)
        w.label((x, y - 10), "\(Position.plain(nm)) nm",
                Label(what: "scale", rank: Rank.scale, spots: [.init((x, y), .ne), .init((x, y), .se), .init(end, .e), .init(end, .ne)]))
        w.raw("</g>")
    }

    func drawRose(_ w: inout SVGWriter) {
        let r = 80.0, c = (Self.side - r - 14, r + 14)
        w.raw("<g class=\"rose\">")
        w.element("circle", [("cx", SVGWriter.number(c.0)), ("cy", SVGWriter.number(c.1)), ("r", SVGWriter.number(r))])
        for degree in stride(from: 0, to: 360, by: 10) {
            let inner = degree % 90 == 0 ? r - 14 : (degree % 30 == 0 ? r - 9 : r - 5)
            let a = (c.0 + inner * sin(radians(Double(degree))), c.1 - inner * cos(radians(Double(degree))))
            let b = (c.0 + r * sin(radians(Double(degree))), c.1 - r * cos(radians(Double(degree))))
            w.line(a, b, [])
        }
        for (degree, name) in [(0.0, "N"), (90, "E"), (180, "S"), (270, "W")] {
            let at = (c.0 + (r - 34) * sin(radians(degree)) - 7, c.1 - (r - 34) * cos(radians(degree)) + 8)
            let spot = (c.0 + (r - 34) * sin(radians(degree)), c.1 - (r - 34) * cos(radians(degree)))
            w.label(at, name, Label(what: "rose", rank: Rank.rose, spots: [.init(spot, .c)]))
        }
        w.raw("</g>")
    }
}
