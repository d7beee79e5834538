import Foundation
import Synchronization
import MarkTimeCore
import MarkTimeStore
import RigSupport
import Testing
@testable import MarkTimeWeb

@Suite("The phone page: the store's revision, which tells open pages to fetch their lists")
struct StoreRevisionTests {
    @Test func theRevisionStaysWhileNothingIsCommitted() throws {
        // Given a site
        let t = try TestSite()
        defer { t.remove() }
        let before = t.site.revision()
        // When it looks at the store with nothing written
        let moved = try t.site.storeRevision.update()
        // Then the revision is the same
        #expect(!moved)
        #expect(t.site.revision() == before)
    }

    @Test func aCommitByTheCLIMovesTheRevisionOnce() throws {
        // Given a site
        let t = try TestSite()
        defer { t.remove() }
        let before = t.site.revision()
        // When the CLI's own opening of the store adds a task, and the site looks twice
        let cli = try AppDatabase(path: t.store.path, createDirectory: false)
        _ = try cli.insertTask(title: "Wind the chronometer", due: UTCTime(nanosecondsSinceEpoch: 0), remind: nil, course: nil,
                            now: UTCTime(nanosecondsSinceEpoch: 0))
        let first = try t.site.storeRevision.update(), second = try t.site.storeRevision.update()
        // Then the first look moves the revision on by one commit, and the second does not
        #expect((first, second) == (true, false))
        #expect(t.site.revision() == before.split(separator: ".")[0] + ".1")
    }

    @Test func theLiveServiceMovesTheRevisionAfterACommitWithTheTaskVisible() async throws {
        // Given a site whose live service watches the store
        let t = try TestSite()
        defer { t.remove() }
        let before = t.site.revision()
        let service = Task { try await LiveService(site: t.site).run() }
        defer { service.cancel() }
        // When the CLI adds a task
        let cli = try AppDatabase(path: t.store.path, createDirectory: false)
        _ = try cli.insertTask(title: "Wind the chronometer", due: UTCTime(nanosecondsSinceEpoch: 0), remind: nil, course: nil,
                            now: UTCTime(nanosecondsSinceEpoch: 0))
        // Then the revision moves on (a generous limit: on a loaded machine the live service's
        // task may wait long for a thread), and a list read after it holds the task
        #expect(try await waitUntil(within: 20) { t.site.revision() != before })
        #expect(try t.store.tasks().map(\.title).contains("Wind the chronometer"))
    }

    @Test func aSnapshotThatCouldNotBeReadIsToldAtTheNextLook() async throws {
        // Given a site whose live service has told the pages, and cannot read the first
        // snapshot after a commit
        let t = try TestSite()
        defer { t.remove() }
        let before = t.site.revision()
        let failures = Failures()
        let service = LiveService(site: t.site) { site in
            if site.revision() != before, failures.first() { throw Failures.Refused() }
            return try NowSnapshot.read(site)
        }
        await service.look(always: true)
        // When the CLI adds a task, and the service looks twice
        let cli = try AppDatabase(path: t.store.path, createDirectory: false)
        _ = try cli.insertTask(title: "Wind the chronometer", due: UTCTime(nanosecondsSinceEpoch: 0), remind: nil, course: nil,
                            now: UTCTime(nanosecondsSinceEpoch: 0))
        let owedAfterRefusal = await service.look(always: false)
        let owedAfterNext = await service.look(always: false)
        // Then the first look moves the revision but is refused, so the move stays owed, and
        // the second tells the pages the new revision
        #expect(failures.count == 1)
        #expect((owedAfterRefusal, owedAfterNext) == (true, false))
        #expect(t.site.revision() == before.split(separator: ".")[0] + ".1")
        #expect(await t.site.live.last.contains("\"revision\":\"\(t.site.revision())\""))
    }

    @Test func aLookThatFindsNothingNewTellsNothing() async throws {
        // Given a site's live service that has told the pages
        let t = try TestSite()
        defer { t.remove() }
        let service = LiveService(site: t.site)
        await service.look(always: true)
        let told = await t.site.live.last
        // When it looks again with nothing committed
        let owed = await service.look(always: false)
        // Then nothing is owed and nothing new was sent
        #expect(!owed)
        #expect(await t.site.live.last == told)
    }
}

/// Counts the reads a test refused.
private final class Failures: Sendable {
    struct Refused: Error {}
    private let refused = Mutex(0)

    var count: Int { refused.withLock { $0 } }

    /// True the first time only: that call is refused.
    func first() -> Bool {
        refused.withLock {
            guard $0 == 0 else { return false }
            $0 = 1
            return true
        }
    }
}
