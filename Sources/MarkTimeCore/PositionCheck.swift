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
    /// Trusted fixes of the last `kept` seconds, one every `keepEvery`: a fix is checked
    /// against those a minute old or more too, so that small steps, each within its
    /// fixes' errors, cannot add up to a run faster than the boat (a spoofer's drag-off).
    private var history: [Fix] = []
    static let keepEvery = 10.0, kept = 180.0, oldest = 60.0
    /// A fix's horizontal error when gpsd gives none, and the most counted (the receiver,
    /// or a spoofer, says it), metres.
    public static let unknownError = 50.0
    public static let largestError = 100.0

    public init(maxKnots: Double) { self.maxKnots = maxKnots }

    /// Checks `fix`; nil when it is trusted (it becomes the last trusted fix).
    public mutating func check(_ fix: Fix) -> PositionJump? {
        guard let last = lastTrusted, last.receivedAt.bootID == fix.receivedAt.bootID,
              fix.receivedAt.nanoseconds >= last.receivedAt.nanoseconds else {
            lastTrusted = fix
            history = [fix]
            return nil
        }
        let older = history.filter { Double(fix.receivedAt.nanoseconds - $0.receivedAt.nanoseconds) / 1e9 >= Self.oldest }
        for reference in [last] + older {
            if let jump = jump(from: reference, to: fix) { return jump }
        }
        lastTrusted = fix
        if let newest = history.last, Double(fix.receivedAt.nanoseconds - newest.receivedAt.nanoseconds) / 1e9 < Self.keepEvery { return nil }
        history.append(fix)
        history.removeAll { Double(fix.receivedAt.nanoseconds - $0.receivedAt.nanoseconds) / 1e9 > Self.kept }
        return nil
    }

    /// `fix` is further from `reference` than the boat could have sailed between them.
    func jump(from reference: Fix, to fix: Fix) -> PositionJump? {
        let nm = GreatCircle.nauticalMiles(reference.position, fix.position)
        let seconds = Self.elapsed(from: reference, to: fix)
        func error(_ f: Fix) -> Double { min(f.horizontalError ?? Self.unknownError, Self.largestError) }
        let allowed = maxKnots * seconds / 3600 + (error(reference) + error(fix)) / 1852
        guard nm > allowed else { return nil }
        return PositionJump(from: reference, to: fix, nauticalMiles: nm, seconds: seconds, allowed: allowed, limitKnots: maxKnots)
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
    public mutating func trust(_ fix: Fix) {
        lastTrusted = fix
        history = [fix]
    }
}
