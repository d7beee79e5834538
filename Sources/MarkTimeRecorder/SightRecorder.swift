import Foundation
import Logging
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem

/// The recording path outside the daemon, for `marktime mark` and the phone page's MARK:
/// the same `Recording` policy the daemon follows for the button.
///
/// The sight is inserted, and the stored tone plays only after the commit. A press the
/// store refuses is kept in the pending-presses file first, then buzzed once, and tried
/// again (waiting without blocking a thread) until it lands or the attempts run out; then
/// it stays in the file, and the daemon stores it as soon as the store takes writes.
public struct SightRecorder: Sendable {
    public let store: AppDatabase
    public let beeper: (any Beeper)?
    public let logger: Logger
    public let pendingPresses: PendingPresses
    /// Inserts tried before the press is left to the daemon, and the pause between them.
    public var attempts: Int
    public var retryDelay: Duration
    /// CLOCK_MONOTONIC now, to log how long key-down to commit took.
    public var monotonicNow: (@Sendable () -> Int64)?

    public init(store: AppDatabase, beeper: (any Beeper)?, logger: Logger, attempts: Int = 5, retryDelay: Duration = .milliseconds(200),
                monotonicNow: (@Sendable () -> Int64)? = nil) {
        self.store = store
        self.beeper = beeper
        self.logger = logger
        self.pendingPresses = PendingPresses(storePath: store.path)
        self.attempts = attempts
        self.retryDelay = retryDelay
        self.monotonicNow = monotonicNow
    }

    /// Stores the sight made from `instant`, then beeps. Throws `.keptPending` when every
    /// attempt failed and the press waits in the pending-presses file, or the store's own
    /// error when that file could not take it either.
    public func record(instant: MonotonicInstant, estimate: UTCEstimate, fix: Fix?, settings: Settings,
                       note: String? = nil, trigger: SightTrigger, createdAt: UTCTime) async throws(StoreError) -> Sight {
        let recordPosition: Bool, maxFixAge: Double
        do { (recordPosition, maxFixAge) = (try settings.sight.recordPosition, try settings.sight.maxFixAge) } catch { throw .refused(error.description) }
        let sight = Sight.mark(instant: instant, estimate: estimate, fix: recordPosition ? fix : nil,
                               maxFixAge: maxFixAge, note: note, trigger: trigger, createdAt: createdAt)
        return try await record(sight)
    }

    /// Stores `sight` under the recording policy; see `record(instant:…)`.
    public func record(_ sight: Sight) async throws(StoreError) -> Sight {
        var recording = Recording()
        var actions = recording.press(sight)
        var stored: Sight?
        var lastError: StoreError?
        for attempt in 1...max(1, attempts) {
            if attempt > 1 {
                try? await Task.sleep(for: retryDelay)
                actions = recording.retry()
            }
            while !actions.isEmpty {
                let action = actions.removeFirst()
                switch action {
                case .insert(let s):
                    let started = monotonicNow?()
                    do {
                        let done = try store.insert(s)
                        let timing = started.flatMap { st in monotonicNow.map { CommitTiming(queuedAt: st, startedAt: st, committedAt: $0()) } }
                        stored = done
                        actions += recording.stored(done, timing: timing)
                    } catch {
                        lastError = error
                        actions += recording.failed(s, reason: "\(error)")
                    }
                case .settlePending:
                    do { try pendingPresses.settle { (try? store.contains($0.instant)) ?? false } } catch {
                        logger.error("cannot settle the pending-presses file", metadata: ["error": "\(error)"])
                    }
                case .keepPending, .beep, .log:
                    try Self.perform(action, pendingPresses: pendingPresses, beeper: beeper, logger: logger, storeError: lastError)
                }
            }
            if let stored { return stored }
            // A held write lock was waited for already (the busy timeout): the daemon lands the press.
            if case .busy = lastError { break }
        }
        throw .keptPending(path: pendingPresses.path, reason: lastError.map { "\($0)" } ?? "unknown")
    }
}

