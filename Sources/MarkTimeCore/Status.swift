/// What the daemon publishes in the store for `marktime status` and CLI marks.
public struct DaemonStatus: Hashable, Sendable {
    public var pid: Int32
    public var bootID: String
    public var startedAt: Int64
    /// Monotonic nanoseconds of the last heartbeat.
    public var heartbeat: Int64
    /// The freshest sample of the best clock source.
    public var clock: ClockSample?
    public var fix: Fix?
    /// gpsd connection state, e.g. `connected localhost:2947`.
    public var gpsd: String
    public var buttonDevice: String?
    /// Button state, e.g. `waiting for /dev/input/marktime`.
    public var buttonState: String
    public var soundState: String
    /// The daemon stopped gracefully after this heartbeat.
    public var stopped: Bool
    /// The anchor watch's live figures, while one is set.
    public var anchor: AnchorLive?
    /// The chronometer, once a rate is learned: carrying the time while every good source is gone.
    public var chronometer: Chronometer?
    /// Why GPS time is set aside, in words, while it is.
    public var gpsSetAside: String?
    /// The RTC as a chronometer, in words, when there is one (`RTCChronometer.sentence`).
    public var rtc: String?
    /// The last fix the position check trusted: a daemon restarted in the same boot checks
    /// the next fix against it.
    public var trustedFix: Fix?

    public init(pid: Int32, bootID: String, startedAt: Int64, heartbeat: Int64, clock: ClockSample? = nil, fix: Fix? = nil,
                gpsd: String = "", buttonDevice: String? = nil, buttonState: String = "", soundState: String = "",
                stopped: Bool = false) {
        self.stopped = stopped
        self.pid = pid
        self.bootID = bootID
        self.startedAt = startedAt
        self.heartbeat = heartbeat
        self.clock = clock
        self.fix = fix
        self.gpsd = gpsd
        self.buttonDevice = buttonDevice
        self.buttonState = buttonState
        self.soundState = soundState
    }

    /// Seconds since the last heartbeat at monotonic `now`; `nil` across boots.
    public func heartbeatAge(now: MonotonicInstant) -> Double? {
        guard now.bootID == bootID else { return nil }
        return Double(now.nanoseconds - heartbeat) / 1e9
    }

    /// A daemon that beats every second is running while its last heartbeat is this recent.
    public static let liveHeartbeatSeconds = 10.0

    /// Whether the daemon runs at `now`: not stopped, this boot, a recent heartbeat.
    public func isRunning(now: MonotonicInstant) -> Bool {
        guard !stopped, let age = heartbeatAge(now: now) else { return false }
        return age <= Self.liveHeartbeatSeconds
    }

    /// The fix's position when it can stand for `use` at `now`.
    public func usablePosition(for use: FixUse, now: MonotonicInstant) -> Position? {
        guard let fix, fix.isUsable(for: use, at: now) else { return nil }
        return fix.position
    }

    /// The position of the daemon's fix when it can stand for `use` at `now`, else a
    /// refusal naming why. `what` names what asked ("--here"), `instead` what to give instead.
    public static func freshPosition(_ status: DaemonStatus?, now: MonotonicInstant, use: FixUse,
                                     what: String, instead: String) throws(InputError) -> Position {
        guard let fix = status?.fix else {
            throw InputError("\(what) needs a GPS fix, and the daemon has published none: is `marktime daemon` running with a receiver? Or give \(instead)")
        }
        switch fix.refusal(for: use, at: now) {
        case nil:
            return fix.position
        case .noPosition(let mode):
            throw InputError("\(what) needs a 2D or 3D GPS fix, and the daemon's last report has mode \(mode) (no position); give \(instead)")
        case .lost(let loss):
            throw InputError("\(what) needs a current GPS fix, and \(loss.sentence(at: now)); give \(instead)")
        case .flagged:
            throw InputError("\(what) needs a GPS fix that is not flagged, and the daemon's moved faster than the boat can (see `marktime status`); "
                + "give \(instead), or accept it with `marktime clock trust-gps`")
        case .otherBoot, .tooOld:
            let age = fix.age(at: now).map { "\(Quantity.whole($0)) s old" } ?? "from another boot"
            let limit = use.key.map { "\($0) is \(Quantity.whole(use.maxAge)) s" } ?? "the limit is \(Quantity.whole(use.maxAge)) s"
            throw InputError("\(what) needs a fresh GPS fix, and the daemon's last one is \(age) (\(limit)); give \(instead)")
        }
    }
}

/// The anchor watch as the daemon last saw it: what changes with every fix.
public struct AnchorLive: Hashable, Sendable, Codable {
    /// Identifies the watch: when it was dropped.
    public var droppedAt: UTCTime
    public var state: String
    public var lastFix: Int64?
    public var lastFixTime: UTCTime?
    public var distance: Double?
    public var bearing: Double?

    public init(droppedAt: UTCTime, state: String, lastFix: Int64?, lastFixTime: UTCTime?, distance: Double?, bearing: Double?) {
        self.droppedAt = droppedAt
        self.state = state
        self.lastFix = lastFix
        self.lastFixTime = lastFixTime
        self.distance = distance
        self.bearing = bearing
    }
}

/// Plays marktime's tones. The real one is ALSA; `play` never blocks the caller.
public protocol Beeper: Sendable {
    func play(_ tone: Tone)
    /// Ends a looping tone (the anchor alarm).
    func stop()
    /// `ready on DEVICE`, or why not: what `marktime status` shows.
    var state: String { get }
    /// Plays what is queued, then releases the device.
    func finish()
}

/// Says a sentence aloud; speech never holds up a tone.
public protocol Speaker: Sendable {
    func say(_ text: String)
    /// Stops speaking for good, at once: the daemon is stopping.
    func hush()
}

extension Speaker {
    public func hush() {}
}

extension Beeper {
    public var state: String { "ready" }
    public func finish() {}
}

/// The sounds marktime makes.
public enum Tone: String, CaseIterable, Sendable {
    /// Double beep: the sight is stored durably.
    case ok
    /// Stored, but the clock is `unsynced`.
    case warning
    /// Long low buzz: the sight could not be stored.
    case failure
    /// Anchor watch: loops until stopped.
    case alarm
    /// A reminder fell due.
    case chime
    /// A reading from the keypad is kept (three rising pips), where it is not read aloud.
    case entered
    /// A keypad entry is refused (two falling notes); the log says why.
    case refused

    /// The confirmation for a sight stored with `source`.
    public static func stored(_ source: TimeSource) -> Tone { source == .unsynced ? .warning : .ok }
}

/// Picks the UTC estimate for "now" from the system clock and what the daemon published.
public enum NowEstimate {
    /// The daemon's sample counts while fresh and from this boot; the system
    /// clock's own reading (`system` or `unsynced`) is always there to fall back on.
    public static func estimate(system: ClockSample, at instant: MonotonicInstant, published: DaemonStatus?,
                                maxSampleAge: Double) -> UTCEstimate {
        var track = ClockTrack(maxSampleAge: maxSampleAge)
        track.add(system)
        if let published, published.bootID == instant.bootID, let sample = published.clock {
            track.add(sample)
        }
        return track.estimate(at: instant.nanoseconds, now: instant.nanoseconds)
            ?? ClockTrack.project(system, to: instant.nanoseconds, driftPPM: track.driftPPM)
    }
}
