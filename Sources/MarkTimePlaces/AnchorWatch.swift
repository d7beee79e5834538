import Foundation
import MarkTimeCore

/// The anchor watch as a state machine: fixes and time in, actions out.
///
/// After `confirmations` consecutive fixes outside the swing radius the state is
/// `alarm` and the alarm loops until someone acknowledges it (which re-arms the
/// watch) or lifts the anchor. No fix for `staleAfter` seconds is its own state,
/// `stale`, which sounds the warning tone once.
public struct AnchorWatch: Hashable, Sendable {
    public enum State: String, Sendable { case watching, alarm, stale, off }
    public enum Action: Hashable, Sendable { case soundAlarm, silenceAlarm, warnStale }

    public var anchor: Position
    /// Swing radius, metres.
    public var radius: Double
    public var confirmations: Int
    public var staleAfter: Double
    public private(set) var state: State
    public private(set) var outside = 0
    /// The last fix: when (monotonic ns), how far from the anchor and on what bearing.
    public private(set) var lastFix: Int64?
    public private(set) var lastFixTime: UTCTime?
    public private(set) var distance: Double?
    public private(set) var bearing: Double?

    public init(anchor: Position, radius: Double, confirmations: Int = 3, staleAfter: Double = 30, droppedAt: Int64,
                state: State = .watching, outside: Int = 0, lastFix: Int64? = nil, lastFixTime: UTCTime? = nil,
                distance: Double? = nil, bearing: Double? = nil) {
        self.anchor = anchor
        self.radius = radius
        self.confirmations = max(1, confirmations)
        self.staleAfter = staleAfter
        self.state = state
        self.outside = outside
        self.lastFix = lastFix ?? droppedAt
        self.lastFixTime = lastFixTime
        self.distance = distance
        self.bearing = bearing
    }

    /// `watching: 42 m of 60 m, bearing 120°`, or `watching: no fix yet (radius 60 m)`.
    public var summary: String {
        let where_ = distance.map { "\(Quantity.metres($0)) of \(Quantity.metres(radius)), bearing \(Quantity.whole(bearing ?? 0))°" }
            ?? "no fix yet (radius \(Quantity.metres(radius)))"
        return "\(state.rawValue): \(where_)"
    }

    /// The largest swing radius a watch takes, metres: beyond it the watch means nothing.
    public static let maximumRadius = 5_000.0

    /// The swing radius for `rode` metres of chain in `depth` metres of water with the
    /// bow `bow` metres above it: √(rode² − (depth + bow)²), plus the GPS `margin`.
    public static func swingRadius(rode: Double, depth: Double, bow: Double = 0, margin: Double) throws(InputError) -> Double {
        _ = try Quantity.check(rode, in: 0.1...maximumRadius, what: "--rode", unit: "m")
        _ = try Quantity.check(depth, in: 0...1_000, what: "--depth", unit: "m")
        _ = try Quantity.check(bow, in: 0...100, what: "--bow", unit: "m")
        let height = depth + bow
        guard rode > height else {
            throw InputError("rode \(Position.plain(rode)) m does not reach the bottom from \(Position.plain(height)) m (depth + bow): let out more rode")
        }
        return try radius((rode * rode - height * height).squareRoot() + margin)
    }

    /// The swing radius a user gives or rode and depth make: 1 m to `maximumRadius`.
    public static func radius(_ metres: Double) throws(InputError) -> Double {
        guard metres.isFinite, metres >= 1, metres <= maximumRadius else {
            throw InputError("a swing radius of \(Quantity.metres(metres)) is out of range: the watch takes 1 m to \(Quantity.metres(maximumRadius))")
        }
        return metres
    }

    /// The radius from exactly one of: `radius`, or `rode` with `depth` (and `bow`).
    public static func radius(given radius: Double?, rode: Double?, depth: Double?, bow: Double, margin: Double) throws(InputError) -> Double {
        switch (radius, rode, depth) {
        case (let given?, nil, nil): return try Self.radius(given)
        case (nil, let rode?, let depth?): return try swingRadius(rode: rode, depth: depth, bow: bow, margin: margin)
        default: throw InputError("give --radius M, or --rode M and --depth M (with --bow M if you like)")
        }
    }

    /// A fix at monotonic `now`.
    public mutating func handle(_ fix: GeoFix, now: Int64) -> [Action] {
        guard state != .off else { return [] }
        var actions: [Action] = []
        lastFix = now
        lastFixTime = fix.time
        distance = GreatCircle.distance(anchor, fix.position)
        bearing = GreatCircle.bearing(from: anchor, to: fix.position)
        if state == .stale { state = .watching }
        if (distance ?? 0) > radius {
            outside += 1
            if outside >= confirmations, state != .alarm {
                state = .alarm
                actions.append(.soundAlarm)
            }
        } else {
            outside = 0
        }
        return actions
    }

    /// Time passing with no fix: after `staleAfter` seconds the watch is stale.
    public mutating func tick(now: Int64) -> [Action] {
        guard state == .watching, let lastFix, Double(now - lastFix) / 1e9 > staleAfter else { return [] }
        state = .stale
        return [.warnStale]
    }

    /// After a reboot the stored monotonic time means nothing: count staleness from `now`.
    public mutating func rebase(now: Int64) { lastFix = now }

    /// `anchor ack` (or the sight button): silence and re-arm.
    public mutating func acknowledge() -> [Action] {
        guard state == .alarm else { return [] }
        state = .watching
        outside = 0
        return [.silenceAlarm]
    }

    /// `anchor lift`: the watch ends.
    public mutating func lift() -> [Action] {
        defer { state = .off }
        return state == .alarm ? [.silenceAlarm] : []
    }
}
