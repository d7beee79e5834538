import Foundation
import GRDB
import MarkTimeCore
import MarkTimeStore
import Testing

@Suite("The store's WAL, grown once and kept")
struct WALReserveTests {
    /// 1000 frames (`wal_autocheckpoint`) of a 4096-byte page and its 24-byte header, after
    /// the 32-byte file header.
    static let checkpointSize = 32 + 1000 * (4096 + 24)

    func walSize(_ folder: TemporaryFolder) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: folder.store + "-wal"))?[.size] as? Int
    }

    @Test func aNewStoresWALIsGrownToItsCheckpointSize() throws {
        // Given a new store
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        let before = try #require(walSize(folder))
        // When its WAL is reserved
        let grown = try store.reserveWAL()
        // Then the file reaches the size at which SQLite checkpoints, and says by how much
        let after = try #require(walSize(folder))
        #expect(after >= Self.checkpointSize)
        #expect(grown == after - before)
    }

    @Test func aSightsCommitIntoAGrownWALDoesNotGrowTheFile() throws {
        // Given a store whose WAL was reserved
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        try store.reserveWAL()
        let reserved = try #require(walSize(folder))
        // When 100 sights are inserted, each in its own commit
        for i in 1...100 { _ = try store.insert(sight(at: Int64(i))) }
        // Then they are stored, and the WAL file kept its size: each commit overwrote frames
        #expect(try store.sights().count == 100)
        #expect(walSize(folder) == reserved)
    }

    @Test func theGrownWALOutlivesTheLastConnection() throws {
        // Given a reserved store with one sight, closed by its only process
        let folder = TemporaryFolder()
        var reserved = 0
        do {
            let store = try AppDatabase(path: folder.store, createDirectory: false)
            try store.reserveWAL()
            _ = try store.insert(sight(at: 1))
            reserved = try #require(walSize(folder))
        }
        // When it is opened again
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        // Then the WAL file is still there at its size, needs no growing, and the sight is kept
        #expect(walSize(folder) == reserved)
        #expect(try store.reserveWAL() == 0)
        #expect(try store.sights().map(\.instant) == [sight(at: 1).instant])
    }

    @Test func reservingLeavesNoFillerTableAndASoundFile() throws {
        // Given a new store
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        // When its WAL is reserved
        try store.reserveWAL()
        // Then the scratch table is gone and the file checks out
        let queue = try DatabaseQueue(path: folder.store)
        #expect(try queue.read { try Bool.fetchOne($0, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'wal_reserve'") } == false)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func anInMemoryStoreHasNoWALToGrow() throws {
        // Given a store in memory
        let store = try AppDatabase.inMemory()
        // When its WAL is reserved, then nothing is grown
        #expect(try store.reserveWAL() == 0)
    }
}
