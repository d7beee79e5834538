import Foundation
import MarkTimeCore
import MarkTimeSky

/// A run of sights drawn as Hs against time: each sight (a rejected one hollow), the line
/// with the almanac's slope through the kept sights, the least-squares line, and the
/// averaged sight; SVG (pure: no I/O).
public struct RunChart: Hashable, Sendable {
    public var average: SightAverage

    public init(_ average: SightAverage) { self.average = average }

    public static let width = 800.0, height = 400.0
    static let left = 130.0, right = 20.0, top = 30.0, bottom = 50.0

    /// The span drawn: minutes from the first sight, and Hs in arc-minutes.
    var bounds: (t0: UTCTime, minutes: ClosedRange<Double>, hs: ClosedRange<Double>) {
        let times = average.points.map(\.utc) + [average.utc]
        let t0 = times.min()!
        let span = times.map { minutes($0, from: t0) }
        let values = average.points.map { $0.hs * 60 } + [average.hs * 60]
        let lo = values.min()!, hi = values.max()!
        let pad = max(0.5, (hi - lo) * 0.15)
        return (t0, 0...max(0.5, span.max()!), (lo - pad)...(hi + pad))
    }

    func minutes(_ t: UTCTime, from t0: UTCTime) -> Double { Double(t.nanosecondsSinceEpoch - t0.nanosecondsSinceEpoch) / 6e10 }

    /// Where (minutes, arc-minutes of Hs) is drawn, px.
    public func pixel(minutes x: Double, hs y: Double) -> (Double, Double) {
        let b = bounds
        let w = Self.width - Self.left - Self.right, h = Self.height - Self.top - Self.bottom
        return (Self.left + (x - b.minutes.lowerBound) / (b.minutes.upperBound - b.minutes.lowerBound) * w,
                Self.top + (b.hs.upperBound - y) / (b.hs.upperBound - b.hs.lowerBound) * h)
    }

    /// With `embedded`, for a page that links `plot.css`.
    public func svg(embedded: Bool = false) -> String {
        var w = SVGWriter(width: Self.width, height: Self.height)
        let b = bounds
        w.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" class=\"drawing run-chart\" role=\"img\" "
            + "aria-label=\"Hs against time, \(SVGWriter.escaped(average.body.name))\">")
        w.element("title", [], content: "\(average.body.name): Hs against time")
        w.raw(PlotStyle.element(embedded: embedded))
        w.raw("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\">"
            + "<path class=\"arrowhead\" d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>")
        w.element("rect", [("class", "sheet-bg"), ("x", "0"), ("y", "0"), ("width", "\(Int(Self.width))"), ("height", "\(Int(Self.height))")])
        // Axes: the first and last minute, the lowest and highest Hs.
        let corner = pixel(minutes: b.minutes.lowerBound, hs: b.hs.lowerBound), far = pixel(minutes: b.minutes.upperBound, hs: b.hs.upperBound)
        w.line(corner, (far.0, corner.1), [("class", "grid")])
        w.line(corner, (corner.0, far.1), [("class", "grid")])
        // The times below the axis at its ends (else inside the chart), the Hs left of it (else inside).
        w.label((corner.0, Self.height - 16), b.t0.sightTimeOfDay,
                Label(what: "axis", rank: 1, spots: [.init(corner, .se), .init(corner, .ne)]), class: "grid-label")
        w.label((far.0 - 80, Self.height - 16), b.t0.adding(nanoseconds: Int64(b.minutes.upperBound * 6e10)).sightTimeOfDay,
                Label(what: "axis", rank: 1, spots: [.init((far.0, corner.1), .sw), .init((far.0, corner.1), .nw)]), class: "grid-label")
        w.label((4, corner.1), SextantAngle.format(b.hs.lowerBound / 60),
                Label(what: "axis", rank: 2, spots: [.init(corner, .nw), .init(corner, .ne)]), class: "grid-label")
        w.label((4, far.1 + 12), SextantAngle.format(b.hs.upperBound / 60),
                Label(what: "axis", rank: 2, spots: [.init((corner.0, far.1), .sw), .init((corner.0, far.1), .se)]), class: "grid-label")
        // The lines through the averaged point (almanac's slope) and the least-squares one.
        let x0 = b.minutes.lowerBound, x1 = b.minutes.upperBound, xa = minutes(average.utc, from: b.t0)
        func through(_ hs: Double, _ slope: Double, _ x: Double) -> Double { hs * 60 + slope * (x - xa) }
        w.line(pixel(minutes: x0, hs: through(average.hs, average.predictedSlope, x0)), pixel(minutes: x1, hs: through(average.hs, average.predictedSlope, x1)),
               [("class", "predicted"), ("data-slope", "\(average.predictedSlope)")])
        if let slope = average.fittedSlope, let hs = average.fittedHs {
            w.line(pixel(minutes: x0, hs: through(hs, slope, x0)), pixel(minutes: x1, hs: through(hs, slope, x1)),
                   [("class", "fitted"), ("data-slope", "\(slope)")])
        }
        for p in average.points {
            let at = pixel(minutes: minutes(p.utc, from: b.t0), hs: p.hs * 60)
            w.element("circle", [("class", p.rejected ? "point rejected" : "point"), ("cx", SVGWriter.number(at.0)), ("cy", SVGWriter.number(at.1)),
                                 ("r", "6"), ("data-sight", p.id.map(String.init) ?? "")])
        }
        let a = pixel(minutes: xa, hs: average.hs * 60)
        w.element("rect", [("class", "average"), ("x", SVGWriter.number(a.0 - 6)), ("y", SVGWriter.number(a.1 - 6)), ("width", "12"), ("height", "12")])
        w.label((a.0 + 10, a.1 - 10), "average " + SextantAngle.format(average.hs),
                Label(what: "average", rank: 0, spots: Label.around(a, first: [.ne]), shorter: [SextantAngle.format(average.hs)]))
        w.close()
        return w.text
    }
}
