import Foundation
import GRDB
import Testing

@Suite("Another program's SQLite file")
struct ForeignFileTests {
    @Test("A foreign SQLite file is refused and left exactly as it was, journal mode included")
    func aForeignFileIsNeverChanged() throws {
        // Given another program's SQLite file in rollback-journal mode
        let cli = CLI()
        let path = cli.folder + "/other.db"
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE foo (x); INSERT INTO foo VALUES (1)") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // When marktime is pointed at it to write and to read
        let mark = try cli.run(["mark", "--store", path], storeFlag: false)
        let list = try cli.run(["sights", "--store", path], storeFlag: false)
        // Then both refuse it by name, and the file is byte for byte the same, with no WAL beside it
        let refusal = "Error: \(path) is another program's SQLite database (tables: foo), not a marktime store; marktime leaves it as it is: choose another file with --store\n"
        #expect(mark.status == 1)
        #expect(mark.stderr == refusal)
        #expect(list.status == 1)
        #expect(list.stderr == refusal)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let mode = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
            .read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "delete")
    }
}
