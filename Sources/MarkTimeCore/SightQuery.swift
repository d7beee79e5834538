/// Which sights a listing wants.
public struct SightQuery: Sendable {
    /// Refuses a range that ends before it starts: nothing could match.
    public func check() throws(InputError) {
        if let since, let until, until < since {
            throw InputError("the range ends (\(until.iso8601)) before it starts (\(since.iso8601)), so no sight can match: swap --since and --until")
        }
    }

    /// Refuses a list of sight IDs that names one sight more than once: a sight counts once
    /// in a reduction, an average or a fix (`average 4 4 4` would weigh one sight three times).
    public static func checkDistinct(_ ids: [Int64]) throws(InputError) {
        var seen: [Int64: Int] = [:]
        for id in ids { seen[id, default: 0] += 1 }
        let repeated = ids.filter { seen[$0]! > 1 }.reduce(into: [Int64]()) { if !$0.contains($1) { $0.append($1) } }
        guard let first = repeated.first else { return }
        let named = repeated.count == 1
            ? "sight \(first) is given \(seen[first]! == 2 ? "twice" : "\(seen[first]!) times")"
            : "sights \(repeated.prefix(5).map(String.init).joined(separator: ", "))\(repeated.count > 5 ? ", …" : "") are given more than once"
        throw InputError("\(named): a sight counts once in a reduction, an average or a fix; give each ID once")
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
