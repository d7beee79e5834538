import MarkTimeCore

extension SightEdit {
    /// Sets the body from a navigator's text, stored by its almanac name ("vega" → "Vega");
    /// empty clears it; an unknown body is refused with the nearest names.
    public mutating func setBody(_ text: String) throws(InputError) {
        body = text.trimmingWhitespace().isEmpty ? .clear : .set(try Body.parse(text).name)
    }
}
