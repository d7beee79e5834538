import MarkTimeCore

/// The sky at a local time of day, from the clock alone: night before 05:00,
/// dawn until 07:00, day until 19:00, dusk until 21:00, then night.
public enum Sky: String, Sendable, CaseIterable {
    case night, dawn, day, dusk

    public init(minuteOfDay m: Int) {
        switch m {
        case 300..<420: self = .dawn
        case 420..<1140: self = .day
        case 1140..<1260: self = .dusk
        default: self = .night
        }
    }

    /// The sky's colour through the day, blended between night, dawn, day and dusk
    /// like layered sky pictures: (red, green, blue).
    public static func color(minuteOfDay m: Int) -> (UInt8, UInt8, UInt8) {
        let stops: [(Int, (Double, Double, Double))] = [
            (0, (12, 16, 44)), (300, (12, 16, 44)), (360, (214, 118, 96)), (450, (110, 170, 226)),
            (1080, (110, 170, 226)), (1170, (182, 86, 112)), (1260, (12, 16, 44)), (1440, (12, 16, 44)),
        ]
        let m = min(max(m, 0), 1439)
        let i = stops.lastIndex { $0.0 <= m }!
        let (m0, c0) = stops[i], (m1, c1) = stops[i + 1]
        let f = Double(m - m0) / Double(m1 - m0)
        func mix(_ a: Double, _ b: Double) -> UInt8 { UInt8((a + (b - a) * f).rounded()) }
        return (mix(c0.0, c1.0), mix(c0.1, c1.1), mix(c0.2, c1.2))
    }
}

/// The navigator's zone description for a longitude: the longitude over 15,
/// rounded, with the sign such that ZT + ZD = UT (150° E is ZD −10).
public struct NauticalZone: Hashable, Sendable {
    /// Hours: ZT + ZD = UT.
    public var description: Int

    public init(longitude: Double) {
        description = -Int((longitude / 15).rounded(.toNearestOrAwayFromZero))
    }

    /// `ZD −10`, `ZD +3`, `ZD 0`.
    public var text: String { description == 0 ? "ZD 0" : "ZD \(description < 0 ? "−" : "+")\(abs(description))" }

    /// As a zone offset: seconds east of UTC.
    public var offset: ZoneOffset { ZoneOffset(seconds: -description * 3600, abbreviation: text, isDST: false) }
}

/// One row of the people view: someone's wall clock at the chosen instant.
public struct PersonTime: Hashable, Sendable {
    public var name: String
    /// The tz identifier, or the ship's zone description.
    public var zone: String
    public var city: String
    public var local: LocalDateTime
    public var offset: ZoneOffset
    /// Their date minus the user's: −1, 0 or +1.
    public var dayOffset: Int
    public var sky: Sky

    public init(name: String, zone: String, city: String, at seconds: Int64, offset: ZoneOffset, userDate: CivilDate) {
        self.name = name
        self.zone = zone
        self.city = city
        self.offset = offset
        local = LocalDateTime(secondsSinceEpoch: seconds, offset: offset.seconds)
        dayOffset = local.date.daysSinceEpoch - userDate.daysSinceEpoch
        sky = Sky(minuteOfDay: local.minuteOfDay)
    }

    public init(name: String, zone rules: some ZoneRules, at seconds: Int64, userDate: CivilDate) {
        self.init(name: name, zone: rules.identifier, city: ZoneCatalogue.city(rules.identifier), at: seconds,
                  offset: rules.offset(atSecondsSinceEpoch: seconds), userDate: userDate)
    }

    /// The ship at `longitude`, on zone time.
    public init(shipAt longitude: Double, at seconds: Int64, userDate: CivilDate) {
        let zone = NauticalZone(longitude: longitude)
        self.init(name: "Ship", zone: zone.text, city: "at sea", at: seconds, offset: zone.offset, userDate: userDate)
    }

    /// `+1d`, `-1d`, or empty.
    public var dayText: String { dayOffset == 0 ? "" : "\(dayOffset > 0 ? "+" : "-")\(abs(dayOffset))d" }
}
