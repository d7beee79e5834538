import MarkTimeCore
import Testing

@Suite("Backoff between restarts")
struct BackoffTests {
    @Test func quickFailuresDoubleTheWaitUpToTheMaximum() {
        // Given the defaults: 1 s, doubling to 60 s
        var backoff = Backoff()
        // When a child fails at once, eight times
        let waits = (0..<8).map { _ in backoff.next(after: .milliseconds(200)) }
        // Then the waits double and stop at a minute
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60].map(Duration.seconds))
    }

    @Test func aRunThatSettledStartsOverFromTheInitialWait() {
        // Given a backoff that has grown to 4 s
        var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(10), settled: .seconds(30))
        _ = (0..<4).map { _ in backoff.next(after: .seconds(1)) }
        // When the next run lasted 30 s, and then one fails at once
        let afterSettled = backoff.next(after: .seconds(30))
        let afterQuick = backoff.next(after: .seconds(1))
        // Then the wait is back to 0.5 s, and doubles from there
        #expect(afterSettled == .milliseconds(500))
        #expect(afterQuick == .seconds(1))
    }
}
