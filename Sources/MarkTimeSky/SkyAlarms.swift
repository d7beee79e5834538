import Foundation
import MarkTimeCore

/// A moment of the navigator's day that sights are taken at: local apparent noon, and the
/// start of a twilight window (the Sun's centre through −10° rising in the morning, through
/// −3° setting in the evening), at the boat's position then.
public struct SkyMoment: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case noon = "local apparent noon"
        case morningTwilight = "morning twilight"
        case eveningTwilight = "evening twilight"
    }

    public var kind: Kind
    public var utc: UTCTime
    public var position: Position
    /// A twilight window's end.
    public var until: UTCTime?

    /// The warning in words, `minutes` before it: "evening twilight begins in 10 min, at
    /// 16:36 UTC, at 50° 10'.00 N  4° 20'.00 W (the Sun between -3° and -10° until 17:24)".
    public func sentence(now: UTCTime) -> String {
        let left = max(0, Double(utc.nanosecondsSinceEpoch - now.nanosecondsSinceEpoch) / 60e9)
        let what = kind == .noon ? "local apparent noon is" : "\(kind.rawValue) begins"
        let window = until.map { " (the Sun between -3° and -10° until \($0.isoTimeOfDayMinutes))" } ?? ""
        return "\(what) in \(Quantity.whole(left.rounded(.up))) min, at \(utc.isoTimeOfDayMinutes) UTC, at \(position.ddm)\(window)"
    }

    /// The moments after `now`, within `hours`, for a boat moving from `dr`, in time order.
    public static func upcoming(after now: UTCTime, from dr: DeadReckoning, within hours: Double = 26) -> [SkyMoment] {
        var out: [SkyMoment] = []
        let end = now.adding(nanoseconds: Int64(hours * 3.6e12))
        // Noon today and the next days: the passage on each local date from now on.
        for day in 0...Int((hours / 24).rounded(.up)) {
            let at = now.adding(nanoseconds: Int64(day) * 86_400_000_000_000)
            guard let lan = MeridianPassage.localApparentNoon(DeadReckoning(dr.position(at: at), at: at, course: dr.course, knots: dr.knots)),
                  lan.utc > now, lan.utc <= end, !out.contains(where: { $0.kind == .noon && abs($0.utc.nanosecondsSinceEpoch - lan.utc.nanosecondsSinceEpoch) < 3_600_000_000_000 })
            else { continue }
            out.append(SkyMoment(kind: .noon, utc: lan.utc, position: lan.position, until: nil))
        }
        for morning in [true, false] {
            var from = now
            // Each window's start, where the Sun passes it; the position is the DR's then (the
            // Sun's time moves 4 s a mile of easting at most, which a warning ignores).
            // The next window is searched for well after this one's end: asked at its very
            // end, the search would find the same crossing again, a second either way.
            while let w = SunEvents.twilightWindow(morning: morning, after: from, from: dr.position(at: from), hours: hours), w.start <= end {
                if w.start > now { out.append(SkyMoment(kind: morning ? .morningTwilight : .eveningTwilight, utc: w.start, position: dr.position(at: w.start), until: w.end)) }
                from = w.end.adding(nanoseconds: 3_600_000_000_000)
            }
        }
        return out.sorted { $0.utc < $1.utc }
    }
}

/// Which moments to warn of and when: each once, `minutes` before it (at once when the
/// warning's time has passed but the moment has not).
public struct SkyAlarms: Hashable, Sendable {
    public var minutes: Double
    /// The moments warned of, by kind and minute.
    private var warned: Set<String> = []

    public init(minutes: Double) { self.minutes = minutes }

    static func key(_ m: SkyMoment) -> String { "\(m.kind.rawValue) \(m.utc.nanosecondsSinceEpoch / 60_000_000_000)" }

    /// The moments to warn of now, each marked as warned.
    public mutating func due(now: UTCTime, _ moments: [SkyMoment]) -> [SkyMoment] {
        let lead = Int64(minutes * 60e9)
        let due = moments.filter { m in m.utc > now && m.utc.nanosecondsSinceEpoch - lead <= now.nanosecondsSinceEpoch && !warned.contains(Self.key(m)) }
        for m in due { warned.insert(Self.key(m)) }
        return due
    }

    /// When the next warning falls, if any.
    public func next(now: UTCTime, _ moments: [SkyMoment]) -> UTCTime? {
        let lead = Int64(minutes * 60e9)
        return moments.filter { $0.utc > now && !warned.contains(Self.key($0)) }
            .map { UTCTime(nanosecondsSinceEpoch: max(now.nanosecondsSinceEpoch, $0.utc.nanosecondsSinceEpoch - lead)) }.min()
    }
}
