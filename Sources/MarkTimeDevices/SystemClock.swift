import CSystemClock
import Foundation
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// One reading of the machine's clocks.
public struct SystemClockReading: Hashable, Sendable {
    public var instant: MonotonicInstant
    public var realtime: UTCTime
    /// `adjtimex()` says the kernel clock is synchronised (chrony or ntpd).
    public var synchronised: Bool
    /// `adjtimex()`'s estimated error plus its maximum error's growth since the clock was
    /// last updated (`KernelClockError`), seconds.
    public var estimatedError: Double
    /// Whether a synchronised clock counts as the `system` source (`clock.trust_system`).
    public var trusted = true

    public init(instant: MonotonicInstant, realtime: UTCTime, synchronised: Bool, estimatedError: Double, trusted: Bool = true) {
        self.instant = instant
        self.realtime = realtime
        self.synchronised = synchronised
        self.estimatedError = estimatedError
        self.trusted = trusted
    }

    /// The reading as a clock sample: `system` with `esterror` when synchronised and
    /// trusted, else `unsynced`.
    public var sample: ClockSample {
        let system = synchronised && trusted
        return ClockSample(source: system ? .system : .unsynced, monotonicNanoseconds: instant.nanoseconds,
                           utc: realtime, uncertainty: system ? estimatedError : nil)
    }
}

/// Where the daemon reads the machine's clocks; the real one is `SystemClock`.
public protocol SystemClockSource: Sendable {
    var bootID: String { get }
    func read() throws(DeviceError) -> SystemClockReading
}

extension SystemClockSource {
    /// The best UTC now: the daemon's `published` sample while fresh and from this boot,
    /// else this clock's own reading (`system` or `unsynced`).
    public func estimateNow(published: DaemonStatus?, maxSampleAge: Double) throws(DeviceError) -> (reading: SystemClockReading, estimate: UTCEstimate) {
        let reading = try read()
        return (reading, NowEstimate.estimate(system: reading.sample, at: reading.instant, published: published, maxSampleAge: maxSampleAge))
    }
}

/// The system clocks: CLOCK_MONOTONIC, CLOCK_REALTIME and `adjtimex()`.
public struct SystemClock: SystemClockSource {
    public let bootID: String
    /// `clock.trust_system`: false makes every reading `unsynced`, so only gpsd counts.
    public let trustSynchronised: Bool
    /// The kernel's error figures as this clock has read them, shared by its copies.
    private let error = ErrorFigures()

    private final class ErrorFigures: Sendable {
        let figures = Mutex(KernelClockError())
    }

    public init(trustSynchronised: Bool = true) throws(DeviceError) {
        bootID = try Self.readBootID()
        self.trustSynchronised = trustSynchronised
    }

    /// The kernel's boot id, `/proc/sys/kernel/random/boot_id`.
    public static func readBootID() throws(DeviceError) -> String {
        let path = "/proc/sys/kernel/random/boot_id"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw DeviceError("cannot read \(path): is /proc mounted?")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// CLOCK_MONOTONIC now, nanoseconds (`clock_gettime`, no other read).
    public static func monotonicNow() -> Int64 {
        Clocks.monotonicNanoseconds()
    }

    /// Reads CLOCK_REALTIME between two CLOCK_MONOTONIC reads (their midpoint is
    /// the instant), then `adjtimex()` (`csystemclock_read`).
    public func read() throws(DeviceError) -> SystemClockReading {
        var r = csystemclock_reading()
        guard csystemclock_read(&r) == 0 else {
            throw DeviceError("cannot read the system clock: \(String(cString: strerror(r.error)))")
        }
        let mid = r.monotonic_before_ns + (r.monotonic_after_ns - r.monotonic_before_ns) / 2
        let uncertainty = error.figures.withLock {
            $0.uncertainty(estimated: Double(r.esterror_us) / 1e6, maxError: Double(r.maxerror_us) / 1e6, at: mid)
        }
        return SystemClockReading(instant: MonotonicInstant(bootID: bootID, nanoseconds: mid),
                                  realtime: UTCTime(nanosecondsSinceEpoch: r.realtime_ns),
                                  synchronised: r.synchronised != 0,
                                  estimatedError: uncertainty, trusted: trustSynchronised)
    }
}

/// A hardware adapter failure, worded for the navigator.
public struct DeviceError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// The C errno behind it, when there was one.
    public var errno: Int32 = 0
    public init(_ description: String) { self.description = description }
}
