import Foundation
import Logging
import MarkTimeCore
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeRecorder
import MarkTimeStore
import ServiceLifecycle
import Synchronization

/// `marktime daemon`: the button, gpsd and the beeper around one store, as a
/// `ServiceGroup` that stops gracefully on SIGTERM or SIGINT.
public final class MarkTimeDaemon: Sendable {
    public struct Options: Sendable {
        public var settings: Settings
        public var buttonPath: String
        public var gpsdAddress: String
        public var heartbeat: Duration = .seconds(1)

        public init(settings: Settings, buttonPath: String, gpsdAddress: String) {
            self.settings = settings
            self.buttonPath = buttonPath
            self.gpsdAddress = gpsdAddress
        }
    }

    let options: Options
    let store: AppDatabase
    let clock: SystemClock
    let logger: Logger
    let button: any ButtonSource
    let gps: any GPSSource
    let beeper: ALSABeeper?
    let recorder: SightRecorder
    let reminders: ReminderLoop
    let state: Mutex<State>
    let filter: Mutex<ButtonFilter>
    let startedAt: Int64

    struct State {
        var model: ClockModel
        var fix: Fix?
        var gpsd = "starting"
        var button = "starting"
        /// Fixes for the geofence and the anchor watch, used by the heartbeat (off gpsd's thread).
        var geoFixes: [GeoFix] = []
        /// The anchor alarm is looping.
        var anchorAlarm = false
        /// Key-downs whose insert failed every attempt: retried at each heartbeat.
        var pending: [(MonotonicInstant, UTCEstimate, Fix?)] = []
    }

    public init(options: Options, store: AppDatabase, logger: Logger) throws {
        self.options = options
        self.store = store
        self.logger = logger
        clock = try SystemClock(trustSynchronised: options.settings.trustSystemClock)
        startedAt = try clock.read().instant.nanoseconds
        let s = options.settings
        button = try EvdevButton(path: options.buttonPath, grab: s.buttonGrab, logger: logger)
        gps = GPSDClient(address: options.gpsdAddress, nmeaUncertainty: s.nmeaUncertainty, clock: clock, logger: logger)
        beeper = s.soundEnabled ? ALSABeeper(device: s.soundDevice, volume: s.soundVolume, logger: logger) : nil
        let clock = clock
        recorder = SightRecorder(store: store, beeper: beeper, logger: logger,
                                 monotonicNow: { try? clock.read().instant.nanoseconds })
        state = Mutex(State(model: ClockModel(maxSampleAge: s.maxSampleAge)))
        reminders = try ReminderLoop(store: store, clock: clock, beeper: beeper, logger: logger)
        filter = Mutex(ButtonFilter(debounceMilliseconds: s.debounceMilliseconds,
                                    latencyCompensationMilliseconds: s.latencyCompensationMilliseconds))
        reminders.alarmSounding = { [unowned self] in state.withLock { $0.anchorAlarm } }
    }

    /// Runs until SIGTERM or SIGINT.
    public func run() async throws {
        let services: [any Service] = [
            ThreadService(start: { [self] in gps.start(handle) }, stop: { [self] in gps.stop() }),
            ThreadService(start: { [self] in
                button.start(event: handle, state: { s in self.state.withLock { $0.button = s } })
            }, stop: { [self] in button.stop() }),
            HeartbeatService(daemon: self),
            ThreadService(start: { [self] in reminders.start() }, stop: { [self] in reminders.stop() }),
        ]
        let group = ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        logger.info("marktime daemon started", metadata: [
            "store": "\(store.path)", "button": "\(options.buttonPath)", "gpsd": "\(options.gpsdAddress)",
        ])
        try await group.run()
        beat(stopping: true)
        beeper?.finish()
        logger.info("marktime daemon stopped")
    }

    /// gpsd's thread.
    func handle(_ report: GPSReport) {
        state.withLock { s in
            switch report {
            case .state(let text): s.gpsd = text
            case .fix(let fix):
                s.fix = fix
                if let time = fix.time { s.geoFixes.append(GeoFix(position: fix.position, error: fix.horizontalError, time: time)) }
            case .clock(let sample): s.model.add(sample)
            }
        }
    }

    /// The button's thread: key-down → UTC → position → durable insert → beep.
    func handle(_ event: InputEvent) {
        guard case .mark(let nanoseconds) = filter.withLock({ $0.handle(event) }) else { return }
        // A press while the anchor alarm sounds silences it (and is not a sight).
        if state.withLock({ $0.anchorAlarm }) {
            _ = try? store.updateAnchorWatch(settings: options.settings) { w, _ in w.acknowledge() }
            silenceAnchorAlarm()
            logger.notice("anchor alarm acknowledged with the button")
            return
        }
        let instant = MonotonicInstant(bootID: clock.bootID, nanoseconds: nanoseconds)
        // A failed clock read must not lose the press: the model's last samples still count.
        let reading = try? clock.read()
        let (estimate, fix) = state.withLock { s -> (UTCEstimate?, Fix?) in
            if let reading { s.model.add(reading.sample) }
            let e = s.model.estimate(at: nanoseconds, now: reading?.instant.nanoseconds ?? nanoseconds)
                ?? reading.map { ClockModel.project($0.sample, to: nanoseconds, driftPPM: s.model.driftPPM) }
            return (e, s.fix)
        }
        guard let estimate else {
            logger.critical("key-down with no clock at all; sight not stamped", metadata: ["monotonic_ns": "\(nanoseconds)"])
            beeper?.play(.failure)
            return
        }
        record(instant, estimate, fix)
    }

