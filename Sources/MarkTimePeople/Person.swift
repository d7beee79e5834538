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
