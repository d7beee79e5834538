import Foundation
import MarkTimeSystem
import Testing

@Suite("a spool file, for a body as it arrives")
struct SpoolFileTests {
    /// A fresh empty folder.
    static func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("marktime-spool-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func whatIsWrittenInPiecesIsReadBackWholeAndInOrder() throws {
        // Given a spool file that gets three pieces, one larger than a read's chunk
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = try SpoolFile(in: dir)
        let large = (0..<70_000).map { UInt8($0 % 251) }
        try spool.append([1, 2, 3])
        try spool.append(large)
        try spool.append([4])
        // When it is read back
        let back = try spool.bytes()
        // Then it is the pieces in order, counted exactly
        #expect(spool.count == 70_004)
        #expect(back == [1, 2, 3] + large + [4])
    }

    @Test func itLeavesNoFileInItsFolderWhileOpenOrAfter() throws {
        // Given a spool file with 1 MB written in an empty folder
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var spool: SpoolFile? = try SpoolFile(in: dir)
        try spool?.append([UInt8](repeating: 7, count: 1 << 20))
        // Then the folder lists nothing while it is open, nor once it is closed
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
        spool = nil
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    @Test func aFolderThatIsNotThereIsNamedInTheError() throws {
        // Given a folder that does not exist; when a spool file is made in it
        // Then the error names the call, the folder and the reason
        #expect(throws: SystemError("open a nameless file in /nonexistent/marktime", .noSuchFileOrDirectory)) {
            try SpoolFile(in: "/nonexistent/marktime")
        }
    }
}
