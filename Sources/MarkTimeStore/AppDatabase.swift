import Foundation
import GRDB
import GRDBSQLite
import MarkTimeCore
import MarkTimeSystem

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
    /// The sight insert, prepared once on the writer's connection. Only touched inside a
    /// write, which GRDB runs on that connection's one serial queue.
    nonisolated(unsafe) var sightInsert: (connection: ObjectIdentifier, statement: Statement)?

    /// Opens (creating if needed) the store at `path`. With `createDirectory`,
    /// missing parent folders are made; otherwise they must exist.
    public convenience init(path: String, createDirectory: Bool) throws(StoreError) {
        try Self.checkPath(path)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            guard createDirectory else {
                throw .cannotOpen(path: path, reason: "folder \(folder) does not exist; create it, or choose another store with --store")
            }
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw .cannotOpen(path: path, reason: "cannot create folder \(folder): \(Files.reason(error))")
            }
        }
        let pool = try Self.opening(path) { try Self.openPool(path: path) }
        try self.init(path: path, writer: pool)
    }

    /// Opens the store at `path` for reading only, so that a user who may read the file but
    /// not write it can list and export. Migrations still pending are made first when the
    /// file may be written; a path with no file yet, or an empty file, reads as an empty
    /// store and creates nothing.
    public static func reading(path: String) throws(StoreError) -> AppDatabase {
        try checkPath(path)
        guard FileManager.default.fileExists(atPath: path), !isEmptyFile(path) else {
            let folder = (path as NSString).deletingLastPathComponent
            guard folder.isEmpty || FileManager.default.fileExists(atPath: folder) else {
                throw .cannotOpen(path: path, reason: "there is no store: folder \(folder) does not exist; check --store or MARKTIME_STORE")
            }
            // No file, or an empty one that no one has begun to make a store of: an empty
            // store in memory under the file's name, and the file is left as it is (only a
            // command that writes makes it a store).
            do { return try AppDatabase(path: path, writer: DatabaseQueue(configuration: configuration())) } catch {
                throw StoreError.wrap(error, path: path)
            }
        }
        // A user who may write the store brings it up to date first (another process may be
        // creating it this moment; the writable open waits for that).
        let folder = (path as NSString).deletingLastPathComponent
        if Files.isWritable(path), Files.isWritable(folder) {
            _ = try AppDatabase(path: path, createDirectory: false)
        }
        return try opening(path) {
            // A reader needs the -shm file beside the store. While a writer has the store
            // open it exists; when none has and the folder may not be written, read the
            // file as immutable: with WAL, writers only touch it at a checkpoint.
            let queue: DatabaseQueue
            do {
                let shared = try readOnlyQueue(path: path, immutable: false)
                _ = try shared.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
                queue = shared
            } catch let error as DatabaseError where [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode) {
                queue = try readOnlyQueue(path: path, immutable: true)
            }
            return try AppDatabase(path: path, writer: queue)
        }
    }

    static func readOnlyQueue(path: String, immutable: Bool) throws -> DatabaseQueue {
        var config = configuration()
        config.readonly = true
        if immutable {
            var uri = URLComponents()
            uri.scheme = "file"
            uri.path = URL(fileURLWithPath: path).path
            uri.queryItems = [URLQueryItem(name: "immutable", value: "1")]
            return try DatabaseQueue(path: uri.string ?? path, configuration: config)
        }
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// Whether `path` is a file of no bytes with no `-wal` beside it: no store yet, and
    /// no process making one (SQLite writes the header when it turns on WAL).
    static func isEmptyFile(_ path: String) -> Bool {
        FileKind(path) == .regular(size: 0) && FileKind(path + "-wal") == .missing
    }

    /// Refuses a path that is empty, a folder, a FIFO, device or socket, or a symbolic link
    /// that goes round in a loop. A file that is not SQLite is refused by SQLite's own open
    /// (`opening`); another program's SQLite file once open.
    ///
    /// It never opens the file itself: closing any descriptor on a file drops every POSIX
    /// lock this process holds on it, among them the shared lock of a connection already
    /// open here, and another process's last close would then checkpoint and delete the
    /// WAL under that connection (sqlite.org/howtocorrupt.html, 2.2).
    static func checkPath(_ path: String) throws(StoreError) {
        guard !path.trimmingWhitespace().isEmpty else {
            throw .cannotOpen(path: "''", reason: "the store path is empty; give a file with --store PATH, or unset MARKTIME_STORE")
        }
        guard !path.hasSuffix("/") || path == "/" else {
            throw .cannotOpen(path: path, reason: "a store path cannot end with /; give the file, e.g. --store \(path.trimmingCharacters(in: ["/"]).isEmpty ? "marktime.sqlite" : "/" + path.trimmingCharacters(in: ["/"]))")
        }
        // SQLite keeps `NAME-wal` and `NAME-shm` beside the store: those names must fit too.
        if (path as NSString).lastPathComponent.utf8.count + 4 > NAME_MAX {
            throw .cannotOpen(path: path, reason: "its name is too long: SQLite keeps a -wal and a -shm file beside it, so a store's name may have "
                + "at most \(NAME_MAX - 4) bytes; give a shorter one with --store")
        }
        switch FileKind(path) {
        // A link whose target does not exist yet is a new store; one that loops is none.
        case .missing, .regular, .unknown: return
        case .loop:
            throw .cannotOpen(path: path, reason: "its symbolic links go round in a loop; point the link at the store file, or give another with --store")
        case .nameTooLong:
            throw .cannotOpen(path: path, reason: "its name is too long (\(FileKind.nameLimits)); give a shorter one with --store")
        case .folder:
            throw .cannotOpen(path: path, reason: "it is a folder; give the store file inside it, e.g. --store \((path as NSString).appendingPathComponent("marktime.sqlite"))")
        case let kind:
            throw .cannotOpen(path: path, reason: "it is \(kind.named), not a file: a store is a regular file; give one with --store, e.g. --store marktime.sqlite")
        }
    }

    /// Runs an open of the store at `path`, naming a file that is not SQLite. Only when
    /// SQLite has refused the file is its header read, to say why: no connection of this
    /// process can then hold a lock on it.
    static func opening<T>(_ path: String, _ open: () throws -> T) throws(StoreError) -> T {
        do { return try open() } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            let head = FileHandle(forReadingAtPath: path).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 16)
            } ?? Data()
            if head.count > 0, head != Data("SQLite format 3\u{0}".utf8) {
                throw .corrupt(path: path, reason: "it does not start with the SQLite header")
            }
            throw StoreError.wrap(error, path: path)
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Opens the pool, retrying for up to the busy timeout while another process holds
    /// a lock that SQLite will not wait for: two first opens of a new file both switch it
    /// to WAL, and the loser of that race gets SQLITE_BUSY at once.
    static func openPool(path: String) throws -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
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
            let (superseded, applied, tables) = try writer.read { db in
                (try migrator.hasBeenSuperseded(db), try migrator.appliedIdentifiers(db),
                 try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"))
            }
            // GRDB makes grdb_migrations before the first migration commits, so a store a
            // moment old may hold that table alone.
            if !tables.isEmpty, !tables.contains("grdb_migrations") || !applied.isEmpty && !applied.contains(Self.migrationNames[0]) {
                throw StoreError.foreign(path: path, tables: tables)
            }
            if superseded {
                let known = Set(Self.migrationNames)
                unknownMigrations = applied.filter { !known.contains($0) }.sorted()
            } else {
                unknownMigrations = []
                if applied.count < Self.migrationNames.count {
                    guard !writer.configuration.readonly else { throw StoreError.needsUpgrade(path: path) }
                    try Self.migrate(writer, with: migrator)
                    // The reader that read the applied migrations above would go on decoding
                    // the old columns of a table a migration changed (GRDB: "column not
                    // found" on the first read after adding one): readers start anew.
                    (writer as? DatabasePool)?.invalidateReadOnlyConnections()
                }
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Refuses a database whose tables are not marktime's: tables without GRDB's
    /// migrations table, or with migrations that do not start with marktime's first.
    static func identify(_ db: Database) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        guard !tables.isEmpty else { return }
        let first = tables.contains("grdb_migrations")
            ? try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid LIMIT 1") : "none"
        if first.map({ $0 != migrationNames[0] }) ?? false {
            throw StoreError.foreign(path: sqlite3_db_filename(db.sqliteConnection, "main").map { String(cString: $0) } ?? "", tables: tables)
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

    /// How long a write waits for another process's write lock (seconds): marktime's own
    /// transactions take milliseconds, so a lock held longer is reported with its holder.
    public static let busyTimeout: TimeInterval = 2

    static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.prepareDatabase { db in
            // Before anything can change the file (GRDB's pool switches it to WAL next, for
            // good): another program's SQLite file is refused as it is.
            if !db.configuration.readonly { try identify(db) }
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A persistent WAL: the last connection to close checkpoints it but keeps the file
            // (see `reserveWAL`).
            if !db.configuration.readonly {
                var persist: CInt = 1
                let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
                // An in-memory store has no file to keep.
                guard code == SQLITE_OK || code == SQLITE_NOTFOUND else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            }
        }
        return config
    }

    /// A write transaction, refused when the file belongs to a newer schema.
    func write<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        guard unknownMigrations.isEmpty else { throw .newerSchema(path: path, unknown: unknownMigrations) }
        do { return try writer.write(updates) } catch { throw StoreError.wrap(error, path: path) }
    }

    /// Runs `body` with the share service's writes (`ShareBatch`) inside one transaction,
    /// committed once at the end: many small writes at the cost of one. Each write is a
    /// savepoint, so one that fails undoes only itself. Not `synced`, the commit is written
    /// but not synced (SQLite's `synchronous=NORMAL` in WAL mode): a crash of the process
    /// loses nothing, a power cut may lose it until the next synced commit (any sight's) or
    /// checkpoint. Returns the commit's error; what `body` wrote is then undone.
    public func batch(synced: Bool = true, _ body: (ShareBatch) -> Void) throws(StoreError) {
        guard unknownMigrations.isEmpty else { throw .newerSchema(path: path, unknown: unknownMigrations) }
        do {
            try writer.writeWithoutTransaction { db in
                if !synced { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
                defer { if !synced { try? db.execute(sql: "PRAGMA synchronous = FULL") } }
                let lifetime = ShareBatch.Lifetime()
                defer { lifetime.open.withLock { $0 = false } }
                try db.inTransaction(.immediate) {
                    body(ShareBatch(db: db, path: path, lifetime: lifetime))
                    return .commit
                }
            }
        } catch { throw StoreError.wrap(error, path: path) }
    }

    /// Writes outside an explicit transaction, refused as `write` is: each statement is
    /// its own SQLite autocommit transaction, for a lone statement on a hot path.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        guard unknownMigrations.isEmpty else { throw .newerSchema(path: path, unknown: unknownMigrations) }
        do { return try writer.writeWithoutTransaction(updates) } catch { throw StoreError.wrap(error, path: path) }
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

extension AppDatabase {
    /// The stored spelling of `name` in `table` (matched without case when `caseless`), or
    /// a refusal: `unknown`, then `none` when the table is empty, else `listed` and its names in `order`.
    static func stored(_ name: String, column: String = "name", of table: String, caseless: Bool = true, order: String,
                       _ db: Database, unknown: String, none: String, listed: String) throws -> String {
        let match = caseless ? " COLLATE NOCASE" : ""
        if let found = try String.fetchOne(db, sql: "SELECT \(column) FROM \(table) WHERE \(column) = ?\(match)", arguments: [name]) {
            return found
        }
        let known = try String.fetchAll(db, sql: "SELECT \(column) FROM \(table) ORDER BY \(order)")
        throw StoreError.refused("\(unknown); " + (known.isEmpty ? none : "\(listed): \(known.joined(separator: ", "))"))
    }
}
