import MarkTimeCore

/// What the places need of a store: places kept under names unique without case, each
/// change in one transaction with the members and history it touches. It keeps;
/// `PlaceBook` checks and tells the daemon. MarkTimeStore's `AppDatabase` is the one on SQLite.
public protocol PlaceRepository: Sendable {
    /// Keeps a new place; refused when one of that name (in any case) exists.
    func addPlace(_ place: Place, now: UTCTime) throws
    /// Removes a place; members at it become "unknown", their history stays.
    func removePlace(named name: String) throws
    /// Renames a place everywhere: the place, members at it or entering it, and its history.
    func renamePlace(_ old: String, to new: String) throws
}

/// The boat's and the family's places over a `PlaceRepository`: each change that was kept
/// rings the daemon, whose share service then sends the waypoints again. A refused change
/// rings nothing.
public struct PlaceBook<Repository: PlaceRepository>: Sendable {
    public let repository: Repository
    let bell: any DaemonBell

    public init(_ repository: Repository, bell: any DaemonBell) {
        self.repository = repository
        self.bell = bell
    }

    public func add(_ place: Place, now: UTCTime) throws {
        try repository.addPlace(place, now: now)
        bell.ring(.placesChanged)
    }

    public func remove(named name: String) throws {
        try repository.removePlace(named: name)
        bell.ring(.placesChanged)
    }

    /// Renames a place; the new name is checked as a new place's is. The name as kept.
    @discardableResult
    public func rename(_ old: String, to new: String) throws -> String {
        let name = try Text.name(new, what: "a place", example: "Home")
        try repository.renamePlace(old, to: name)
        bell.ring(.placesChanged)
        return name
    }
}