extension SightRecorder {
    /// Carries out a policy action that needs no store: keep the press in the pending
    /// file, beep, log.
    static func perform(_ action: Recording.Action, pendingPresses: PendingPresses, beeper: (any Beeper)?, logger: Logger,
                        storeError: StoreError?) throws(StoreError) {
        switch action {
        case .keepPending(let s):
            // Before the buzz: once it is heard, the press is on disk.
            do { try pendingPresses.append(s) } catch {
                // Neither the store nor the file beside it took the press: the store's
                // error is the one to put right.
                logger.critical("sight not stored and not kept", metadata: ["error": "\(error)", "store": "\(storeError.map { "\($0)" } ?? "")"])
                beeper?.play(.failure)
                throw storeError ?? error
            }
        case .beep(let tone):
            beeper?.play(tone)
        case .log(let line):
            logger.log(level: line.level.swiftLog, "\(line.message)", metadata: line.metadata.mapValues { .string($0) })
        case .insert, .settlePending:
            break
        }
    }

    /// `marktime mark` when the store at `storePath` would not even open (`error`: another
    /// process held its write lock for the whole busy timeout, before this one could read
    /// it): the press is made here, from `estimate`, and kept in the pending-presses file
    /// under the one recording policy, for the daemon to land as soon as the store takes
    /// writes. Throws `.keptPending` once it is kept, or `error` when the file would not take it either.
    public static func keepUnopened(storePath: String, error: StoreError, instant: MonotonicInstant, estimate: UTCEstimate,
                                    settings: Settings, note: String?, beeper: (any Beeper)?, logger: Logger) throws(StoreError) -> Never {
        let maxFixAge: Double
        do { maxFixAge = try settings.sight.maxFixAge } catch { throw .refused(error.description) }
        let sight = Sight.mark(instant: instant, estimate: estimate, fix: nil, maxFixAge: maxFixAge, note: note, trigger: .cli,
                               createdAt: estimate.utc)
        var recording = Recording()
        _ = recording.press(sight)
        let pending = PendingPresses(storePath: storePath)
        for action in recording.failed(sight, reason: "\(error)") {
            try perform(action, pendingPresses: pending, beeper: beeper, logger: logger, storeError: error)
        }
        throw .keptPending(path: pending.path, reason: "\(error)")
    }

    /// How this process asks the daemon: the store's path, the message's text, how long to
    /// wait for the answer. The default blocks its thread while it waits: the page passes
    /// one that waits on a thread of its own.
    public typealias Ask = @Sendable (_ store: String, _ message: String, _ timeout: Duration) async -> Doorbell.Answer

    /// Asks on the calling thread.
    public static let askBlocking: Ask = { store, message, timeout in Doorbell.ask(store: store, message: message, timeout: timeout) }

    /// Asks the store's running daemon to stamp a press (`message`: `mark` or `phoneMark`)
    /// from its own clock track (fresher than its status file) and to record it on its own
    /// path, with the button's presses: the sight the store holds, or nil when this process
    /// is to record the press itself (no daemon, no answer within `timeout`, or it made no
    /// sight). The store keeps one sight per instant, so a daemon that answers late cannot
    /// make a second. A press the daemon could not store waits in the pending-presses file.
    func askDaemon(_ message: DoorbellMessage, timeout: Duration, ask: Ask) async throws(StoreError) -> Sight? {
        switch await ask(store.path, message.text, timeout) {
        case .answered(let text):
            switch MarkAnswer(text) {
            case .stored(let id)?: return try store.sight(id: id).sight
            case .pending(let reason)?: throw .keptPending(path: pendingPresses.path, reason: reason)
            case .refused(let reason)?: logger.notice("the daemon made no sight; recording here", metadata: ["reason": "\(reason)"])
            case nil: logger.notice("the daemon's answer is not understood; recording here", metadata: ["answer": "\(text)"])
            }
        case .notSent:
            break
        case .noAnswer:
            logger.warning("the daemon did not answer in time; recording here", metadata: ["timeout": "\(timeout)"])
        }
        return nil
    }

