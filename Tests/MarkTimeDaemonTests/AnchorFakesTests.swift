import Foundation
import MarkTimeCore
import MarkTimeDaemon
import MarkTimePlaces
import MarkTimeStore
import Testing

import DaemonFakes

/// The anchor watch in the whole daemon on fakes: fixes from the fake gpsd, time from the
/// fake clock, the alarm on the fake beeper. The heartbeat runs every 10 ms of the machine's
/// time, but what it decides reads only the fake clock. Each step waits for what the daemon
/// does (a log line, which follows its tone; the watch's live figures at a fix), never for
/// time. The writer handles the watch's steps one at a time, in order, and sets a step's
/// live figures before its tones and log lines: once they show a second fix, every step
/// before it is done, tones and log lines included (`settled`). The tones themselves,
/// through ALSA, are ALSATests'.
@Suite("the anchor watch in the daemon on fakes")
struct AnchorFakesTests {
    static let anchor = try! Position(latitude: -(27 + 22.84 / 60), longitude: 153 + 22.84 / 60)
    /// `metres` east of the anchor.
    static func east(_ metres: Double) -> Position {
        try! Position(latitude: anchor.latitude, longitude: anchor.longitude + metres / (111_194.9 * cos(anchor.latitude * .pi / 180)))
    }

