import Foundation
import Logging
import GRDB
import MarkTimeCore
import MarkTimeRecorder
import MarkTimeStore
import MarkTimeSystem
import Synchronization
import Testing

/// Records the tones asked for, to test the order of commit and beep.
final class ToneLog: Beeper {
    let tones = Mutex<[Tone]>([])
    func play(_ tone: Tone) { tones.withLock { $0.append(tone) } }
    func stop() {}
}

/// Records the tones, and puts a refusing store right when the failure tone plays.
final class MendingToneLog: Beeper {
    let tones = Mutex<[Tone]>([])
    let store: String
    init(store: String) { self.store = store }
    func play(_ tone: Tone) {
        tones.withLock { $0.append(tone) }
        if tone == .failure { try? GRDB.DatabaseQueue(path: store).write { try $0.execute(sql: "DROP TRIGGER refuse") } }
    }
    func stop() {}
}

@Suite("The recording path")
struct RecorderTests {
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aStoredSightBeepsOKAfterTheCommit() async throws {
        let db = try AppDatabase.inMemory()
        let beeps = ToneLog()
        let recorder = SightRecorder(store: db, beeper: beeps, logger: logger)
        let s = sight(at: 3)
        let stored = try await recorder.record(instant: s.instant, estimate: s.estimate, fix: nil, settings: Settings(), trigger: .cli, createdAt: s.createdAt)
        #expect(stored.id == 1)
        #expect(try db.sightCounts().current == 1)
        #expect(beeps.tones.withLock { $0 } == [.ok])
    }

    @Test func anUnsyncedSightBeepsTheWarning() async throws {
        let beeps = ToneLog()
        let recorder = SightRecorder(store: try AppDatabase.inMemory(), beeper: beeps, logger: logger)
        let s = sight(at: 3, source: .unsynced)
        _ = try await recorder.record(instant: s.instant, estimate: s.estimate, fix: nil, settings: Settings(), trigger: .cli, createdAt: s.createdAt)
        #expect(beeps.tones.withLock { $0 } == [.warning])
    }

    @Test func aRefusedPressBuzzesOnceAndIsKeptInThePendingFile() async throws {
        // Given a store that refuses writes (a newer schema)
        let tmp = TemporaryFolder()
        _ = try AppDatabase(path: tmp.store, createDirectory: false)
        try await GRDB.DatabaseQueue(path: tmp.store).write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
        let beeps = ToneLog()
        let recorder = SightRecorder(store: try AppDatabase(path: tmp.store, createDirectory: false), beeper: beeps, logger: logger,
                                     attempts: 3, retryDelay: .zero)
        let s = sight(at: 3)
        // When a sight is recorded
        var thrown: StoreError?
        do { _ = try await recorder.record(instant: s.instant, estimate: s.estimate, fix: nil, settings: Settings(), trigger: .cli, createdAt: s.createdAt) } catch {
            thrown = error
        }
        // Then it buzzes once, the press waits in the pending-presses file, and the error says where
        #expect(beeps.tones.withLock { $0 } == [.failure])
        let kept = PendingPresses(storePath: tmp.store).load()
        #expect(kept.map(\.instant) == [s.instant])
        #expect(kept.first?.trigger == .cli)
        guard case .keptPending(let path, _) = thrown else {
            Issue.record("expected keptPending, got \(String(describing: thrown))")
            return
        }
        #expect(path == tmp.store + "-pending.jsonl")
    }

