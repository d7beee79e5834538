import Foundation
import Logging
import MarkTimeCore
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeRecorder
import MarkTimeShare
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem
import ServiceLifecycle
import Synchronization
import UnixSignals

/// `marktime daemon`: the button, gpsd and the beeper around one store, as a
/// `ServiceGroup` that stops gracefully on SIGTERM or SIGINT.
///
/// This is wiring only. Every decision is the pure `DaemonCore`'s: each adapter's
/// thread feeds it an event and carries out the actions it returns. The store is
/// written by one `StoreWriter` thread, so the button's thread never waits on it.
public final class MarkTimeDaemon: Sendable {
    public struct Options: Sendable {
        public var settings: Settings
        public var buttonPath: String
        public var gpsdAddress: String
        public var heartbeat: Duration = .seconds(1)
        /// Where the live status goes; nil: `StatusFile.choose`.
        public var statusFile: String?
        /// The phone page's command line (`marktime web …`), run as a supervised child; nil: none.
        public var web: [String]?
        /// Reads the settings again, for SIGHUP; nil: SIGHUP is ignored.
        public var reload: (@Sendable () throws -> Settings)?

        public init(settings: Settings, buttonPath: String, gpsdAddress: String) {
            self.settings = settings
            self.buttonPath = buttonPath
            self.gpsdAddress = gpsdAddress
        }
    }

    /// The adapters the daemon drives; tests pass fakes.
    public struct Adapters: Sendable {
        public var clock: any SystemClockSource
        public var button: any ButtonSource
        public var gps: any GPSSource
        public var beeper: (any Beeper)?
        /// The MQTT connection when share.enabled.
        public var share: (any ShareTransport)?
        /// Why sharing is off although share.enabled (its settings' problem).
        public var shareProblem: String?
        /// The RTC kept as a chronometer (`clock.rtc`); nil: none.
        public var rtc: (any RTCSource)?
        /// What the reminder thread sleeps on; nil: a real `WallTimer`.
        public var wallTimer: (any WallTimerSource)?
        /// The keypad that sets a sight's reading (`keypad.device`); nil: none.
        public var keypad: (any ButtonSource)?
        /// What reads entries and presets aloud (`sound.speech`); nil: none.
        public var speaker: (any Speaker)?
        /// What records voice memos (`memo.device`); nil: none.
        public var memo: (any MemoRecorder)?

        public init(clock: any SystemClockSource, button: any ButtonSource, gps: any GPSSource, beeper: (any Beeper)?,
                    share: (any ShareTransport)? = nil) {
            self.clock = clock
            self.button = button
            self.gps = gps
            self.beeper = beeper
            self.share = share
        }

        /// The real ones: the system clock, the evdev button, gpsd and ALSA.
        public static func real(_ options: Options, logger: Logger) throws -> Adapters {
            let s = options.settings
            let clock = try SystemClock(trustSynchronised: try s.clock.trustSystem)
            let sound = try s.sound
            let player = sound.enabled ? try ALSABeeper(device: sound.device, volume: sound.volume, logger: logger) : nil
            var adapters = Adapters(clock: clock,
                            button: try EvdevButton(path: options.buttonPath, grab: try s.button.grab, logger: logger),
                            gps: try GPSDClient(address: options.gpsdAddress, nmeaUncertainty: try s.clock.nmeaUncertainty,
                                                 silence: try s.gpsdSilence, clock: clock, logger: logger),
                            beeper: player,
                            share: nil)
            if let player, sound.speech { adapters.speaker = try EspeakSpeech(voice: sound.voice, volume: sound.volume, player: player, logger: logger) }
            adapters.rtc = try s.clock.rtc.map { RTCClock(path: $0) }
            adapters.keypad = try s.keypad.map { k throws(DeviceError) in try EvdevButton(path: k.device, grab: k.grab, logger: logger, name: "marktime-keypad") }
            adapters.memo = try s.memo.map { m throws(DeviceError) in try ALSACapture(device: m.device, limit: m.limit) }
            do {
                adapters.share = try sharing(s, clock: clock)
            } catch {
                adapters.shareProblem = "\(error)"
            }
            return adapters
        }

