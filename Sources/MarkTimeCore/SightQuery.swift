/// Which sights a listing wants.
public struct SightQuery: Sendable {
    /// Refuses a range that ends before it starts: nothing could match.
    public func check() throws(InputError) {
        if let since, let until, until < since {
            throw InputError("the range ends (\(until.iso8601)) before it starts (\(since.iso8601)), so no sight can match: swap --since and --until")
        }
    }

    /// Newest first, at most this many; `nil` for all.
    public var limit: Int?
    /// Inclusive lower bound on UTC.
    public var since: UTCTime?
    /// Exclusive upper bound on UTC.
    public var until: UTCTime?
    /// The archived sights instead of the current ones.
    public var archived = false
    /// Oldest first (for export) instead of newest first.
    public var oldestFirst = false
    /// How many of the matching sights to pass over first (a page of a long log).
    public var offset = 0

    public init(limit: Int? = nil, since: UTCTime? = nil, until: UTCTime? = nil, archived: Bool = false, oldestFirst: Bool = false) {
        self.limit = limit
        self.since = since
        self.until = until
        self.archived = archived
        self.oldestFirst = oldestFirst
    }
}