    @Test func aRefusedPressLandsOnARetryWithTheStoredToneAndLeavesThePendingFile() async throws {
        // Given a store whose sight table refuses inserts until the failure tone is heard (then it is put right)
        let tmp = TemporaryFolder()
        _ = try AppDatabase(path: tmp.store, createDirectory: false)
        try await GRDB.DatabaseQueue(path: tmp.store).write {
            try $0.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON sight BEGIN SELECT RAISE(ABORT, 'refused for the test'); END")
        }
        let beeps = MendingToneLog(store: tmp.store)
        let recorder = SightRecorder(store: try AppDatabase(path: tmp.store, createDirectory: false), beeper: beeps, logger: logger,
                                     attempts: 3, retryDelay: .zero)
        let s = sight(at: 3)
        // When a sight is recorded
        let stored = try await recorder.record(instant: s.instant, estimate: s.estimate, fix: nil, settings: Settings(), trigger: .cli,
                                               createdAt: s.createdAt)
        // Then it buzzed once, landed on the retry with the ok tone, and the pending-presses file let go of it
        #expect(beeps.tones.withLock { $0 } == [.failure, .ok])
        #expect(stored.id == 1)
        #expect(try AppDatabase(path: tmp.store, createDirectory: false).contains(s.instant))
        #expect(!FileManager.default.fileExists(atPath: tmp.store + "-pending.jsonl"))
    }

    @Test func theFixIsLeftOutWhenPositionsAreOff() async throws {
        let db = try AppDatabase.inMemory()
        var settings = Settings()
        settings.set("sight.record_position", .bool(false))
        let s = sight(at: 3)
        let fix = Fix(position: try Position(latitude: 1, longitude: 2), mode: 3, horizontalError: nil, time: nil, receivedAt: s.instant)
        let stored = try await SightRecorder(store: db, beeper: nil, logger: logger)
            .record(instant: s.instant, estimate: s.estimate, fix: fix, settings: settings, trigger: .cli, createdAt: s.createdAt)
        #expect(stored.position == nil)
    }
}

@Suite("What made a sight")
struct SightTriggerTests {
    @Test func theStoreKeepsWhatTriggeredTheSight() async throws {
        // Given a sight recorded by the phone page
        let db = try AppDatabase.inMemory()
        let recorder = SightRecorder(store: db, beeper: nil, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let s = sight(at: 3)
        let stored = try await recorder.record(instant: s.instant, estimate: s.estimate, fix: nil, settings: Settings(), trigger: .phone,
                                         createdAt: s.createdAt)
        // When it is read back, then it says so
        #expect(try db.sight(id: try #require(stored.id)).sight.trigger == .phone)
    }
}

@Suite("The phone's quick entry off the daemon")
struct QuickEntryRecorderTests {
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aQuickEntryWithNoDaemonIsSetHereByTheSameRule() async throws {
        // Given a stored sight and no daemon (nothing sent)
        let db = try AppDatabase.inMemory()
        let stored = try db.insert(sight(at: 3))
        let recorder = SightRecorder(store: db, beeper: nil, logger: logger)
        // When the phone keeps Hs 34° 12'.3 and "rigil kent"
        let kept = try await recorder.setReading(sight: try #require(stored.id), hs: 34.205, body: "rigil kent", now: UTCTime(nanosecondsSinceEpoch: 9),
                                                 ask: { _, _, _ -> Doorbell.Answer in .notSent })
        // Then the store has them, the body by its almanac name
        #expect((kept.hs, kept.body) == (34.205, "Rigil Kentaurus"))
        #expect(try db.sight(id: try #require(stored.id)).sight.hs == 34.205)
    }

    @Test func aQuickEntryTheDaemonKeptIsReadBackAndOneItRefusedIsAnError() async throws {
        let db = try AppDatabase.inMemory()
        let id = try #require(try db.insert(sight(at: 3)).id)
        let recorder = SightRecorder(store: db, beeper: nil, logger: logger)
        let asked = Mutex<[String]>([])
        // The daemon's answer; this stand-in keeps nothing itself, so the store is unchanged
        let kept = try await recorder.setReading(sight: id, hs: 20, body: nil, now: UTCTime(nanosecondsSinceEpoch: 9),
                                                 ask: { _, message, _ -> Doorbell.Answer in asked.withLock { $0.append(message) }; return .answered("stored \(id)") })
        #expect(asked.withLock { $0 } == ["reading \(id) 20.0"])
        #expect(kept.hs == nil)
        await #expect(throws: InputError("unknown sight 99")) {
            _ = try await recorder.setReading(sight: id, hs: 20, body: nil, now: UTCTime(nanosecondsSinceEpoch: 9),
                                              ask: { _, _, _ -> Doorbell.Answer in .answered("refused unknown sight 99") })
        }
    }
}
