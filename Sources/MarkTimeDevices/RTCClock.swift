import CSystemClock
import Foundation
import MarkTimeCore
import Synchronization

/// Where the daemon reads a real-time clock; the real one is `RTCClock`.
public protocol RTCSource: Sendable {
    var path: String { get }
    /// The RTC at the edge of its next second (blocks up to a second and a half; three,
    /// the first time, when the update interrupt is checked).
    func read() throws(DeviceError) -> RTCReading
}

/// A real-time clock, `/dev/rtc0`: read through its ioctls at the edge of a second, found
/// with the update interrupt (good to the wake-up's latency, a few ms) or, on a driver
/// without one (or whose interrupt never comes), by polling the time every 2 ms. The first
/// reading by the interrupt is checked against a polled one (`RTCEdgeCheck`): an interrupt
/// that does not come at the edge (QEMU's PL031) is not used again. It is opened for each
/// reading and closed again: the kernel lets one process hold an RTC at a time (`hwclock`
/// and chrony's `rtcfile` use it too), and a reading it refuses is tried again next time.
public final class RTCClock: RTCSource {
    public let path: String
    /// The poll's period without the update interrupt, microseconds.
    static let pollMicroseconds: Int32 = 2_000
    /// Whether the update interrupt is used: nil until the first reading checks it.
    private let interrupt = Mutex<Bool?>(nil)

    public init(path: String) {
        self.path = path
    }

    public func read() throws(DeviceError) -> RTCReading {
        if let use = interrupt.withLock({ $0 }) { return try reading(interrupt: use).reading }
        let first = try reading(interrupt: true)
        guard first.byInterrupt else {
            interrupt.withLock { $0 = false }
            return first.reading
        }
        let polled = try reading(interrupt: false).reading
        let check = RTCEdgeCheck.check(interrupt: first.reading, polled: polled)
        interrupt.withLock { $0 = check.atTheEdge }
        var checked = check.atTheEdge ? first.reading : polled
        checked.interruptCheck = check
        return checked
    }

    private func reading(interrupt: Bool) throws(DeviceError) -> (reading: RTCReading, byInterrupt: Bool) {
        var out = csystemclock_rtc_reading()
        guard csystemclock_rtc_read(path, Self.pollMicroseconds, 1_500, interrupt ? 1 : 0, &out) == 0 else {
            var e = DeviceError(Self.explain(path: path, call: out.call.map { String(cString: $0) } ?? "read", errno: out.error))
            e.errno = out.error
            throw e
        }
        // The wake-up after the interrupt; polled, half the time between the reads around the edge.
        let resolution = out.interrupt == 1 ? 0.002 : Double(out.width_ns) / 2e9 + 0.001
        return (RTCReading(monotonicNanoseconds: out.monotonic_ns, rtc: UTCTime(nanosecondsSinceEpoch: out.rtc_s * 1_000_000_000),
                           resolution: resolution), out.interrupt == 1)
    }

    /// A failed read in words, with what to do.
    static func explain(path: String, call: String, errno code: Int32) -> String {
        let reason = String(cString: strerror(code))
        switch (call, code) {
        case ("open", ENOENT):
            return "\(path) does not exist: this machine has no RTC there (a Pi 3, 4 or Zero has none; a DS3231 HAT needs "
                + "`dtoverlay=i2c-rtc,ds3231` in config.txt); set clock.rtc to \"\" to stop reading it"
        case ("open", EACCES), ("open", EPERM):
            return "cannot open \(path): \(reason); the package's udev rule gives the marktime group read access, or run `sudo udevadm trigger -s rtc`"
        case ("open", EBUSY):
            return "\(path) is held by another process: hwclock for a moment (tried again in 30 s), or chrony's rtcfile for good "
                + "(then use chrony's rtcsync instead, or set clock.rtc to \"\")"
        case ("RTC_RD_TIME", EINVAL):
            return "\(path) holds no valid time (its battery may be flat, or it was never set): \(reason)"
        default:
            return "\(path): \(call) failed: \(reason)"
        }
    }
}
