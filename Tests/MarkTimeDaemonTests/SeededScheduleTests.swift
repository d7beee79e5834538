import Foundation
import GRDB
import MarkTimeCore
@testable import MarkTimeDaemon
import MarkTimeStore
import Testing

import DaemonFakes

/// The whole daemon on fakes, driven by a schedule drawn from a seed: presses (some of them
/// bounces), gpsd's time and fixes, gpsd losing its fix, heartbeats, and spells in which the
/// store refuses every insert. Whatever the order, every press is stored once, at its kernel
/// instant, on the one line of time gpsd gave when it is stamped from gpsd, with one
/// confirmation tone, and a refused press buzzes once and lands when the store takes writes
/// again.
///
/// The heartbeat is the schedule's: the daemon's own beats once at its start (awaited before
/// the first step) and then not for an hour, and a `beat` step beats at the fake clock's
/// time. The seed fixes the steps and so what the core decides; the writer's thread still
/// runs the store's work as the machine schedules it, so the test waits for its outcomes (a
/// refused press's buzz before the schedule goes on; every earlier press stored before the
/// store refuses). A failure names its seed, and
/// `MARKTIME_SEEDS=1234,5678 swift test --filter SeededScheduleTests` plays those schedules
/// again (`MARKTIME_SEEDS=random:500`, 500 new ones).
@Suite("the daemon on fakes under a seeded schedule")
struct SeededScheduleTests {
    /// Three fixed seeds; or those of MARKTIME_SEEDS, a list (`1234,5678`) or `random:N`, N
    /// seeds drawn afresh (`Tests/run --stress` draws 20 each run).
    static let seeds: [UInt64] = {
        guard let given = ProcessInfo.processInfo.environment["MARKTIME_SEEDS"] else { return [1, 20_261_128, 4_045_763_136] }
        if given.hasPrefix("random:"), let n = Int(given.dropFirst(7)) { return (0..<n).map { _ in UInt64.random(in: 1...UInt64(UInt32.max)) } }
        return given.split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    }()

    /// SplitMix64: a small generator whose sequence a seed fixes.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One step of a schedule.
    enum Step {
        case press, bounce, time, fix, lose, beat, refuse, mend
    }

    /// gpsd's time is one line: logDay at 100 s of the monotonic clock.
    static func utc(_ monotonic: Int64) -> UTCTime { UTCTime(nanosecondsSinceEpoch: logDay + monotonic - 100 * second) }

    /// `statement` run by a connection of its own, as another process would, waiting for
    /// the daemon's writes as the CLI does.
    static func execute(_ statement: String, on path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(20)
        try DatabaseQueue(path: path, configuration: configuration).inDatabase { try $0.execute(sql: statement) }
    }

