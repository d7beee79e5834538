import Foundation
import MarkTimeSystem
import Synchronization
import Testing

@Suite("a thread's name")
struct ThreadNameTests {
    /// The calling thread's name as the kernel shows it.
    static func kernelName() -> String? {
        let path = "/proc/thread-self/comm"
        return (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    /// Runs `body` on a thread of its own and returns its result.
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Thread {
            result.withLock { $0 = body() }
            done.signal()
        }.start()
        done.wait()
        return result.withLock { $0! }
    }

    @Test func aNameSetFromInsideIsWhatTheKernelShows() {
        // Given a thread of its own; when it names itself
        let seen = Self.onNewThread { () -> (Bool, String?) in
            (ThreadName.setCurrent("marktime-writer"), Self.kernelName())
        }
        // Then /proc shows that name
        #expect(seen.0)
        #expect(seen.1 == "marktime-writer")
    }

    @Test func aPollThreadIsNamedAsTheKernelShowsIt() throws {
        // Given a poll thread named "marktime-test"
        let thread = try PollThread(name: "marktime-test")
        let seen = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        // When it runs
        thread.start { _ in
            seen.withLock { $0 = Self.kernelName() }
            done.signal()
        }
        done.wait()
        thread.stop()
        // Then /proc shows its name
        #expect(seen.withLock { $0 } == "marktime-test")
    }

    @Test func aNameLongerThanTheKernelKeepsIsRefused() {
        // Given a name of 16 bytes, one more than the kernel keeps; when a thread takes it
        let seen = Self.onNewThread { () -> (Bool, String?, String?) in
            let before = Self.kernelName()
            return (ThreadName.setCurrent("marktime-writer2"), before, Self.kernelName())
        }
        // Then it is refused (ERANGE) and the name is unchanged
        #expect(seen.0 == false)
        #expect(seen.1 != nil)
        #expect(seen.2 == seen.1)
    }
}
