/// What a GPS fix is asked to stand for, and so how old it may be: the one answer to
/// "is this fix usable?" for a sight, the sky, a place and the people board.
public struct FixUse: Hashable, Sendable {
    /// The oldest the fix may be, in seconds.
    public var maxAge: Double
    /// The setting that sets `maxAge`, when one does (named in a refusal).
    public var key: String?
    /// Whether the last position gpsd gave still serves after it lost the fix (where the
    /// ship is, roughly), or only a current fix does (a sight, a place's centre).
    public var acceptsLastKnown: Bool

    public init(maxAge: Double, key: String? = nil, acceptsLastKnown: Bool = false) {
        self.maxAge = maxAge
        self.key = key
        self.acceptsLastKnown = acceptsLastKnown
    }

    /// Stored with a sight: `sight.max_fix_age_s`.
    public static func sight(_ settings: Settings) throws(InputError) -> FixUse {
        FixUse(maxAge: try settings.sight.maxFixAge, key: "sight.max_fix_age_s")
    }

    /// A place's centre or a member's report: `places.max_fix_age_s`.
    public static func place(_ settings: Settings) throws(InputError) -> FixUse {
        FixUse(maxAge: try settings.places.maxFixAge, key: "places.max_fix_age_s")
    }

    /// Where the ship is, for the almanac and the star finder: a minute.
    public static let sky = FixUse(maxAge: 60, acceptsLastKnown: true)

    /// Where the ship is, for the people board's and the day page's sky: an hour.
    public static let ship = FixUse(maxAge: 3600, acceptsLastKnown: true)
}

/// Why a fix cannot stand for a use.
public enum FixRefusal: Hashable, Sendable {
    /// gpsd's mode is below 2D.
    case noPosition(mode: Int)
    /// The position moved faster than the boat can (`PositionJump`), in words: never the boat's.
    case flagged(String)
    /// The fix arrived in another boot: its age is unknown.
    case otherBoot
    /// gpsd has had no fix since then (mode 1, or 0 while silent): the position is stale.
    case lost(FixLoss)
    /// The fix is older than the use allows.
    case tooOld(age: Double, use: FixUse)
}

extension Fix {
    /// Why this fix cannot stand for `use` at `now`, or nil when it can: a 2D or 3D fix
    /// of this boot, not flagged, still current (or the last known, where the use accepts it), no
    /// older than the use allows.
    public func refusal(for use: FixUse, at now: MonotonicInstant) -> FixRefusal? {
        guard mode >= 2 else { return .noPosition(mode: mode) }
        guard let age = age(at: now) else { return .otherBoot }
        if let lost, !use.acceptsLastKnown { return .lost(lost) }
        guard age <= use.maxAge else { return .tooOld(age: age, use: use) }
        if let flag { return .flagged(flag) }
        return nil
    }

    /// Whether this fix is current enough for `use` at `now`, flagged or not: what a sight
    /// keeps (with the flag) and the Now page shows (said to be flagged).
    public func isCurrent(for use: FixUse, at now: MonotonicInstant) -> Bool {
        switch refusal(for: use, at: now) {
        case nil, .flagged?: true
        default: false
        }
    }

    /// Whether this fix can stand for `use` at `now`.
    public func isUsable(for use: FixUse, at now: MonotonicInstant) -> Bool {
        refusal(for: use, at: now) == nil
    }
}

/// A position typed by the navigator, or the current GPS fix: what the command line's
/// `--position`/`--here` and the page's field and tick-box both offer.
public enum PositionChoice: Hashable, Sendable {
    case typed(String)
    case currentFix
    case neither
    case both

    /// The choice from a typed text (empty counts as none) and the "here" switch.
    public init(typed: String?, here: Bool) {
        switch (typed.flatMap { $0.isEmpty ? nil : $0 }, here) {
        case (let text?, false): self = .typed(text)
        case (nil, true): self = .currentFix
        case (nil, false): self = .neither
        case (_?, true): self = .both
        }
    }

    /// How a front end names the two ways: `("--position POS", "--here")`.
    public struct Words: Sendable {
        public var typed: String
        public var here: String
        public init(typed: String, here: String) {
            self.typed = typed
            self.here = here
        }
    }

    /// The position: the typed one parsed, or the daemon's fix when it can stand for `use`.
    public func resolve(_ status: DaemonStatus?, now: MonotonicInstant, use: FixUse, words: Words) throws(InputError) -> Position {
        switch self {
        case .typed(let text): return try Position.parse(text)
        case .currentFix: return try DaemonStatus.freshPosition(status, now: now, use: use, what: words.here, instead: words.typed)
        case .neither: throw InputError("give \(words.typed) or \(words.here)")
        case .both: throw InputError("give either \(words.typed) or \(words.here), not both")
        }
    }
}
