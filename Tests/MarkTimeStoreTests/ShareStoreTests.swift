import Foundation
import GRDB
import MarkTimeCore
import MarkTimePlaces
import MarkTimeShare
import MarkTimeStore
import Testing

@Suite("Sharing in the store")
struct ShareStoreTests {
    let store: AppDatabase
    let t0 = UTCTime(wholeSeconds: 1_795_435_200)

    init() throws { store = try AppDatabase.inMemory() }

    func message(_ kind: ShareMessage.Kind, _ n: Int) -> ShareMessage {
        ShareMessage(topic: "owntracks/boat/pi", payload: Array("\(kind.rawValue) \(n)".utf8), retain: true, kind: kind)
    }

    func refusal(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    @Test func theOutboxKeepsOrderAndBeyondItsLimitDropsTheOldestPositionsFirst() throws {
        // Given a card, then one more position than the outbox holds
        let messages = [message(.card, 0)] + (1...AppDatabase.outboxLimit).map { message(.location, $0) }
        // When they are queued
        try store.enqueue(messages, now: t0)
        // Then the card stays first, the oldest position is gone, and the rest keep their order
        let kept = try store.outbox(limit: 3).map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(try store.outboxCount() == AppDatabase.outboxLimit)
        #expect(kept == ["card 0", "location 2", "location 3"])
    }

    @Test("A batch's writes are one transaction: seen inside it at once, by others only after its commit")
    func aBatchCommitsOnce() throws {
        // Given a store on disk, and another process's connection to it
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        let other = try AppDatabase.reading(path: folder.store)
        var inside: (own: Int, other: Int) = (-1, -1)
        // When three writes queue a message each inside one batch
        try store.batch { batch in
            for n in 0..<3 { _ = try? batch.enqueue([message(.location, n)], now: t0) }
            inside = ((try? batch.outboxCount()) ?? -1, (try? other.outboxCount()) ?? -1)
        }
        // Then the batch saw all three at once, the other connection none until the commit, and all three after it
        #expect(inside == (3, 0))
        #expect(try other.outboxCount() == 3)
    }

    @Test("An unsynced batch leaves the store's writer synchronous=FULL again for the next write")
    func anUnsyncedBatchRestoresFullSync() throws {
        // Given a store on disk
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        var inside = -1
        // When a batch commits without its own sync
        try store.batch(synced: false) { batch in
            _ = try? batch.enqueue([message(.location, 0)], now: t0)
            inside = (try? batch.outboxCount()) ?? -1
        }
        // Then what it wrote is there, and the next write is synced again (2 is FULL)
        #expect(inside == 1)
        #expect(try store.outboxCount() == 1)
        #expect(try store.pragmas() == ("wal", 2))
    }

    @Test("A write that fails inside a batch undoes only itself")
    func aFailedWriteInABatchUndoesOnlyItself() throws {
        // Given a store on disk whose outbox refuses one topic (a trigger, as SQLite's own
        // fault injection: the second write fails inside SQLite, not in our code)
        let folder = TemporaryFolder()
        let store = try AppDatabase(path: folder.store, createDirectory: false)
        try DatabaseQueue(path: folder.store).write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse_one BEFORE INSERT ON share_outbox WHEN NEW.topic = 'refused'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        var refused: String?
        // When, in one batch, a card is queued, the refused topic's message fails, and another card is queued
        try store.batch { batch in
            _ = try? batch.enqueue([message(.card, 0)], now: t0)
            do {
                try batch.enqueue([message(.card, 1), ShareMessage(topic: "refused", payload: [], retain: false, kind: .card)], now: t0)
            } catch { refused = "\(error)" }
            _ = try? batch.enqueue([message(.card, 2)], now: t0)
        }
        // Then the first and last cards stay, and the failed write's two messages are both undone
        #expect(refused?.contains("refused by the test") == true, "\(refused ?? "no error")")
        #expect(try store.outbox().map { String(decoding: $0.payload, as: UTF8.self) } == ["card 0", "card 2"])
    }

    @Test("A batch kept past its end refuses to write, and writes nothing")
    func aBatchKeptPastItsEndRefuses() throws {
        // Given a batch that a write kept
        var kept: ShareBatch?
        try store.batch { batch in kept = batch }
        // When it is used after the batch ended
        let refused = refusal { try kept?.enqueue([message(.card, 0)], now: t0) }
        // Then it is refused, and the outbox is empty
        #expect(refused == "a write of a share batch after the batch ended: nothing written")
        #expect(try store.outboxCount() == 0)
    }

    @Test func anAcknowledgedMessageLeavesTheOutbox() throws {
        try store.enqueue([message(.card, 0), message(.waypoints, 1)], now: t0)
        let first = try #require(try store.outbox().first?.id)
        try store.acknowledged(first)
        #expect(try store.outbox().map(\.kind) == [.waypoints])
    }

    @Test func aLinkNeedsADeviceTopicNotLinkedToSomeoneElse() throws {
        // Given Anna linked to her phone, and Ben
        try store.addMember(name: "Anna", color: nil, isMe: false)
        try store.addMember(name: "Ben", color: nil, isMe: false)
        try store.linkMember("anna", topic: "owntracks/anna/phone")
        // When Ben is linked to an event topic, or to Anna's phone
        // Then both are refused with what to do
        #expect(refusal { try store.linkMember("Ben", topic: "owntracks/anna/phone/event") }
            == "'owntracks/anna/phone/event' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them")
        #expect(refusal { try store.linkMember("Ben", topic: "owntracks/anna/phone") }
            == "owntracks/anna/phone is already linked to Anna: `marktime member unlink Anna` first")
        #expect(try store.members().map(\.shareTopic) == ["owntracks/anna/phone", nil])
    }

    @Test func aLinkedPhonesLocationGoesThroughTheGeofenceAndAnOlderOneIsIgnored() throws {
        // Given Home, and Anna linked to her phone
        let home = try Position(latitude: -27.3807, longitude: 153.3807)
        try store.addPlace(try Place(name: "Home", kind: .home, center: home, radius: 150), now: t0)
        try store.addMember(name: "Anna", color: nil, isMe: false)
        try store.linkMember("Anna", topic: "owntracks/anna/phone")
        let topic = OwnTracks.Topic("owntracks/anna/phone")!
        let rules = GeofenceRules(confirmations: 1, marginFraction: 0.1, marginMinimum: 20)
        // When her phone reports Home, then a report from a minute before, elsewhere
        let at = try store.applyShared(.location(GeoFix(position: home, error: 10, time: t0)), topic: topic, rules: rules, now: t0)
        let older = try store.applyShared(.location(GeoFix(position: try Position(latitude: -28, longitude: 153), error: 10,
                                                           time: t0.adding(nanoseconds: -60_000_000_000))), topic: topic, rules: rules, now: t0)
        // Then she entered Home, and the older report changed nothing
        #expect(at == .moved(member: "Anna", events: [PlaceEvent(place: "Home", kind: .enter, time: t0, position: home)]))
        #expect(older == .stale(member: "Anna"))
        #expect(try store.members().first?.geofence.place == "Home")
        #expect(try store.seenDevices().map(\.messages) == [2])
    }
}
