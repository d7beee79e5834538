import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimeSystem
import Testing
@testable import MarkTimeWeb

/// Runs `body` on a thread of its own: a blocking call must not hold one of the few
/// threads of Swift's pool, which the page under test and the stand-in need.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { c in Thread { c.resume(returning: body()) }.start() }
}

/// A stand-in for the daemon: it holds the store's lock and, on a thread of its own,
/// answers the first time signal rung at the store's doorbell with `answer`; what was
/// asked, once answered.
func standInDaemon(store: String, answer: TimeSignalAnswer) throws -> (lock: DaemonLock, asked: Task<String, Never>) {
    let lock = try DaemonLock.acquire(store: store)
    let bell = try Doorbell(path: Doorbell.path(forStore: store))
    let asked = Task {
        await onThread {
            while true {
                var p = pollfd(fd: bell.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, -1)
                for m in bell.drain() where m.text.hasPrefix("signal ") {
                    _ = bell.answer(answer.text, to: m.sender ?? "")
                    return m.text
                }
            }
        }
    }
    return (lock, asked)
}

@Suite("The phone page: a time signal from the Now page")
struct TimeSignalPageTests {
    @Test func theDaemonsAnswerIsShownOnTheNowPage() async throws {
        // Given a daemon on the store that takes the tick, the clock 35 s fast
        let t = try TestSite()
        defer { t.remove() }
        let before = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 1_764_252_335_000_000_000), source: .unsynced, uncertainty: nil)
        let daemon = try standInDaemon(store: t.store.path, answer: .taken(tick: UTCTime(nanosecondsSinceEpoch: 1_764_252_300_000_000_000),
                                                                         uncertainty: 0.3, before: before))
        try await t.loggedIn { client, headers, csrf in
            // When the crew names 14:05 on 2025-11-27 and waits up to 300 s
            let page = try await RoleTests.post(client, "/clock/signal", headers, "csrf=\(csrf)&tick=14%3A05&date=2025-11-27&within=300")
            // Then the daemon was asked for that tick, 300 s, on that date, and the page says what it answered
            #expect(await daemon.asked.value == "signal 14:05:00 300 2025-11-27")
            #expect(page.status == .ok)
            #expect(page.text.contains("<p class=\"notice\" role=\"status\">Time signal: the tick of 2025-11-27T14:05:00.000Z is taken (signal ±300 ms); "
                + "the clock (unsynced unknown) was 35.000 s fast.</p>"), "\(page.text)")
        }
        _ = daemon.lock
    }

    @Test func aRefusalIsShownWithWhatWasTyped() async throws {
        // Given a daemon that refuses the tick
        let t = try TestSite()
        defer { t.remove() }
        let daemon = try standInDaemon(store: t.store.path, answer: .refused("no press within 120 s of asking: nothing changed"))
        try await t.loggedIn { client, headers, csrf in
            // When the crew waits for 14:05:30
            let page = try await RoleTests.post(client, "/clock/signal", headers, "csrf=\(csrf)&tick=14%3A05%3A30&date=")
            // Then the refusal is shown in words, the form open with the tick typed
            _ = await daemon.asked.value
            #expect(page.status == .unprocessableContent)
            #expect(page.text.contains("<p class=\"error\" role=\"alert\">Time signal not taken: no press within 120 s of asking: nothing changed</p>"), "\(page.text)")
            #expect(page.text.contains("<details id=\"time-signal\" open>"))
            #expect(page.text.contains("value=\"14:05:30\""))
        }
        _ = daemon.lock
    }

    @Test func withoutADaemonThePageSaysHowToStartIt() async throws {
        // Given no daemon on the store
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            // When the crew waits for a tick
            let page = try await RoleTests.post(client, "/clock/signal", headers, "csrf=\(csrf)&tick=14%3A05&date=")
            // Then the page names the fix, and keeps the tick
            #expect(page.status == .badRequest)
            #expect(page.text.contains("no daemon is running on \(t.store.path): the time signal is taken from the daemon&#39;s button"), "\(page.text)")
            #expect(page.text.contains("value=\"14:05\""))
        }
    }

    @Test(arguments: [("tick=25%3A00&date=", "&#39;25:00&#39; is not a time of day"), ("tick=14%3A05&date=27-11-2025", "&#39;27-11-2025&#39; is not a date"),
                      ("tick=14%3A05&within=0", "the wait &#39;0&#39; is not 1 to 600 seconds: leave it empty for 120"),
                      ("tick=14%3A05&within=601", "the wait &#39;601&#39; is not 1 to 600 seconds: leave it empty for 120")])
    func aTickADateOrAWaitThatIsNotOneIsRefusedBeforeTheDaemonIsAsked(_ form: String, _ said: String) async throws {
        // Given a daemon on the store
        let t = try TestSite()
        defer { t.remove() }
        let daemon = try standInDaemon(store: t.store.path, answer: .refused("asked"))
        try await t.loggedIn { client, headers, csrf in
            // When the crew sends it
            let page = try await RoleTests.post(client, "/clock/signal", headers, "csrf=\(csrf)&\(form)")
            // Then it is refused in words, and the daemon was not asked
            #expect(page.status == .badRequest)
            #expect(page.text.contains(said), "\(page.text)")
        }
        let path = t.store.path
        #expect(await onThread { Doorbell.ask(store: path, message: "signal 14:05:00 120", timeout: .seconds(30)) } == .answered("refused asked"))
        _ = daemon.lock
    }

    @Test func aFamilyAccountMayNotSetTheClock() async throws {
        // Given a family account
        let t = try TestSite(accounts: [("skipper", .admin), ("grandma", .family)])
        defer { t.remove() }
        try await t.loggedIn(as: "grandma") { client, headers, csrf in
            // When it posts a time signal
            let page = try await RoleTests.post(client, "/clock/signal", headers, "csrf=\(csrf)&tick=14%3A05")
            // Then it is refused, and the Now page offers it no form
            #expect(page.status == .forbidden)
            let now = try await client.execute(uri: "/", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(!now.text.contains("time-signal"))
        }
    }
}
