import Foundation

/// A point on the Earth in signed decimal degrees (north and east positive).
public struct Position: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    /// Validates the ranges: latitude within ±90°, longitude within ±180°.
    public init(latitude: Double, longitude: Double) throws(InputError) {
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw InputError("latitude \(Self.plain(latitude))° is out of range: it must be between 90° S and 90° N")
        }
        guard longitude.isFinite, abs(longitude) <= 180 else {
            throw InputError("longitude \(Self.plain(longitude))° is out of range: it must be between 180° W and 180° E")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `27° 22'.84 S  153° 22'.84 E`, as a navigator writes it.
    public var ddm: String { "\(latitudeDDM)  \(longitudeDDM)" }
    public var latitudeDDM: String { Self.ddm(latitude, positive: "N", negative: "S") }
    public var longitudeDDM: String { Self.ddm(longitude, positive: "E", negative: "W") }

    /// Degrees and decimal minutes to the hundredth of a minute. The rounding
    /// is done once, in integers, so 59.996' carries into the next degree.
    public static func ddm(_ value: Double, positive: String, negative: String) -> String {
        let hundredths = Int((abs(value) * 6000).rounded())
        let degrees = hundredths / 6000, minutes = hundredths % 6000
        let hemisphere = value < 0 && hundredths != 0 ? negative : positive
        return "\(degrees)° \(pad(minutes / 100))'.\(pad(minutes % 100)) \(hemisphere)"
    }

    /// This position moved `north` and `east` nautical miles by plane sailing, as on a
    /// plotting sheet (latitude kept within ±89.99°, longitude wrapped to ±180°).
    public func offset(north: Double, east: Double) -> Position {
        let lat = max(-89.99, min(89.99, latitude + north / 60))
        var lon = longitude + east / 60 / cos(latitude * .pi / 180)
        lon -= 360 * (lon / 360).rounded()
        return Position(unchecked: lat, lon)
    }

    private init(unchecked latitude: Double, _ longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static let forms = "`27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E` or signed decimal degrees `-27.3807 153.3807`"

    /// Reads a position in any of the forms navigators write:
    /// `27 22.84 S 153 22.84 E`, `27° 22'.84 S 153° 22'.84 E`, `-27.3807, 153.3807`.
    public static func parse(_ text: String) throws(InputError) -> Position {
        let tokens = try AngleTokens(text, what: "position", forms: forms).tokens
        let hemispheres = tokens.indices.filter { tokens[$0].hemisphere != nil }
        var lat: Double, lon: Double
        switch hemispheres.count {
        case 0:
            guard tokens.count == 2, let a = tokens[0].number, let b = tokens[1].number else {
                throw InputError("cannot read position '\(Text.shown(text))': without N/S and E/W give two signed decimal degrees; write it as \(forms)")
            }
            lat = a.value; lon = b.value
        case 2:
            // Hemisphere letters may come after (27 22.84 S) or before (S 27 22.84) the numbers.
            let split = hemispheres[0] == 0 ? hemispheres[1] : hemispheres[0] + 1
            let first = try coordinate(Array(tokens[..<split]), text: text)
            let second = try coordinate(Array(tokens[split...]), text: text)
            guard first.axis != second.axis else {
                throw InputError("cannot read position '\(Text.shown(text))': it needs one of N/S and one of E/W")
            }
            (lat, lon) = first.axis == .latitude ? (first.value, second.value) : (second.value, first.value)
        default:
            throw InputError("cannot read position '\(Text.shown(text))': it needs one of N/S and one of E/W; write it as \(forms)")
        }
        return try Position(latitude: lat, longitude: lon)
    }

    enum Axis { case latitude, longitude }

    static func coordinate(_ tokens: [AngleTokens.Token], text: String) throws(InputError) -> (axis: Axis, value: Double) {
        guard let h = tokens.compactMap(\.hemisphere).first, tokens.filter({ $0.hemisphere != nil }).count == 1,
              tokens.first?.hemisphere != nil || tokens.last?.hemisphere != nil
        else { throw InputError("cannot read position '\(Text.shown(text))': write it as \(forms)") }
        let numbers = tokens.compactMap(\.number)
        guard numbers.allSatisfy({ !$0.signed }) else {
            throw InputError("cannot read position '\(Text.shown(text))': use either a sign or a hemisphere letter, not both")
        }
        let magnitude = try sexagesimal(numbers, text: text, what: "position")
        let axis: Axis = h == "N" || h == "S" ? .latitude : .longitude
        return (axis, h == "S" || h == "W" ? -magnitude : magnitude)
    }

    /// Degrees, then optional minutes and seconds. Only the last part may have a fraction.
    static func sexagesimal(_ parts: [AngleTokens.Number], text: String, what: String) throws(InputError) -> Double {
        guard (1...3).contains(parts.count) else {
            throw InputError("cannot read \(what) '\(Text.shown(text))': give degrees, then minutes (and seconds)")
        }
        for (i, part) in parts.enumerated() {
            if i < parts.count - 1, part.value != part.value.rounded() {
                throw InputError("cannot read \(what) '\(Text.shown(text))': only the last part may have a decimal fraction, as in 27 22.84")
            }
            if i > 0, part.signed || part.value >= 60 {
                throw InputError("cannot read \(what) '\(Text.shown(text))': minutes and seconds must be under 60, not \(plain(part.value))")
            }
        }
        let sign: Double = parts[0].value.sign == .minus ? -1 : 1
        var magnitude = abs(parts[0].value)
        if parts.count > 1 { magnitude += parts[1].value / 60 }
        if parts.count > 2 { magnitude += parts[2].value / 3600 }
        return sign * magnitude
    }
}

/// A sextant angle such as Hs, in degrees.
public enum SextantAngle {
    static let forms = "`34 12.3` (degrees, minutes), `34°12'.3` or `34.205`"

    /// Reads `34 12.3`, `34°12'.3`, `34° 12.3'` or `34.205`, in `range` (0° to 180°, nil
    /// for no check); a refusal names the field as `what` (Hs, `--ho`, the page's Ho).
    public static func parse(_ text: String, what: String = "Hs", range: ClosedRange<Double>? = 0...180) throws(InputError) -> Double {
        let tokens = try AngleTokens(text, what: what, forms: forms).tokens
        let numbers = tokens.compactMap(\.number)
        guard numbers.count == tokens.count else {
            // `1e308` reads as 1, then E: a number in exponent form, not a hemisphere.
            let exponent = text.contains(/[0-9][eE][+-]?[0-9]/)
            throw InputError("cannot read \(what) '\(Text.shown(text))': "
                + (exponent ? "write the altitude as a plain number, not in exponent form; " : "an altitude has no N/S/E/W; ") + "write it as \(forms)")
        }
        let value = try Position.sexagesimal(numbers, text: text, what: what)
        if let range, !range.contains(value) {
            throw InputError("\(what) \(Position.plain(value))° is out of range: it must be between \(Position.plain(range.lowerBound))° and \(Position.plain(range.upperBound))°")
        }
        return value
    }

    /// `34° 12'.3`: degrees and minutes to the tenth.
    public static func format(_ degrees: Double) -> String {
        let tenths = Int((abs(degrees) * 600).rounded())
        let sign = degrees < 0 && tenths != 0 ? "-" : ""
        return "\(sign)\(tenths / 600)° \(pad(tenths % 600 / 10))'.\(tenths % 10)"
    }
}

/// The tokens of an angle as written: numbers and hemisphere letters.
struct AngleTokens {
    struct Number {
        var value: Double
        var signed: Bool
    }

    enum Token {
        case number(Number)
        case hemisphere(Character)
        var number: Number? { if case .number(let n) = self { n } else { nil } }
        var hemisphere: Character? { if case .hemisphere(let h) = self { h } else { nil } }
    }

    var tokens: [Token] = []

    init(_ text: String, what: String, forms: String) throws(InputError) {
        // `22'.84` is 22.84 minutes: the minute mark stands before the decimal point.
        var s = text
        for mark in ["'", "′", "’"] { s = s.replacing(mark + ".", with: ".") }
        var current = ""
        func flush() throws(InputError) {
            guard !current.isEmpty else { return }
            defer { current = "" }
            let signed = current.hasPrefix("-") || current.hasPrefix("+")
            guard let v = Double(current), v.isFinite,
                  current.filter({ $0 == "." }).count <= 1, current.last != "." else {
                throw InputError("cannot read \(what) '\(Text.shown(text))': '\(Text.shown(current))' is not a number; write it as \(forms)")
            }
            tokens.append(.number(Number(value: v, signed: signed)))
        }
        for ch in s {
            if ch.isASCIIDigit || ch == "." || ((ch == "-" || ch == "+") && current.isEmpty) {
                current.append(ch)
            } else if "NSEWnsew".contains(ch) {
                try flush()
                tokens.append(.hemisphere(Character(ch.uppercased())))
            } else if ch.isWhitespace || "°º'′’\"″”,;".contains(ch) {
                try flush()
            } else {
                throw InputError("cannot read \(what) '\(Text.shown(text))': unexpected '\(Text.escaped(String(ch)))'; write it as \(forms)")
            }
        }
        try flush()
        guard !tokens.isEmpty else { throw InputError("cannot read \(what): it is empty; write it as \(forms)") }
    }
}
