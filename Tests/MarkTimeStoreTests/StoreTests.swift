import Foundation
import GRDB
import MarkTimeCore
@testable import MarkTimeStore
import MarkTimeSystem
import Testing

@Suite("The store")
struct StoreTests {
    @Test func migratesFromEmptyInWALWithFullSync() throws {
        // Given no file
        let tmp = TemporaryFolder()
        // When the store is opened
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        // Then it is migrated, in WAL mode with synchronous=FULL (2)
        #expect(db.unknownMigrations == [])
        #expect(try db.pragmas().journalMode == "wal")
        #expect(try db.pragmas().synchronous == 2)
        let tables = try DatabaseQueue(path: tmp.store).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
        #expect(tables == ["account", "anchor_watch", "assignment", "clock_sample", "course", "course_weight", "daemon_status", "grdb_migrations",
                           "input_gap", "invite", "journal", "login_failure", "member", "person", "place", "place_event", "rate_book", "share_outbox", "share_seen", "sight", "sight_memo", "task",
                           "web_session"])
        let applied = try DatabaseQueue(path: tmp.store).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(applied == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21"])
    }

    @Test func processesOpeningANewStoreTogetherAllMigrateIt() async throws {
        // Given fresh files, each opened at once by 6 connections (as the daemon and
        // CLI commands may do on first boot)
        for _ in 0..<10 {
            let tmp = TemporaryFolder()
            let path = tmp.store
            // When they all open it
            let failures = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        do { _ = try AppDatabase(path: path, createDirectory: false); return nil } catch { return "\(error)" }
                    }
                }
                return await group.reduce(into: [String]()) { if let f = $1 { $0.append(f) } }
            }
            // Then every one succeeds, and each migration is applied once
            #expect(failures == [])
            let applied = try await DatabaseQueue(path: tmp.store).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
            #expect(applied == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21"])
        }
    }

    @Test func aNewerSchemaIsReadButNeverWritten() throws {
        // Given a store that a newer marktime migrated to "v99"
        let tmp = TemporaryFolder()
        _ = try AppDatabase(path: tmp.store, createDirectory: false).insert(sight(at: 1))
        try DatabaseQueue(path: tmp.store).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
        }
        // When this binary opens it
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        // Then it still reads, but refuses to write and says why
        #expect(db.unknownMigrations == ["v99"])
        #expect(try db.sights().count == 1)
        #expect(throws: StoreError.self) { try db.insert(sight(at: 2)) }
        do {
            _ = try db.archiveAll(now: UTCTime(nanosecondsSinceEpoch: 0))
        } catch {
            #expect(error.description == "store \(tmp.store) was written by a newer marktime (schema v99); this binary only reads it: upgrade marktime to change it")
        }
        #expect(try db.sightCounts() == (current: 1, archived: 0))
    }

    @Test func aCorruptFileIsNamed() throws {
        // Given a file that is not SQLite
        let tmp = TemporaryFolder()
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: tmp.store))
        // When it is opened, then the error names the file
        do {
            _ = try AppDatabase(path: tmp.store, createDirectory: false)
            Issue.record("a corrupt store opened")
        } catch {
            #expect(error.description == "store \(tmp.store) is not a readable marktime store (it does not start with the SQLite header); move it aside and restore a backup, or choose another with --store")
        }
    }

    @Test func aMissingFolderIsNotCreatedForANamedStore() throws {
        let tmp = TemporaryFolder()
        let path = tmp.path + "/nope/marktime.sqlite"
        #expect(throws: StoreError.self) { try AppDatabase(path: path, createDirectory: false) }
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/nope"))
    }

    @Test func theDefaultFolderIsCreated() throws {
        let tmp = TemporaryFolder()
        let path = tmp.path + "/share/marktime/marktime.sqlite"
        _ = try AppDatabase(path: path, createDirectory: true)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func insertingTheSameKeyDownTwiceStoresOneSight() throws {
        let db = try AppDatabase.inMemory()
        let first = try db.insert(sight(at: 5))
        let retry = try db.insert(sight(at: 5))
        #expect(first.id == 1)
        #expect(retry.id == 1)
        #expect(try db.sightCounts() == (current: 1, archived: 0))
    }

    @Test func aSightRoundTripsEveryField() throws {
        // Given a sight with every field filled
        var s = sight(at: 7)
        s.position = try Position(latitude: -27.2107, longitude: 153.052)
        s.fixMode = 3
        s.fixAge = 0.4
        s.body = "Sun"; s.limb = .lower; s.hs = 34.205; s.indexError = -1.5; s.eyeHeight = 2.4
        s.temperature = 18; s.pressure = 1013.2; s.dr = try Position(latitude: -27.38, longitude: 153.38); s.note = "a, \"b\""
        s.original = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 1), source: .unsynced, uncertainty: nil)
        s.correctedAt = UTCTime(nanosecondsSinceEpoch: 2)
        s.editedAt = UTCTime(nanosecondsSinceEpoch: 3)
        // When it is stored and read back
        let db = try AppDatabase.inMemory()
        let stored = try db.insert(s)
        s.id = stored.id
        // Then nothing is lost
        #expect(try db.sight(id: stored.id!).sight == s)
    }

    @Test func listsNewestFirstWithBounds() throws {
        let db = try AppDatabase.inMemory()
        for t in [10, 20, 30, 40] as [Int64] { _ = try db.insert(sight(at: t)) }
        let since = UTCTime(nanosecondsSinceEpoch: logDay + 20 * second)
        let until = UTCTime(nanosecondsSinceEpoch: logDay + 40 * second)
        #expect(try db.sights(SightQuery(limit: 2)).map(\.instant.nanoseconds) == [40 * second, 30 * second])
        #expect(try db.sights(SightQuery(since: since, until: until)).map(\.instant.nanoseconds) == [30 * second, 20 * second])
        #expect(try db.sights(SightQuery(oldestFirst: true)).map(\.id) == [1, 2, 3, 4])
    }

    @Test func clearArchivesAndRestoreBringsBack() throws {
        // Given three sights
        let db = try AppDatabase.inMemory()
        for t in [1, 2, 3] as [Int64] { _ = try db.insert(sight(at: t)) }
        // When they are cleared
        #expect(try db.archiveAll(now: UTCTime(nanosecondsSinceEpoch: logDay)) == 3)
        // Then none is current, all are archived, and one can still be shown
        #expect(try db.sightCounts() == (current: 0, archived: 3))
        #expect(try db.sights().isEmpty)
        #expect(try db.sights(SightQuery(archived: true)).count == 3)
        #expect(try db.sight(id: 2).archived)
        // When restored, they are all back
        #expect(try db.restoreArchived() == 3)
        #expect(try db.sightCounts() == (current: 3, archived: 0))
    }

    @Test func purgeDeletesCurrentAndArchived() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.insert(sight(at: 1))
        _ = try db.archiveAll(now: UTCTime(nanosecondsSinceEpoch: logDay))
        _ = try db.insert(sight(at: 2))
        #expect(try db.purgeSights() == 2)
        #expect(try db.sightCounts() == (current: 0, archived: 0))
    }

    @Test func editingAnUnknownIdChangesNothing() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.insert(sight(at: 1))
        var edit = SightEdit()
        edit.body = .set("Venus")
        #expect(throws: StoreError.self) { try db.edit(id: 42, edit, now: UTCTime(nanosecondsSinceEpoch: 0)) }
        #expect(try db.sight(id: 1).sight.body == nil)
    }

    @Test func backfillRestampsOnlyThisBootsWeakerSights() throws {
        // Given an unsynced sight in this boot, one in another boot, and one already from PPS
        let db = try AppDatabase.inMemory()
        _ = try db.insert(sight(at: 50, source: .unsynced))
        _ = try db.insert(sight(at: 51, boot: "boot-b", source: .unsynced))
        _ = try db.insert(sight(at: 52, source: .pps))
        var track = ClockTrack(maxSampleAge: 10, driftPPM: 0)
        track.add(ClockSample(source: .pps, monotonicNanoseconds: 60 * second, utc: UTCTime(nanosecondsSinceEpoch: 9 * second), uncertainty: 0.000001))
        // When a PPS sample arrives and backfill runs
        let now = UTCTime(nanosecondsSinceEpoch: 100 * second)
        let changed = try db.backfill(bootID: "boot-a", now: now) { s in
            track.backfill(instant: s.instant.nanoseconds, stored: s.estimate)?.better
        }
        // Then only the first is re-stamped, keeping its first stamp and the correction time
        #expect(changed.map(\.id) == [1])
        let s = try db.sight(id: 1).sight
        #expect(s.estimate.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: -1 * second), source: .pps, uncertainty: 0.000001))
        #expect(s.estimate.provenance?.samples.map(\.monotonicNanoseconds) == [60 * second])
        #expect(s.original?.source == .unsynced)
        #expect(s.original?.utc == UTCTime(nanosecondsSinceEpoch: logDay + 50 * second))
        #expect(s.correctedAt == now)
        #expect(try db.sight(id: 2).sight.estimate.source == .unsynced)
    }

    @Test func theDaemonStatusRoundTrips() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.daemonStatus() == nil)
        let status = DaemonStatus(
            pid: 42, bootID: "boot-a", startedAt: 1 * second, heartbeat: 9 * second,
            clock: ClockSample(source: .gps, monotonicNanoseconds: 8 * second, utc: UTCTime(nanosecondsSinceEpoch: logDay), uncertainty: 0.5),
            fix: Fix(position: try Position(latitude: -27.2107, longitude: 153.052), mode: 3, horizontalError: 12.5,
                     time: UTCTime(nanosecondsSinceEpoch: logDay), receivedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 8 * second)),
            gpsd: "connected localhost:2947", buttonDevice: "/dev/input/marktime", buttonState: "ready", soundState: "ready", stopped: true)
        try db.publish(status)
        try db.publish(status)
        #expect(try db.daemonStatus() == status)
    }
}

