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
    /// gpsd says it has no fix (mode 1), or is gone (mode 0), at `at`.
    case noFix(mode: Int, at: MonotonicInstant)
    /// gpsd at `address` is connected but has sent nothing since `since`.
    case silent(since: MonotonicInstant, address: String)
}

/// A source of GPS reports; the real one is gpsd.
public protocol GPSSource: Sendable {
    func start(_ report: @escaping @Sendable (GPSReport) -> Void)
    func stop()
}

/// A gpsd client over libgps, on its own thread.
///
/// It watches with `WATCH_ENABLE|WATCH_JSON|WATCH_PPS` and turns TPV into fixes
/// and `gps` clock samples (uncertainty: the configured NMEA bound), a TPV without a
/// fix into `noFix`, and PPS into `pps` samples. What it waits and says through an outage
/// is `GPSDConnection`'s to decide: when gpsd is absent or goes away it retries with
/// exponential backoff (1 s to 30 s), logging each change of state once; when a connected
/// gpsd sends nothing for `silence` (it hangs, or lost its receiver), that is reported and
/// the client reconnects, after twice the silence, doubling up to a minute, while gpsd
/// stays silent. It says `connected` only once gpsd has sent a report on the connection.
public final class GPSDClient: GPSSource, Sendable {
    public let host: String
    public let port: String
    let nmeaUncertainty: Double
    let silence: Duration
    let clock: SystemClock
    let logger: Logger
    private let thread: PollThread

    /// `address` is `HOST:PORT` or `HOST` (port 2947).
    public init(address: String, nmeaUncertainty: Double, silence: Double = 5, clock: SystemClock, logger: Logger) throws(DeviceError) {
        do { thread = try PollThread(name: "marktime-gpsd") } catch { throw DeviceError(error) }
        let (h, p) = Self.split(address)
        host = h
        port = p
        self.nmeaUncertainty = nmeaUncertainty
        self.silence = .milliseconds(Int64(silence * 1000))
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
        var connection = GPSDConnection(address: "\(host):\(port)", silence: silence)
        let address = connection.address
        /// Reports a new state; logs it with `log` when its kind changed.
        func say(_ said: GPSDConnection.Said?, _ log: () -> Void) {
            guard let said else { return }
            if said.logged { log() }
            report(.state(said.state))
        }
        func gone() {
            if let reading = try? clock.read() { report(.noFix(mode: 0, at: reading.instant)) }
        }
        while !t.isStopping {
            guard cgps_connect(gd, host, port) == 0 else {
                // Logged once; the status counts the tries.
                let (said, wait) = connection.refused()
                say(said) { logger.warning("gpsd not reachable; retrying with backoff", metadata: ["gpsd": "\(address)"]) }
                gone()
                if (try? t.wait([], timeout: wait)) != .timedOut { return }
                continue
            }
            // Connected is said once gpsd has sent a report, not when its socket accepts.
            let accepted = connection.accepted()
            say(accepted.said) {
                logger.info("connected to gpsd; waiting for its first report", metadata: ["gpsd": "\(address)"])
            }
            let outcome = read(t, gd, report, since: connection.silentSince, firstReportWithin: accepted.firstReportWithin, spoke: {
                say(connection.reported()) { logger.info("gpsd reports", metadata: ["gpsd": "\(address)"]) }
            })
            cgps_disconnect(gd)
            switch outcome {
            case .stopped:
                return
            case .lost:
                say(connection.lost()) { logger.warning("gpsd went away; reconnecting", metadata: ["gpsd": "\(address)"]) }
                gone()
            case .silent(let since):
                if let silent = connection.silent(since: since) { report(silent) }
            }
        }
    }

    enum Outcome { case stopped, lost, silent(since: MonotonicInstant) }

    /// Reads reports until gpsd goes away, goes silent, or the thread is stopped. It sleeps
    /// in poll(2) on gpsd's socket, then takes every message libgps has (`gps_waiting` with
    /// no wait). It waits `firstReportWithin` for the first report (longer each time after a
    /// silence, rather than filling a stopped gpsd's accept queue), then `silence` for each
    /// next. `since` is when gpsd last spoke, when it was already silent before this
    /// connection; `spoke` is called at each report.
    private func read(_ t: PollThread, _ gd: UnsafeMutablePointer<gps_data_t>, _ report: @Sendable (GPSReport) -> Void,
                      since: MonotonicInstant?, firstReportWithin: Duration, spoke: () -> Void) -> Outcome {
        var r = cgps_report()
        guard var last = since ?? (try? clock.read())?.instant else { return .lost }
        var reported = false
        while true {
            switch try? t.wait([cgps_fd(gd)], timeout: reported ? silence : firstReportWithin) {
            case .stopped, nil: return .stopped
            case .timedOut:
                return .silent(since: last)
            case .ready:
                repeat {
                    cgps_read(gd, &r)
                    if r.status < 0 { return .lost }
                    guard r.status > 0, let reading = try? clock.read() else { continue }
                    if r.is_report != 0 {
                        last = reading.instant
                        reported = true
                        spoke()
                    }
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
        if r.has_mode != 0, r.mode < 2 {
            out.append(.noFix(mode: Int(r.mode), at: reading.instant))
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
