import CGPS
import MarkTimeCore
@testable import MarkTimeDevices
import Testing

/// What one libgps read becomes: fixes, no-fix reports and clock samples (gps and pps).
@Suite("gpsd's reports, as the client passes them on")
struct GPSDReportTests {
    let reading = SystemClockReading(instant: MonotonicInstant(bootID: "b", nanoseconds: 50_000_000_000),
                                     realtime: UTCTime(nanosecondsSinceEpoch: 1_741_946_400_000_000_000), synchronised: false, estimatedError: 0)

    func report(mode: Int32, fix: Bool = false, time: Bool = false, pps: (real: Int64, clock: Int64)? = nil) -> cgps_report {
        var r = cgps_report()
        r.status = 100
        r.is_report = 1
        r.has_mode = 1
        r.mode = mode
        r.has_fix = fix ? 1 : 0
        (r.latitude, r.longitude, r.eph, r.epx, r.speed, r.track) = (-27.3807, 153.3807, 4, .nan, .nan, .nan)
        r.has_time = time ? 1 : 0
        r.time_ns = 1_741_946_399_900_000_000
        if let pps { (r.has_pps, r.pps_real_ns, r.pps_clock_ns) = (1, pps.real, pps.clock) }
        return r
    }

    @Test func aThreeDFixGivesTheFixAndAGPSSample() {
        let out = GPSDClient.reports(from: report(mode: 3, fix: true, time: true), at: reading, nmeaUncertainty: 0.5)
        #expect(out == [
            .fix(Fix(position: try! Position(latitude: -27.3807, longitude: 153.3807), mode: 3, horizontalError: 4,
                     time: UTCTime(nanosecondsSinceEpoch: 1_741_946_399_900_000_000), receivedAt: reading.instant)),
            .clock(ClockSample(source: .gps, monotonicNanoseconds: 50_000_000_000, utc: UTCTime(nanosecondsSinceEpoch: 1_741_946_399_900_000_000),
                               uncertainty: 0.5)),
        ])
    }

    @Test("A report with no fix (mode 1), or none seen (mode 0), is passed on as such", arguments: [Int32(0), 1])
    func noFixIsPassedOn(mode: Int32) {
        #expect(GPSDClient.reports(from: report(mode: mode), at: reading, nmeaUncertainty: 0.5) == [.noFix(mode: Int(mode), at: reading.instant)])
    }

    @Test func aPPSEdgeIsCarriedFromTheRealtimeClockToTheMonotonic() {
        // Given an edge at 10:00:00 UTC that the system clock read 20 ms late, 1 s before this reading
        let edge = (real: Int64(1_741_946_400_000_000_000), clock: Int64(1_741_946_399_020_000_000))
        let out = GPSDClient.reports(from: report(mode: 3, pps: edge), at: reading, nmeaUncertainty: 0.5)
        // Then a pps sample at 49.02 s monotonic (the reading's realtime − monotonic taken off)
        #expect(out == [.clock(ClockSample(source: .pps, monotonicNanoseconds: 49_020_000_000,
                                           utc: UTCTime(nanosecondsSinceEpoch: 1_741_946_400_000_000_000), uncertainty: 0.000_01))])
    }
}
