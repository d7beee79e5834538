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
/// without one (or whose interrupt never comes), by polling the time every 2 ms. The
/// interrupt is used only once a check finds it at the edge (`RTCEdgeCheck`: polled first,
/// then armed half a second later); until then readings are polled, and after three failed
/// checks it is not tried again. It is opened for each reading and closed again: the
/// kernel lets one process hold an RTC at a time (`hwclock` and chrony's `rtcfile` use it
/// too), and a reading it refuses is tried again next time.
public final class RTCClock: RTCSource {
    public let path: String
    /// The poll's period without the update interrupt, microseconds.
    static let pollMicroseconds: Int32 = 2_000

    private let edge = Mutex<RTCEdgeCheck.State>(.unchecked(failed: 0))

    public init(path: String) {
        self.path = path
    }

    public func read() throws(DeviceError) -> RTCReading {
        switch edge.withLock({ $0 }) {
        case .polled:
            return try reading(interrupt: false).reading
        case .interrupt(let lag):
            let r = try reading(interrupt: true)
            return r.byInterrupt ? RTCEdgeCheck.dated(r.reading, lag: lag) : r.reading
        case .unchecked(let failed):
            let polled = try reading(interrupt: false).reading
            // Half a second on: an alarm counted from when it is set comes half a second from the edge.
            Thread.sleep(forTimeInterval: 0.5)
            let armed = try reading(interrupt: true)
            let (next, reading) = RTCEdgeCheck.decide(failed: failed, polled: polled, armed: armed.reading, byInterrupt: armed.byInterrupt)
            edge.withLock { $0 = next }
            return reading
        }
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
