import Foundation
import MarkTimeCore

/// What to shoot at one time from one position: the best set of three or four bodies for a
/// fix (spread in azimuth, altitudes in a band, bright), and for every body above the
/// horizon what the sextant will read there (Hs, the reduction run backwards) and how fast
/// that changes. Bodies left out are listed with the reason.
public struct SightPlan: Hashable, Sendable {
    /// What the navigator asks of the plan.
    public struct Options: Hashable, Sendable {
        /// The altitudes a body is shot at, degrees: below, refraction is large and uncertain;
        /// above, the azimuth is hard to swing and the line bends.
        public var band: ClosedRange<Double>
        /// Three or four bodies.
        public var count: Int
        /// Stars fainter than this are not found in twilight.
        public var faintest: Double

        public init(band: ClosedRange<Double> = 15...70, count: Int = 3, faintest: Double = 3.0) {
            (self.band, self.count, self.faintest) = (band, count, faintest)
        }
    }

    /// One body: where it stands, what the sextant reads, and whether it is in the set.
    public struct Line: Hashable, Sendable {
        public var body: Body
        /// Hc and Zn at the plan's time from its position.
        public var computed: Computed
        public var magnitude: Double
        /// The predicted sextant reading (the limb the reading names for the Sun and Moon).
        public var hs: Double
        /// How Hs changes in the next minute, arc-minutes (positive: rising).
        public var hsPerMinute: Double
        public var chosen: Bool
        /// Why it is not in the set, in words; nil for a chosen body.
        public var reason: String?
    }

    public var utc: UTCTime
    public var position: Position
    public var options: Options
    /// The chosen bodies by Zn, then the others above the horizon, brightest first.
    public var lines: [Line]
    /// The Sun's altitude then, degrees, and what it means for the plan, when it matters:
    /// night with no horizon to measure from.
    public var sunAltitude: Double
    public var warning: String?

    /// Above this Sun altitude only the Sun, the Moon and Venus are seen.
    public static let daylight = -3.0
    /// Below this Sun altitude the sea horizon is lost in the dark.
    public static let night = -12.0

    /// The chosen set, by Zn.
    public var chosen: [Line] { lines.filter(\.chosen) }
    /// The reason given for a body in the band that the chosen set leaves out.
    public static let inBand = "in the band; the chosen set spreads better"

    /// The plan at `utc` from `position`, the sextant set up as `sextant` (its Hs ignored;
    /// its limb is the Sun's and the Moon's; stars and planets are their centres).
    public init(at utc: UTCTime, from position: Position, sextant: SextantReading, options: Options = Options()) throws(InputError) {
        guard let time = SkyTime(utc), let later = SkyTime(utc.adding(nanoseconds: 60_000_000_000)) else {
            throw InputError("\(utc.iso8601) is outside the almanac's years \(SkyTime.years.lowerBound)–\(SkyTime.years.upperBound)")
        }
        guard (3...4).contains(options.count) else { throw InputError("a fix is planned from 3 or 4 bodies, not \(options.count)") }
        guard (0...90).contains(options.band.lowerBound), (0...90).contains(options.band.upperBound),
              options.band.lowerBound < options.band.upperBound else {
            throw InputError("the altitude band --lowest \(Position.plain(options.band.lowerBound))° to --highest "
                + "\(Position.plain(options.band.upperBound))° must run upward within 0° to 90° (default 15° to 70°)")
        }
        (self.utc, self.position, self.options) = (utc, position, options)
        let sun = Almanac.entry(.sun, at: time)
        sunAltitude = Computed(gha: sun.gha, declination: sun.declination, latitude: position.latitude, longitude: position.longitude).altitude
        warning = sunAltitude < Self.night
            ? String(format: "the Sun is %.0f° below the horizon: the sea horizon cannot be seen; plan the twilight (--twilight morning or evening)", -sunAltitude)
            : nil
        var all: [Line] = []
        for b in Almanac.visible(at: time, from: position) {
            all.append(Self.line(b.body, computed: b.computed, magnitude: b.magnitude, at: time, later: later, from: position, sextant: sextant))
        }
        for i in all.indices {
            let h = all[i].computed.altitude
            if sunAltitude > Self.daylight, ![.sun, .moon, .venus].contains(all[i].body) {
                all[i].reason = String(format: "not seen by day (the Sun is %.0f° high)", sunAltitude)
            } else if h < options.band.lowerBound {
                all[i].reason = "below \(Quantity.whole(options.band.lowerBound))°"
            } else if h > options.band.upperBound {
                all[i].reason = "above \(Quantity.whole(options.band.upperBound))°"
            } else if all[i].magnitude > options.faintest {
                all[i].reason = String(format: "fainter than magnitude %.1f", options.faintest)
            }
        }
        let candidates = all.indices.filter { all[$0].reason == nil }
        guard candidates.count >= options.count else {
            throw InputError("only \(candidates.count) \(candidates.count == 1 ? "body is" : "bodies are") between "
                + "\(Quantity.whole(options.band.lowerBound))° and \(Quantity.whole(options.band.upperBound))° "
                + String(format: "and brighter than magnitude %.1f", options.faintest)
                + " at \(utc.iso8601) from \(position.ddm): a fix needs \(options.count); "
                + (sunAltitude > Self.daylight ? "by day only the Sun, the Moon and Venus are seen: plan the twilight (--twilight morning or evening), "
                    + "or work a running fix of Sun lines (`marktime fix --course --speed`)" : "widen the band (--lowest, --highest) or choose another time"))
        }
        let best = Self.bestSet(candidates.map { all[$0] }, count: options.count).map { candidates[$0] }
        for i in best { all[i].chosen = true }
        for i in candidates where !all[i].chosen { all[i].reason = Self.inBand }
        lines = best.map { all[$0] }.sorted { $0.computed.azimuth < $1.computed.azimuth } + all.filter { !$0.chosen }
    }