        /// The MQTT connection when share.enabled. A problem with sharing's settings turns
        /// sharing off (reported when the daemon runs), and never stops the daemon.
        static func sharing(_ s: Settings, clock: SystemClock) throws -> (any ShareTransport)? {
            let share = try s.share
            guard share.enabled else { return nil }
            return try ShareService.transport(share, will: OwnTracks.lastWill(time: try clock.read().realtime))
        }
    }

    let options: Options
    let store: AppDatabase
    let clock: any SystemClockSource
    let logger: Logger
    let button: any ButtonSource
    let gps: any GPSSource
    let beeper: (any Beeper)?
    let reminders: ReminderLoop
    let share: ShareService?
    let shareProblem: String?
    let rtc: (any RTCSource)?
    let keypad: (any ButtonSource)?
    let speaker: (any Speaker)?
    let memo: (any MemoRecorder)?
    /// How often the RTC is read (`RTCChronometer.readingInterval`).
    static let rtcInterval: Duration = .seconds(RTCChronometer.readingInterval)
    let rtcThread: PollThread
    let core: Mutex<DaemonCore>
    let pendingPresses: PendingPresses
    /// The settings now: the start's, or the last reload's.
    let settings: Mutex<Settings>
    let statusFile: StatusFile
    /// One daemon per store, held for this one's life (none for an in-memory store).
    let lock: DaemonLock?
    /// The store file that was opened; nil for an in-memory store.
    let storeFile: FileIdentity?
    let storeSideFiles: [String]
    /// What the store's path names now, as last checked (`storeChanged`).
    let storeState = Mutex(FileIdentity.Change.same)
    /// The writer thread's own state: the anchor watch it keeps, and its live figures.
    let anchor = Mutex<(keeper: AnchorKeeper, live: AnchorLive?)>((AnchorKeeper(), nil))
    /// The one thread that writes the store (started by `run`).
    let writer = StoreWriter()
    private let group = Mutex<ServiceGroup?>(nil)

    public convenience init(options: Options, store: AppDatabase, logger: Logger) throws {
        try self.init(options: options, store: store, logger: logger, adapters: .real(options, logger: logger))
    }

    public init(options: Options, store: AppDatabase, logger: Logger, adapters: Adapters) throws {
        // First, before the status file or the doorbell could be taken from a daemon that runs.
        lock = try Self.lock(store.path)
        self.options = options
        settings = Mutex(options.settings)
        storeFile = store.path == ":memory:" ? nil : FileIdentity.of(store.path)
        storeSideFiles = FileIdentity.sideFiles(of: store.path)
        self.store = store
        self.logger = logger
        clock = adapters.clock
        button = adapters.button
        gps = adapters.gps
        beeper = adapters.beeper
        let s = options.settings
        core = Mutex(DaemonCore(configuration: try .init(settings: s, pid: ProcessInfo.processInfo.processIdentifier, buttonDevice: options.buttonPath)))
        pendingPresses = PendingPresses(storePath: store.path)
        statusFile = options.statusFile.map(StatusFile.init) ?? StatusFile.choose(storePath: store.path,
                                                                                    environment: ProcessInfo.processInfo.environment)
        shareProblem = adapters.shareProblem
        rtc = adapters.rtc
        keypad = adapters.keypad
        speaker = adapters.speaker
        memo = adapters.memo
        rtcThread = try PollThread(name: "marktime-rtc")
        reminders = try ReminderLoop(store: store, clock: adapters.clock, timer: try adapters.wallTimer ?? WallTimer())
        if let transport = adapters.share {
            let clock = adapters.clock
            share = ShareService(settings: try s.share, rules: try s.geofenceRules, store: store, transport: transport,
                                 statePath: statusFile.sharePath,
                                 now: { (try? clock.read().realtime) ?? UTCTime(nanosecondsSinceEpoch: 0) },
                                 submit: { [writer] durable, job in writer.submit(.share(job, durable: durable)) })
        } else {
            share = nil
        }
        reminders.feed = { [unowned self] in feed($0) }
        let clock = adapters.clock
        reminders.monotonic = { (try? clock.read())?.instant.nanoseconds ?? Clocks.monotonicNanoseconds() }
        reminders.skyAlarmMinutes = { [unowned self] in try? settings.withLock { $0 }.skyAlarmMinutes }
        reminders.boat = { [unowned self] in
            // The last fix that is not flagged, moving at its course and speed over ground.
            guard let f = core.withLock({ $0.fix }), f.flag == nil, let reading = try? clock.read() else { return nil }
            // Dated on the wall clock the warnings run on: the fix was that old.
            let age = max(0, reading.instant.nanoseconds - f.receivedAt.nanoseconds)
            return DeadReckoning(f.position, at: reading.realtime.adding(nanoseconds: -age), course: f.course ?? 0, knots: (f.speed ?? 0) * 3600 / 1852)
        }
        share?.report = { [unowned self] in report($0) }
    }

