import MarkTimeCore

/// The tz database's names: its zones, and the links (old or alternative names)
/// that point at them. Turns what a user types into a canonical identifier.
public struct ZoneCatalogue: Sendable {
    /// Canonical identifiers: `Asia/Kolkata`.
    public private(set) var zones: Set<String>
    /// Alias → target: `Asia/Calcutta` → `Asia/Kolkata`.
    public private(set) var links: [String: String]
    /// Each zone's principal city, from `zone1970.tab`.
    public private(set) var coordinates: [String: Position]

    public init(zones: Set<String>, links: [String: String], coordinates: [String: Position] = [:]) {
        self.zones = zones
        self.links = links
        self.coordinates = coordinates
    }

    /// Adds the zones' coordinates from the tz database's `zone1970.tab`.
    public mutating func readCoordinates(zone1970Tab text: String) {
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            if f.count >= 3, let p = Self.position(iso6709: f[1]) { coordinates[String(f[2])] = p }
        }
    }

    /// The zone's city position, following links; nil for zones without a place.
    public func position(of identifier: String) -> Position? {
        canonical(identifier).flatMap { coordinates[$0] }
    }

    /// ISO 6709 as `zone1970.tab` writes it: `±DDMM±DDDMM` or `±DDMMSS±DDDMMSS`.
    static func position<S: StringProtocol>(iso6709 text: S) -> Position? {
        let chars = Array(text)
        guard let split = chars.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        func angle(_ part: ArraySlice<Character>, degreeDigits: Int) -> Double? {
            guard let sign = part.first, sign == "+" || sign == "-" else { return nil }
            let digits = part.dropFirst()
            guard digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4, digits.allSatisfy(\.isASCII),
                  digits.allSatisfy(\.isNumber) else { return nil }
            let d = Array(digits).map { Double(String($0))! }
            func number(_ r: Range<Int>) -> Double { r.reduce(0) { $0 * 10 + d[$1] } }
            let value = number(0..<degreeDigits) + number(degreeDigits..<degreeDigits + 2) / 60
                + (d.count > degreeDigits + 2 ? number(degreeDigits + 2..<degreeDigits + 4) / 3600 : 0)
            return sign == "-" ? -value : value
        }
        guard let lat = angle(chars[..<split], degreeDigits: 2), let lon = angle(chars[split...], degreeDigits: 3) else { return nil }
        return try? Position(latitude: lat, longitude: lon)
    }

    /// Reads the tz database's `tzdata.zi`: `Z NAME …` lines are zones, `L TARGET ALIAS` links.
    public init(tzdataZi text: String) {
        var zones: Set<String> = [], links: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            if f.count >= 2, f[0] == "Z" { zones.insert(String(f[1])) }
            if f.count >= 3, f[0] == "L" { links[String(f[2])] = String(f[1]) }
        }
        self.init(zones: zones, links: links)
    }

    /// Follows links to a zone; `nil` for a name the database does not have.
    public func canonical(_ identifier: String) -> String? {
        var name = identifier, hops = 0
        while !zones.contains(name) {
            guard let next = links[name], hops < 8 else { return nil }
            name = next
            hops += 1
        }
        return name
    }

    /// Every identifier: zones and links.
    var allNames: [String] { Array(zones) + Array(links.keys) }

    /// `new york`, `New_York`, ` NEW  YORK ` → `new_york`.
    static func key(_ text: String) -> String {
        text.trimmingWhitespace().lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "_")
    }

    /// The city part of an identifier: `America/Argentina/Buenos_Aires` → `Buenos Aires`.
    public static func city(_ identifier: String) -> String {
        String(identifier.split(separator: "/").last ?? Substring(identifier)).replacingUnderscores()
    }

    /// The canonical zone for an identifier (any case), an old name, or a city name.
    public func resolve(_ query: String) throws(InputError) -> String {
        let q = Self.key(query)
        guard !q.isEmpty else { throw InputError("give a city or a tz identifier, e.g. Brisbane or America/New_York") }
        if let exact = allNames.first(where: { Self.key($0) == q }), let zone = canonical(exact) { return zone }
        let byCity = Set(allNames.filter { Self.key(Self.city($0)) == q }.compactMap(canonical))
        if byCity.count == 1 { return byCity.first! }
        if byCity.count > 1 {
            throw InputError("'\(query)' could be \(byCity.sorted().joined(separator: ", ")): give the identifier")
        }
        let near = suggestions(for: query)
        throw InputError("no time zone matches '\(query)'"
            + (near.isEmpty ? "" : "; did you mean \(near.joined(separator: ", "))?")
            + " (`marktime people zones TEXT` searches the list)")
    }

    /// Up to `limit` canonical zones close to `query`: names containing it first,
    /// then by edit distance of the city name.
    public func suggestions(for query: String, limit: Int = 3) -> [String] {
        let q = Self.key(query)
        var best: [String: Int] = [:]
        for name in allNames {
            guard let zone = canonical(name) else { continue }
            let key = Self.key(name), city = Self.key(Self.city(name))
            let score = key.contains(q) ? 0 : 1 + Text.editDistance(q, city)
            if score < best[zone] ?? .max { best[zone] = score }
        }
        let cutoff = max(2, q.count / 2)
        return best.filter { $0.value <= cutoff + 1 }
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(limit).map(\.key)
    }

    /// Canonical zones whose identifier or an alias contains `text`, sorted.
    public func search(_ text: String) -> [String] {
        let q = Self.key(text)
        return Set(allNames.filter { q.isEmpty || Self.key($0).contains(q) }.compactMap(canonical)).sorted()
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}
