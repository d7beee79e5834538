import Foundation
import MarkTimeDevices
import Synchronization
import Testing

@Suite("Watching the store's files")
struct FileWatcherTests {
    @Test func aWriteToAWatchedFileIsReportedAndOthersAreNot() throws {
        // Given a watcher on one file of a folder
        let folder = NSTemporaryDirectory() + "marktime-watch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watcher = try FileWatcher()
        try watcher.watch(folder + "/store.sqlite-wal")
        let reports = Mutex(0)
        let reported = DispatchSemaphore(value: 0)
        watcher.start {
            reports.withLock { $0 += 1 }
            reported.signal()
        }
        defer { watcher.stop() }
        // When another file in the folder is written, then the watched one
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/other"))
        try Data("y".utf8).write(to: URL(fileURLWithPath: folder + "/store.sqlite-wal"))
        // Then exactly the watched file's change is reported
        #expect(reported.wait(timeout: .now() + 10) == .success)
        #expect(reports.withLock { $0 } == 1)
    }

    @Test func aFileRenamedOverAWatchedOneIsReported() throws {
        // Given a watcher on the status file, which the daemon replaces by rename
        let folder = NSTemporaryDirectory() + "marktime-watch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watcher = try FileWatcher()
        try watcher.watch(folder + "/status.json")
        let reported = DispatchSemaphore(value: 0)
        watcher.start { reported.signal() }
        defer { watcher.stop() }
        // When a new file is renamed over it
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/status.json.new"))
        #expect(rename(folder + "/status.json.new", folder + "/status.json") == 0)
        // Then it is reported
        #expect(reported.wait(timeout: .now() + 10) == .success)
    }
}
