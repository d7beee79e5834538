import Foundation
import MarkTimeCore
import MarkTimeSky

/// A universal plotting sheet for a set of sights: the lines of position drawn from their
/// assumed positions, the DR, the run of a running fix with its advanced lines, the fix with
/// its 95 % ellipse, and the GPS position; drawn as SVG (pure: no I/O).
public struct PlottingSheet: Hashable, Sendable {
    /// One line of position, in the sheet's terms.
    public struct Line: Hashable, Sendable {
        public var id: Int64?
        public var body: String
        public var utc: UTCTime
        /// The assumed position the intercept is measured from.
        public var assumedPosition: Position
        /// Zn, degrees true, and the intercept, nm, positive toward.
        public var azimuth: Double
        public var intercept: Double
        /// Where the intercept ends: the line passes here, perpendicular to Zn.
        public var foot: Position
        /// The same line carried along the run to the fix's time, when it was advanced.
        public var advancedFoot: Position?
        /// Left out of the fix (an outlier).
        public var rejected = false
    }

    /// The sheet's centre (the fix, else the first DR) and half its width, nm.
    public var center: Position
    public var radius: Double
    public var lines: [Line]
    /// The DR of the fix's time (the last sight's), when set.
    public var dr: Position?
    public var fix: Position?
    public var ellipse: ErrorEllipse?
    public var gps: Position?
    /// Distance from the GPS position to the fix, nm.
    public var gpsDistance: Double?
    /// When the fix (or the last sight) was.
    public var utc: UTCTime?

    /// The sheet of a fix of `sights`, with the run it was worked with.
    public init(fix: CelestialFix, sights: [ReducedSight]) {
        let ordered = sights.sorted { $0.utc < $1.utc }
        let used = Set(fix.lines.map { "\($0.id ?? -1)/\($0.utc.nanosecondsSinceEpoch)" })
        let inFix = ordered.filter { used.contains("\($0.id ?? -1)/\($0.utc.nanosecondsSinceEpoch)") }
        let last = inFix.last ?? ordered.last!
        lines = ordered.map { s in
            var line = Self.line(s)
            line.rejected = !used.contains("\(s.id ?? -1)/\(s.utc.nanosecondsSinceEpoch)")
            if s.utc != last.utc, fix.run != Run.none, used.contains("\(s.id ?? -1)/\(s.utc.nanosecondsSinceEpoch)") {
                let (north, east) = CelestialFix.offset(of: s, from: last, run: fix.run)
                if north != 0 || east != 0 { line.advancedFoot = line.foot.offset(north: -north, east: -east) }
            }
            return line
        }
        center = fix.position
        self.fix = fix.position
        ellipse = fix.ellipse
        dr = last.assumed == .dr ? last.assumedPosition : nil
        gps = last.gpsPosition
        gpsDistance = fix.gpsDistance
        utc = fix.utc
        radius = 0
        radius = fittingRadius()
    }

    /// The sheet of single lines (no fix), centred on the last sight's assumed position.
    public init(sights: [ReducedSight]) {
        let ordered = sights.sorted { $0.utc < $1.utc }
        lines = ordered.map(Self.line)
        let last = ordered.last!
        center = last.assumedPosition
        dr = last.assumed == .dr ? last.assumedPosition : nil
        gps = last.gpsPosition
        gpsDistance = gps.map { GreatCircle.nauticalMiles($0, last.assumedPosition) }
        utc = last.utc
        radius = 0
        radius = fittingRadius()
    }

    static func line(_ s: ReducedSight) -> Line {
        Line(id: s.id, body: s.body.name, utc: s.utc, assumedPosition: s.assumedPosition, azimuth: s.computed.azimuth,
             intercept: s.intercept, foot: s.lineOfPosition.foot)
    }

    /// Where `p` lies on the sheet: nm east and north of the centre.
    public func plane(_ p: Position) -> (x: Double, y: Double) {
        var dLon = p.longitude - center.longitude
        dLon -= 360 * (dLon / 360).rounded()
        return (dLon * 60 * cos(radians(center.latitude)), (p.latitude - center.latitude) * 60)
    }

    /// Half the width that holds every point drawn, with a margin; at least 5 nm.
    func fittingRadius() -> Double {
        var points = lines.flatMap { [$0.assumedPosition, $0.foot] + ($0.advancedFoot.map { [$0] } ?? []) }
        points += [dr, fix, gps].compactMap { $0 }
        let far = points.map { p in let q = plane(p); return max(abs(q.x), abs(q.y)) }.max() ?? 0
        let withEllipse = max(far, ellipse?.semiMajor ?? 0)
        let steps: [Double] = [5, 10, 15, 20, 30, 40, 60, 80, 100, 150, 200, 300, 500, 1000, 2000, 5000]
        return steps.first { $0 >= withEllipse * 1.25 } ?? withEllipse * 1.25
    }
}

func radians(_ d: Double) -> Double { d * .pi / 180 }