    /// One body's line at `utc` from `position`, as the plan gives it (not chosen, no reason):
    /// what `plan --live` and the page tick every second for the chosen set.
    public static func line(_ body: Body, at utc: UTCTime, from position: Position, sextant: SextantReading) throws(InputError) -> Line {
        guard let time = SkyTime(utc), let later = SkyTime(utc.adding(nanoseconds: 60_000_000_000)) else {
            throw InputError("\(utc.iso8601) is outside the almanac's years \(SkyTime.years.lowerBound)–\(SkyTime.years.upperBound)")
        }
        let e = Almanac.entry(body, at: time)
        let computed = Computed(gha: e.gha, declination: e.declination, latitude: position.latitude, longitude: position.longitude)
        return line(body, computed: computed, magnitude: Almanac.magnitude(body, at: time), at: time, later: later, from: position, sextant: sextant)
    }

    /// The line of a body whose Hc and Zn at `time` are `computed`: Hs then, and a minute `later`.
    private static func line(_ body: Body, computed: Computed, magnitude: Double, at time: SkyTime, later: SkyTime, from position: Position,
                             sextant: SextantReading) -> Line {
        var r = sextant
        r.limb = body == .sun || body == .moon ? (sextant.limb == .center ? .lower : sextant.limb) : .center
        let next = Almanac.entry(body, at: later)
        let then = Computed(gha: next.gha, declination: next.declination, latitude: position.latitude, longitude: position.longitude)
        let now = Observation.sextantAltitude(observed: computed.altitude, r, body: body, at: time, near: position)
        let minuteLater = Observation.sextantAltitude(observed: then.altitude, r, body: body, at: later, near: position)
        return Line(body: body, computed: computed, magnitude: magnitude, hs: now, hsPerMinute: (minuteLater - now) * 60, chosen: false, reason: nil)
    }

    /// How good a set is for a fix, higher better: the smallest gap between the bodies'
    /// azimuths as a share of 80 % of the even gap (about 120° for three: 96° or more counts
    /// whole; about 90° for four: 72°), less a tenth for each 45° a body stands outside
    /// 30°–60° and a twentieth for each magnitude fainter than 1.
    public static func score(_ set: [Line]) -> Double {
        let zn = set.map(\.computed.azimuth).sorted()
        let gaps = zip(zn, zn.dropFirst() + [zn[0] + 360]).map { $1 - $0 }
        let spread = min(1, (gaps.min() ?? 0) / (0.8 * 360 / Double(set.count)))
        let altitude = set.map { l in max(0, 30 - l.computed.altitude, l.computed.altitude - 60) / 45 }.reduce(0, +) / Double(set.count)
        let brightness = set.map { max(0, $0.magnitude - 1) }.reduce(0, +) / Double(set.count)
        return spread - 0.1 * altitude - 0.05 * brightness
    }

    /// The indices of the best `count` of `lines` by `score`.
    static func bestSet(_ lines: [Line], count: Int) -> [Int] {
        var best: (score: Double, set: [Int]) = (-.infinity, [])
        var set: [Int] = []
        func choose(from start: Int) {
            if set.count == count {
                let s = score(set.map { lines[$0] })
                if s > best.score { best = (s, set) }
                return
            }
            guard start < lines.count else { return }
            for i in start..<lines.count where lines.count - i >= count - set.count {
                set.append(i)
                choose(from: i + 1)
                set.removeLast()
            }
        }
        choose(from: 0)
        return best.set
    }
}

