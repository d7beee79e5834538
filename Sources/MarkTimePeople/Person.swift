import MarkTimeCore

/// Someone ashore, placed in a canonical tz zone.
public struct Person: Hashable, Sendable {
    public var id: Int64?
    public var name: String
    /// Canonical tz identifier: `Asia/Kolkata`.
    public var zone: String
    public var selected: Bool

    public init(name: String, zone: String, selected: Bool = true) {
        self.name = name
        self.zone = zone
        self.selected = selected
    }
}

extension Person {
    /// A person to add: `name` trimmed, refused when blank or holding control characters.
    public static func checked(name: String, zone: String) throws(InputError) -> Person {
        Person(name: try checkedName(name), zone: zone)
    }

    /// A person's name as it is kept: trimmed, refused when blank or holding control characters.
    public static func checkedName(_ name: String) throws(InputError) -> String {
        try Text.name(name, what: "a person", example: "Mum")
    }
}
