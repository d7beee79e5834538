import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem
import MarkTimeExport
import Synchronization
import Testing
@testable import MarkTimeWeb

/// A sight of 2007-04-08 (the NMEA logs' day), `seconds` after 09:52:55 UTC, by GPS ±0.5 s.
func storedSight(_ store: AppDatabase, at seconds: Int64) throws -> Sight {
    let utc = UTCTime(nanosecondsSinceEpoch: 1_176_025_975_000_000_000 + seconds * 1_000_000_000)
    var s = Sight(instant: MonotonicInstant(bootID: "boot-a", nanoseconds: seconds * 1_000_000_000),
                  estimate: UTCEstimate(utc: utc, source: .gps, uncertainty: 0.5), createdAt: utc)
    s.trigger = .button
    return try store.insert(s)
}

@Suite("The phone page: sights")
struct SightPageTests {
    @Test func theNowPageListsTheLastFiveSightsNewestFirst() async throws {
        let t = try TestSite()
        defer { t.remove() }
        for i in 1...6 { _ = try storedSight(t.store, at: Int64(i)) }
        try await t.loggedIn { client, headers, _ in
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(page.status == .ok)
            let ids = page.text.components(separatedBy: "<li data-id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(ids == ["6", "5", "4", "3", "2"])
            #expect(page.text.contains("id=\"mark\""))
            #expect(page.text.contains("09h 53m 01.000s"))
        }
    }

    @Test func theLogFiltersByDate() async throws {
        let t = try TestSite()
        defer { t.remove() }
        _ = try storedSight(t.store, at: 0)
        _ = try storedSight(t.store, at: 86_400)
        try await t.loggedIn { client, headers, _ in
            let page = try await client.execute(uri: "/sights?since=2007-04-09&until=2007-04-09", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(page.text.contains("<tr data-id=\"2\">"))
            #expect(!page.text.contains("<tr data-id=\"1\">"))
            let bad = try await client.execute(uri: "/sights?since=April", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(bad.status == .badRequest)
            #expect(bad.text.contains("cannot read &#39;from&#39; &#39;April&#39;") || bad.text.contains("cannot read 'from' 'April'"))
        }
    }

    @Test("A long log comes a page of 100 at a time, newest first, with links to the pages beside")
    func aLongLogIsPaged() async throws {
        // Given 250 sights a minute apart
        let t = try TestSite()
        defer { t.remove() }
        for i in 0..<250 { _ = try storedSight(t.store, at: Int64(i) * 60) }
        try await t.loggedIn { client, headers, _ in
            // When the second page of the range is asked for
            let page = try await client.execute(uri: "/sights?since=2007-04-08&page=2", method: .get, headers: [.cookie: headers[.cookie]!]).text
            // Then it holds sights 150 to 51 (the 101st to 200th newest), says so, and links both ways
            #expect(page.components(separatedBy: "<tr data-id=").count - 1 == 100)
            #expect(page.contains("<tr data-id=\"150\">") && page.contains("<tr data-id=\"51\">"))
            #expect(!page.contains("<tr data-id=\"151\">") && !page.contains("<tr data-id=\"50\">"))
            #expect(page.contains("101–200 of 250 sights from 2007-04-08, newest first."))
            #expect(page.contains("<a id=\"newer\" href=\"/sights?since=2007-04-08&amp;page=1\">") || page.contains("<a id=\"newer\" href=\"/sights?since=2007-04-08&page=1\">"))
            #expect(page.contains("page=3\">Older →</a>"))
            // And the last page has no older link, and a page that is not a number is refused
            let last = try await client.execute(uri: "/sights?since=2007-04-08&page=3", method: .get, headers: [.cookie: headers[.cookie]!]).text
            #expect(last.contains("201–250 of 250 sights") && !last.contains("id=\"older\""))
            let bad = try await client.execute(uri: "/sights?page=zero", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(bad.status == .badRequest)
            #expect(bad.text.contains("is not a page number: give 1, 2, 3…"))
        }
    }

    @Test func editingASightParsesAsTheCLIDoesAndShowsTheReduction() async throws {
        let t = try TestSite()
        defer { t.remove() }
        _ = try storedSight(t.store, at: 0)
        try await t.loggedIn { client, headers, csrf in
            let form = "csrf=\(csrf)&body=sun&limb=lower&hs=34+12.3&ie=-1.5&eyeHeight=2.4&temp=&pressure=&dr=50+00.0+N+4+00.0+W&note=first"
            let r = try await client.execute(uri: "/sights/1", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(r.status == .ok)
            #expect(r.text.contains("Saved."))
            let s = try t.store.sight(id: 1).sight
            #expect(s.body == "Sun")
            #expect(s.limb == .lower)
            #expect(s.hs == 34 + 12.3 / 60)
            #expect(s.indexError == -1.5)
            #expect(s.dr?.latitude == 50)
            #expect(s.dr?.longitude == -4)
            #expect(r.text.contains("id=\"intercept\""), "\(r.text.components(separatedBy: "<h2>Reduction</h2>").last ?? "")")
        }
    }

    @Test func aBadFieldChangesNothingAndSaysWhy() async throws {
        let t = try TestSite()
        defer { t.remove() }
        _ = try storedSight(t.store, at: 0)
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/sights/1", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&body=Sun&ie=99"))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("index error"))
            #expect(try t.store.sight(id: 1).sight.body == nil)
        }
    }

    @Test func anUnchangedFormChangesNothing() async throws {
        let t = try TestSite()
        defer { t.remove() }
        _ = try storedSight(t.store, at: 0)
        _ = try t.store.edit(id: 1, try SightEdit(SightEditText(hs: "34 12.34")), now: UTCTime(nanosecondsSinceEpoch: 0))
        try await t.loggedIn { client, headers, csrf in
            // The form shows Hs to 0.1′; sent back as shown, the stored 12.34′ stays.
            let r = try await client.execute(uri: "/sights/1", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&hs=34%C2%B0+12%27.3&body="))
            #expect(r.text.contains("Nothing changed."))
            #expect(try t.store.sight(id: 1).sight.hs == 34 + 12.34 / 60)
        }
    }

    @Test func anUnknownSightIsNotFound() async throws {
        let t = try TestSite()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/sights/42", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(r.status == .notFound)
        }
    }

    @Test func theCSVDownloadIsTheExportForSpreadsheets() async throws {
        let t = try TestSite()
        defer { t.remove() }
        _ = try storedSight(t.store, at: 0)
        let second = try storedSight(t.store, at: 60)
        var edit = SightEdit()
        edit.note = .set("=HYPERLINK(\"http://evil.example\")")
        _ = try t.store.edit(id: try #require(second.id), edit, now: second.createdAt)
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/sights.csv", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(r.text.contains(#""'=HYPERLINK(""http://evil.example"")""#))
            #expect(r.headers[.contentType] == "text/csv; charset=utf-8")
            var expected: [UInt8] = []
            _ = try SightCSV.export(t.store, SightQuery(oldestFirst: true), forSpreadsheets: true) { expected += $0 }
            #expect(Array(r.text.utf8) == expected)
            #expect(r.text.split(separator: "\r\n").count == 3)
        }
    }
}

@Suite("The phone page: the live connection")
struct LiveTests {
    @Test func theLiveConnectionNeedsASession() async throws {
        let t = try TestSite()
        defer { t.remove() }
        let app = Application(router: WebServer.router(t.site), server: .http1WebSocketUpgrade(webSocketRouter: WebServer.router(t.site)))
        try await app.test(.live) { client in
            // Given the page's own origin but no session cookie
            let port = try #require(client.port)
            await #expect(throws: (any Error).self) {
                try await client.ws("/live", configuration: .init(additionalHeaders: [.origin: "http://localhost:\(port)"])) { _, _, _ in }
            }
        }
    }

