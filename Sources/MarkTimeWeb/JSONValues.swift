import Foundation
import MarkTimeCore

extension JSON {
    /// The page's values (the dictionaries its templates take) as the one JSON writer
    /// writes them, keys sorted: strings, numbers, booleans, arrays, dictionaries and
    /// `NSNull`; anything else is written as its description.
    init(any value: Any) {
        switch value {
        case let b as Bool: self = .bool(b)
        case let i as Int: self = .int(Int64(i))
        case let i as Int64: self = .int(i)
        case let i as Int32: self = .int(Int64(i))
        case let d as Double: self = .number(d)
        case let s as String: self = .string(s)
        case let s as Substring: self = .string(String(s))
        case let a as [Any]: self = .array(a.map { JSON(any: $0) })
        case let o as [String: Any]: self = .object(o.keys.sorted().map { ($0, JSON(any: o[$0]!)) })
        case is NSNull: self = .null
        default: self = .string("\(value)")
        }
    }
}

/// Text made safe inside HTML, as the templates escape it (`&`, `<`, `>`, `"`, `'`).
enum HTML {
    static func escaped(_ text: String) -> String { Text.markup(text) }
}
