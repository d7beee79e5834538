import MarkTimeCore

/// Why argument-parser refused a command line, when the cause is a value it read as an
/// option (`-12.5`, `-2h`) or an option marktime does not have (`--lon`): its first line,
/// said again with the cause and the fix. Only how a command line is read; no rule.
enum ParseHint {
    /// The first line of a parse error, with the hint that fits it; nil when none fits.
    /// `usage` is the whole message, whose usage line says which options the command has.
    static func line(_ first: String, arguments: [String], usage: String) -> String? {
        if let word = quoted(first, after: "Unknown option '") {
            if ["--lat", "--lon", "--long", "--latitude", "--longitude"].contains(word), usage.contains("--position") {
                return "Error: there is no \(word): give the position as one value, e.g. --position \"50 10.5 N 004 20.0 W\", "
                    + "or in signed decimal degrees --position \"50.175 -4.333\" (south and west negative)"
            }
            guard looksNegative(word) else { return nil }
            // Its guess at an option meant ("Did you mean '--at'?") is no help for a value.
            let head = first.components(separatedBy: ". Did you mean").first ?? first
            return head + ": " + (unquoted(word, arguments).map { "'\(word)' was read as an option; " + $0 } ?? positional(word))
        }
        if let word = quoted(first, after: "Unexpected argument '"), let hint = unquoted(word, arguments) {
            return first + ": " + hint
        }
        if let option = quoted(first, after: "Missing value for '")?.split(separator: " ").first.map(String.init),
           let at = arguments.firstIndex(of: option), at + 1 < arguments.count, looksNegative(arguments[at + 1]) {
            let value = arguments[at + 1]
            return first + ": '\(value)' was read as an option; give a value that starts with - after =, e.g. \(option)=\(value)"
        }
        if first.contains("Missing expected argument"), let word = arguments.first(where: looksNegative) {
            return first + ": " + positional(word)
        }
        return nil
    }

    /// `-1`, `-0.5`, `-12.5`, `-2h`, `-10:00`: a word that starts with - and a digit, which
    /// argument-parser takes for an option.
    static func looksNegative(_ word: String) -> Bool {
        let rest = word.dropFirst()
        return word.hasPrefix("-") && (rest.first?.isASCIIDigit == true || (rest.first == "." && rest.dropFirst().first?.isASCIIDigit == true))
    }

    /// An option's name, not a negative value.
    static func isOption(_ word: String) -> Bool { word.hasPrefix("-") && word.count > 1 && !looksNegative(word) }

    /// The hint for a value of several words given unquoted, one of them negative
    /// (`--position -50 -12.5`): the option with its words quoted as one.
    static func unquoted(_ word: String, _ arguments: [String]) -> String? {
        guard let at = arguments.firstIndex(of: word), let option = arguments[..<at].lastIndex(where: isOption) else { return nil }
        var end = at + 1
        while end < arguments.count, !isOption(arguments[end]) { end += 1 }
        let words = arguments[(option + 1)..<end]
        guard words.count >= 2, words.contains(where: looksNegative) else { return nil }
        return "a value with a space is one argument: quote it, e.g. \(arguments[option]) \"\(words.joined(separator: " "))\""
    }

    /// The hint for a negative word where an ID or a count was expected.
    static func positional(_ word: String) -> String {
        "'\(word)' was read as an option; an id or a count is a whole number from 1 up, and a negative value goes after its option (--ie -1.5)"
    }

    /// The text between `prefix` and the next `'` in `line`.
    static func quoted(_ line: String, after prefix: String) -> String? {
        guard let start = line.range(of: prefix)?.upperBound, let end = line[start...].firstIndex(of: "'") else { return nil }
        return String(line[start..<end])
    }
}
