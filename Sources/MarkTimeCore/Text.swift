/// The rules for text a user gives: names are one clean line; any text is printed safely.
public enum Text {
    /// Levenshtein distance over characters: how far a typed name is from a known one.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let kept = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = kept
            }
        }
        return row[b.count]
    }

    /// True for characters that move the cursor, recolour or clear a terminal, or reorder
    /// the text around them: C0 and C1 controls, DEL, and the bidirectional overrides.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` made safe inside HTML, XML and SVG, as text or a quoted attribute: `&`, `<`,
    /// `>`, `"` and `'` escaped. Text with none of them comes back as it is, found by one
    /// pass over its bytes (the sight log writes thousands of cells a second).
    public static func markup(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.contains(where: isReservedInMarkup) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "&"): out += "&amp;".utf8
                case UInt8(ascii: "<"): out += "&lt;".utf8
                case UInt8(ascii: ">"): out += "&gt;".utf8
                case UInt8(ascii: "\""): out += "&quot;".utf8
                case UInt8(ascii: "'"): out += "&#39;".utf8
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    /// `text` made safe inside markup, as `markup(_:)` of a `String`.
    public static func markup(_ text: Substring) -> String { markup(String(text)) }

    @inline(__always)
    static func isReservedInMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }

    /// `text` with each scalar that `replacement` names replaced by what it returns.
    public static func replacing<S: StringProtocol>(_ text: S, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let r = replacement(scalar) { out += r } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `text` with every control character shown as an escape (`\n`, `\t`, `\u{1B}`), for
    /// tables and terminal lines. The store keeps the text as given.
    public static func escaped<S: StringProtocol>(_ text: S) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var out = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// Whether `text` can be one level of an MQTT topic as OwnTracks uses it (a user or a
    /// device): 1 to 64 characters, none of them `/`, the wildcards `+` and `#`, or a
    /// control character.
    public static func isTopicLevel<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.count <= 64 && !text.unicodeScalars.contains { "/+#".unicodeScalars.contains($0) || isControl($0) }
    }

    /// An error's message as a terminal shows it: each line escaped (`escaped`), each word of
    /// `arguments` (the command line) longer than 80 characters that it echoes cut as `shown`
    /// cuts it (a refusal names a 10,000-character value, it does not print it back whole),
    /// and one final newline.
    public static func errorReport(_ message: String, arguments: [String]) -> String {
        var text = message.split(separator: "\n", omittingEmptySubsequences: false).map { escaped($0) }.joined(separator: "\n")
        for word in Set(arguments) where word.count > 80 {
            for form in [word, escaped(word)] where text.contains(form) {
                text = text.replacing(form, with: shown(word))
            }
        }
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// A user's value as an error shows it: escaped (`escaped`), and cut to 80 characters
    /// with an ellipsis and its length when longer.
    public static func shown<S: StringProtocol>(_ text: S) -> String {
        let e = escaped(text)
        return e.count <= 80 ? e : e.prefix(72) + "… (\(text.count) characters)"
    }

    /// Whether a scalar shows as something: not white space, not a control character, and
    /// not one that is invisible by default (a zero-width space or joiner, a direction mark).
    public static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !isControl(scalar) && !scalar.properties.isDefaultIgnorableCodePoint
            && scalar.properties.generalCategory != .format
    }

    /// The longest name, in characters.
    public static let maximumNameLength = 100

    /// A name (of a place, member, person, course, assignment or task): trimmed, not
    /// empty, at most `maximumNameLength` characters, with no control characters such as
    /// newlines or tabs, which would break every table it appears in. `what` names it
    /// (`a place`), `example` shows a good one.
    public static func name(_ text: String, what: String, example: String) throws(InputError) -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw InputError("\(what) needs a name, e.g. \(example)") }
        guard !trimmed.unicodeScalars.contains(where: isControl) else {
            throw InputError("\(what)'s name '\(escaped(trimmed))' has a control character (a newline, tab or escape): give one line of plain text, e.g. \(example)")
        }
        guard trimmed.unicodeScalars.contains(where: isVisible) else {
            throw InputError("\(what)'s name has no visible character (only spaces or invisible marks such as a zero-width space): give a name, e.g. \(example)")
        }
        guard trimmed.count <= maximumNameLength else {
            throw InputError("\(what)'s name is \(trimmed.count) characters long: give at most \(maximumNameLength), e.g. \(example)")
        }
        return trimmed
    }
}