    func record(_ instant: MonotonicInstant, _ estimate: UTCEstimate, _ fix: Fix?) {
        do {
            _ = try recorder.record(instant: instant, estimate: estimate, fix: fix, settings: options.settings, createdAt: estimate.utc)
        } catch {
            logger.critical("sight kept in memory until the store takes it", metadata: [
                "utc": "\(estimate.utc.iso8601)", "monotonic_ns": "\(instant.nanoseconds)", "error": "\(error)",
            ])
            state.withLock { $0.pending.append((instant, estimate, fix)) }
        }
    }

    /// Publishes the status row, retries pending sights, and backfills weak stamps.
    func beat(stopping: Bool = false) {
        guard let reading = try? clock.read() else { return }
        let now = reading.instant.nanoseconds
        let (status, model, pending, geoFixes) = state.withLock { s in
            s.model.add(reading.sample)
            s.model.expire(now: now)
            let status = DaemonStatus(
                pid: getpid(), bootID: clock.bootID, startedAt: startedAt, heartbeat: now,
                clock: s.model.currentSample(now: now), fix: s.fix, gpsd: s.gpsd, buttonDevice: options.buttonPath,
                buttonState: s.button, soundState: beeper?.state ?? "off (sound.enabled = false)", stopped: stopping)
            defer { s.pending = []; s.geoFixes = [] }
            return (status, s.model, s.pending, s.geoFixes)
        }
        watchAnchor(geoFixes, now: now)
        for fix in geoFixes {
            do {
                for e in try store.report(fix, member: nil, rules: options.settings.geofenceRules) {
                    logger.info("\(e.kind == .enter ? "entered" : "left") \(e.place)", metadata: ["utc": "\(e.time.iso8601)", "position": "\(e.position.ddm)"])
                }
            } catch {
                logger.error("cannot record the fix for places", metadata: ["error": "\(error)"])
            }
        }
        for (instant, estimate, fix) in pending { record(instant, estimate, fix) }
        do {
            try store.publish(status)
            if let best = model.bestSource(now: now), best < .unsynced {
                let changed = try store.backfill(bootID: clock.bootID, now: reading.realtime) { sight in
                    model.backfill(instant: sight.instant, stamped: sight.estimate.source, bootID: clock.bootID, now: now)
                }
                for s in changed {
                    logger.info("sight re-stamped", metadata: [
                        "id": "\(s.id ?? 0)", "utc": "\(s.estimate.utc.iso8601)", "source": "\(s.estimate.source.rawValue)",
                    ])
                }
            }
        } catch {
            logger.error("cannot update the store", metadata: ["error": "\(error)"])
        }
    }
}

extension MarkTimeDaemon {
    /// Applies the beat's fixes to the anchor watch, and starts or stops the alarm to match.
    func watchAnchor(_ fixes: [GeoFix], now: Int64) {
        do {
            let result = try store.updateAnchorWatch(settings: options.settings, bootID: clock.bootID) { w, sameBoot in
                if !sameBoot { w.rebase(now: now) }
                return fixes.flatMap { w.handle($0, now: now) } + w.tick(now: now)
            }
            let watch = result?.0
            for action in result?.1 ?? [] {
                switch action {
                case .soundAlarm:
                    logger.critical("anchor dragging", metadata: [
                        "distance_m": "\(Int(watch?.distance ?? 0))", "radius_m": "\(Int(watch?.radius ?? 0))",
                        "bearing_deg": "\(Int(watch?.bearing ?? 0))",
                    ])
                case .warnStale:
                    logger.warning("anchor watch has no GPS fix", metadata: ["stale_after_s": "\(options.settings.anchorStaleAfter)"])
                    beeper?.play(.warning)
                case .silenceAlarm: break
                }
            }
            let alarm = watch?.state == .alarm
            let sounding = state.withLock { $0.anchorAlarm }
            if alarm, !sounding {
                state.withLock { $0.anchorAlarm = true }
                beeper?.play(.alarm)
            } else if !alarm, sounding {
                silenceAnchorAlarm()
            }
        } catch {
            logger.error("cannot update the anchor watch", metadata: ["error": "\(error)"])
        }
    }

    func silenceAnchorAlarm() {
        state.withLock { $0.anchorAlarm = false }
        beeper?.stop()
    }
}

/// Runs a thread-based adapter for the life of the group.
struct ThreadService: Service {
    let start: @Sendable () -> Void
    let stop: @Sendable () -> Void

    func run() async throws {
        start()
        try? await gracefulShutdown()
        stop()
    }
}

/// The heartbeat: status, backfill, pending retries; and READY=1 for systemd.
struct HeartbeatService: Service {
    let daemon: MarkTimeDaemon

    func run() async throws {
        daemon.beat()
        SystemdNotify.send("READY=1", socketPath: ProcessInfo.processInfo.environment["NOTIFY_SOCKET"])
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: daemon.options.heartbeat) }
            } catch {
                break
            }
            daemon.beat()
        }
        SystemdNotify.send("STOPPING=1", socketPath: ProcessInfo.processInfo.environment["NOTIFY_SOCKET"])
    }
}
