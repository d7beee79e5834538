import Foundation
import Glibc
import MarkTimeSystem
import Testing

/// The store's doorbell: rung one way, or asked with an answer (`marktime mark`).
@Suite("The doorbell, rung and asked")
struct DoorbellTests {
    let store = FileManager.default.temporaryDirectory.appendingPathComponent("bell-\(UUID().uuidString.prefix(8)).sqlite").path

    @Test func aQuestionGetsTheAnswerSentToItsSender() throws {
        // Given a daemon's doorbell, and a thread that answers each question with its text reversed
        let bell = try Doorbell(path: Doorbell.path(forStore: store))
        let answerer = Thread {
            var p = pollfd(fd: bell.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 30_000)
            for m in bell.drain() where m.sender != nil { bell.answer(String(m.text.reversed()), to: m.sender!) }
        }
        answerer.start()
        // When another process asks, with a note over several lines
        let answer = Doorbell.ask(store: store, message: "mark b 12\nnote\nmore", timeout: .seconds(30))
        // Then it gets that answer
        #expect(answer == .answered("erom\neton\n21 b kram"))
    }

    @Test func aRingHasNoSenderToAnswer() throws {
        let bell = try Doorbell(path: Doorbell.path(forStore: store))
        Doorbell.ring(store: store, message: "tasks")
        #expect(bell.drain() == [Doorbell.Message(text: "tasks", sender: nil)])
    }

    @Test func withNoDaemonTheQuestionIsNotSent() {
        #expect(Doorbell.ask(store: store, message: "mark b 1", timeout: .seconds(5)) == .notSent)
    }

    @Test func aDaemonThatDoesNotAnswerInTimeIsNoAnswer() throws {
        // Given a doorbell nobody reads
        let bell = try Doorbell(path: Doorbell.path(forStore: store))
        // When asked with a short timeout, then no answer; the question is there to read
        #expect(Doorbell.ask(store: store, message: "mark b 1", timeout: .milliseconds(50)) == .noAnswer)
        #expect(bell.drain().map(\.text) == ["mark b 1"])
    }

    /// The socket's permission bits.
    func socketMode() -> mode_t {
        var st = stat()
        return stat(Doorbell.path(forStore: store), &st) == 0 ? st.st_mode & 0o777 : 0o7777
    }

    @Test(arguments: [0o660, 0o644, 0o600] as [mode_t])
    func onlyThoseWhoMayWriteTheStoreMayRing(storeMode: mode_t) throws {
        // Given a store file with these bits
        FileManager.default.createFile(atPath: store, contents: Data())
        defer { unlink(store) }
        chmod(store, storeMode)
        // When the daemon's doorbell is made beside it
        let bell = try Doorbell(path: Doorbell.path(forStore: store))
        defer { unlink(bell.path) }
        // Then the socket has the store's read and write bits, and no one else may ring
        #expect(socketMode() == storeMode)
    }

    @Test func withNoStoreFileOnlyTheOwnerMayRing() throws {
        let bell = try Doorbell(path: Doorbell.path(forStore: store))
        defer { unlink(bell.path) }
        #expect(socketMode() == 0o600)
    }
}
