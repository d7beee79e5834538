import GRDB

/// Counts the commits that other connections have made visible in the store, as SQLite's
/// `data_version` shows them. A watcher woken by file events needs it: a commit is written
/// to the WAL, synced, and only then made visible through the WAL index, which no file
/// event reports.
public final class CommitWatch: Sendable {
    private let connection: DatabaseQueue

    /// A read-only connection of its own to `store` (`data_version` is per connection).
    public init(_ store: AppDatabase) throws(StoreError) {
        do { connection = try AppDatabase.readOnlyQueue(path: store.path, immutable: false) } catch {
            throw StoreError.wrap(error, path: store.path)
        }
    }

    /// A number that changes whenever another connection's commit has become visible.
    public func version() throws(StoreError) -> Int {
        do { return try connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? 0 } } catch {
            throw StoreError.wrap(error, path: connection.path)
        }
    }
}