extension SightPlan {
    /// When to plan for: `at` itself, or with `twilight` (true for the morning) the middle of
    /// the next twilight window after it, to the second, with the window: the Sun's centre
    /// between `bright` and `dark` degrees. Refused in words where the window is not a
    /// window, or the Sun does not pass through it (polar day or night, the almanac's end).
    public static func time(at utc: UTCTime, twilight morning: Bool?, from position: Position, bright: Double = -3,
                            dark: Double = -10) throws(InputError) -> (utc: UTCTime, window: (start: UTCTime, end: UTCTime)?) {
        guard let morning else { return (utc, nil) }
        guard (-18...0).contains(dark), (-18...0).contains(bright), dark < bright else {
            throw InputError("the twilight window is the Sun between --sun-high (default -3°) and --sun-low (default -10°), both "
                + "from 0° to -18° and --sun-low the lower; got --sun-high \(Position.plain(bright))° and --sun-low \(Position.plain(dark))°")
        }
        guard let w = SunEvents.twilightWindow(morning: morning, after: utc, from: position, bright: bright, dark: dark) else {
            if SunEvents.outside(from: utc, hours: 36) != nil {
                throw InputError("the next 36 hours from \(utc.iso8601) run past the almanac's end (\(SkyTime.years.upperBound)-12-31): "
                    + "give --at at least 36 hours before the twilight")
            }
            let (first, second) = morning ? (dark, bright) : (bright, dark)
            throw InputError("the Sun does not \(morning ? "rise" : "set") through \(Position.plain(first))° and \(Position.plain(second))° "
                + "at \(position.ddm) in the next 36 hours (polar day or night): no \(morning ? "morning" : "evening") twilight to plan; "
                + "give --at for a daylight plan of the Sun, the Moon and Venus")
        }
        let middle = (w.start.nanosecondsSinceEpoch + w.end.nanosecondsSinceEpoch) / 2
        return (UTCTime(wholeSeconds: middle / 1_000_000_000), w)
    }
}

extension SextantReading {
    /// The sextant a plan is for: each value given, else the newest sight's (`newest`), else
    /// the reduction's standard air (10 °C, 1010 hPa) and no index error; a height of eye
    /// must come from one or the other (`eyeHeightHint` says how, where it is asked).
    /// `limb` is the Sun's and the Moon's, lower or upper.
    public static func planned(eyeHeight: Double?, indexError: Double?, celsius: Double?, hectopascals: Double?, limb: Limb, newest: Sight?,
                               eyeHeightHint: String = "give one (--eye-height, in metres), or set it on a sight (`marktime sight edit ID --eye-height 2.5`)")
        throws(InputError) -> SextantReading {
        guard limb != .center else { throw InputError("the Sun's and the Moon's centre cannot be set on the horizon: give --limb lower or upper") }
        guard let eye = eyeHeight ?? newest?.eyeHeight else { throw InputError("no height of eye: " + eyeHeightHint) }
        return SextantReading(hs: 0, indexError: indexError ?? newest?.indexError ?? 0, eyeHeight: eye, limb: limb,
                              celsius: celsius ?? newest?.temperature, hectopascals: hectopascals ?? newest?.pressure)
    }
}

extension SunEvents {
    /// The twilight window the navigator is in or comes to next after `start` at `position`,
    /// while both the bright stars and the horizon are seen: the Sun's centre between
    /// `bright` (−3°) and `dark` (−10°), going down in the evening and up in the morning,
    /// from `start` when it is already in it. Where the Sun turns before `dark` (a summer
    /// night at 60° N), the window ends (or begins) at its lowest. Nil when the Sun does
    /// not pass `bright` within `hours` (polar day or night).
    public static func twilightWindow(morning: Bool, after start: UTCTime, from position: Position,
                                      bright: Double = -3, dark: Double = -10, hours: Double = 36) -> (start: UTCTime, end: UTCTime)? {
        let sixHours: Int64 = 6 * 3_600_000_000_000
        var from = start.adding(nanoseconds: -sixHours)
        while from < start.adding(nanoseconds: Int64(hours * 3.6e12)) {
            let window: (UTCTime, UTCTime)
            if morning {
                guard let end = next(bright, rising: true, after: from, from: position, within: hours + 6) else { return nil }
                let begin = next(dark, rising: true, after: end.adding(nanoseconds: -sixHours), from: position, within: 6).flatMap { $0 <= end ? $0 : nil }
                    ?? lowest(from: end.adding(nanoseconds: -2 * sixHours), to: end, at: position)
                window = (begin, end)
            } else {
                guard let begin = next(bright, rising: false, after: from, from: position, within: hours + 6) else { return nil }
                let end = next(dark, rising: false, after: begin, from: position, within: 6)
                    ?? lowest(from: begin, to: begin.adding(nanoseconds: 2 * sixHours), at: position)
                window = (begin, end)
            }
            if window.1 > start { return (max(window.0, start), window.1) }
            // Well past its end: from its very end, the search could find the same crossing again.
            from = window.1.adding(nanoseconds: 3_600_000_000_000)
        }
        return nil
    }

    /// When the Sun stands lowest between `a` and `b` at `position`, to five minutes.
    static func lowest(from a: UTCTime, to b: UTCTime, at position: Position) -> UTCTime {
        var best = (a, altitude(at: a, from: position) ?? 0)
        var t = a
        while t < b {
            t = t.adding(nanoseconds: 300_000_000_000)
            if let h = altitude(at: t, from: position), h < best.1 { best = (t, h) }
        }
        return best.0
    }
}
