import GRDB
import MarkTimeCore
import MarkTimeStore
import Testing

@Suite("Voice memos in the store")
struct MemoStoreTests {
    let folder = TemporaryFolder()
    let memo = SightMemo(sightID: 0, sampleRate: 16_000, frames: 32_000, cut: false, data: [0x66, 0x4c, 0x61, 0x43, 1, 2, 3],
                         createdAt: UTCTime(nanosecondsSinceEpoch: logDay))

    /// The rows of `sight_memo`, read as sqlite3 would.
    func memoRows() throws -> Int {
        try DatabaseQueue(path: folder.store).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sight_memo") ?? -1 }
    }

    @Test func aMemoIsKeptWithTheSightOfItsPress() throws {
        // Given two sights
        let db = try AppDatabase(path: folder.store, createDirectory: false)
        _ = try db.insert(sight(at: 10))
        let later = try db.insert(sight(at: 20))
        // When a memo is kept for the second one's press
        let kept = try db.keepMemo(memo, pressedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 20 * second))
        // Then it is that sight's, byte for byte, and the first has none
        var expected = memo
        expected.sightID = try #require(later.id)
        #expect(kept == expected)
        #expect(try db.memo(sightID: expected.sightID) == expected)
        #expect(try db.memo(sightID: 1) == nil)
    }

    @Test func aMemoWithoutItsSightIsRefusedAndNothingIsWritten() throws {
        let db = try AppDatabase(path: folder.store, createDirectory: false)
        _ = try db.insert(sight(at: 10))
        #expect(throws: StoreError.self) { try db.keepMemo(memo, pressedAt: MonotonicInstant(bootID: "boot-b", nanoseconds: 10 * second)) }
        #expect(try memoRows() == 0)
    }

    @Test func purgingTheSightsRemovesTheirMemos() throws {
        // Given a sight with a memo
        let db = try AppDatabase(path: folder.store, createDirectory: false)
        _ = try db.insert(sight(at: 10))
        try db.keepMemo(memo, pressedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second))
        // When the sights are purged
        #expect(try db.purgeSights() == 1)
        // Then the memo went with its sight
        #expect(try memoRows() == 0)
    }

    @Test func anArchivedSightKeepsItsMemo() throws {
        let db = try AppDatabase(path: folder.store, createDirectory: false)
        _ = try db.insert(sight(at: 10))
        try db.keepMemo(memo, pressedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second))
        #expect(try db.archiveAll(now: UTCTime(nanosecondsSinceEpoch: logDay)) == 1)
        #expect(try db.memo(sightID: 1)?.data == memo.data)
    }
}
