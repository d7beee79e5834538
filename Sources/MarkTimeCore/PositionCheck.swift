import Foundation

/// A GPS position further from the last one trusted than the boat could have sailed
/// since (`gps.max_speed_kn`): a spoofer's, a glitch's, a receiver that lost itself.
public struct PositionJump: Hashable, Sendable {
    /// The last fix trusted, and the one that jumped from it.
    public var from: Fix
    public var to: Fix
    /// Nautical miles between them, the seconds between their arrivals, and the most the
    /// boat could have gone meanwhile (with both fixes' errors).
    public var nauticalMiles: Double
    public var seconds: Double
    public var allowed: Double
    public var limitKnots: Double

    /// The speed it implies, knots.
    public var knots: Double { seconds > 0 ? nauticalMiles / (seconds / 3600) : .infinity }

    /// The jump in words: what the fix keeps as its flag, the log and the status say.
    public var sentence: String {
        let speed = knots.isFinite ? "\(Quantity.whole(knots)) kn" : "at once"
        return "gps position moved \(String(format: "%.1f", nauticalMiles)) nm in \(Quantity.whole(seconds)) s (\(speed)) from the last "
            + "trusted fix (\(from.position.ddm)), faster than the boat can (gps.max_speed_kn \(Quantity.whole(limitKnots))): "
            + "it is flagged, and a sight keeps it only with that flag, until a fix within reach or `marktime clock trust-gps`"
    }
}

/// Checks each fix against the last trusted one: within reach at `maxKnots` (plus the two
/// fixes' horizontal errors) over the time between them (`elapsed`), it is trusted; beyond, it is a `PositionJump`. The reach
/// grows with the time since the last trusted fix, so a boat that really is elsewhere is
/// believed again in time; the navigator can also accept the position at once (`trust`).
public struct PositionCheck: Hashable, Sendable {
    public var maxKnots: Double
    public private(set) var lastTrusted: Fix?
    /// A fix's horizontal error when gpsd gives none, metres.
    public static let unknownError = 50.0

    public init(maxKnots: Double) { self.maxKnots = maxKnots }

    /// Checks `fix`; nil when it is trusted (it becomes the last trusted fix).
    public mutating func check(_ fix: Fix) -> PositionJump? {
        guard let last = lastTrusted, last.receivedAt.bootID == fix.receivedAt.bootID,
              fix.receivedAt.nanoseconds >= last.receivedAt.nanoseconds else {
            lastTrusted = fix
            return nil
        }
        let nm = GreatCircle.nauticalMiles(last.position, fix.position)
        let seconds = Self.elapsed(from: last, to: fix)
        let errors = (last.horizontalError ?? Self.unknownError) + (fix.horizontalError ?? Self.unknownError)
        let allowed = maxKnots * seconds / 3600 + errors / 1852
        guard nm > allowed else {
            lastTrusted = fix
            return nil
        }
        return PositionJump(from: last, to: fix, nauticalMiles: nm, seconds: seconds, allowed: allowed, limitKnots: maxKnots)
    }

    /// Seconds between two fixes: the receiver's own times, when both have one and they
    /// differ by no more than the arrivals did plus `deliverySlack` (fixes measured a second
    /// apart may arrive together, from a serial buffer or a replay); else the arrivals'. A
    /// receiver's time can so lend the position no more than the slack.
    static func elapsed(from a: Fix, to b: Fix) -> Double {
        let arrived = Double(b.receivedAt.nanoseconds - a.receivedAt.nanoseconds) / 1e9
        guard let ta = a.time, let tb = b.time else { return arrived }
        let measured = Double(tb.nanosecondsSinceEpoch - ta.nanosecondsSinceEpoch) / 1e9
        return measured > 0 && measured <= arrived + deliverySlack ? measured : arrived
    }

    /// Seconds by which a receiver's times may stand further apart than their arrivals.
    public static let deliverySlack = 2.0

    /// The navigator accepts `fix` as it is: later fixes are checked against it.
    public mutating func trust(_ fix: Fix) { lastTrusted = fix }
}
