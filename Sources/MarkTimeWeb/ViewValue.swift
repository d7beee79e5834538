import Foundation
import MarkTimeCore
import Mustache

/// A view model as the templates and the live messages read it: the page's `Encodable`
/// view structs encoded (`ViewValue(encoding:)`) into text, numbers, flags, lists and
/// fields. A field that is nil is left out, so a section on it stays closed and a name
/// inside a section is looked up further out, as Mustache does for a missing key; `null`
/// is a nil encoded on purpose (`encodeNil`), JSON's `null` in a message.
enum ViewValue: Sendable, Equatable {
    case null
    case text(String)
    case int(Int64)
    case number(Double)
    case flag(Bool)
    case list([ViewValue])
    case fields([String: ViewValue])

    /// `view` encoded; a view that is not a struct of fields (or a single value) throws.
    init(encoding view: some Encodable) throws {
        self = try ViewEncoder.encode(view).value ?? .fields([:])
    }

    /// The same, for fields whose view is known to encode (the page's own structs).
    static func of(_ view: some Encodable) -> ViewValue {
        do { return try ViewValue(encoding: view) } catch { return .text("\(error)") }
    }

    /// What Mustache renders: text, numbers and flags as Swift's own values (a flag opens
    /// or closes a section), a list as an array (a section repeats), fields as a parent.
    var mustache: Any {
        switch self {
        case .null: NSNull()
        case .text(let s): s
        case .int(let i): i
        case .number(let d): d
        case .flag(let b): b
        case .list(let items): items.map(\.mustache)
        case .fields: self
        }
    }

    /// As JSON, keys sorted: the live messages and the tools' answers.
    var json: JSON {
        switch self {
        case .null: .null
        case .text(let s): .string(s)
        case .int(let i): .int(i)
        case .number(let d): .from(d)
        case .flag(let b): .bool(b)
        case .list(let items): .array(items.map(\.json))
        case .fields(let fields): .object(fields.keys.sorted().map { ($0, fields[$0]!.json) })
        }
    }

    /// These fields with `other`'s added (a key in both takes `other`'s value).
    func adding(_ other: [String: ViewValue]) -> ViewValue {
        guard case .fields(let fields) = self else { return self }
        return .fields(fields.merging(other) { $1 })
    }

    subscript(key: String) -> ViewValue? {
        guard case .fields(let fields) = self else { return nil }
        return fields[key]
    }
}

extension ViewValue: MustacheParent {
    func child(named name: String) -> Any? { self[name]?.mustache }
}

/// Encodes a view struct into a `ViewValue`: a tree of nodes that each container fills in
/// as the view encodes itself (a nested container's node is in its parent from the start).
private final class ViewEncoder: Encoder {
    final class Node {
        enum Kind {
            case leaf(ViewValue)
            case fields([String: Node])
            case list([Node])
        }

        var kind: Kind?
        init(_ kind: Kind? = nil) { self.kind = kind }

        var value: ViewValue? {
            switch kind {
            case .leaf(let v): v
            case .fields(let fields): .fields(fields.compactMapValues(\.value))
            case .list(let items): .list(items.compactMap(\.value))
            case nil: nil
            }
        }
    }

    let node: Node
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(_ node: Node = Node()) { self.node = node }

    var value: ViewValue? { node.value }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind == nil { node.kind = .fields([:]) }
        return KeyedEncodingContainer(Keyed<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind == nil { node.kind = .list([]) }
        return Unkeyed(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node) }

    /// `value` as a node: a leaf directly, anything else through a nested encoder.
    static func encode(_ value: some Encodable) throws -> Node {
        switch value {
        case let s as String: return Node(.leaf(.text(s)))
        case let b as Bool: return Node(.leaf(.flag(b)))
        case let i as Int: return Node(.leaf(.int(Int64(i))))
        case let i as Int64: return Node(.leaf(.int(i)))
        case let i as Int32: return Node(.leaf(.int(Int64(i))))
        case let d as Double: return Node(.leaf(.number(d)))
        case let i as any BinaryInteger: return Node(.leaf(.int(Int64(clamping: i))))
        case let f as Float: return Node(.leaf(.number(Double(f))))
        default:
            let encoder = ViewEncoder()
            try value.encode(to: encoder)
            return encoder.node
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] = []

        private func set(_ key: Key, _ child: Node) {
            guard case .fields(var fields) = node.kind else { return }
            fields[key.stringValue] = child
            node.kind = .fields(fields)
        }

        mutating func encodeNil(forKey key: Key) throws { set(key, Node(.leaf(.null))) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(key, try ViewEncoder.encode(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Node(.fields([:]))
            set(key, child)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node(.list([]))
            set(key, child)
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> any Encoder { ViewEncoder(node) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { ViewEncoder(node) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] = []
        var count: Int {
            guard case .list(let items) = node.kind else { return 0 }
            return items.count
        }

        private func append(_ child: Node) {
            guard case .list(var items) = node.kind else { return }
            items.append(child)
            node.kind = .list(items)
        }

        mutating func encodeNil() throws { append(Node(.leaf(.null))) }
        mutating func encode(_ value: some Encodable) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Bool) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: String) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Double) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Float) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int8) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int16) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int32) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: Int64) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt8) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt16) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt32) throws { append(try ViewEncoder.encode(value)) }
        mutating func encode(_ value: UInt64) throws { append(try ViewEncoder.encode(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Node(.fields([:]))
            append(child)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node(.list([]))
            append(child)
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> any Encoder { ViewEncoder(node) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] = []

        mutating func encodeNil() throws { node.kind = .leaf(.null) }
        mutating func encode(_ value: some Encodable) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Bool) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: String) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Double) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Float) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Int) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Int8) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Int16) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Int32) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: Int64) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: UInt) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: UInt8) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: UInt16) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: UInt32) throws { node.kind = try ViewEncoder.encode(value).kind }
        mutating func encode(_ value: UInt64) throws { node.kind = try ViewEncoder.encode(value).kind }
    }
}
