import CGPS
import Foundation
import Logging
import MarkTimeCore
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
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let wake = DispatchSemaphore(value: 0)

    /// `address` is `HOST:PORT` or `HOST` (port 2947).
    public init(address: String, nmeaUncertainty: Double, clock: SystemClock, logger: Logger) {
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
        let thread = Thread { [self] in
            self.run(report)
            self.finished.signal()
        }
        thread.name = "marktime-gpsd"
        thread.start()
    }

    /// Ends the thread within half a second.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
        finished.wait()
    }

    private var isStopping: Bool { stopping.load(ordering: .relaxed) }

    private func run(_ report: @Sendable (GPSReport) -> Void) {
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
        while !isStopping {
            guard cgps_connect(gd, host, port) == 0 else {
                say("waiting for gpsd at \(host):\(port)") {
                    logger.warning("gpsd not reachable; retrying with backoff", metadata: ["gpsd": "\(host):\(port)"])
                }
                _ = wake.wait(timeout: .now() + backoff)
                backoff = min(backoff * 2, 30)
                continue
            }
            backoff = 1
            say("connected \(host):\(port)") { logger.info("connected to gpsd", metadata: ["gpsd": "\(host):\(port)"]) }
            var r = cgps_report()
            while !isStopping {
                guard cgps_waiting(gd, 500_000) else { continue }
                cgps_read(gd, &r)
                if r.status < 0 {
                    say("lost gpsd at \(host):\(port)") { logger.warning("gpsd went away; reconnecting", metadata: ["gpsd": "\(host):\(port)"]) }
                    break
                }
                guard r.status > 0, let reading = try? clock.read() else { continue }
                for item in Self.reports(from: r, at: reading, nmeaUncertainty: nmeaUncertainty) { report(item) }
            }
            cgps_disconnect(gd)
        }
    }

    /// The fixes and clock samples in one libgps read, stamped with the reading taken right after it.
    static func reports(from r: cgps_report, at reading: SystemClockReading, nmeaUncertainty: Double) -> [GPSReport] {
        var out: [GPSReport] = []
        if r.has_fix != 0, let position = try? Position(latitude: r.latitude, longitude: r.longitude) {
            let eph = r.eph.isFinite ? r.eph : (r.epx.isFinite ? r.epx : nil)
            out.append(.fix(Fix(position: position, mode: Int(r.mode), horizontalError: eph,
                                time: r.has_time != 0 ? UTCTime(nanosecondsSinceEpoch: r.time_ns) : nil,
                                receivedAt: reading.instant)))
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
