import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: the chronometer on the Now page")
struct NowPageTests {
    @Test func theNowPageShowsTheChronometerAndWhatGPSSaysThatIsNotBelieved() async throws {
        // Given a daemon carrying time for an hour at its rate, GPS time set aside and its position
        // flagged (a fix good for an hour: the page may be slow to come on a loaded machine)
        var settings = Settings()
        settings.set("sight.max_fix_age_s", .double(3600))
        let t = try TestSite(settings: settings)
        defer { t.remove() }
        let now = try SystemClock().read().instant
        var status = DaemonStatus(pid: 1, bootID: now.bootID, startedAt: 0, heartbeat: now.nanoseconds, gpsd: "connected")
        var fix = Fix(position: try Position(latitude: -26.5473, longitude: 153.3807), mode: 3, horizontalError: 5, time: nil, receivedAt: now)
        fix.flag = "gps position moved 50.0 nm in 1 s (180014 kn) from the last trusted fix"
        status.fix = fix
        status.gpsSetAside = "gps time disagrees with the time carried from gps: it is +30.000 s off"
        let rate = ClockRate(gain: -0.432, scatter: 0.1728, source: .gps, span: 7200, samples: 121, learnedAt: now.nanoseconds - 3600 * 1_000_000_000)
        status.chronometer = Chronometer(rate: rate, carriedFrom: ClockSample(source: .gps, monotonicNanoseconds: now.nanoseconds - 3600 * 1_000_000_000,
                                                                             utc: UTCTime(nanosecondsSinceEpoch: 1_176_025_975_000_000_000), uncertainty: 0.5))
        try t.store.publish(status)
        try await t.loggedIn { client, headers, _ in
            // When the Now page is opened
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: headers[.cookie]!])
            // Then it says the chronometer in words, and what GPS says that is not believed
            // (an hour and the minutes the page took to come)
            #expect(page.text.contains(/<div id="chronometer" class="muted">chronometer: carried 1 h [0-9]{2} m from gps \(last heard 2007-04-08T09:52:55.000Z\) at −0.43 s\/day ± 0.17 \(learned over 2 h 00 m of gps\)<\/div>/),
                    "\(page.text)")
            #expect(page.text.contains("<div id=\"gps-warning\" role=\"status\">gps time disagrees with the time carried from gps: it is +30.000 s off · "
                + "gps position moved 50.0 nm in 1 s (180014 kn) from the last trusted fix</div>"), "\(page.text)")
            #expect(page.text.contains(" (flagged: faster than the boat can)</div>"), "\(page.text)")
        }
    }

    @Test func withoutAChronometerTheLinesAreEmpty() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(page.text.contains("<div id=\"chronometer\" class=\"muted\"></div>"))
            #expect(page.text.contains("<div id=\"gps-warning\" role=\"status\"></div>"))
        }
    }
}