    /// The daemon on fakes with `settings` and a 10 ms heartbeat, started; a 60 m watch
    /// dropped at the anchor.
    func started(_ settings: Settings = Settings(), log: LogLines) async throws -> (DaemonOnFakes, Task<Void, any Error>) {
        let f = try DaemonOnFakes(settings: settings, heartbeat: .milliseconds(10), logger: log.logger)
        try f.store.dropAnchor(at: Self.anchor, radius: 60, now: UTCTime(nanosecondsSinceEpoch: logDay))
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { f.gps.started })
        return (f, running)
    }

    /// The receiver's time of a fix at monotonic `seconds`.
    static func utc(_ seconds: Int64) -> UTCTime { UTCTime(nanosecondsSinceEpoch: logDay + (seconds - 100) * second) }

    /// The fake clock moved to `seconds` (monotonic), and gpsd's fix at `p` then.
    func fix(_ f: DaemonOnFakes, at p: Position, seconds: Int64) {
        f.clock.monotonic.withLock { $0 = seconds * second }
        f.gps.send(.fix(Fix(position: p, mode: 3, horizontalError: 60, time: Self.utc(seconds),
                            receivedAt: MonotonicInstant(bootID: f.clock.bootID, nanoseconds: seconds * second))))
    }

    /// A fix at `p` at `seconds`, then another a second later, each awaited in the watch's
    /// live figures: every step before the second is then done, its tones and log included.
    func settled(_ f: DaemonOnFakes, at p: Position, seconds: Int64) async throws -> Bool {
        for s in [seconds, seconds + 1] {
            fix(f, at: p, seconds: s)
            guard try await waitFor(20, { try f.store.daemonStatus()?.anchor?.lastFixTime == Self.utc(s) }) else { return false }
        }
        return true
    }

    /// The watch's row in the store, as the daemon last wrote it.
    func row(_ f: DaemonOnFakes) throws -> AnchorWatch? { try f.store.anchorWatch(settings: Settings())?.watch }

    @Test func aDraggingBoatSoundsTheAlarmWhichHoldsUntilAcknowledged() async throws {
        // Given a 60 m watch and the boat at the anchor
        let log = LogLines()
        let (f, running) = try await started(log: log)
        defer { f.remove() }
        #expect(try await settled(f, at: Self.anchor, seconds: 100))
        #expect(try row(f)?.state == .watching)
        // When the boat is 100 m east of it for three fixes (anchor.confirm_fixes)
        for s in Int64(110)...112 { fix(f, at: Self.east(100), seconds: s) }
        // Then the alarm sounds, once, and the log says how far and which way (its line
        // comes after the tone)
        #expect(try await waitFor { log.values("distance_m", of: "anchor dragging") == ["100"] }, "\(log.messages)")
        #expect(f.beeper.played == [.alarm])
        #expect(try row(f)?.state == .alarm)
        #expect(log.values("bearing_deg", of: "anchor dragging") == ["90"])
        // And `marktime anchor status` reads the daemon's live figures: 100 m, bearing 090
        let live = { try f.store.anchorWatch(settings: Settings())?.live(try f.store.daemonStatus()).watch }
        #expect(try await waitFor { try live()?.lastFixTime == Self.utc(112) })
        #expect(try abs((live()?.distance ?? 0) - 100) < 0.5)
        #expect(try abs((live()?.bearing ?? 0) - 90) < 0.5)
        // When the boat is back at the anchor
        #expect(try await settled(f, at: Self.anchor, seconds: 120))
        // Then the alarm holds: nothing silenced it
        #expect(try row(f)?.state == .alarm)
        #expect(f.beeper.stops == 0)
        // When the navigator acknowledges it (as `marktime anchor ack` does)
        try f.store.updateAnchorWatch(settings: Settings()) { w, _ in w.acknowledge() }
        // Then the alarm stops, the watch is watching again, and the alarm sounded once
        #expect(try await waitFor { f.beeper.stops == 1 }, "stops: \(f.beeper.stops)")
        #expect(try await settled(f, at: Self.anchor, seconds: 130))
        #expect(try row(f)?.state == .watching)
        #expect(f.beeper.played == [.alarm])
        #expect(f.beeper.stops == 1)
        await f.daemon.shutdown()
        try await running.value
    }

    @Test func aBoatThatSwingsInsideTheRadiusNeverSoundsTheAlarm() async throws {
        // Given a 60 m watch
        let log = LogLines()
        let (f, running) = try await started(log: log)
        defer { f.remove() }
        // When fixes come 40 m east and west of the anchor, one and then two in a row 100 m east among them
        let track = [40, -40, 100, -40, 40, 100, 100, -40].map { Self.east(Double($0)) }
        for (i, p) in track.enumerated() { fix(f, at: p, seconds: 100 + 5 * Int64(i)) }
        #expect(try await settled(f, at: Self.east(-40), seconds: 150))
        // Then no alarm: three fixes in a row outside raise it, not one or two
        #expect(try row(f)?.state == .watching)
        #expect(f.beeper.played == [])
        #expect(log.values("distance_m", of: "anchor dragging") == [])
        await f.daemon.shutdown()
        try await running.value
    }

    @Test func aWatchWithNoFixForItsLimitWarnsOnceAndWatchesAgainAtTheNextFix() async throws {
        // Given anchor.stale_s = 3 and the boat at the anchor until 101 s
        var settings = Settings()
        settings.set("anchor.stale_s", .double(3))
        let log = LogLines()
        let (f, running) = try await started(settings, log: log)
        defer { f.remove() }
        #expect(try await settled(f, at: Self.anchor, seconds: 100))
        // When more than 3 s pass without a fix
        f.clock.monotonic.withLock { $0 = 104_500_000_000 }
        // Then the watch is stale, the warning sounds and the log says so (its line comes
        // after the tone)
        #expect(try await waitFor { log.values("stale_after_s", of: "anchor watch has no GPS fix") == ["3"] }, "\(log.messages)")
        #expect(f.beeper.played == [.warning])
        #expect(try row(f)?.state == .stale)
        // When a minute passes without a fix (a heartbeat every 10 ms), and then fixes come
        f.clock.monotonic.withLock { $0 = 164 * second }
        #expect(try await waitFor { try f.store.daemonStatus()?.heartbeat == 164 * second })
        #expect(try await settled(f, at: Self.anchor, seconds: 165))
        // Then the warning was said once, and the watch is watching again
        #expect(f.beeper.played == [.warning])
        #expect(log.values("stale_after_s", of: "anchor watch has no GPS fix") == ["3"])
        #expect(try row(f)?.state == .watching)
        await f.daemon.shutdown()
        try await running.value
    }
}
