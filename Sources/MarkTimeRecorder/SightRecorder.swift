import Foundation
import Logging
import MarkTimeCore
import MarkTimeStore

/// The one recording path outside the daemon, for `marktime mark` and the phone page's MARK:
/// instant → UTC estimate → position → durable insert → beep.
///
/// The beep comes only after the commit. A failed insert buzzes and is
/// retried; it is reported, never dropped silently.
public struct SightRecorder: Sendable {
    public let store: AppDatabase
    public let beeper: (any Beeper)?
    public let logger: Logger
    /// Inserts tried before giving up, and the pause between them.
    public var attempts: Int
    public var retryDelay: Duration
    /// CLOCK_MONOTONIC now, to log how long key-down to commit took.
    public var monotonicNow: (@Sendable () -> Int64?)?

    public init(store: AppDatabase, beeper: (any Beeper)?, logger: Logger, attempts: Int = 5, retryDelay: Duration = .milliseconds(200),
                monotonicNow: (@Sendable () -> Int64?)? = nil) {
        self.monotonicNow = monotonicNow
        self.store = store
        self.beeper = beeper
        self.logger = logger
        self.attempts = attempts
        self.retryDelay = retryDelay
    }

    /// Stores the sight made from `instant`, then beeps. Throws the last store
    /// error when every attempt failed. It blocks while it retries: on the
    /// button's thread the kernel queues later presses with their own timestamps.
    public func record(instant: MonotonicInstant, estimate: UTCEstimate, fix: Fix?, settings: Settings,
                       note: String? = nil, trigger: SightTrigger, createdAt: UTCTime) throws(StoreError) -> Sight {
        let recordPosition: Bool, maxFixAge: Double
        do { (recordPosition, maxFixAge) = (try settings.sight.recordPosition, try settings.sight.maxFixAge) } catch { throw .refused(error.description) }
        let sight = Sight.mark(instant: instant, estimate: estimate, fix: recordPosition ? fix : nil,
                               maxFixAge: maxFixAge, note: note, trigger: trigger, createdAt: createdAt)
        var attempt = 1
        while true {
            do {
                let stored = try store.insert(sight)
                let committed = monotonicNow?()
                beeper?.play(.stored(stored.estimate.source))
                var metadata: Logger.Metadata = [
                    "id": "\(stored.id ?? -1)", "utc": "\(stored.estimate.utc.iso8601)", "source": "\(stored.estimate.source.rawValue)",
                    "monotonic_ns": "\(instant.nanoseconds)",
                ]
                if let committed { metadata["commit_ms"] = "\(Double(committed - instant.nanoseconds) / 1e6)" }
                logger.info("sight stored", metadata: metadata)
                return stored
            } catch {
                beeper?.play(.failure)
                logger.error("sight not stored", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
                guard attempt < attempts else { throw error }
                attempt += 1
                Thread.sleep(forTimeInterval: retryDelay / .seconds(1))
            }
        }
    }
}

extension SightRecorder {
    /// A MARK from the phone page: the phone's event time (`phoneMillis`, by its clock)
    /// placed on this machine's monotonic clock through `sync`, stamped as a button press
    /// would be at that instant, with half the best round trip added to its uncertainty.
    /// Throws `PhoneClockSync.Refusal` when the phone's clock cannot be trusted, or the store's error.
    public func recordPhoneMark(phoneMillis: Double, receivedAt: MonotonicInstant, sync: PhoneClockSync, system: ClockSample,
                                published: DaemonStatus?, settings: Settings) throws -> Sight {
        let (nanoseconds, added) = try sync.instant(ofPhoneMillis: phoneMillis, receivedAt: receivedAt.nanoseconds)
        let instant = MonotonicInstant(bootID: receivedAt.bootID, nanoseconds: nanoseconds)
        var estimate = NowEstimate.estimate(system: system, at: instant, published: published, maxSampleAge: try settings.clock.maxSampleAge)
        estimate.uncertainty = estimate.uncertainty.map { $0 + added }
        estimate.provenance?.phoneRoundTrip = sync.best.map { Double($0.roundTrip) / 1e9 }
        return try record(instant: instant, estimate: estimate, fix: published?.fix, settings: settings, trigger: .phone,
                          createdAt: system.utc)
    }
}
