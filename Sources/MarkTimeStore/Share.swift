import Foundation
import GRDB
import MarkTimeCore
import MarkTimePlaces
import MarkTimeShare
import Synchronization

extension AppDatabase: ShareRepository {
    /// The most messages the outbox keeps (`ShareMessage.outboxLimit`).
    public static let outboxLimit = ShareMessage.outboxLimit

    @discardableResult
    public func enqueue(_ messages: [ShareMessage], now: UTCTime) throws(StoreError) -> (locations: Int, oldest: Int) {
        guard !messages.isEmpty else { return (0, 0) }
        return try write { db in try Self.enqueue(messages, now: now, db) }
    }

    static func enqueue(_ messages: [ShareMessage], now: UTCTime, _ db: Database) throws -> (locations: Int, oldest: Int) {
        guard !messages.isEmpty else { return (0, 0) }
        for m in messages {
            var record = OutboxRecord(m, now: now)
            try record.insert(db)
        }
        let count = try OutboxRecord.fetchCount(db)
        guard count > ShareMessage.outboxLimit else { return (0, 0) }
        let locations = try OutboxRecord.filter(OutboxRecord.CodingKeys.kind == ShareMessage.Kind.location.rawValue).fetchCount(db)
        let drops = ShareMessage.drops(count: count, locations: locations)
        try db.execute(sql: """
            DELETE FROM share_outbox WHERE id IN (SELECT id FROM share_outbox WHERE kind = 'location' ORDER BY id LIMIT ?)
            """, arguments: [drops.locations])
        try db.execute(sql: "DELETE FROM share_outbox WHERE id IN (SELECT id FROM share_outbox ORDER BY id LIMIT ?)", arguments: [drops.oldest])
        return drops
    }

    /// Waiting messages after `id`, oldest first.
    public func outbox(after id: Int64 = 0, limit: Int = 100) throws(StoreError) -> [ShareMessage] {
        try read { db in
            try OutboxRecord.filter(OutboxRecord.CodingKeys.id > id).order(OutboxRecord.CodingKeys.id).limit(limit).fetchAll(db).map(\.message)
        }
    }

    public func outboxCount() throws(StoreError) -> Int {
        try read { db in try OutboxRecord.fetchCount(db) }
    }

    public func acknowledged(_ id: Int64) throws(StoreError) {
        try writeWithoutTransaction { db in _ = try OutboxRecord.deleteOne(db, key: id) }
    }

    // MARK: Links

    /// Ties a member to an OwnTracks device topic, `owntracks/USER/DEVICE`.
    public func linkMember(_ name: String, topic: String) throws(StoreError) {
        guard OwnTracks.Topic.isDevice(topic) else {
            throw .refused("'\(Text.shown(topic))' is not an OwnTracks device topic: give owntracks/USER/DEVICE, as `marktime share status` lists them")
        }
        try write { db in
            let canonical = try Self.memberName(name, db)
            if let other = try String.fetchOne(db, sql: "SELECT name FROM member WHERE share_topic = ? AND name != ?", arguments: [topic, canonical]) {
                throw StoreError.refused("\(topic) is already linked to \(other): `marktime member unlink \(other)` first")
            }
            try db.execute(sql: "UPDATE member SET share_topic = ? WHERE name = ?", arguments: [topic, canonical])
        }
    }

    public func unlinkMember(_ name: String) throws(StoreError) {
        try write { db in
            let canonical = try Self.memberName(name, db)
            try db.execute(sql: "UPDATE member SET share_topic = NULL WHERE name = ?", arguments: [canonical])
        }
    }

    /// Every device seen, most recent first, with the member linked to it.
    public func seenDevices() throws(StoreError) -> [SeenDevice] {
        try read { db in
            let linked = Dictionary(try MemberRecord.filter(M.shareTopic != nil).fetchAll(db).map { ($0.shareTopic!, $0.name) },
                                    uniquingKeysWith: { a, _ in a })
            return try SeenRecord.order(SeenRecord.CodingKeys.lastSeenNs.desc, SeenRecord.CodingKeys.topic).fetchAll(db).map { s in
                SeenDevice(topic: s.topic, name: s.name, lastSeen: UTCTime(nanosecondsSinceEpoch: s.lastSeenNs), messages: s.messages,
                           member: linked[s.topic])
            }
        }
    }

