import Foundation
import Logging
import MarkTimeCore
import MarkTimeDaemon
import MarkTimeDevices
import MarkTimeStore
import MarkTimeSystem
import RigSupport
import Synchronization

// The daemon on fakes of its devices, for its tests and the share-burst benchmark.

public let logDay: Int64 = 1_176_025_975_000_000_000
public let second: Int64 = 1_000_000_000

/// A clock whose monotonic time the test sets; its realtime is unsynchronised.
public final class FakeClock: SystemClockSource {
    public let bootID = "boot-fake"
    public let monotonic = Mutex<Int64>(100 * second)
    /// Realtime minus monotonic time, ns.
    public let realtimeOffset = Mutex<Int64>(5 * second)

    public init() {}

    public func read() throws(DeviceError) -> SystemClockReading {
        let now = monotonic.withLock { $0 }
        return SystemClockReading(instant: MonotonicInstant(bootID: bootID, nanoseconds: now),
                                  realtime: UTCTime(nanosecondsSinceEpoch: realtimeOffset.withLock { $0 } + now), synchronised: false, estimatedError: 0)
    }
}

/// A button the test presses by hand.
public final class FakeButton: ButtonSource {
    let signal = Mutex<(@Sendable (ButtonSignal) -> Void)?>(nil)

    public init() {}

    public func start(_ signal: @escaping @Sendable (ButtonSignal) -> Void, state: @escaping @Sendable (String) -> Void) {
        state("ready: fake")
        self.signal.withLock { $0 = signal }
    }

    public func stop() { signal.withLock { $0 = nil } }

    public var started: Bool { signal.withLock { $0 != nil } }
    public func send(_ s: ButtonSignal) { signal.withLock { $0 }?(s) }
}

/// gpsd, played by the test.
public final class FakeGPS: GPSSource {
    let report = Mutex<(@Sendable (GPSReport) -> Void)?>(nil)
    public init() {}
    public func start(_ report: @escaping @Sendable (GPSReport) -> Void) { self.report.withLock { $0 = report } }
    public func stop() { report.withLock { $0 = nil } }
    public var started: Bool { report.withLock { $0 != nil } }
    public func send(_ r: GPSReport) { report.withLock { $0 }?(r) }
}

/// Records the tones asked for, and when (CLOCK_MONOTONIC ns).
public final class FakeBeeper: Beeper {
    let tones = Mutex<[(tone: Tone, at: Int64)]>([])
    public init() {}
    public func play(_ tone: Tone) { tones.withLock { $0.append((tone, SystemClock.monotonicNow())) } }
    let stopped = Mutex(0)
    public func stop() { stopped.withLock { $0 += 1 } }
    public var played: [Tone] { tones.withLock { $0.map(\.tone) } }
    /// How many times a tone (the looping alarm) was stopped.
    public var stops: Int { stopped.withLock { $0 } }
    /// The tones with the monotonic time each was asked for.
    public var timed: [(tone: Tone, at: Int64)] { tones.withLock { $0 } }
}

/// Records what is said.
public final class FakeSpeaker: Speaker {
    let texts = Mutex<[String]>([])
    public init() {}
    public func say(_ text: String) { texts.withLock { $0.append(text) } }
    public var said: [String] { texts.withLock { $0 } }
    let hushes = Mutex(0)
    public func hush() { hushes.withLock { $0 += 1 } }
    /// How many times speech was cut off for good.
    public var hushed: Int { hushes.withLock { $0 } }
}

/// A microphone that hears `samples` (mono, 16 kHz) for any memo kept, or fails with
/// `failure`; it keeps the commands the daemon gave it.
public final class FakeMemo: MemoRecorder {
    let state = Mutex<(commands: [MemoCommand], taken: (@Sendable (MemoTake) -> Void)?)>(([], nil))
    public let samples: [Int16]
    public let failure: String?
    public init(samples: [Int16] = (0..<8000).map { Int16(truncatingIfNeeded: $0 * 37 % 20011 - 10000) }, failure: String? = nil) {
        (self.samples, self.failure) = (samples, failure)
    }
    public func start(_ taken: @escaping @Sendable (MemoTake) -> Void) { state.withLock { $0.taken = taken } }
    public func command(_ command: MemoCommand) {
        let taken = state.withLock { s in
            s.commands.append(command)
            return s.taken
        }
        guard case .keep(let keep) = command else { return }
        taken?(failure.map { .failed($0) }
            ?? .recorded(press: keep.press, samples: samples, sampleRate: MemoSettings.sampleRate, cut: keep.cut))
    }
    public func stop() { state.withLock { $0.taken = nil } }
    public var commands: [MemoCommand] { state.withLock { $0.commands } }
}

