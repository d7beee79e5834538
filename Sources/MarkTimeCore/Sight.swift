/// Which limb of the Sun or Moon was brought to the horizon.
public enum Limb: String, CaseIterable, Sendable, Codable {
    case lower, center, upper

    /// Accepts `lower`, `center`, `upper`, `centre`, and the usual `LL`, `UL`.
    public static func parse(_ text: String) throws(InputError) -> Limb {
        switch text.trimmingWhitespace().lowercased() {
        case "lower", "ll", "l": return .lower
        case "center", "centre", "c": return .center
        case "upper", "ul", "u": return .upper
        default: throw InputError("unknown limb '\(text)': use lower, center or upper")
        }
    }
}

/// What made a sight: the physical button, `marktime mark`, or the phone page's MARK.
public enum SightTrigger: String, CaseIterable, Sendable, Codable {
    case button, cli, phone
}

/// gpsd has no fix any more: since when, and the mode it reports (0 while it is silent).
public struct FixLoss: Hashable, Sendable {
    public var since: MonotonicInstant
    /// gpsd's mode: 1 (no fix), or 0 (nothing seen: gpsd went silent or away).
    public var mode: Int

    public init(since: MonotonicInstant, mode: Int) {
        self.since = since
        self.mode = mode
    }

    /// Seconds from the loss to `instant`; `nil` across boots.
    public func age(at instant: MonotonicInstant) -> Double? {
        guard instant.bootID == since.bootID else { return nil }
        return Double(instant.nanoseconds - since.nanoseconds) / 1e9
    }

    /// `gpsd has reported no fix (mode 1) for 4 s`, or `gpsd has been silent for 6 s`.
    public func sentence(at now: MonotonicInstant) -> String {
        let span = age(at: now).map { " for \(Quantity.whole(max(0, $0))) s" } ?? " since before this boot"
        return mode == 0 ? "gpsd has been silent\(span)" : "gpsd has reported no fix (mode \(mode))\(span)"
    }
}

/// A GPS fix as gpsd reported it, with the monotonic instant it arrived at.
public struct Fix: Hashable, Sendable {
    public var position: Position
    /// gpsd's mode: 2 for 2D, 3 for 3D.
    public var mode: Int
    /// Horizontal error estimate in metres (gpsd `eph`), when known.
    public var horizontalError: Double?
    /// The receiver's UTC for this fix (TPV `time`), when known.
    public var time: UTCTime?
    public var receivedAt: MonotonicInstant
    /// Speed over ground in m/s, and course over ground in degrees true, when known.
    public var speed: Double?
    public var course: Double?
    /// Set once gpsd says it has no fix (or goes silent): the position is then the last one
    /// it gave, never a current one.
    public var lost: FixLoss?
    /// Why the position is not trusted (it moved faster than the boat can: `PositionJump`),
    /// in words; nil for a plain fix.
    public var flag: String?

    public init(position: Position, mode: Int, horizontalError: Double?, time: UTCTime?, receivedAt: MonotonicInstant,
                speed: Double? = nil, course: Double? = nil) {
        self.position = position
        self.mode = mode
        self.horizontalError = horizontalError
        self.time = time
        self.receivedAt = receivedAt
        self.speed = speed
        self.course = course
    }

    /// Seconds from this fix's arrival to `instant`; `nil` across boots.
    public func age(at instant: MonotonicInstant) -> Double? {
        guard instant.bootID == receivedAt.bootID else { return nil }
        return Double(instant.nanoseconds - receivedAt.nanoseconds) / 1e9
    }
}

/// One sextant sight: the raw instant, its UTC estimate, the GPS position at
/// the mark, and what the navigator fills in afterwards.
public struct Sight: Hashable, Sendable {
    public var id: Int64?
    public var instant: MonotonicInstant
    public var estimate: UTCEstimate
    /// The estimate as first recorded, kept when a backfill replaced it.
    public var original: UTCEstimate?
    public var correctedAt: UTCTime?

    public var position: Position?
    public var fixMode: Int?
    public var fixAge: Double?
    /// Why the position is not a plain fix (GPS moved faster than the boat can), in words.
    public var positionFlag: String?
    /// What made it; `nil` for sights recorded before marktime kept this.
    public var trigger: SightTrigger?

    public var body: String?
    public var limb: Limb?
    /// Sextant altitude, degrees.
    public var hs: Double?
    /// Index error, arc-minutes, signed.
    public var indexError: Double?
    /// Height of eye, metres.
    public var eyeHeight: Double?
    /// Air temperature, °C.
    public var temperature: Double?
    /// Air pressure, hPa.
    public var pressure: Double?
    /// Dead-reckoning position.
    public var dr: Position?
    public var note: String?

    public var createdAt: UTCTime
    public var editedAt: UTCTime?

    public init(id: Int64? = nil, instant: MonotonicInstant, estimate: UTCEstimate, createdAt: UTCTime) {
        self.id = id
        self.instant = instant
        self.estimate = estimate
        self.createdAt = createdAt
    }

