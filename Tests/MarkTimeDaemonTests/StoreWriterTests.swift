import Foundation
import MarkTimeCore
import MarkTimePlaces
import MarkTimeShare
import Synchronization
import Testing
@testable import MarkTimeDaemon

/// A share repository that keeps nothing: these tests watch the order the writer runs jobs in.
struct NoShares: ShareRepository {
    func enqueue(_ messages: [ShareMessage], now: UTCTime) -> (locations: Int, oldest: Int) { (0, 0) }
    func acknowledged(_ id: Int64) {}
    func applyShared(_ incoming: OwnTracks.Incoming, topic: OwnTracks.Topic, rules: GeofenceRules, now: UTCTime) -> SharedOutcome { .noted }
}

@Suite("The store writer's lanes")
struct StoreWriterTests {
    static let sight = Sight(instant: MonotonicInstant(bootID: "b", nanoseconds: 1),
                             estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 0), source: .gps, uncertainty: 0.5),
                             createdAt: UTCTime(nanosecondsSinceEpoch: 0))

    @Test("A sight goes before the anchor watch, and the watch before a burst of sharing's writes, each lane in order")
    func lanesGoInOrder() throws {
        // Given 3,000 writes of sharing queued first, then the anchor watch twice, then a sight
        let writer = StoreWriter()
        let done = Mutex<[String]>([])
        for i in 0..<3_000 { writer.submit(.share({ _ in done.withLock { $0.append("share \(i)") } }, durable: false)) }
        writer.submit(.watch([], now: 1))
        writer.submit(.watch([], now: 2))
        writer.submit(.insert(Self.sight, queuedAt: 0))
        // When the writer starts and finishes
        writer.start { job in
            switch job {
            case .insert: done.withLock { $0.append("sight") }
            case .watch(_, let now): done.withLock { $0.append("watch \(now)") }
            case .share(let write, _): write(NoShares())
            default: break
            }
        }
        writer.stop()
        // Then the sight went first, the two watches next, and sharing's writes last, in the order given
        let order = done.withLock { $0 }
        #expect(Array(order.prefix(3)) == ["sight", "watch 1", "watch 2"])
        #expect(Array(order.dropFirst(3)) == (0..<3_000).map { "share \($0)" })
    }

    @Test("A batch of sharing's writes takes the next one only while no sight or own job waits")
    func aShareBatchStopsForASight() throws {
        // Given three of sharing's writes queued
        let writer = StoreWriter()
        for _ in 0..<3 { writer.submit(.share({ _ in }, durable: false)) }
        // When the batch takes one, then a sight arrives
        let first = writer.nextShare()
        writer.submit(.insert(Self.sight, queuedAt: 0))
        // Then the batch got the first, and no more until the sight has gone
        #expect(first != nil)
        #expect(writer.nextShare() == nil)
        let order = Mutex<[String]>([])
        writer.start { job in
            if case .insert = job { order.withLock { $0.append("sight") } }
            if case .share = job { order.withLock { $0.append("share") } }
        }
        writer.stop()
        #expect(order.withLock { $0 } == ["sight", "share", "share"])
    }

    @Test("A share write that must be synced is not taken into a batch")
    func aDurableShareWriteEndsTheBatch() throws {
        // Given an unsynced share write, then one that must be synced, then another unsynced one
        let writer = StoreWriter()
        writer.submit(.share({ _ in }, durable: false))
        writer.submit(.share({ _ in }, durable: true))
        writer.submit(.share({ _ in }, durable: false))
        // When a batch takes what it may
        // Then it takes the first only: the synced one goes alone, and the batch ends before it
        #expect(writer.nextShare() != nil)
        #expect(writer.nextShare() == nil)
    }

    @Test("What follows a committed share batch waits for a sight, and goes before the next batch")
    func aShareBatchsFollowUpWaitsForASight() throws {
        // Given a batch's follow-up (state file, pump) queued, then a sight, then another share write
        let writer = StoreWriter()
        let order = Mutex<[String]>([])
        writer.submit(.afterShare { order.withLock { $0.append("after batch") } })
        writer.submit(.share({ _ in order.withLock { $0.append("share") } }, durable: false))
        writer.submit(.insert(Self.sight, queuedAt: 0))
        // When the writer runs them
        writer.start { job in
            switch job {
            case .insert: order.withLock { $0.append("sight") }
            case .afterShare(let work): work()
            case .share(let write, _): write(NoShares())
            default: break
            }
        }
        writer.stop()
        // Then the sight went first, the follow-up next, the new share write last
        #expect(order.withLock { $0 } == ["sight", "after batch", "share"])
    }

    @Test("After a full batch, sharing's lane rests, and the other lanes do not")
    func sharingsLaneRests() throws {
        // Given a share write and the anchor watch queued, and sharing's lane resting until 150 ms
        var q = StoreWriter.Queue()
        q.lanes[2].append(.share({ _ in }, durable: false))
        q.shareRestUntil = 150
        q.lanes[1].append(.watch([], now: 1))
        // When the writer looks at 100 ms
        // Then it takes the watch, then nothing, to look again at 150 ms
        let first = q.take(now: 100)
        if case .watch? = first.job {} else { Issue.record("expected the watch first, got \(String(describing: first.job))") }
        let second = q.take(now: 100)
        #expect(second.job == nil && second.wakeAt == 150)
        // And at 150 ms it takes the share write
        let third = q.take(now: 150)
        if case .share? = third.job {} else { Issue.record("expected the share write at 150 ms") }
    }

    @Test("A stopping writer does not rest sharing's lane")
    func aStoppingWriterDoesNotRest() throws {
        var q = StoreWriter.Queue()
        q.lanes[2].append(.share({ _ in }, durable: false))
        q.shareRestUntil = 150
        q.stopping = true
        if case .share? = q.take(now: 0).job {} else { Issue.record("expected the share write at once") }
    }
}
