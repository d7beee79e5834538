import Foundation
import MarkTimeCore

/// The preset as the moment comes: the plan's chosen bodies at an instant (Hs, Zn, how fast
/// Hs moves), the body to shoot next, and the time left in the twilight window. What
/// `marktime plan --live` and the phone page tick every second, and what is spoken.
public struct LivePreset: Hashable, Sendable {
    /// The chosen set, in the order they are shot.
    public var bodies: [Body]
    public var position: Position
    public var sextant: SextantReading
    /// The twilight window, when the plan is for one.
    public var window: ClosedRange<UTCTime>?
    /// The index in `bodies` of the one to shoot next.
    public var next: Int = 0

    public init(bodies: [Body], position: Position, sextant: SextantReading, window: ClosedRange<UTCTime>?) {
        (self.bodies, self.position, self.sextant, self.window) = (bodies, position, sextant, window)
    }

    /// The preset for `plan`'s chosen set, shot by Zn.
    public init(_ plan: SightPlan, sextant: SextantReading, window: ClosedRange<UTCTime>?) {
        self.init(bodies: plan.chosen.map(\.body), position: plan.position, sextant: sextant, window: window)
    }

    /// Each body's line at `utc`, in order.
    public func lines(at utc: UTCTime) throws(InputError) -> [SightPlan.Line] {
        var lines: [SightPlan.Line] = []
        for body in bodies { lines.append(try SightPlan.line(body, at: utc, from: position, sextant: sextant)) }
        return lines
    }

    /// The next body after `next`, round the set; `step` −1 goes back.
    public mutating func advance(by step: Int = 1) {
        guard !bodies.isEmpty else { return }
        next = ((next + step) % bodies.count + bodies.count) % bodies.count
    }

    /// Where `utc` stands in the window, in words: `23 min left (until 17:20 UTC)`,
    /// `opens in 12 min (16:42 UTC)`, `closed 3 min ago (17:20 UTC)`; nil without a window.
    public func windowText(at utc: UTCTime) -> String? {
        guard let window else { return nil }
        func minutes(_ from: UTCTime, _ to: UTCTime) -> Int64 { (to.nanosecondsSinceEpoch - from.nanosecondsSinceEpoch + 59_999_999_999) / 60_000_000_000 }
        if utc < window.lowerBound { return "opens in \(minutes(utc, window.lowerBound)) min (\(window.lowerBound.isoTimeOfDayMinutes) UTC)" }
        if utc <= window.upperBound { return "\(minutes(utc, window.upperBound)) min left (until \(window.upperBound.isoTimeOfDayMinutes) UTC)" }
        return "closed \(minutes(window.upperBound, utc)) min ago (\(window.upperBound.isoTimeOfDayMinutes) UTC)"
    }

    /// A line as it is spoken: `Vega, fifty-one forty, bearing zero seven five` (Hs to the
    /// whole minute, `oh five` below ten, Zn digit by digit, as a navigator reads them out).
    public static func spoken(_ line: SightPlan.Line, limb: Limb) -> String {
        let whole = Int((line.hs * 60).rounded())
        let name = line.body == .sun || line.body == .moon ? "\(line.body.name) \(limb == .upper ? "upper" : "lower") limb" : line.body.name
        let zn = String(format: "%03d", Int(line.computed.azimuth.rounded()) % 360).map { Spoken.digit(Int(String($0))!) }.joined(separator: " ")
        guard whole >= 0 else { return "\(name), below the horizon, bearing \(zn)" }
        return "\(name), \(number(whole / 60)) \(Spoken.minutes(whole % 60)), bearing \(zn)"
    }

    /// 0 to 99 in words (`Spoken.number`).
    static func number(_ n: Int) -> String { Spoken.number(n) }
}
