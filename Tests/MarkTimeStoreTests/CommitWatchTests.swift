import Foundation
import GRDB
import MarkTimeCore
import Testing
@testable import MarkTimeStore

@Suite("CommitWatch: when another connection's commit is visible")
struct CommitWatchTests {
    @Test func withNoCommitTheVersionStays() throws {
        // Given a watch on a store
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        let watch = try CommitWatch(store)
        // When nothing is written
        // Then two looks give the same version
        #expect(try watch.version() == watch.version())
    }

    @Test func aCommitByAnotherProcessMovesTheVersion() throws {
        // Given a watch on a store
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        let watch = try CommitWatch(store)
        let before = try watch.version()
        // When another opening of the file (as the CLI's) adds a task
        let cli = try AppDatabase(path: folder.store, createDirectory: false)
        _ = try cli.insertTask(title: "Wind the chronometer", due: UTCTime(nanosecondsSinceEpoch: 0), remind: nil, course: nil,
                            now: UTCTime(nanosecondsSinceEpoch: 0))
        // Then the version has moved
        #expect(try watch.version() != before)
    }

    @Test func pagesInTheWalOfAnOpenTransactionDoNotMoveTheVersion() throws {
        // Given a watch on a store, and a connection whose page cache holds 10 pages
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        let watch = try CommitWatch(store)
        let before = try watch.version()
        let writer = try DatabaseQueue(path: folder.store)
        try writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA cache_size = 10") }
        let walBefore = try FileManager.default.attributesOfItem(atPath: folder.store + "-wal")[.size] as? Int ?? 0
        var during: Int?, walDuring = 0
        // When a transaction writes 400 KB, spilling pages into the WAL before it commits
        try writer.inTransaction { db in
            try db.execute(sql: "CREATE TABLE filler(x BLOB)")
            for _ in 0..<400 { try db.execute(sql: "INSERT INTO filler VALUES (randomblob(1000))") }
            walDuring = try FileManager.default.attributesOfItem(atPath: folder.store + "-wal")[.size] as? Int ?? 0
            during = try watch.version()
            return .commit
        }
        // Then the WAL grew while the version stayed, and the commit moved it
        #expect(walDuring > walBefore + 100_000)
        #expect(during == before)
        #expect(try watch.version() != before)
    }
}