    /// The store's daemon lock; a second daemon is refused with the first one's pid.
    static func lock(_ store: String) throws -> DaemonLock? {
        guard store != ":memory:" else { return nil }
        do {
            return try DaemonLock.acquire(store: store)
        } catch let held as DaemonLock.Held {
            throw InputError("another marktime daemon\(held.pid.map { " (pid \($0))" } ?? "") runs on store \(store): "
                + "stop it first (`sudo systemctl stop marktime`), or give this one another --store")
        } catch {
            throw InputError("cannot lock store \(store) for the daemon (\(DaemonLock.path(forStore: store))): \(error); check that you may write its folder")
        }
    }

    /// Stops the daemon as SIGTERM does.
    public func shutdown() async {
        await group.withLock { $0 }?.triggerGracefulShutdown()
    }

    /// Runs until SIGTERM or SIGINT.
    public func run() async throws {
        // Trapped first: a signal that comes before the services run waits for them, so a
        // stop right after the start (SIGTERM) is as clean as any other, and SIGHUP cannot kill.
        let signals = await UnixSignalsSequence(trapping: .sighup, .sigusr1, .sigterm, .sigint, .sigquit)
        // Before the threads start: freed heap memory handed back to the kernel at once
        // cost the writer's thread ~60 page faults, about 1 ms on the rig, in every commit.
        if let shareProblem { report(.failed(.sharing, error: shareProblem)) }
        report(.heapKept(bytes: Heap.keepFreedMemory(upTo: Heap.daemonKeeps) ? Heap.daemonKeeps : nil))
        let now = try clock.read()
        do {
            let grown = try store.reserveWAL()
            if grown > 0 { report(.walReserved(bytes: grown)) }
        } catch {
            report(.failed(.reserveWAL, error: "\(error)"))
        }
        writer.start { [unowned self] in perform($0) }
        let saved = (try? store.track(bootID: clock.bootID)) ?? []
        let earlier = try? store.daemonStatus()
        feed(.started(bootID: clock.bootID, now: now.instant.nanoseconds, track: saved, pending: waitingPresses()))
        if let fix = earlier?.trustedFix { feed(.earlierTrustedFix(fix)) }
        if let line = try? store.lastRate(before: clock.bootID) { feed(.rateBook(line)) }
        // The RTC's line: this boot's own after a restart, else the last earlier boot's.
        if rtc != nil, let line = (try? store.rateLine(of: clock.bootID, clock: RTCChronometer.clock)) ?? (try? store.lastRate(before: clock.bootID, clock: RTCChronometer.clock)) {
            feed(.rateBook(line))
        }
        feed(.clock(now.sample))
        try store.publish(status(core.withLock { $0.status(now: now.instant.nanoseconds) }), statusFile: statusFile.path)
        let services: [any Service] = [
            ThreadService(start: { [self] in gps.start(handle) }, stop: { [self] in gps.stop() }),
            ThreadService(start: { [self] in
                button.start(handle, state: { s in self.feed(.button(s)) })
            }, stop: { [self] in button.stop() }),
            HeartbeatService(daemon: self),
            SignalService(daemon: self, signals: signals),
            ThreadService(start: { [self] in reminders.start() }, stop: { [self] in reminders.stop() }),
        ] + (rtc.map { rtc in [ThreadService(start: { [self] in rtcThread.start { [self] t in readRTC(rtc, on: t) } },
                                              stop: { [self] in rtcThread.stop() })] } ?? [])
            + (keypad.map { keypad in [ThreadService(start: { [self] in
                keypad.start({ [self] signal in
                    switch signal {
                    case .event(let e): feed(.keypad(e))
                    case .dropped: feed(.keypadDropped)
                    case .replayed, .resynced: break
                    }
                }, state: { _ in })
            }, stop: { keypad.stop() })] } ?? [])
            + (memo.map { memo in [ThreadService(start: { [self] in memo.start { [self] take in memoTaken(take) } }, stop: { memo.stop() })] } ?? [])
            + (share.map { share in [ThreadService(start: { [self] in
            do {
                let me = try? store.members().first(where: \.isMe)
                try share.start(boatName: me?.name ?? share.settings.user, at: me?.geofence.place)
            } catch {
                report(.failed(.sharing, error: "\(error)"))
            }
        }, stop: { share.stop() })] } ?? [])
            + (options.web.map { [ChildSupervisor(name: "phone page", command: $0, report: { [unowned self] in report($0) })] } ?? [])
        let group = ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                      logger: logger))
        self.group.withLock { $0 = group }
        report(.started(store: store.path, button: options.buttonPath, gpsd: options.gpsdAddress, statusFile: statusFile.path))
        try await group.run()
        let replaced = storeState.withLock { $0 } == .replaced
        let end = (try? clock.read())?.instant.nanoseconds ?? now.instant.nanoseconds
        feed(.stopping(now: end))
        writer.stop()
        do {
            // Not into a store that is no longer at its path (its WAL may still be there).
            if !storeChanged() { try store.publish(status(core.withLock { $0.status(now: end, stopping: true) }), statusFile: statusFile.path) }
        } catch {
            report(.failed(.recordStop, error: "\(error)"))
        }
        statusFile.remove()
        // Speech is cut off: a sentence of up to 20 s must not hold up the stop.
        speaker?.hush()
        beeper?.finish()
        report(.stopped)
        if storeState.withLock({ $0 }) == .frozen {
            // SQLite's close would write its shared memory, which the kernel answers with
            // SIGBUS once the file is immutable: leave without closing; the WAL is kept, and
            // the next open recovers from it.
            exit(0)
        }
        if replaced {
            throw InputError("the store at \(store.path) was replaced while the daemon ran; it stopped to open the new file: "
                + "systemd starts it again, or run `marktime daemon` again")
        }
    }

    /// SIGHUP: reads the config again. The core takes the button's and the sight's rules,
    /// the writer the places' and the anchor's; what needs a restart is logged as such. A
    /// config that does not load changes nothing.
    func reload() {
        guard let load = options.reload else { return report(.signalIgnored("SIGHUP")) }
        do {
            let new = try load()
            let configuration = try DaemonCore.Configuration(settings: new)
            let old = settings.withLock { s in
                defer { s = new }
                return s
            }
            feed(.reconfigure(configuration))
            let (live, restart) = old.reload(to: new)
            report(.reloaded(live: live, restart: restart))
        } catch {
            report(.failed(.reload, error: "\(error)"))
        }
    }

    /// Tells the core what an adapter saw or could not do.
    func report(_ report: DaemonReport) { feed(.report(report)) }

    /// Reads the RTC at once, then every `rtcInterval`, until the daemon stops.
    private func readRTC(_ rtc: any RTCSource, on thread: PollThread) {
        repeat {
            do {
                let reading = try rtc.read()
                report(.succeeded(.readRTC(path: rtc.path)))
                feed(.rtc(reading))
            } catch {
                report(.failed(.readRTC(path: rtc.path), error: "\(error)"))
            }
        } while (try? thread.wait([], timeout: Self.rtcInterval)) == .timedOut
    }

    /// Hands an event to the core and carries out its actions.
    func feed(_ event: DaemonCore.Event) {
        let actions = core.withLock { $0.handle(event) }
        for action in actions { carryOut(action) }
    }

    /// gpsd's thread.
    func handle(_ report: GPSReport) {
        switch report {
        case .state(let text): feed(.gpsd(text))
        case .fix(let fix):
            feed(.fix(fix))
            // A position flagged as faster than the boat is not published to the family.
            if core.withLock({ $0.fix?.flag }) == nil { share?.fix(fix) }
        case .clock(let sample): feed(.clock(sample))
        case .noFix(let mode, let at): feed(.noFix(mode: mode, at: at.nanoseconds))
        case .silent(let since, let address): feed(.gpsdSilent(since: since.nanoseconds, address: address))
        }
    }

    /// The button's thread: it stamps and hands on, and never waits on the store.
    func handle(_ signal: ButtonSignal) {
        switch signal {
        case .event(let e):
            // A failed clock read must not lose the press: the track's samples still count.
            let clock = e.type == InputEvent.keyType && e.value == 1 ? (try? self.clock.read())?.sample : nil
            feed(.input(e, clock: clock))
        case .dropped(let at):
            feed(.inputDropped(at: at, clock: (try? clock.read())?.sample))
        case .replayed(let e):
            feed(.replayed(e))
        case .resynced:
            feed(.resynced)
        }
    }

    /// At most this many of sharing's writes in one transaction, holding the write lock
    /// no longer than `shareBatchHold` ns; then the lane rests `shareRest` ns when work is
    /// left (longer than the 100 ms between SQLite's busy retries, so one falls in it).
    static let shareBatchLimit = 500
    static let shareBatchHold: Int64 = 50_000_000
    static let shareRest: Int64 = 150_000_000

    /// The heartbeat.
    func beat() {
        storeChanged()
        share?.beat()
        guard let reading = try? clock.read() else { return }
        // Presses that another process kept in the pending-presses file land here. When
        // the store holds every one (a crash came between a commit and the file letting go
        // of it, or the writer that stored them is gone), the file lets go of them.
        if core.withLock({ $0.pending.isEmpty }), !pendingPresses.isEmpty {
            let waiting = waitingPresses()
            if waiting.isEmpty { writer.submit(.settlePending) } else { feed(.pendingFound(waiting)) }
        }
        feed(.tick(now: reading.instant.nanoseconds, clock: reading.sample))
    }

    /// The presses in the pending-presses file that the store does not hold yet (one that
    /// landed a moment ago, or before a restart, is the writer's to let go of).
    func waitingPresses() -> [Sight] {
        pendingPresses.load().filter { !((try? store.contains($0.instant)) ?? false) }
    }

    /// The status as published: the core's, with the sound and the anchor watch.
    func status(_ s: DaemonStatus) -> DaemonStatus {
        var s = s
        s.soundState = beeper?.state ?? "off (sound.enabled = false)"
        s.anchor = anchor.withLock { $0.live }
        return s
    }

    func carryOut(_ action: DaemonCore.Action) {
        switch action {
        case .insert(let sight): writer.submit(.insert(sight, queuedAt: SystemClock.monotonicNow()))
        case .keepPending(let sight):
            // Synchronously, on the writer's thread that learnt of the failure: the buzz comes after it.
            perform(.keepPending(sight))
        case .settlePending: writer.submit(.settlePending)
        case .beep(let tone): beeper?.play(tone)
        case .silenceAlarm: beeper?.stop()
        case .resendPlaces: share?.placesChanged()
        case .answer(let answer, let to): reminders.doorbell?.answer(answer.text, to: to)
        case .answerSignal(let answer, let to): reminders.doorbell?.answer(answer.text, to: to)
        case .acknowledgeAnchor: writer.submit(.acknowledgeAnchor)
        case .recordGap(let gap): writer.submit(.gap(gap))
        case .publish(let s):
            do {
                try statusFile.write(status(s))
                report(.succeeded(.statusFile(path: statusFile.path)))
            } catch {
                report(.failed(.statusFile(path: statusFile.path), error: "\(error)"))
            }
        case .setReading(let request): writer.submit(.reading(request))
        case .speak(let text): speaker?.say(text)
        case .speakPreset: speakPreset()
        case .memo(let command): memo?.command(command)
        case .saveTrack(let entries): writer.submit(.track(entries))
        case .saveRate(let line): writer.submit(.rate(line))
        case .backfill(let track): writer.submit(.backfill(track))
        case .watch(let fixes, let now):
            writer.submit(.watch(fixes.compactMap { f in f.time.map { GeoFix(position: f.position, error: f.horizontalError, time: $0) } }, now: now))
        case .log(let line):
            logger.log(level: line.level.swiftLog, "\(line.message)", metadata: line.metadata.mapValues { .string($0) })
        }
    }

    /// Whether the store's path still names the file that was opened; reported once when
    /// it does not. A replaced store stops the daemon, to be started on the new file.
    @discardableResult
    func storeChanged() -> Bool {
        guard let storeFile else { return false }
        let now = storeFile.check(store.path, sideFiles: storeSideFiles)
        let before = storeState.withLock { s in
            defer { s = now }
            return s
        }
        guard now != before else { return now != .same }
        switch now {
        case .same: break
        case .gone: report(.storeGone(path: store.path, pending: pendingPresses.path))
        case .frozen: report(.storeFrozen(path: store.path, pending: pendingPresses.path))
        case .replaced:
            report(.storeReplaced(path: store.path))
            Task { await shutdown() }
        }
        return now != .same
    }

    /// The writer's thread. No write goes to a store that is no longer at its path: a
    /// press is kept in the pending-presses file, other writes wait for the restart.
    func perform(_ job: StoreWriter.Job) {
        switch job {
        case .insert(let sight, _) where storeChanged():
            let frozen = storeState.withLock { $0 } == .frozen
            return feed(.storeFailed(sight, reason: frozen ? "the store's files at \(store.path) are immutable" : "the store is no longer at \(store.path)"))
        case .keepPending, .settlePending, .insert:
            break
        default:
            if storeChanged() { return }
        }
        switch job {
        case .insert(let sight, let queuedAt):
            do {
                let started = SystemClock.monotonicNow()
                let stored = try store.insert(sight)
                feed(.stored(stored, timing: CommitTiming(queuedAt: queuedAt, startedAt: started, committedAt: SystemClock.monotonicNow())))
            } catch {
                feed(.storeFailed(sight, reason: "\(error)"))
            }
        case .keepPending(let sight):
            do { try pendingPresses.append(sight) } catch {
                report(.failed(.pendingFile, error: "\(error)"))
            }
        case .settlePending:
            do { try pendingPresses.settle { (try? store.contains($0.instant)) ?? false } } catch {
                report(.failed(.settlePending, error: "\(error)"))
            }
        case .acknowledgeAnchor:
            do { _ = try store.updateAnchorWatch(settings: settings.withLock { $0 }) { w, _ in w.acknowledge() } } catch {
                report(.failed(.acknowledgeAnchor, error: "\(error)"))
            }
        case .gap(let gap):
            do { try store.recordGap(gap) } catch {
                report(.failed(.recordGap, error: "\(error)"))
            }
        case .track(let entries):
            do { try store.saveTrack(entries, bootID: clock.bootID) } catch {
                report(.failed(.saveTrack, error: "\(error)"))
            }
        case .rate(let line):
            do { try store.saveRate(line) } catch {
                report(.failed(.saveRate, error: "\(error)"))
            }
        case .backfill(let track):
            backfill(track)
        case .reading(let request):
            setReading(request)
        case .memo(let memo, let press):
            do { feed(.memo(.kept(try store.keepMemo(memo, pressedAt: press)))) } catch {
                feed(.memo(.failed(error.description)))
            }
        case .watch(let fixes, let now):
            watch(fixes, now: now)
        case .share(let write, let durable):
            // A write that must be synced goes alone. Others, with those queued behind them,
            // in one transaction committed without its own sync (the next sight's commit
            // syncs it): a burst of friends' messages costs one cheap commit, not one fsync
            // each, and a press or the anchor watch ends the batch at the next write. What
            // follows the commit (the state file, the outbox's pump: a pump on another thread
            // meanwhile could not read what the batch queued) comes after a waiting press.
            if durable {
                write(store)
                return
            }
            // A batch holds the write lock for `shareBatchHold` at most; one that ended with
            // work left rests the lane, so that the CLI's writes get in between two batches.
            var count = 0
            var full = false
            let started = SystemClock.monotonicNow()
            do {
                try store.batch(synced: false) { batch in
                    write(batch)
                    while true {
                        full = count >= Self.shareBatchLimit || SystemClock.monotonicNow() - started >= Self.shareBatchHold
                        guard !full, let next = writer.nextShare() else { break }
                        next(batch)
                        count += 1
                    }
                }
            } catch {
                report(.failed(.shareBatch(jobs: count + 1), error: "\(error)"))
            }
            if full { writer.restShares(for: Self.shareRest) }
            if let share { writer.submit(.afterShare { share.committed() }) }
        case .afterShare(let work):
            work()
        }
    }

    /// Says the plan's next body aloud at the boat's position now (its last fix that is not
    /// flagged): the first of the chosen set not shot in the hour, with its predicted Hs.
    func speakPreset() {
        guard let speaker else { return }
        do {
            guard let reading = try? clock.read(), let (fix, utc) = core.withLock({ c -> (Fix, UTCTime)? in
                guard let f = c.fix, f.flag == nil, let sample = c.status(now: reading.instant.nanoseconds).clock else { return nil }
                return (f, sample.utc.adding(nanoseconds: reading.instant.nanoseconds - sample.monotonicNanoseconds))
            }) else { throw InputError("no GPS fix and time for a plan") }
            let recent = try store.sights(SightQuery(limit: 50))
            let sextant = try SextantReading.planned(eyeHeight: nil, indexError: nil, celsius: nil, hectopascals: nil, limb: .lower,
                                                     newest: recent.first { $0.eyeHeight != nil })
            speaker.say(try ReadingEntry.presetSpoken(at: utc, from: fix.position, sextant: sextant, recent: recent))
        } catch {
            feed(.presetUnavailable("\(error)"))
        }
    }

    /// A memo captured: compressed here, on the capture's thread, then kept by the writer.
    func memoTaken(_ take: MemoTake) {
        switch take {
        case .failed(let reason):
            feed(.memo(.failed(reason)))
        case .recorded(let press, let samples, let rate, let cut):
            do {
                let flac = try FLACCodec.encode(samples, sampleRate: rate)
                let now = (try? clock.read().realtime) ?? UTCTime(nanosecondsSinceEpoch: 0)
                writer.submit(.memo(SightMemo(sightID: 0, sampleRate: rate, frames: samples.count, cut: cut, data: flac, createdAt: now), press: press))
            } catch {
                feed(.memo(.failed(error.description)))
            }
        }
    }

    /// A reading from the keypad on the sight it names (else the newest), kept or refused.
    func setReading(_ request: ReadingRequest) {
        do {
            let sight = try request.sightID.map { id throws(StoreError) in try store.sight(id: id).sight } ?? store.sights(SightQuery(limit: 1)).first
            guard let sight else {
                return feed(.readingRefused("no sight to set: press the button first, then type its reading", asker: request.asker))
            }
            let (edit, change) = try ReadingEntry.edit(sight, request.change)
            _ = try store.edit(id: change.sightID, edit, now: try clock.read().realtime)
            feed(.readingKept(change, asker: request.asker))
        } catch {
            feed(.readingRefused("\(error)", asker: request.asker))
        }
    }

    func backfill(_ track: ClockTrack) {
        guard let reading = try? clock.read() else { return }
        do {
            var refused: [RefusedRestamp] = []
            let changed = try store.backfill(bootID: clock.bootID, now: reading.realtime) { sight in
                switch track.backfill(instant: sight.instant.nanoseconds, stored: sight.estimate) {
                case .better(let estimate):
                    return estimate
                case .refused(let candidate, let moved):
                    refused.append(RefusedRestamp(sight: sight.id ?? 0, stored: sight.estimate, candidate: candidate, moved: moved))
                    return nil
                case nil:
                    return nil
                }
            }
            if !changed.isEmpty { feed(.restamped(changed)) }
            if !refused.isEmpty { feed(.restampRefused(refused)) }
        } catch {
            report(.failed(.backfill, error: "\(error)"))
        }
    }

    /// The geofence and the anchor watch; each writes only when something changed.
    func watch(_ fixes: [GeoFix], now: Int64) {
        for fix in fixes {
            do {
                let events = try store.report(fix, member: nil, rules: settings.withLock { $0 }.geofenceRules, quiet: true)
                if !events.isEmpty {
                    feed(.placeEvents(events.map { .init(entered: $0.kind == .enter, place: $0.place, time: $0.time, position: $0.position) }))
                }
                share?.transitions(events, error: fix.error)
            } catch {
                report(.failed(.placesFix, error: "\(error)"))
            }
        }
        do {
            let current = settings.withLock { $0 }
            let result = try anchor.withLock { a in
                try a.keeper.update(fixes, now: now, bootID: clock.bootID, settings: current, store: store)
            }
            let live = result.map { r in
                AnchorLive(droppedAt: r.watch.droppedAt, state: r.watch.watch.state.rawValue, lastFix: r.watch.watch.lastFix,
                           lastFixTime: r.watch.watch.lastFixTime, distance: r.watch.watch.distance, bearing: r.watch.watch.bearing)
            }
            anchor.withLock { $0.live = live }
            if let (stored, actions) = result {
                let w = stored.watch
                if actions.contains(.warnStale) { feed(.anchor(.stale(details: ["stale_after_s": "\(Quantity.whole(w.staleAfter))"]))) }
                feed(.anchor(.alarm(w.state == .alarm, details: [
                    "distance_m": "\(Quantity.whole(w.distance ?? 0))", "radius_m": "\(Quantity.whole(w.radius))",
                    "bearing_deg": "\(Quantity.whole(w.bearing ?? 0))",
                ])))
            } else {
                feed(.anchor(.alarm(false)))
            }
        } catch {
            report(.failed(.anchorWatch, error: "\(error)"))
        }
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

/// SIGHUP reloads the config; SIGTERM, SIGINT and SIGQUIT stop the group gracefully, also
/// when they came before it ran; SIGUSR1 is logged and ignored.
struct SignalService: Service {
    let daemon: MarkTimeDaemon
    let signals: UnixSignalsSequence

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await signal in signals {
                switch signal {
                case .sighup: daemon.reload()
                case .sigterm, .sigint, .sigquit: await daemon.shutdown()
                default: daemon.report(.signalIgnored("\(signal)".uppercased()))
                }
            }
        }
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