@Suite("The store, opened twice in one process")
struct StoreLockTests {
    /// The POSIX lock another process would first run into on `path`'s file, as "READ 1-2"
    /// or "WRITE 1-2" (first and last byte), or nil when none is held. A forked child asks
    /// with F_GETLK, which sees this process's locks in one atomic look; /proc/locks would
    /// not: read page by page while other tests take and drop locks, it can skip a line.
    /// The child calls only C; closing its own descriptor drops no lock of this process.
    static func lock(on path: String) throws -> String? {
        let cPath = strdup(path)!
        defer { free(cPath) }
        var pipeEnds: [Int32] = [0, 0]
        // Each condition a Bool of its own: Swift 6.2's #require takes the call inline for
        // its optional overload and fails to compile.
        let piped: Bool = pipe(&pipeEnds) == 0
        try #require(piped)
        let child = fork()
        let forked: Bool = child >= 0
        try #require(forked)
        if child == 0 {
            var query = flock()
            query.l_type = Int16(F_WRLCK)
            query.l_whence = Int16(SEEK_SET)  // l_start 0, l_len 0: the whole file
            let fd = open(cPath, O_RDONLY)  // F_GETLK asks; it needs no write access
            if fd < 0 || fcntl(fd, F_GETLK, &query) != 0 { _exit(1) }
            _ = write(pipeEnds[1], &query, MemoryLayout<flock>.size)
            _exit(0)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        var answer = flock(), status: Int32 = 0
        let got = read(pipeEnds[0], &answer, MemoryLayout<flock>.size)
        waitpid(child, &status, 0)
        try #require(got == MemoryLayout<flock>.size)
        guard Int32(answer.l_type) != F_UNLCK else { return nil }
        try #require(answer.l_pid == getpid())
        let kind = Int32(answer.l_type) == F_RDLCK ? "READ" : "WRITE"
        return "\(kind) \(answer.l_start)-\(answer.l_start + answer.l_len - 1)"
    }

    @Test func openingItAgainKeepsTheFirstConnectionsLocks() throws {
        // Given a store open in this process, read once (WAL: it holds a shared lock on the file)
        let tmp = TemporaryFolder()
        let first = try AppDatabase(path: tmp.store, createDirectory: false)
        _ = try first.sights()
        let held = try Self.lock(on: tmp.store)
        // When the same file is opened again and closed, as a second command in one process would
        _ = try AppDatabase(path: tmp.store, createDirectory: false)
        // Then the first connection still holds its locks: a close() of any descriptor on the
        // file drops them all, and another process's last close would then checkpoint and
        // delete the WAL under it
        #expect(held == "READ 1073741826-1073742335")
        #expect(try Self.lock(on: tmp.store) == held)
        _ = try first.sights()
    }
}

/// v16 widens the time sources the store takes (#58): rebuilt tables keep every row.
@Suite("The time signal's migration")
struct SignalMigrationTests {
    @Test func aStoreOfV15KeepsItsSightsTheirIdsAndItsSamplesAndTakesASignal() throws {
        // Given a store at v15 with sights 1 and 2, 2 removed, and a GPS clock sample
        let tmp = TemporaryFolder()
        let queue = try DatabaseQueue(path: tmp.store)
        try AppDatabase.migrator.migrate(queue, upTo: "v15")
        try queue.write { db in
            for id in 1...2 {
                try db.execute(sql: """
                    INSERT INTO sight (id, boot_id, monotonic_ns, utc_ns, source, uncertainty_s, note, created_at_ns, trigger)
                    VALUES (?, 'boot-a', ?, ?, 'gps', 0.5, 'kept', 5, 'button')
                    """, arguments: [id, id * 1000, id * 2000])
            }
            try db.execute(sql: "DELETE FROM sight WHERE id = 2")
            try db.execute(sql: "INSERT INTO clock_sample VALUES ('boot-a', 'gps', 10, 20, 0.5, 0)")
        }
        try queue.close()
        // When marktime opens it
        let store = try AppDatabase(path: tmp.store, createDirectory: false)
        // Then sight 1 and the sample are as they were
        let sight = try store.sight(id: 1).sight
        #expect(sight.estimate.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 2000), source: .gps, uncertainty: 0.5))
        #expect(sight.note == "kept")
        #expect(try store.track(bootID: "boot-a").map(\.sample) == [ClockSample(source: .gps, monotonicNanoseconds: 10, utc: UTCTime(nanosecondsSinceEpoch: 20),
                                                                                uncertainty: 0.5)])
        // And a new sight stamped from a time signal takes id 3, never the removed 2
        let signal = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 9000), source: .signal, uncertainty: 0.3)
        let added = try store.insert(Sight.mark(instant: MonotonicInstant(bootID: "boot-a", nanoseconds: 9000), estimate: signal, fix: nil,
                                                maxFixAge: 5, createdAt: signal.utc))
        #expect(added.id == 3)
        #expect(try store.sight(id: 3).sight.estimate.source == .signal)
        // And the track keeps a signal sample
        try store.saveTrack([ClockTrack.Entry(sample: ClockSample(source: .signal, monotonicNanoseconds: 30, utc: UTCTime(nanosecondsSinceEpoch: 40),
                                                                  uncertainty: 0.3), segment: 1)], bootID: "boot-a")
        #expect(try store.track(bootID: "boot-a").map(\.sample.source) == [.gps, .signal])
    }
}