    // MARK: Incoming

    public func applyShared(_ incoming: OwnTracks.Incoming, topic: OwnTracks.Topic, rules: GeofenceRules,
                            now: UTCTime) throws(StoreError) -> SharedOutcome {
        try write { db in try Self.applyShared(incoming, topic: topic, rules: rules, now: now, db) }
    }

    static func applyShared(_ incoming: OwnTracks.Incoming, topic: OwnTracks.Topic, rules: GeofenceRules, now: UTCTime,
                            _ db: Database) throws -> SharedOutcome {
        typealias C = SeenRecord.CodingKeys
        // A cached statement: this runs for every friend's message, thousands in a burst.
        try db.cachedStatement(sql: """
            INSERT INTO share_seen (topic, last_seen_ns, messages) VALUES (?, ?, 1)
            ON CONFLICT (topic) DO UPDATE SET last_seen_ns = excluded.last_seen_ns, messages = messages + 1
            """).execute(arguments: [topic.base, now.nanosecondsSinceEpoch])
        switch SharedEffect(incoming) {
        case .name(let name):
            try SeenRecord.filter(key: topic.base).updateAll(db, C.name.set(to: name))
            return .noted
        case .nothing:
            return .noted
        case .move(let move):
            guard var member = try MemberRecord.filter(M.shareTopic == topic.base).fetchOne(db)?.member else { return .unlinked }
            let outcome = try move.apply(to: &member, places: { try Self.places(db) }, rules: rules)
            if case .moved(_, let events) = outcome { try Self.save(member, at: move.fix, events: events, db) }
            return outcome
        }
    }
}

/// The share service's writes inside one transaction (`AppDatabase.batch`), each in a
/// savepoint of it: one that fails undoes only itself. Good only while `batch` runs: one
/// kept and used after it is refused.
public struct ShareBatch: ShareRepository {
    let db: Database
    let path: String
    let lifetime: Lifetime

    /// Whether the batch still runs; `batch` ends it.
    final class Lifetime: Sendable {
        let open = Mutex(true)
    }

    func savepoint<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        guard lifetime.open.withLock({ $0 }) else { throw .refused("a write of a share batch after the batch ended: nothing written") }
        do {
            var result: T?
            try db.inSavepoint {
                result = try body(db)
                return .commit
            }
            return result!
        } catch { throw StoreError.wrap(error, path: path) }
    }

    @discardableResult
    public func enqueue(_ messages: [ShareMessage], now: UTCTime) throws(StoreError) -> (locations: Int, oldest: Int) {
        try savepoint { try AppDatabase.enqueue(messages, now: now, $0) }
    }

    public func acknowledged(_ id: Int64) throws(StoreError) {
        try savepoint { _ = try OutboxRecord.deleteOne($0, key: id) }
    }

    public func applyShared(_ incoming: OwnTracks.Incoming, topic: OwnTracks.Topic, rules: GeofenceRules, now: UTCTime) throws(StoreError) -> SharedOutcome {
        try savepoint { try AppDatabase.applyShared(incoming, topic: topic, rules: rules, now: now, $0) }
    }

    /// The outbox's length as this transaction sees it (what a batch has queued so far).
    public func outboxCount() throws(StoreError) -> Int {
        try savepoint { try OutboxRecord.fetchCount($0) }
    }
}

extension ShareState {
    /// The state in the file at `path`, or nil when there is none (no daemon sharing).
    public static func read(_ path: String) -> ShareState? {
        FileManager.default.contents(atPath: path).flatMap { ShareState(json: Array($0)) }
    }
}

extension StatusFile {
    /// The share service's state, beside the daemon's status.
    public var sharePath: String { (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + "-share.json" }
}


extension AppDatabase {
    public func shareStatus() throws(StoreError) -> ShareStatus {
        let state = try daemonStatusFile().flatMap { ShareState.read(StatusFile(path: $0).sharePath) }
        return ShareStatus(state: state, outbox: try outboxCount(), seen: try seenDevices())
    }
}
