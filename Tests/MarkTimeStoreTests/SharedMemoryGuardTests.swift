import Foundation
import MarkTimeStore
import MarkTimeSystem
import Testing

/// `chattr` on `path`; its exit status.
private func chattr(_ flag: String, _ path: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [flag, path]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}

/// Whether this machine lets the test make a file immutable (root on ext4).
private let canFreeze: Bool = {
    let probe = NSTemporaryDirectory() + "marktime-chattr-" + UUID().uuidString
    _ = FileManager.default.createFile(atPath: probe, contents: nil)
    defer { _ = chattr("-i", probe); try? FileManager.default.removeItem(atPath: probe) }
    return chattr("+i", probe) == 0
}()

/// The store's `-shm` made immutable between the daemon's check and its write: the write
/// must not end the process with SIGBUS, and what it commits must be kept.
@Suite("The store's shared memory made immutable under an open store")
struct SharedMemoryGuardTests {
    @Test(.enabled(if: canFreeze, "needs chattr +i: root on ext4"))
    func aWriteAfterTheSharedMemoryIsMadeImmutableCommitsAndIsKept() throws {
        // Given a store holding one sight, its shared memory written back to disk (so the
        // kernel must ask the file system before the next write to it), then made immutable
        let folder = TemporaryFolder()
        let shm = folder.store + "-shm"
        try SharedMemoryGuard.install()
        let before = SharedMemoryGuard.diverted
        do {
            let store = try AppDatabase(path: folder.store, createDirectory: false)
            _ = try store.insert(sight(at: 1))
            let fd = open(shm, O_RDWR)
            #expect(fd >= 0)
            #expect(fsync(fd) == 0)
            close(fd)
            #expect(chattr("+i", shm) == 0)
            defer { _ = chattr("-i", shm) }
            // When a second sight is inserted
            _ = try store.insert(sight(at: 2))
            // Then it is stored, in a private copy of the shared memory
            #expect(try store.sights().count == 2)
            #expect(SharedMemoryGuard.diverted == before + 1)
        }
        // And a store opened afterwards holds both
        #expect(chattr("-i", shm) == 0)
        let reopened = try AppDatabase(path: folder.store, createDirectory: false)
        #expect(try reopened.sights().map(\.instant.nanoseconds) == [2 * second, 1 * second])
    }
}
