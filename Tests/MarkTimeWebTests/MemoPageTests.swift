import Foundation
import Hummingbird
import HummingbirdTesting
import MarkTimeCore
import MarkTimeStore
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: a sight's voice memo")
struct MemoPageTests {
    /// Sights 1 and 2; sight 2 with a memo whose bytes are `data`.
    let data: [UInt8] = Array("fLaC".utf8) + (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 31) }

    func site() throws -> TestSite {
        let t = try TestSite()
        _ = try storedSight(t.store, at: 1)
        _ = try storedSight(t.store, at: 2)
        try t.store.keepMemo(SightMemo(sightID: 0, sampleRate: 16_000, frames: 24_000, cut: false, data: data,
                                       createdAt: UTCTime(nanosecondsSinceEpoch: 1_176_025_975_000_000_000)),
                             pressedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 2_000_000_000))
        return t
    }

    @Test func theSightsPagePlaysItsMemo() async throws {
        let t = try site()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let page = try await client.execute(uri: "/sights/2", method: .get, headers: [.cookie: headers[.cookie]!]).text
            #expect(page.contains("<audio controls preload=\"none\" src=\"/sights/2/memo.flac\" id=\"memo-audio\"></audio>"), "\(page)")
            #expect(page.contains("1.5 s, FLAC 16 kHz, 3 KB"))
            let without = try await client.execute(uri: "/sights/1", method: .get, headers: [.cookie: headers[.cookie]!]).text
            #expect(!without.contains("<audio"))
        }
    }

    @Test func theMemoComesAsFLACByteForByte() async throws {
        let t = try site()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let r = try await client.execute(uri: "/sights/2/memo.flac", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "audio/flac")
            #expect(Array(buffer: r.body) == data)
        }
    }

    @Test func aSightWithoutAMemoOrNoSightIsNotFound() async throws {
        let t = try site()
        defer { t.remove() }
        try await t.loggedIn { client, headers, _ in
            let none = try await client.execute(uri: "/sights/1/memo.flac", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(none.status == .notFound)
            #expect(none.text.contains("Sight 1 has no voice memo."))
            let unknown = try await client.execute(uri: "/sights/99/memo.flac", method: .get, headers: [.cookie: headers[.cookie]!])
            #expect(unknown.status == .notFound)
        }
    }

    @Test func withoutASessionTheMemoIsNotGiven() async throws {
        let t = try site()
        defer { t.remove() }
        try await t.test { client in
            let r = try await client.execute(uri: "/sights/2/memo.flac", method: .get)
            #expect(r.status != .ok)
            #expect(Array(buffer: r.body) != data)
        }
    }
}
