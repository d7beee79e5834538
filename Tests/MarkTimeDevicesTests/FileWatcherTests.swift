import Foundation
import MarkTimeDevices
import Synchronization
import Testing

@Suite("Watching the store's files")
struct FileWatcherTests {
    @Test func onlyTheWatchedFileIsReported() throws {
        // Given a watcher on one file of a folder, which notes at each report whether that file exists yet
        let folder = NSTemporaryDirectory() + "marktime-watch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watched = folder + "/store.sqlite-wal"
        let watcher = try FileWatcher()
        try watcher.watch(watched)
        let seen = Mutex<[Bool]>([])
        let reported = DispatchSemaphore(value: 0)
        watcher.start {
            seen.withLock { $0.append(FileManager.default.fileExists(atPath: watched)) }
            reported.signal()
        }
        defer { watcher.stop() }
        // When another file in the folder is written twenty times, and then the watched one
        for i in 0..<20 { try Data("\(i)".utf8).write(to: URL(fileURLWithPath: folder + "/other")) }
        try Data("y".utf8).write(to: URL(fileURLWithPath: watched))
        // Then a report comes, and none came before the watched file was written
        #expect(reported.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0.first } == true)
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
