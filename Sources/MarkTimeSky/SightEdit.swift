import MarkTimeCore

extension SightEdit {
    /// Sets the body from a navigator's text, stored by its almanac name ("vega" → "Vega");
    /// empty clears it; an unknown body is refused with the nearest names.
    public mutating func setBody(_ text: String) throws(InputError) {
        body = text.trimmingWhitespace().isEmpty ? .clear : .set(try Body.parse(text).name)
    }
}

/// A sight's navigator fields as text, the way `marktime sight edit` and the phone page's
/// form take them: `nil` leaves a field alone, empty text clears it.
public struct SightEditText: Hashable, Sendable {
    public var body, limb, hs, ie, eyeHeight, temp, pressure, dr, note: String?

    public init(body: String? = nil, limb: String? = nil, hs: String? = nil, ie: String? = nil, eyeHeight: String? = nil,
                temp: String? = nil, pressure: String? = nil, dr: String? = nil, note: String? = nil) {
        (self.body, self.limb, self.hs, self.ie, self.eyeHeight) = (body, limb, hs, ie, eyeHeight)
        (self.temp, self.pressure, self.dr, self.note) = (temp, pressure, dr, note)
    }

    /// The fields of `sight` in the form they are read back in: what an edit form shows.
    public init(showing s: Sight) {
        self.init(body: s.body ?? "", limb: s.limb?.rawValue ?? "", hs: s.hs.map(SextantAngle.format) ?? "",
                  ie: s.indexError.map(Position.plain) ?? "", eyeHeight: s.eyeHeight.map(Position.plain) ?? "",
                  temp: s.temperature.map(Position.plain) ?? "", pressure: s.pressure.map(Position.plain) ?? "",
                  dr: s.dr?.ddm ?? "", note: s.note ?? "")
    }

    /// Only the fields that differ from `shown` (a whole form sent back changes only what was typed).
    public func changed(from shown: SightEditText) -> SightEditText {
        func diff(_ a: String?, _ b: String?) -> String? {
            guard let a else { return nil }
            return a.trimmingWhitespace() == (b ?? "").trimmingWhitespace() ? nil : a
        }
        return SightEditText(body: diff(body, shown.body), limb: diff(limb, shown.limb), hs: diff(hs, shown.hs), ie: diff(ie, shown.ie),
                             eyeHeight: diff(eyeHeight, shown.eyeHeight), temp: diff(temp, shown.temp),
                             pressure: diff(pressure, shown.pressure), dr: diff(dr, shown.dr), note: diff(note, shown.note))
    }
}

extension SightEdit {
    /// Every value parsed and checked, before the store is touched; `clear` names fields to
    /// clear. The phone page's form clears a field sent back empty (`emptyClears`); the
    /// command line refuses an empty value and names `--clear` instead. A field both set
    /// and cleared is refused.
    public init(_ text: SightEditText, clear: [String] = [], emptyClears: Bool = true) throws(InputError) {
        self.init()
        let given: [(field: String, value: String?)] = [("body", text.body), ("limb", text.limb), ("hs", text.hs), ("ie", text.ie),
                                                         ("eye-height", text.eyeHeight), ("temp", text.temp), ("pressure", text.pressure),
                                                         ("dr", text.dr), ("note", text.note)]
        for field in clear {
            try self.clear(field)
            if given.contains(where: { $0.field == field.lowercased() && $0.value != nil }) {
                throw InputError("--clear \(field.lowercased()) and --\(field.lowercased()) contradict each other: give one of them")
            }
        }
        if !emptyClears, let empty = given.first(where: { $0.value.map { $0.trimmingWhitespace().isEmpty } ?? false }) {
            throw InputError("--\(empty.field) is empty: give a value, or `--clear \(empty.field)` to clear the field")
        }
        func field<V>(_ value: String?, _ parse: (String) throws(InputError) -> V) throws(InputError) -> FieldChange<V> {
            guard let value else { return .keep }
            return value.trimmingWhitespace().isEmpty ? .clear : .set(try parse(value))
        }
        if let b = text.body { try setBody(b) }
        if text.limb != nil { limb = try field(text.limb) { (t: String) throws(InputError) in try Limb.parse(t) } }
        if text.hs != nil { hs = try field(text.hs) { (t: String) throws(InputError) in try SextantAngle.parse(t) } }
        if text.ie != nil { indexError = try field(text.ie) { (t: String) throws(InputError) in try SightField.indexError(t) } }
        if text.eyeHeight != nil { eyeHeight = try field(text.eyeHeight) { (t: String) throws(InputError) in try SightField.eyeHeight(t) } }
        if text.temp != nil { temperature = try field(text.temp) { (t: String) throws(InputError) in try SightField.temperature(t) } }
        if text.pressure != nil { pressure = try field(text.pressure) { (t: String) throws(InputError) in try SightField.pressure(t) } }
        if text.dr != nil { dr = try field(text.dr) { (t: String) throws(InputError) in try Position.parse(t) } }
        if let n = text.note { note = n.isEmpty ? .clear : .set(n) }
    }
}