    /// A new sight from a key-down instant. A fix is kept only when it is current for a
    /// sight (`FixUse`): a 2D or 3D mode, from the same boot, no older than `maxFixAge`
    /// seconds; a flagged one with its flag.
    public static func mark(instant: MonotonicInstant, estimate: UTCEstimate, fix: Fix?, maxFixAge: Double = 30,
                            note: String? = nil, trigger: SightTrigger = .button, createdAt: UTCTime) -> Sight {
        var sight = Sight(instant: instant, estimate: estimate, createdAt: createdAt)
        sight.trigger = trigger
        if let fix, fix.isCurrent(for: FixUse(maxAge: maxFixAge), at: instant), let age = fix.age(at: instant) {
            sight.position = fix.position
            sight.fixMode = fix.mode
            sight.fixAge = max(0, age)
            sight.positionFlag = fix.flag
        }
        sight.note = note.flatMap { $0.isEmpty ? nil : $0 }
        return sight
    }

    /// A fix older than this when the sight was taken is shown with its age.
    public static let staleFixAge = 2.0

    /// The GPS position when it counts as a fix: nil when the daemon flagged it (it moved
    /// faster than the boat can). A flagged position stays on record, with its flag, but is
    /// never worked from, plotted or measured against as the boat's.
    public var trustedPosition: Position? { positionFlag == nil ? position : nil }

    /// The position as a list shows it: `no fix`, the DDM position, or the DDM position
    /// with its age when the fix was `staleFixAge` or more old at the mark.
    public var positionSummary: String {
        guard let position else { return "no fix" }
        let flagged = positionFlag == nil ? "" : " (flagged: faster than the boat can)"
        guard let age = fixAge, age >= Self.staleFixAge else { return position.ddm + flagged }
        return "\(position.ddm) (fix \(Quantity.whole(age)) s old)" + flagged
    }

    /// Replaces the estimate with a better one, keeping the first on record.
    public mutating func correct(to better: UTCEstimate, at now: UTCTime) {
        if original == nil { original = estimate }
        estimate = better
        correctedAt = now
    }
}

/// One field change: leave it, set it, or clear it.
public enum FieldChange<Value: Hashable & Sendable>: Hashable, Sendable {
    case keep
    case set(Value)
    case clear

    func apply(to value: inout Value?) {
        switch self {
        case .keep: break
        case .set(let v): value = v
        case .clear: value = nil
        }
    }
}

/// The navigator's edits to a sight, already validated.
public struct SightEdit: Hashable, Sendable {
    public var body: FieldChange<String> = .keep
    public var limb: FieldChange<Limb> = .keep
    public var hs: FieldChange<Double> = .keep
    public var indexError: FieldChange<Double> = .keep
    public var eyeHeight: FieldChange<Double> = .keep
    public var temperature: FieldChange<Double> = .keep
    public var pressure: FieldChange<Double> = .keep
    public var dr: FieldChange<Position> = .keep
    public var note: FieldChange<String> = .keep

    public init() {}

    /// The fields that `--clear` names.
    public static let clearable = ["body", "limb", "hs", "ie", "eye-height", "temp", "pressure", "dr", "note"]

    public mutating func clear(_ field: String) throws(InputError) {
        switch field.lowercased() {
        case "body": body = .clear
        case "limb": limb = .clear
        case "hs": hs = .clear
        case "ie": indexError = .clear
        case "eye-height": eyeHeight = .clear
        case "temp": temperature = .clear
        case "pressure": pressure = .clear
        case "dr": dr = .clear
        case "note": note = .clear
        default: throw InputError("cannot clear '\(field)': use one of \(Self.clearable.joined(separator: ", "))")
        }
    }

    public var isEmpty: Bool { self == SightEdit() }

    public func apply(to sight: Sight, at now: UTCTime) -> Sight {
        var s = sight
        body.apply(to: &s.body)
        limb.apply(to: &s.limb)
        hs.apply(to: &s.hs)
        indexError.apply(to: &s.indexError)
        eyeHeight.apply(to: &s.eyeHeight)
        temperature.apply(to: &s.temperature)
        pressure.apply(to: &s.pressure)
        dr.apply(to: &s.dr)
        note.apply(to: &s.note)
        s.editedAt = now
        return s
    }
}

/// Parsers for the navigator's numeric fields, each with its sane range.
public enum SightField {
    /// Index error in arc-minutes, signed: `-2.4`, `+1.5`. Within ±30'.
    public static func indexError(_ text: String) throws(InputError) -> Double {
        try number(text, name: "index error", unit: "'", range: -30...30, example: "-2.4 (arc-minutes, negative when on the arc)")
    }

    /// Height of eye in metres, 0 to 500.
    public static func eyeHeight(_ text: String) throws(InputError) -> Double {
        try number(text, name: "height of eye", unit: " m", range: 0...500, example: "2.5 (metres)")
    }

    /// Air temperature in °C, -60 to 60.
    public static func temperature(_ text: String) throws(InputError) -> Double {
        try number(text, name: "temperature", unit: " °C", range: -60...60, example: "18.5 (°C)")
    }

    /// Air pressure in hPa, 850 to 1100.
    public static func pressure(_ text: String) throws(InputError) -> Double {
        try number(text, name: "pressure", unit: " hPa", range: 850...1100, example: "1013.2 (hPa)")
    }

    static func number(_ text: String, name: String, unit: String, range: ClosedRange<Double>, example: String) throws(InputError) -> Double {
        guard let v = Double(text.trimmingWhitespace()), v.isFinite else {
            throw InputError("cannot read \(name) '\(text)': give a number such as \(example)")
        }
        guard range.contains(v) else {
            throw InputError("\(name) \(Position.plain(v))\(unit) is out of range: it must be between \(Position.plain(range.lowerBound)) and \(Position.plain(range.upperBound))\(unit)")
        }
        return v
    }
}
