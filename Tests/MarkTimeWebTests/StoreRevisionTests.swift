import Foundation
import MarkTimeCore
import MarkTimeStore
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
        let moved = t.site.storeRevision.update()
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
        _ = try cli.addTask(title: "Wind the chronometer", due: UTCTime(nanosecondsSinceEpoch: 0), remind: nil, course: nil,
                            now: UTCTime(nanosecondsSinceEpoch: 0))
        let first = t.site.storeRevision.update(), second = t.site.storeRevision.update()
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
        _ = try cli.addTask(title: "Wind the chronometer", due: UTCTime(nanosecondsSinceEpoch: 0), remind: nil, course: nil,
                            now: UTCTime(nanosecondsSinceEpoch: 0))
        let deadline = ContinuousClock.now + .seconds(10)
        while t.site.revision() == before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        // Then the revision moves on, and a list read after it holds the task
        #expect(t.site.revision() != before)
        #expect(try t.store.tasks().map(\.title).contains("Wind the chronometer"))
    }
}