    @Test(arguments: seeds)
    func everyPressIsStoredOnceWithOneToneAndStampedFromGPSWhereItCanBe(seed: UInt64) async throws {
        // Given the daemon on fakes, its clock at 100 s, its heartbeat the schedule's
        var random = SplitMix(state: seed)
        let steps: [Step] = (0..<80).map { _ in
            [.press, .press, .press, .bounce, .time, .time, .fix, .lose, .beat, .beat, .refuse, .mend].randomElement(using: &random)!
        }
        let said = "seed \(seed): \(steps.map { "\($0)" }.joined(separator: " "))"
        let f = try DaemonOnFakes(heartbeat: .seconds(3600))
        defer { f.remove() }
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        // (the daemon's own first heartbeat done: its tick writes the status file, last)
        #expect(try await waitFor { f.button.started && f.gps.started && FileManager.default.fileExists(atPath: f.folder + "/status.json") }, "\(said)")
        let position = try Position(latitude: -27.3807, longitude: 153.3807)
        var now = 100 * second
        // What the schedule did: the presses; those the store refused; those gpsd's time will
        // stamp (fresh then, or a beat with fresh time after them); gpsd's last time while its
        // fix is not lost; the presses waiting for fresh time at a beat
        var pressed: [Int64] = [], refused: [Int64] = [], fromGPS: Set<Int64> = [], lastTime: Int64?, waiting: [Int64] = []
        var freshAtPress: Set<Int64> = []  // stamped live from gpsd, refused or not
        var refusing = false
        func fresh() -> Bool { lastTime.map { now - $0 <= 10 * second } ?? false }  // clock.max_sample_age_s
        /// Beats until `condition` holds (a refused press is tried again at a beat).
        func beating(_ condition: @escaping () throws -> Bool) async throws -> Bool {
            try await waitFor { f.daemon.beat(); return try condition() }
        }
        // When the schedule is played, the clock moving on 50 to 1,500 ms before each step
        for step in steps {
            now += Int64.random(in: 50...1_500, using: &random) * 1_000_000
            f.clock.monotonic.withLock { $0 = now }
            switch step {
            case .press, .bounce:
                // A key-down and its key-up; a bounce is a second key-down 5 ms after the first
                f.button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: now)))
                if step == .bounce { f.button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: now + 5_000_000))) }
                f.button.send(.event(InputEvent(type: 1, code: 28, value: 0, nanoseconds: now + 40_000_000)))
                pressed.append(now)
                if fresh() { freshAtPress.insert(now) }
                if refusing {
                    // (refused before the schedule goes on: its buzz says so)
                    refused.append(now)
                    #expect(try await waitFor { f.beeper.played.filter { $0 == .failure }.count == refused.count }, "\(said): tones \(f.beeper.played)")
                } else if fresh() {
                    fromGPS.insert(now)
                } else {
                    waiting.append(now)
                }
            case .time:
                f.gps.send(.clock(ClockSample(source: .gps, monotonicNanoseconds: now, utc: Self.utc(now), uncertainty: 0.5)))
                lastTime = now
            case .fix:
                f.gps.send(.fix(Fix(position: position, mode: 3, horizontalError: 5, time: Self.utc(now),
                                    receivedAt: MonotonicInstant(bootID: f.clock.bootID, nanoseconds: now))))
            case .lose:
                f.gps.send(.noFix(mode: 1, at: MonotonicInstant(bootID: f.clock.bootID, nanoseconds: now)))
                lastTime = nil
            case .beat:
                f.daemon.beat()
                // A beat with fresh time backfills the unsynced presses before it
                if fresh() { fromGPS.formUnion(waiting); waiting = [] }
            case .refuse where !refusing:
                // From a quiet moment: every press before it stored
                #expect(try await beating { try f.store.sights().count == pressed.count }, "\(said)")
                try Self.execute("CREATE TRIGGER refuse BEFORE INSERT ON sight BEGIN SELECT RAISE(ABORT, 'refused for the test'); END", on: f.store.path)
                refusing = true
            case .mend where refusing:
                try Self.execute("DROP TRIGGER refuse", on: f.store.path)
                refusing = false
            case .refuse, .mend:
                break
            }
        }
        if refusing { try Self.execute("DROP TRIGGER refuse", on: f.store.path) }
        // Then every press is stored, once, at its key-down instant (a bounce adds nothing)
        #expect(try await beating { try f.store.sights().count == pressed.count && PendingPresses(storePath: f.store.path).load().isEmpty },
                "\(said): stored \((try? f.store.sights().count) ?? -1) of \(pressed.count)")
        let sights = try f.store.sights()
        #expect(sights.map(\.instant.nanoseconds).sorted() == pressed, "\(said)")
        #expect(Set(sights.map(\.instant.bootID)) == [f.clock.bootID], "\(said)")
        // And a press is stamped from gpsd when its time was fresh then, or a beat with fresh
        // time came after it (a backfill, which the writer does after the beat); the others
        // from gpsd or unsynced
        let unstamped = { try f.store.sights().filter { fromGPS.contains($0.instant.nanoseconds) && $0.estimate.source != .gps } }
        #expect(try await waitFor { try unstamped().isEmpty },
                "\(said)\nnot from gpsd: \((try? unstamped().map { "\($0.instant.nanoseconds) \($0.estimate.source) \($0.estimate.provenance?.json ?? "")" }) ?? [])")
        #expect(try f.store.sights().allSatisfy { [.gps, .unsynced].contains($0.estimate.source) }, "\(said)")
        // And each press was stamped live from gpsd exactly when its time was fresh then: a
        // backfilled one keeps its live stamp as its original, unsynced
        let live = try f.store.sights().map { ($0.instant.nanoseconds, ($0.original ?? $0.estimate).source) }
        #expect(live.filter { ($0.1 == .gps) != freshAtPress.contains($0.0) }.map(\.0) == [], "\(said)")
        // And each one stamped from gpsd is on its line of time, with at least its uncertainty
        for s in try f.store.sights() where s.estimate.source == .gps {
            #expect(s.estimate.utc == Self.utc(s.instant.nanoseconds), "\(said): \(s.instant.nanoseconds) stamped \(s.estimate.utc.iso8601)")
            #expect(s.estimate.uncertainty.map { $0 >= 0.5 } == true, "\(said): \(String(describing: s.estimate.uncertainty))")
        }
        // And one confirmation tone per press, ok where it was stamped live from gpsd and the
        // unsynced warning elsewhere, and one buzz per press the store refused
        let tones = { f.beeper.played }
        #expect(try await waitFor { tones().filter { $0 == .ok || $0 == .warning }.count == pressed.count }, "\(said): tones \(tones())")
        #expect(tones().filter { $0 == .ok }.count == freshAtPress.count, "\(said): tones \(tones())")
        #expect(tones().filter { $0 == .failure }.count == refused.count, "\(said): tones \(tones()), refused \(refused)")
        await f.daemon.shutdown()
        try await running.value
    }
}
