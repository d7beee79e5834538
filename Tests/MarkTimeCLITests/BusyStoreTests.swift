import Foundation
import GRDB
import Testing

@Suite("A store another process keeps busy")
struct BusyStoreTests {
    @Test("mark names the process holding the write lock, and keeps the press for the daemon")
    func markNamesTheHolder() throws {
        // Given a store, and this test process holding its write lock
        let cli = CLI()
        #expect(try cli.run(["config", "set", "sound.enabled", "false"], storeFlag: false).status == 0)
        #expect(try cli.run(["mark"]).status == 0)
        let queue = try DatabaseQueue(path: cli.store)
        let r = try queue.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            // When a mark is made
            return try cli.run(["mark"])
        }
        // Then it fails once the busy timeout is over, naming this process, and the press waits in the pending file
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: the store did not take the sight (store \(cli.store) is busy: pid \(getpid()) ("), "\(r.stderr)")
        #expect(r.stderr.contains(") held its write lock for 2 s; wait for it to finish, or stop it); it is kept safe in \(cli.store)-pending.jsonl"))
        let pending = try String(contentsOfFile: cli.store + "-pending.jsonl", encoding: .utf8)
        #expect(pending.split(separator: "\n").count == 1)
    }

    @Test("mark keeps the press when the store will not even open: its lock held while it had no WAL")
    func markKeepsThePressWhenTheStoreWillNotOpen() throws {
        // Given a store with no -wal or -shm (copied, or made by another program's connection),
        // and this test process holding its write lock
        let cli = CLI()
        #expect(try cli.run(["config", "set", "sound.enabled", "false"], storeFlag: false).status == 0)
        #expect(try cli.run(["mark"]).status == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cli.store + suffix) }
        let queue = try DatabaseQueue(path: cli.store)
        let r = try queue.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            // When a mark is made
            return try cli.run(["mark", "--note", "kept"])
        }
        // Then it fails naming this process, and the press waits in the pending file with its note
        #expect(r.status == 1)
        #expect(r.stderr.contains("is busy: pid \(getpid()) ("), "\(r.stderr)")
        #expect(r.stderr.contains("it is kept safe in \(cli.store)-pending.jsonl"), "\(r.stderr)")
        let pending = try String(contentsOfFile: cli.store + "-pending.jsonl", encoding: .utf8)
        #expect(pending.split(separator: "\n").count == 1)
        #expect(pending.contains("\"note\":\"kept\""), "\(pending)")
    }
}
