import Synchronization
import Testing
@testable import MarkTimeWeb

/// What the tasks did, in order.
private final class Log: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite("Photos kept one at a time")
struct OneAtATimeTests {
    @Test(.timeLimit(.minutes(1)))
    func tasksGoThroughOneAtATimeInTheOrderTheyCame() async throws {
        let turns = OneAtATime()
        let log = Log()
        // Given one task inside, holding its turn until it is let go
        let (letGo, release) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await turns.run {
                log.append("in 0")
                for await _ in letGo { break }
                log.append("out 0")
            }
        }
        while !log.all.contains("in 0") { try Task.checkCancellation(); await Task.yield() }
        // When three more arrive one after another
        var others: [Task<Void, any Error>] = []
        for i in 1...3 {
            others.append(Task {
                try await turns.run {
                    log.append("in \(i)")
                    await Task.yield()
                    log.append("out \(i)")
                }
            })
            while await turns.waitingCount < i { try Task.checkCancellation(); await Task.yield() }
        }
        // Then none is let in while the first holds its turn
        #expect(log.all == ["in 0"])
        // And once it is let go, each goes through alone, in the order they came
        release.yield()
        try await first.value
        for task in others { try await task.value }
        #expect(log.all == ["in 0", "out 0", "in 1", "out 1", "in 2", "out 2", "in 3", "out 3"])
        #expect(await turns.waitingCount == 0)
    }
}