    /// `marktime mark`: the daemon stamps and records the press at `instant` (`askDaemon`);
    /// without it, the press is recorded here with `estimate`.
    public func recordAskingDaemon(instant: MonotonicInstant, estimate: UTCEstimate, fix: Fix?, settings: Settings, note: String?,
                                   timeout: Duration = .seconds(5), ask: Ask = askBlocking) async throws(StoreError) -> Sight {
        if let stored = try await askDaemon(.mark(instant, note: note), timeout: timeout, ask: ask) { return stored }
        let sight = try await record(instant: instant, estimate: estimate, fix: fix, settings: settings, note: note, trigger: .cli,
                                     createdAt: estimate.utc)
        return (try? store.sight(id: sight.id ?? 0).sight) ?? sight
    }

    /// A MARK from the phone page: the phone's event time (`phoneMillis`, by its clock)
    /// placed on this machine's monotonic clock through `sync`, then stamped and recorded by
    /// the daemon as `marktime mark`'s press is (`askDaemon`), with half the best round trip
    /// added to its uncertainty. Without the daemon it is stamped here alike, from the
    /// system clock and the daemon's status file. Throws `PhoneClockSync.Refusal` when the
    /// phone's clock cannot be trusted, or the store's error.
    public func recordPhoneMark(phoneMillis: Double, receivedAt: MonotonicInstant, sync: PhoneClockSync, system: ClockSample,
                                published: DaemonStatus?, settings: Settings, timeout: Duration = .seconds(5),
                                ask: Ask = askBlocking) async throws -> Sight {
        let (nanoseconds, _) = try sync.instant(ofPhoneMillis: phoneMillis, receivedAt: receivedAt.nanoseconds)
        let instant = MonotonicInstant(bootID: receivedAt.bootID, nanoseconds: nanoseconds)
        let roundTrip = sync.best?.roundTrip ?? 0
        if let stored = try await askDaemon(.phoneMark(instant, roundTrip: roundTrip), timeout: timeout, ask: ask) { return stored }
        let estimate = NowEstimate.estimate(system: system, at: instant, published: published, maxSampleAge: try settings.clock.maxSampleAge)
            .phoneMark(roundTrip: roundTrip)
        let sight = try await record(instant: instant, estimate: estimate, fix: published?.fix, settings: settings, trigger: .phone,
                                     createdAt: system.utc)
        // A daemon that answered late stored it first: what the store holds.
        return (try? store.sight(id: sight.id ?? 0).sight) ?? sight
    }
}

extension SightRecorder {
    /// The phone's quick entry: sets sight `id`'s Hs and body (either nil to leave it)
    /// through the daemon's one writer (`reading`, as the keypad's are set), or, with no
    /// daemon to ask, here by the same rule (`ReadingEntry.edit`); a daemon that was asked
    /// and did not answer within `timeout` is not second-guessed: that is an error.
    /// What the store holds then; a refusal in words (an unknown sight, an unknown body).
    public func setReading(sight id: Int64, hs: Double?, body: String?, now: UTCTime, timeout: Duration = .seconds(5),
                           ask: Ask = askBlocking) async throws -> Sight {
        switch await ask(store.path, DoorbellMessage.reading(sight: id, hs: hs, body: body).text, timeout) {
        case .answered(let text):
            switch MarkAnswer(text) {
            case .stored(let kept)?: return try store.sight(id: kept).sight
            case .refused(let reason)?: throw InputError(reason)
            case .pending, nil: logger.notice("the daemon's answer is not understood; setting the reading here", metadata: ["answer": "\(text)"])
            }
        case .notSent:
            break
        case .noAnswer:
            // It may still keep it: a second write here could land after an edit made meanwhile.
            throw InputError("the daemon did not answer within \(timeout): the reading may still be kept; look at sight \(id) before keeping it again")
        }
        let (edit, _) = try ReadingEntry.edit(try store.sight(id: id).sight, .set(hs: hs, body: body))
        return try store.edit(id: id, edit, now: now)
    }
}

extension LogLine.Level {
    /// The level as swift-log names it.
    public var swiftLog: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}