@Suite("The schema the migrations make")
struct SchemaTests {
    /// The SHA-256 of a new store's schema as `sqlite3` lists it (tables, indexes and
    /// triggers by type and name, each statement with a `;`). A new migration changes it:
    /// put the hash the failure prints here. A shipped migration never does.
    static let schemaSHA256 = "32c9e2d3a4a534f37ee10c97eb22c5652f3d803759a538c2193b249e6af63fe1"

    @Test("A new store's schema is the recorded one: a shipped migration never changes")
    func theSchemaIsTheRecordedOne() throws {
        // Given a new store
        let tmp = TemporaryFolder()
        _ = try AppDatabase(path: tmp.store, createDirectory: false)
        // When its schema is read, as `sqlite3` would list it
        let schema = try DatabaseQueue(path: tmp.store).read { db in
            try String.fetchAll(db, sql: """
                SELECT sql || ';' FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name
                """).joined(separator: "\n") + "\n"
        }
        // Then its digest is the recorded one
        #expect(SHA256.hex(schema) == Self.schemaSHA256, "the schema is now:\n\(schema)")
    }
}

@Suite("Roles in a store made before them")
struct RoleMigrationTests {
    @Test("v13 makes the old admins admin and every other account crew")
    func oldAdminsStayAdmins() throws {
        // Given a store at v12 with an admin and another account
        let folder = TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.store)
        var migrator = DatabaseMigrator()
        for migration in AppDatabase.migrations.prefix(12) {
            migrator.registerMigration(migration.name) { db in try db.execute(sql: migration.sql) }
        }
        try migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO account (name, password_hash, admin, theme, font_size, created_at_ns) VALUES
                ('skipper', 'x', 1, 'day', 'normal', 0), ('mate', 'x', 0, 'day', 'normal', 0)
                """)
        }
        try queue.close()
        // When the store is opened now, and read by the process that migrated it
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        // Then the admin is admin and the other crew
        #expect(try store.accounts().map { "\($0.name) \($0.role.rawValue)" } == ["mate crew", "skipper admin"])
    }
}

@Suite("The rate book in the store")
struct RateBookStoreTests {
    func line(_ boot: String, day: Int, gain: Double) -> RateBookEntry {
        RateBookEntry(bootID: boot, rate: ClockRate(gain: gain, scatter: 0.1728, source: .gps, span: 3600, samples: 61, learnedAt: 5),
                      learnedUTC: UTCTime(year: 2026, month: 11, day: day, hour: 12)!, error: -0.5)
    }

    @Test func aDaysLineIsReplacedAndTheNewestOfAnotherBootIsFound() throws {
        // Given lines of two boots, boot-b's day 26 written twice
        let tmp = TemporaryFolder()
        let store = try AppDatabase(path: tmp.store, createDirectory: false)
        for l in [line("boot-a", day: 25, gain: -0.4), line("boot-b", day: 26, gain: -0.3), line("boot-b", day: 26, gain: -0.35), line("boot-b", day: 27, gain: -0.2)] {
            try store.saveRate(l)
        }
        // Then the book has one line a day per boot, oldest first, the second write kept
        #expect(try store.rateBook().map { "\($0.bootID) \($0.day) \($0.rate.gain)" } == ["boot-a 2026-11-25 -0.4", "boot-b 2026-11-26 -0.35", "boot-b 2026-11-27 -0.2"])
        // And a boot-c finds boot-b's newest line, boot-b finds boot-a's
        #expect(try store.lastRate(before: "boot-c") == line("boot-b", day: 27, gain: -0.2))
        #expect(try store.lastRate(before: "boot-b") == line("boot-a", day: 25, gain: -0.4))
    }

    @Test func anRTCLineKeepsItsErrorsUncertaintyAndIsFoundByItsClock() throws {
        // Given a monotonic line and an older rtc line of boot-a, the RTC 3.1 s fast ± 0.012
        let tmp = TemporaryFolder()
        let store = try AppDatabase(path: tmp.store, createDirectory: false)
        let rtc = RateBookEntry(bootID: "boot-a", clock: RTCChronometer.clock,
                                rate: ClockRate(gain: 0.2, scatter: 0.1728, source: .gps, span: 3600, samples: 61, learnedAt: 5),
                                learnedUTC: UTCTime(year: 2026, month: 11, day: 24, hour: 12)!, error: 3.1, errorUncertainty: 0.012)
        try store.saveRate(line("boot-a", day: 25, gain: -0.4))
        try store.saveRate(rtc)
        // Then boot-b finds each clock's line, whole
        #expect(try store.lastRate(before: "boot-b", clock: "rtc") == rtc)
        #expect(try store.lastRate(before: "boot-b") == line("boot-a", day: 25, gain: -0.4))
    }
}