/// The reminder thread's wall-clock timer, fired by the test. It keeps the time it was last
/// armed for, and whether every firing has been drained before that arm: the thread drains
/// after each wake and arms again once it has done what the wake asked.
public final class FakeWallTimer: WallTimerSource {
    public let fd: Int32
    let writeEnd: Int32
    struct State { var armed: Int64?, arms = 0, fired = 0, drained = 0, drainedAtArm = 0 }
    let state = Mutex(State())

    public init() {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe: errno \(errno)")
        (fd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }

    public func arm(at nanoseconds: Int64?) {
        state.withLock { $0.armed = nanoseconds; $0.arms += 1; $0.drainedAtArm = $0.drained }
    }

    public func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(fd, &bytes, bytes.count)
            guard n > 0 else { return }
            state.withLock { $0.drained += n }
        }
    }

    /// Wakes the thread, as the time it was armed for (or a clock step) would.
    public func fire() {
        state.withLock { $0.fired += 1 }
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// The wall-clock time, ns since the epoch, it was last armed for; nil: never, or nothing to wait for.
    public var armed: Int64? { state.withLock { $0.armed } }
    /// Whether the thread has armed it again after draining every firing: it has done what they asked.
    public var settled: Bool { state.withLock { $0.arms > 0 && $0.drainedAtArm == $0.fired } }

    deinit { close(fd); close(writeEnd) }
}

/// Runs the daemon's tasks on their own serial dispatch queue, off the cooperative pool,
/// which other suites may hold with blocking waits on a 2-core machine.
public final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    let queue = DispatchQueue(label: "marktime-test-daemon")

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Polls `condition` without blocking a thread of the cooperative pool (the daemon runs there
/// too), for up to `seconds` times the patience factor (`RigSupport.waitUntil`). The limit
/// is generous: a loaded machine may be slow, and a condition that holds returns at once.
public func waitFor(_ seconds: Double = 20, _ condition: () throws -> Bool) async throws -> Bool {
    try await waitUntil(within: seconds) { try condition() }
}

/// The daemon on a new store in a folder of its own, its clock, button, gpsd, beeper and
/// reminder timer fakes.
public struct DaemonOnFakes {
    public let folder: String
    public let store: AppDatabase
    public let daemon: MarkTimeDaemon
    public let clock: FakeClock
    public let button = FakeButton(), gps = FakeGPS(), beeper = FakeBeeper(), timer = FakeWallTimer()
    /// The keypad (`keypad.device`) and the speaker, always there on fakes.
    public let keypad = FakeButton(), speaker = FakeSpeaker()
    /// The memo's microphone (used with `memo.device` set).
    public let memo: FakeMemo

    /// With `settings`, a `share` transport, and a heartbeat other than 1 s when given; in
    /// `folder` (another daemon's, after it stopped: its store) and on `clock` when given.
    public init(settings: Settings = Settings(), share: (any ShareTransport)? = nil, heartbeat: Duration? = nil,
                logger: Logger = Logger(label: "test"), folder: String? = nil, clock: FakeClock = FakeClock(), memo: FakeMemo = FakeMemo()) throws {
        self.memo = memo
        self.folder = folder ?? NSTemporaryDirectory() + "marktime-daemon-" + UUID().uuidString
        self.clock = clock
        try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
        store = try AppDatabase(path: self.folder + "/marktime.sqlite", createDirectory: false)
        var options = MarkTimeDaemon.Options(settings: settings, buttonPath: "/dev/input/fake", gpsdAddress: "fake")
        options.statusFile = self.folder + "/status.json"
        if let heartbeat { options.heartbeat = heartbeat }
        var adapters = MarkTimeDaemon.Adapters(clock: clock, button: button, gps: gps, beeper: beeper, share: share)
        adapters.wallTimer = timer
        adapters.keypad = keypad
        adapters.speaker = speaker
        adapters.memo = memo
        daemon = try MarkTimeDaemon(options: options, store: store, logger: logger, adapters: adapters)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: folder) }
}


/// The messages the daemon logged, kept for a test to wait on.
public final class LogLines: Sendable {
    let lines = Mutex<[(message: String, metadata: [String: String])]>([])
    public init() {}
    public var messages: [String] { lines.withLock { $0.map(\.message) } }
    /// The value of `key` in each line whose message is `message`, in order.
    public func values(_ key: String, of message: String) -> [String] {
        lines.withLock { $0.filter { $0.message == message }.compactMap { $0.metadata[key] } }
    }
    /// A logger that keeps its messages here.
    public var logger: Logger { Logger(label: "test") { _ in Handler(lines: self) } }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
            let all = self.metadata.merging(metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            lines.lines.withLock { $0.append((message.description, all)) }
        }
    }
}
