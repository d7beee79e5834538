import CSystemClock
import Foundation
import MarkTimeCore
import MarkTimeSystem

/// What the reminder thread sleeps on: a descriptor that turns readable when a wall-clock
/// time comes (or the clock is set); `WallTimer` is the real one, tests fire a fake.
public protocol WallTimerSource: AnyObject, Sendable {
    /// Readable when the timer fires.
    var fd: Int32 { get }
    /// Fires at `nanoseconds` since the epoch; never when nil.
    func arm(at nanoseconds: Int64?)
    /// Clears a firing.
    func drain()
}

/// A timer on the wall clock (CLOCK_REALTIME) that fires at an absolute time, and
/// also when someone sets the clock (TFD_TIMER_CANCEL_ON_SET): a reminder is for a
/// time of day, so a clock step must reschedule it.
public final class WallTimer: WallTimerSource, @unchecked Sendable {
    public let fd: Int32

    public init() throws(InputError) {
        fd = csystemclock_timer_create()
        guard fd >= 0 else { throw InputError("cannot make a timer: \(String(cString: strerror(errno)))") }
    }

    /// Fires at `nanoseconds` since the epoch; never when nil.
    public func arm(at nanoseconds: Int64?) {
        _ = csystemclock_timer_arm(fd, nanoseconds.map { max($0, 0) } ?? -1)
    }

    /// Clears an expiry (or a clock-set cancellation).
    public func drain() {
        var count: UInt64 = 0
        _ = try? withUnsafeMutableBytes(of: &count) { bytes throws(SystemError) in try Kernel.read(fd, into: bytes, "timerfd") }
    }

    deinit { Descriptor.close(fd) }
}
