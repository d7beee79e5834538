import Foundation
import GRDB
import MarkTimeCore

/// The marktime store: one SQLite file shared by the daemon and the CLI.
///
/// Every process opens it through a WAL `DatabasePool` with `synchronous=FULL`
/// (a sight that was beeped survives a power cut) and a busy timeout.
/// A store written by a newer marktime is opened for reading only.
public final class AppDatabase: Sendable {
    public let path: String
    let writer: any DatabaseWriter
    /// Migrations in the file that this binary does not know; non-empty means read-only.
    public let unknownMigrations: [String]

    /// Opens (creating if needed) the store at `path`. With `createDirectory`,
    /// missing parent folders are made; otherwise they must exist.
    public convenience init(path: String, createDirectory: Bool) throws(StoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            guard createDirectory else {
                throw .cannotOpen(path: path, reason: "folder \(folder) does not exist; create it, or choose another store with --store")
            }
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw .cannotOpen(path: path, reason: "cannot create folder \(folder): \(error.localizedDescription)")
            }
        }
        do {
            try self.init(path: path, writer: Self.openPool(path: path))
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Opens the pool, retrying for up to the busy timeout while another process holds
    /// a lock that SQLite will not wait for: two first opens of a new file both switch it
    /// to WAL, and the loser of that race gets SQLITE_BUSY at once.
    static func openPool(path: String) throws -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration())
                // GRDB puts the writer in synchronous=NORMAL when it enables WAL, after
                // prepareDatabase: a commit would then wait for a checkpoint to be durable,
                // and a power cut loses sights that were beeped. FULL syncs every commit.
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.05))
            }
        }
    }

    /// A private in-memory store, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(path: ":memory:", writer: DatabaseQueue(configuration: configuration()))
    }

    init(path: String, writer: any DatabaseWriter) throws(StoreError) {
        self.path = path
        self.writer = writer
        do {
            let migrator = Self.migrator
            let (superseded, applied) = try writer.read { db in
                (try migrator.hasBeenSuperseded(db), try migrator.appliedIdentifiers(db))
            }
            if superseded {
                let known = Set(Self.migrationNames)
                unknownMigrations = applied.filter { !known.contains($0) }.sorted()
            } else {
                unknownMigrations = []
                try Self.migrate(writer, with: migrator)
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// GRDB reads the applied migrations before it runs each one in its own
    /// transaction, so two processes opening a new file at once (the daemon and a
    /// CLI command on first boot) can both try "v1", and the later one fails. Such a
    /// failure means the other process committed a migration: try again from what is
    /// now applied, and give up only when an attempt made no progress.
    static func migrate(_ writer: any DatabaseWriter, with migrator: DatabaseMigrator) throws {
        var applied = try writer.read { try migrator.appliedIdentifiers($0) }
        while true {
            do {
                return try migrator.migrate(writer)
            } catch {
                let now = try writer.read { try migrator.appliedIdentifiers($0) }
                guard now.count > applied.count else { throw error }
                applied = now
            }
        }
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return config
    }

    /// A write transaction, refused when the file belongs to a newer schema.
    func write<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        guard unknownMigrations.isEmpty else { throw .newerSchema(path: path, unknown: unknownMigrations) }
        do { return try writer.write(updates) } catch { throw StoreError.wrap(error, path: path) }
    }

    func read<T>(_ value: (Database) throws -> T) throws(StoreError) -> T {
        do { return try writer.read(value) } catch { throw StoreError.wrap(error, path: path) }
    }

    /// `PRAGMA integrity_check`: `ok`, or SQLite's list of problems.
    public func integrityCheck() throws(StoreError) -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }

    /// The writer connection's journal mode and `synchronous` level (2 is FULL).
    public func pragmas() throws(StoreError) -> (journalMode: String, synchronous: Int) {
        do {
            return try writer.writeWithoutTransaction { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?", try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
            }
        } catch { throw StoreError.wrap(error, path: path) }
    }
}
