import MarkTimeCore
import MarkTimeSky

/// The sky over a place at an instant, from the Sun's real altitude there: its shade
/// (day, civil, nautical or astronomical twilight, night) and a colour to paint it.
public struct SkyLight: Hashable, Sendable {
    /// The Sun's altitude, degrees.
    public var sunAltitude: Double
    /// Whether the Sun is climbing (morning) or sinking.
    public var rising: Bool

    public init(sunAltitude: Double, rising: Bool) {
        self.sunAltitude = sunAltitude
        self.rising = rising
    }

    /// The light at `position` at `seconds` since the epoch; nil outside the almanac's years.
    public init?(at seconds: Int64, position: Position) {
        guard let h = SunEvents.altitude(at: UTCTime(wholeSeconds: seconds), from: position),
              let later = SunEvents.altitude(at: UTCTime(wholeSeconds: seconds + 60), from: position) else { return nil }
        self.init(sunAltitude: h, rising: later > h)
    }

    public var shade: SunEvents.Shade { SunEvents.Shade(sunAltitude: sunAltitude) }

    /// The colour (red, green, blue), blended by altitude between night (−18°), the
    /// twilights' blues (−12°, −6°), dawn's rose or dusk's mauve at sunrise or sunset,
    /// and the day's blue from 10° up.
    public var color: (UInt8, UInt8, UInt8) {
        let horizon = rising ? (214.0, 118.0, 96.0) : (182.0, 86.0, 112.0)
        let stops: [(Double, (Double, Double, Double))] = [
            (-18, (12, 16, 44)), (-12, (22, 28, 70)), (-6, (58, 62, 118)), (SunEvents.horizon, horizon), (10, (110, 170, 226)),
        ]
        let h = min(max(sunAltitude, stops.first!.0), stops.last!.0)
        let i = min(stops.lastIndex { $0.0 <= h }!, stops.count - 2)
        let (h0, c0) = stops[i], (h1, c1) = stops[i + 1]
        let f = (h - h0) / (h1 - h0)
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
    /// The sky where they are; nil when their zone has no coordinates (`Etc/GMT+5`).
    public var light: SkyLight?

    /// `position` is where the Sun's altitude is worked: the zone's city, or the ship.
    public init(name: String, zone: String, city: String, at seconds: Int64, offset: ZoneOffset, userDate: CivilDate,
                position: Position?) {
        self.name = name
        self.zone = zone
        self.city = city
        self.offset = offset
        local = LocalDateTime(secondsSinceEpoch: seconds, offset: offset.seconds)
        dayOffset = local.date.daysSinceEpoch - userDate.daysSinceEpoch
        light = position.flatMap { SkyLight(at: seconds, position: $0) }
    }

    public init(name: String, zone rules: some ZoneRules, at seconds: Int64, userDate: CivilDate, position: Position?) {
        self.init(name: name, zone: rules.identifier, city: ZoneCatalogue.city(rules.identifier), at: seconds,
                  offset: rules.offset(atSecondsSinceEpoch: seconds), userDate: userDate, position: position)
    }

    /// The ship at `position`, on zone time for its longitude.
    public init(shipAt position: Position, at seconds: Int64, userDate: CivilDate) {
        let zone = NauticalZone(longitude: position.longitude)
        self.init(name: "Ship", zone: zone.text, city: "at sea", at: seconds, offset: zone.offset, userDate: userDate,
                  position: position)
    }

    /// `day`, `civil`, `nautical`, `astronomical`, `night`; `-` when the zone has no place.
    public var skyText: String { light?.shade.rawValue ?? "-" }

    /// `+1d`, `-1d`, or empty.
    public var dayText: String { dayOffset == 0 ? "" : "\(dayOffset > 0 ? "+" : "-")\(abs(dayOffset))d" }
}
