import Foundation
import MarkTimeCore
import MarkTimeJournal
import MarkTimeStore
import MarkTimeSystem
import Testing

@Suite("The journal in the store")
struct JournalStoreTests {
    let folder = TemporaryFolder()
    let now = UTCTime(wholeSeconds: 1_795_000_000)

    /// The fuzzers' sample photo, a real PNG.
    var photo: [UInt8] {
        get throws {
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("fuzz/corpus/image/photo.png").path
            return try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) })
        }
    }

    @Test func theSameImageKeptTwiceIsOneFileAndOneEntry() throws {
        // Given a store, and a PNG
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        let bytes = try photo
        let info = try #require(ImageInfo(bytes))
        // When it is kept twice, with two captions
        let first = try store.keepPhoto(bytes, info: info, caption: "Reef", at: now, now: now)
        let again = try store.keepPhoto(bytes, info: info, caption: "Copy", at: now, now: now)
        // Then the second gave the first one's id, the media folder holds one file named by the
        // image's SHA-256 with its bytes, and the entry keeps the first caption
        #expect((first.added, again.id, again.added) == (true, first.id, false))
        let files = try FileManager.default.contentsOfDirectory(atPath: store.mediaFolder)
        #expect(files == [try #require(SHA256.hex(bytes)) + ".png"])
        #expect(FileManager.default.contents(atPath: store.mediaFolder + "/" + files[0]).map { [UInt8]($0) } == bytes)
        #expect(try store.journalText(kind: "photo", id: first.id) == "Reef")
    }
}
