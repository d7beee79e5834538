import CGPS
import Foundation
import Logging
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// What gpsd tells marktime.
public enum GPSReport: Hashable, Sendable {
    /// Connection state, e.g. `connected localhost:2947`.
    case state(String)
    case fix(Fix)
    /// A `gps` (TPV) or `pps` clock sample.
    case clock(ClockSample)
}

/// A source of GPS reports; the real one is gpsd.
public protocol GPSSource: Sendable {
    func start(_ report: @escaping @Sendable (GPSReport) -> Void)
    func stop()
}

/// A gpsd client over libgps, on its own thread.
///
/// It watches with `WATCH_ENABLE|WATCH_JSON|WATCH_PPS` and turns TPV into fixes
/// and `gps` clock samples (uncertainty: the configured NMEA bound), and PPS
/// into `pps` samples. When gpsd is absent or goes away it retries with
/// exponential backoff (1 s to 30 s), logging each change of state once.
public final class GPSDClient: GPSSource, Sendable {
    public let host: String
    public let port: String
    let nmeaUncertainty: Double
    let clock: SystemClock
    let logger: Logger
    private let thread: PollThread

    /// `address` is `HOST:PORT` or `HOST` (port 2947).
    public init(address: String, nmeaUncertainty: Double, clock: SystemClock, logger: Logger) throws(DeviceError) {
        do { thread = try PollThread(name: "marktime-gpsd") } catch { throw DeviceError(error) }
        let (h, p) = Self.split(address)
        host = h
        port = p
        self.nmeaUncertainty = nmeaUncertainty
        self.clock = clock
        self.logger = logger
    }

    static func split(_ address: String) -> (String, String) {
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            let host = String(address[address.index(after: address.startIndex)..<close])
            let rest = address[address.index(after: close)...]
            return (host, rest.hasPrefix(":") ? String(rest.dropFirst()) : "2947")
        }
        let parts = address.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 ? (String(parts[0]), String(parts[1])) : (address, "2947")
    }

    public func start(_ report: @escaping @Sendable (GPSReport) -> Void) {
        thread.start { [self] t in run(t, report) }
    }

    /// Ends the thread at once.
    public func stop() { thread.stop() }

    private func run(_ t: PollThread, _ report: @Sendable (GPSReport) -> Void) {
        guard let gd = cgps_new() else { return }
        defer { cgps_free(gd) }
        var backoff = 1.0
        var lastState = ""
        func say(_ state: String, _ log: () -> Void) {
            guard state != lastState else { return }
            lastState = state
            log()
            report(.state(state))
        }
        while !t.isStopping {
            guard cgps_connect(gd, host, port) == 0 else {
                say("waiting for gpsd at \(host):\(port)") {
                    logger.warning("gpsd not reachable; retrying with backoff", metadata: ["gpsd": "\(host):\(port)"])
                }
                if (try? t.wait([], timeout: .milliseconds(Int(backoff * 1000)))) != .timedOut { return }
                backoff = min(backoff * 2, 30)
                continue
            }
            backoff = 1
            say("connected \(host):\(port)") { logger.info("connected to gpsd", metadata: ["gpsd": "\(host):\(port)"]) }
            if !read(t, gd, report, lost: { say("lost gpsd at \(host):\(port)") {
                logger.warning("gpsd went away; reconnecting", metadata: ["gpsd": "\(host):\(port)"])
            } }) {
                cgps_disconnect(gd)
                return
            }
            cgps_disconnect(gd)
        }
    }

    /// Reads reports until gpsd goes away (true) or the thread is stopped (false). It sleeps in
    /// poll(2) on gpsd's socket, then takes every message libgps has (`gps_waiting` with no wait).
    private func read(_ t: PollThread, _ gd: UnsafeMutablePointer<gps_data_t>, _ report: @Sendable (GPSReport) -> Void,
                      lost: () -> Void) -> Bool {
        var r = cgps_report()
        while true {
            switch try? t.wait([cgps_fd(gd)]) {
            case .stopped, nil: return false
            case .timedOut: continue
            case .ready:
                repeat {
                    cgps_read(gd, &r)
                    if r.status < 0 {
                        lost()
                        return true
                    }
                    guard r.status > 0, let reading = try? clock.read() else { continue }
                    for item in Self.reports(from: r, at: reading, nmeaUncertainty: nmeaUncertainty) { report(item) }
                } while cgps_waiting(gd, 0)
            }
        }
    }

    /// The fixes and clock samples in one libgps read, stamped with the reading taken right after it.
    static func reports(from r: cgps_report, at reading: SystemClockReading, nmeaUncertainty: Double) -> [GPSReport] {
        var out: [GPSReport] = []
        if r.has_fix != 0, let position = try? Position(latitude: r.latitude, longitude: r.longitude) {
            let eph = r.eph.isFinite ? r.eph : (r.epx.isFinite ? r.epx : nil)
            out.append(.fix(Fix(position: position, mode: Int(r.mode), horizontalError: eph,
                                time: r.has_time != 0 ? UTCTime(nanosecondsSinceEpoch: r.time_ns) : nil,
                                receivedAt: reading.instant, speed: r.speed.isFinite && r.speed >= 0 ? r.speed : nil,
                                course: r.track.isFinite && (0..<360).contains(r.track) ? r.track : nil)))
        }
        if r.has_time != 0 {
            out.append(.clock(ClockSample(source: .gps, monotonicNanoseconds: reading.instant.nanoseconds,
                                          utc: UTCTime(nanosecondsSinceEpoch: r.time_ns), uncertainty: nmeaUncertainty)))
        }
        if r.has_pps != 0 {
            // gpsd gives the edge on the system's realtime clock; carry it to monotonic.
            let realtimeMinusMonotonic = reading.realtime.nanosecondsSinceEpoch - reading.instant.nanoseconds
            out.append(.clock(ClockSample(source: .pps, monotonicNanoseconds: r.pps_clock_ns - realtimeMinusMonotonic,
                                          utc: UTCTime(nanosecondsSinceEpoch: r.pps_real_ns), uncertainty: 0.000_01)))
        }
        return out
    }
}
