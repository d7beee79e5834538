import Foundation
import Glibc
import MarkTimeSystem
import Synchronization
import SystemPackage
import RigSupport
import Testing

@Suite("system calls, eventfds and the poll thread")
struct SystemTests {
    @Test func aFailedCallNamesItselfAndItsErrno() {
        // When open(2) fails on a missing file
        #expect(throws: SystemError("open /nonexistent/marktime", .noSuchFileOrDirectory)) {
            try systemCall("open /nonexistent/marktime") { open("/nonexistent/marktime", O_RDONLY) }
        }
        // Then its description is the call and strerror's words
        #expect(SystemError("open /x", .noSuchFileOrDirectory).description == "open /x: No such file or directory")
    }

    @Test func aNegativeErrnoReturnIsAnError() {
        #expect(throws: SystemError("libevdev_next_event", .resourceTemporarilyUnavailable)) {
            try negativeErrnoCall("libevdev_next_event") { -EAGAIN }
        }
        #expect((try? negativeErrnoCall("x") { 3 }) == 3)
    }

    @Test func drainingAnEventFDNeverBlocks() throws {
        let event = try EventFD()
        #expect(event.drain() == false)
        event.signal()
        event.signal()
        #expect(event.drain() == true)
        #expect(event.drain() == false)
    }

    @Test func aPollThreadWakesForItsDescriptorAndStopsWhenAsked() throws {
        // Given a poll thread waiting on an eventfd, counting what woke it
        let thread = try PollThread(name: "test")
        let event = try EventFD()
        let wakes = Mutex<[Wake]>([])
        thread.start { t in
            while true {
                let w = (try? t.wait([event.fd])) ?? .stopped
                event.drain()
                wakes.withLock { $0.append(w) }
                if w == .stopped { return }
            }
        }
        // When the descriptor is signalled once
        event.signal()
        #expect(eventually(within: 20) { !wakes.withLock { $0.isEmpty } })
        // And the thread is stopped (stop returns once the thread has ended)
        thread.stop()
        // Then it woke once for the descriptor and once to stop
        #expect(wakes.withLock { $0 } == [.ready([Int16(POLLIN)]), .stopped])
    }

    @Test func aTimeoutWakesWithTimedOut() throws {
        let thread = try PollThread(name: "test")
        let woke = Mutex<Wake?>(nil)
        thread.start { t in woke.withLock { $0 = try? t.wait([], timeout: .milliseconds(1)) } }
        #expect(eventually(within: 20) { woke.withLock { $0 != nil } })
        thread.stop()
        #expect(woke.withLock { $0 } == .timedOut)
    }

    @Test func sideFilesAppendAndReplace() throws {
        let folder = NSTemporaryDirectory() + "marktime-system-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = folder + "/j", status = folder + "/s"
        try SideFile.appendAndSync(Array("a\n".utf8), to: journal)
        try SideFile.appendAndSync(Array("b\n".utf8), to: journal)
        #expect(try String(contentsOfFile: journal, encoding: .utf8) == "a\nb\n")
        try SideFile.replace(status, with: Array("one".utf8))
        try SideFile.replace(status, with: Array("two".utf8))
        #expect(try String(contentsOfFile: status, encoding: .utf8) == "two")
        #expect(!FileManager.default.fileExists(atPath: status + ".tmp"))
        #expect(throws: SystemError.self) { try SideFile.appendAndSync([1], to: folder + "/missing/j") }
    }

    @Test("A durable replace keeps the old file's permissions, and a failed one leaves the old file and no temporary")
    func durableReplace() throws {
        // Given a file readable by its owner only
        let folder = NSTemporaryDirectory() + "marktime-system-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/out.csv"
        try SideFile.replaceDurably(file, with: Array("one\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        // When it is replaced in two chunks
        let written = try SideFile.replaceDurably(file) { write in
            try write(Array("two\n".utf8))
            try write(Array("three\n".utf8))
            return 2
        }
        // Then it holds both, with its permissions, and the temporary is gone
        #expect(written == 2)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "two\nthree\n")
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: file + ".tmp"))
        // When a replace fails half-way, the old file stays whole and no temporary is left
        struct Cut: Error {}
        #expect(throws: Cut.self) { try SideFile.replaceDurably(file) { write in try write(Array("half".utf8)); throw Cut() } }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "two\nthree\n")
        #expect(!FileManager.default.fileExists(atPath: file + ".tmp"))
    }
}