    @Test func aMarkWithADaemonListeningIsHandedToItAndNeverInsertedByThePage() async throws {
        // Given a logged-in page, and a stand-in for the daemon on the store's doorbell that
        // stores each phone mark itself (with a note of its own) and answers with its id
        let t = try TestSite(clock: try AdjustedClock.synchronised(error: 0.002))
        defer { t.remove() }
        let bell = try Doorbell(path: Doorbell.path(forStore: t.store.path))
        let asked = Mutex<[DoorbellMessage]>([])
        let store = t.store
        let daemon = Thread {
            while asked.withLock({ $0.isEmpty }) {
                var p = pollfd(fd: bell.fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 100) >= 0 else { return }
                for message in bell.drain() {
                    guard let m = DoorbellMessage(message.text), case .phoneMark(let instant, _) = m, let sender = message.sender else { continue }
                    let sight = try? store.insert(.mark(instant: instant, estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: 0), source: .gps, uncertainty: 0.5),
                                                       fix: nil, note: "stamped by the daemon", trigger: .phone, createdAt: UTCTime(nanosecondsSinceEpoch: 0)))
                    asked.withLock { $0.append(m) }
                    bell.answer(MarkAnswer.stored(sight?.id ?? 0).text, to: sender)
                }
            }
        }
        daemon.start()
        let answer = Mutex<String?>(nil)
        // When the phone MARKs once its clock is synced
        try await withLivePage(t) { type, m, outbound in
            switch type {
            case "sync":
                if answer.withLock({ $0 == nil }) {
                    try await outbound.write(.text(#"{"type":"mark","phone_ms":\#(Date().timeIntervalSince1970 * 1000 - 20)}"#))
                    answer.withLock { $0 = "sent" }
                }
                return false
            case "marked", "refused":
                answer.withLock { $0 = type + ": " + (m["message"] as? String ?? "") }
                return true
            default: return false
            }
        }
        // Then the daemon was asked for a phone mark with the sync's round trip, and the page
        // shows the daemon's sight: the store holds that one alone
        let message = try #require(asked.withLock { $0 }.first)
        guard case .phoneMark(let instant, let roundTrip) = message else { Issue.record("\(message)"); return }
        #expect(instant.bootID == (try t.site.clock.read()).instant.bootID)
        #expect(roundTrip > 0)
        #expect(answer.withLock { $0 } == "marked: ")
        let sights = try t.store.sights()
        #expect(sights.count == 1)
        #expect(sights.first?.note == "stamped by the daemon")
        #expect(sights.first?.instant == instant)
    }

    @Test func aMarkFromThePhoneIsStoredWithHalfTheRoundTripAdded() async throws {
        // Given a clock synchronised to within 2 ms, and a logged-in page's live connection
        let t = try TestSite(clock: try AdjustedClock.synchronised(error: 0.002))
        defer { t.remove() }
        let marked = Mutex<String?>(nil)
        let rtt = Mutex<Double?>(nil)
        let pongs = Mutex(0)
        // When it answers three pings with its clock, then MARKs 20 ms before now
        try await withLivePage(t) { type, m, outbound in
            switch type {
            case "sync":
                rtt.withLock { $0 = m["rtt_ms"] as? Double }
                if pongs.withLock({ $0 += 1; return $0 }) == 3 {
                    try await outbound.write(.text(#"{"type":"mark","phone_ms":\#(Date().timeIntervalSince1970 * 1000 - 20)}"#))
                }
                return false
            case "marked", "refused":
                let text = String(data: try JSONSerialization.data(withJSONObject: m), encoding: .utf8)
                marked.withLock { $0 = text }
                return true
            default: return false
            }
        }
        // Then a `phone` sight is stored, its uncertainty the clock's plus half the best round trip
        let text = try #require(marked.withLock { $0 })
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(answer["type"] as? String == "marked", "\(answer)")
        let sight = try t.store.sight(id: 1).sight
        #expect(sight.trigger == .phone)
        let half = try #require(rtt.withLock { $0 }) / 2000
        // (the clock's 2 ms, carried from its sample to the press at 100 ppm, plus half the round trip)
        let sample = try #require(sight.estimate.provenance?.samples.first)
        let drift = 100e-6 * Double(abs(sight.instant.nanoseconds - sample.monotonicNanoseconds)) / 1e9
        #expect(sight.estimate.source == .system)
        #expect(abs(try #require(sight.estimate.uncertainty) - (0.002 + drift + half)) < 1e-9, "\(sight.estimate)")
        // and its provenance names the round trip
        #expect(abs(try #require(sight.estimate.provenance?.phoneRoundTrip) - half * 2) < 1e-9)
    }
}
