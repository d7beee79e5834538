import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimeStore
import Testing
@testable import MarkTimeWeb


@Suite("The phone page: the journal")
struct JournalPageTests {
    @Test func aMomentAtATimeLandsOnItsDayAndMarksTheCalendar() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/journal/2026-11-21/moment", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&text=Dolphins+off+the+bow&time=07%3A15"))
            #expect(r.status == .ok)
            #expect(r.text.contains("Moment 1 added."))
            #expect(r.text.contains("<li class=\"entry-moment\"><span class=\"num\">07:15</span> <span class=\"muted\">moment</span> Dolphins off the bow"))
            let cal = try await client.execute(uri: "/journal?month=2026-11", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(cal.text.contains("<a href=\"/journal/2026-11-21\" data-date=\"2026-11-21\" class=\"marked\" title=\"1 entries\">21</a>"))
            #expect(cal.text.contains("<h2>November 2026</h2>"))
        }
    }

    @Test func aTimeTheDayDoesNotHaveIsRefused() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let r = try await client.execute(uri: "/journal/2026-11-21/moment", method: .post, headers: headers,
                                             body: ByteBuffer(string: "csrf=\(csrf)&text=Squall&time=25%3A00"))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("the time &#39;25:00&#39; is not a time of day: use HH:MM, 24-hour"))
        }
    }

    @Test func aPhotoIsKeptOnceAndServedOnlyWithASession() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            var upload: HTTPFields = [.origin: "http://localhost", .contentType: "image/png", .cookie: headers[.cookie]!]
            upload[HTTPField.Name("X-CSRF-Token")!] = csrf
            let first = try await client.execute(uri: "/journal/2026-11-21/photo?caption=Green+flash&name=sunset.png", method: .post,
                                                 headers: upload, body: ByteBuffer(bytes: pngHeader(width: 640, height: 480)))
            #expect(first.status == .ok)
            #expect(first.text.contains("Photo 1 added: 640×480 png,"))
            let again = try await client.execute(uri: "/journal/2026-11-21/photo?caption=Again&name=copy.png", method: .post,
                                                 headers: upload, body: ByteBuffer(bytes: pngHeader(width: 640, height: 480)))
            #expect(again.text.contains("Photo 1 already has this image: kept once."))
            let files = try FileManager.default.contentsOfDirectory(atPath: t.store.mediaFolder).filter { !$0.hasPrefix(".") }
            #expect(files.count == 1)
            let served = try await client.execute(uri: "/media/\(files[0])", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(served.status == .ok)
            #expect(Array(served.body.readableBytesView) == pngHeader(width: 640, height: 480))
            let anonymous = try await client.execute(uri: "/media/\(files[0])", method: .get)
            #expect(anonymous.status != .ok)
        }
    }

    @Test func aPhotoOverTheLimitIsRefusedWithTheSentenceAsItArrives() async throws {
        // Given a live server (the body streams in) and a logged-in page
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await Application(router: WebServer.router(t.site)).test(.live) { client in
            let (cookie, csrf) = try await client.logIn()
            // When the form without script posts a 17 MB photo
            let form: HTTPFields = [.origin: "http://localhost", .contentType: "multipart/form-data; boundary=----marktime7MA4YWxk", .cookie: cookie]
            let big = pngHeader(width: 1, height: 1) + [UInt8](repeating: 0, count: 17 << 20)
            // (a client of its own: the test client's 20 s read timeout is too short for 17 MB on a loaded machine)
            let port = try #require(client.port)
            let body = multipart([("photo", "huge.png", big)])
            let r = try await TestClient.withClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(600))) { slow in
                try await slow.execute(.init("/journal/2026-11-21/photo?csrf=\(csrf)", method: .post, authority: "localhost", headers: form, body: body))
            }
            let text = String(buffer: r.body ?? ByteBuffer())
            // Then it is refused with the page's sentence, and nothing is kept
            #expect(r.status == .contentTooLarge)
            #expect(text.contains("The photo is over 16 MB: send a smaller one."))
            #expect(!text.contains("NIOTooManyBytesError"))
            #expect(!FileManager.default.fileExists(atPath: t.store.mediaFolder))
        }
    }

    @Test func aPhotoSentInChunksWithoutALengthIsRefusedOncePastTheLimitAndLeavesNothing() async throws {
        // Given a live server and a logged-in page whose store folder holds only the store
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        let before = try FileManager.default.contentsOfDirectory(atPath: t.store.folder).sorted()
        try await Application(router: WebServer.router(t.site)).test(.live) { client in
            let (cookie, csrf) = try await client.logIn()
            let port = try #require(client.port)
            // When the script's upload arrives chunked (no Content-Length), 1 MB at a time,
            // until the server answers
            let answer = try await blocking {
                let c = try RawConnection(port: port)
                c.send("POST /journal/2026-11-21/photo?name=huge.png HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nOrigin: http://localhost\r\n"
                       + "Cookie: \(cookie)\r\nX-CSRF-Token: \(csrf)\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n")
                let megabyte = String(repeating: "x", count: 1 << 20)
                var sent = 0
                while sent < 20, !c.ready(within: 0) {
                    c.send(String(1 << 20, radix: 16) + "\r\n" + megabyte + "\r\n")
                    sent += 1
                }
                c.send("0\r\n\r\n")
                return (sent, c.readAll(within: 60))
            }
            // Then it is refused with the page's sentence once past 16 MB, and nothing is kept
            #expect(answer.1.hasPrefix("HTTP/1.1 413 "), "\(answer.1.prefix(200))")
            #expect(answer.1.contains("The photo is over 16 MB: send a smaller one."))
            #expect(answer.0 >= 17)
            #expect(try FileManager.default.contentsOfDirectory(atPath: t.store.folder).sorted() == before)
        }
    }

    @Test func aFormOverSixtyFourKBIsRefusedWithASentenceEvenWithASession() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            // Given a logged-in page; when it posts a moment of 100 KB
            let body = "csrf=\(csrf)&time=10%3A00&text=" + String(repeating: "x", count: 100_000)
            let r = try await client.execute(uri: "/journal/2026-11-21/moment", method: .post, headers: headers, body: ByteBuffer(string: body))
            // Then it is refused with what to do, and the day has no moment
            #expect(r.status == .contentTooLarge)
            #expect(r.text.contains("Refused: a form is at most 64 KB. Shorten its text and send it again."))
            let day = try await client.execute(uri: "/journal/2026-11-21", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(day.status == .ok)
            #expect(!day.text.contains("entry-moment"))
        }
    }

    @Test func aFileThatIsNotAnImageIsRefusedAndNothingKept() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            var upload: HTTPFields = [.origin: "http://localhost", .contentType: "image/jpeg", .cookie: headers[.cookie]!]
            upload[HTTPField.Name("X-CSRF-Token")!] = csrf
            let r = try await client.execute(uri: "/journal/2026-11-21/photo?name=notes.jpg", method: .post, headers: upload,
                                             body: ByteBuffer(string: "not a picture"))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("notes.jpg is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added"))
            #expect(!FileManager.default.fileExists(atPath: t.store.mediaFolder))
        }
    }

    /// The day page's form as a browser without JavaScript posts it.
    private func multipart(_ parts: [(name: String, file: String?, bytes: [UInt8])], boundary: String = "----marktime7MA4YWxk") -> ByteBuffer {
        var body: [UInt8] = []
        for p in parts {
            let disposition = "form-data; name=\"\(p.name)\"" + (p.file.map { "; filename=\"\($0)\"" } ?? "")
            body += Array("--\(boundary)\r\nContent-Disposition: \(disposition)\r\n\(p.file == nil ? "" : "Content-Type: image/png\r\n")\r\n".utf8)
            body += p.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return ByteBuffer(bytes: body)
    }

    /// A same-origin multipart post's headers, with the session's cookie.
    private func formHeaders(_ session: HTTPFields) -> HTTPFields {
        [.origin: "http://localhost", .contentType: "multipart/form-data; boundary=----marktime7MA4YWxk", .cookie: session[.cookie]!]
    }

    @Test func aPhotoFromTheFormWithoutScriptIsKeptWithItsCaption() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let page = try await client.execute(uri: "/journal/2026-11-21", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(page.text.contains("action=\"/journal/2026-11-21/photo?csrf=\(csrf)\""))
            let form = formHeaders(headers)
            let r = try await client.execute(uri: "/journal/2026-11-21/photo?csrf=\(csrf)", method: .post, headers: form,
                                             body: multipart([("photo", "reef.png", pngHeader(width: 320, height: 200)),
                                                              ("caption", nil, Array("Reef at low water".utf8))]))
            #expect(r.status == .ok)
            #expect(r.text.contains("Photo 1 added: 320×200 png,"))
            #expect(try t.store.journalText(kind: "photo", id: 1) == "Reef at low water")
        }
    }

    @Test func aFormWithoutAPhotoIsRefusedWithWhatToDo() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            let form = formHeaders(headers)
            let r = try await client.execute(uri: "/journal/2026-11-21/photo?csrf=\(csrf)", method: .post, headers: form,
                                             body: multipart([("photo", "", []), ("caption", nil, Array("Nothing".utf8))]))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("no photo was sent: choose a JPEG or PNG image first"))
            #expect(!FileManager.default.fileExists(atPath: t.store.mediaFolder))
        }
    }

    @Test(arguments: ["multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\"\""])
    func aFormWithoutABoundaryIsRefusedNotACrash(type: String) async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, csrf in
            var form = formHeaders(headers)
            form[.contentType] = type
            let r = try await client.execute(uri: "/journal/2026-11-21/photo?csrf=\(csrf)", method: .post, headers: form,
                                             body: multipart([("photo", "reef.png", pngHeader(width: 1, height: 1))]))
            #expect(r.status == .badRequest)
            #expect(r.text.contains("the form&#39;s data has no boundary (multipart/form-data): send it again"))
        }
    }

    @Test func aFormWithoutTheTokenInItsActionIsRefused() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let form = formHeaders(headers)
            let r = try await client.execute(uri: "/journal/2026-11-21/photo", method: .post, headers: form,
                                             body: multipart([("photo", "reef.png", pngHeader(width: 1, height: 1))]))
            #expect(r.status == .forbidden)
            #expect(!FileManager.default.fileExists(atPath: t.store.mediaFolder))
        }
    }

    @Test func aPhotoWithoutTheTokenIsRefused() async throws {
        let t = try TestSite(settings: .brisbaneHome)
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let upload: HTTPFields = [.origin: "http://localhost", .contentType: "image/png", .cookie: headers[.cookie]!]
            let r = try await client.execute(uri: "/journal/2026-11-21/photo", method: .post, headers: upload,
                                             body: ByteBuffer(bytes: pngHeader(width: 1, height: 1)))
            #expect(r.status == .forbidden)
        }
    }
}
