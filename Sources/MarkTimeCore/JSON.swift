/// A JSON value that keeps its keys in the order written, so script-facing output and
/// the payloads sent to the broker are byte-for-byte predictable.
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func from(_ v: String?) -> JSON { v.map(JSON.string) ?? .null }
    public static func from(_ v: Double?) -> JSON { v.map { $0.isFinite ? .number($0) : .null } ?? .null }
    public static func from(_ v: Int64?) -> JSON { v.map(JSON.int) ?? .null }
    public static func from(_ v: Int?) -> JSON { v.map { .int(Int64($0)) } ?? .null }
    public static func from(_ v: Bool?) -> JSON { v.map(JSON.bool) ?? .null }

    /// On one line, without spaces: a message's payload.
    public var compact: String {
        switch self {
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
        case .object(let fields): return "{" + fields.map { Self.quote($0.0) + ":" + $0.1.compact }.joined(separator: ",") + "}"
        default: return render()
        }
    }

    /// Pretty-printed with two-space indents.
    public func render(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .number(let d): return d.isFinite ? Position.plain(d) : "null"
        case .string(let s): return Self.quote(s)
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { inner + $0.render(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let fields):
            guard !fields.isEmpty else { return "{}" }
            return "{\n" + fields.map { inner + Self.quote($0.0) + ": " + $0.1.render(indent: inner) }.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    public static func quote(_ s: String) -> String {
        let body = Text.replacing(s) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where scalar.value < 0x20:
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: nil
            }
        }
        return "\"" + body + "\""
    }
}
