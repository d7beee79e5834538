import Foundation
import MarkTimeCore
import MarkTimeDevices
import Testing

@Suite("The system clock adapter")
struct SystemClockTests {
    @Test func theBootIDIsTheKernels() throws {
        let kernel = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try SystemClock().bootID == kernel)
        #expect(try SystemClock().read().instant.bootID == kernel)
    }

    @Test func monotonicReadingsNeverGoBack() throws {
        let clock = try SystemClock()
        let a = try clock.read(), b = try clock.read()
        #expect(b.instant.nanoseconds >= a.instant.nanoseconds)
    }

    @Test func theSampleFollowsAdjtimex() throws {
        // Given a reading, whatever this machine's sync state is
        let r = try SystemClock().read()
        // Then a synchronised clock gives `system` with esterror, else `unsynced` with no bound
        let expected = r.synchronised
            ? ClockSample(source: .system, monotonicNanoseconds: r.instant.nanoseconds, utc: r.realtime, uncertainty: r.estimatedError)
            : ClockSample(source: .unsynced, monotonicNanoseconds: r.instant.nanoseconds, utc: r.realtime, uncertainty: nil)
        #expect(r.sample == expected)
    }

    @Test func realtimeAgreesWithFoundation() throws {
        let r = try SystemClock().read()
        #expect(abs(r.realtime.secondsSinceEpoch - Date().timeIntervalSince1970) < 5)
    }
}
