import Foundation
import Logging
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeStore
import MarkTimeTasks
import NIOPosix

/// What every handler shares: the store, the settings, the clocks, the page templates,
/// and the live connections.
public struct Site: Sendable {
    public let store: AppDatabase
    public let settings: Settings
    let clock: any SystemClockSource
    let pages: Pages
    let live: LiveHub
    let storeRevision: StoreRevision
    /// MARKs per account, across its pages.
    let markLimit = MarkLimiter()
    /// Photos are checked and kept one at a time.
    let photoTurns = OneAtATime()
    /// Served over TLS: the session cookie is then `Secure`.
    public let secure: Bool
    /// The names the page answers to (`Host`).
    let hosts: HostNames
    let logger: Logger

    /// The store's tasks and places: each change rings the daemon.
    var tasks: TaskList<AppDatabase> { TaskList(store, bell: StoreDoorbell(store: store.path)) }
    var places: PlaceBook<AppDatabase> { PlaceBook(store, bell: StoreDoorbell(store: store.path)) }

    public init(store: AppDatabase, settings: Settings, clock: any SystemClockSource, secure: Bool, logger: Logger) throws {
        self.store = store
        self.settings = settings
        self.clock = clock
        self.secure = secure
        self.logger = logger
        hosts = HostNames(configured: settings.value("web.hosts")?.description ?? "", machine: HostNames.machineName)
        pages = try Pages()
        live = LiveHub()
        storeRevision = try StoreRevision(store)
    }

    /// Runs `body` on NIO's pool of blocking threads, not on Swift's concurrency pool, which
    /// makes every page (a thread a core): for what takes long (a password's bcrypt, a
    /// photo, a whole range as a download). Quick reads and writes stay where the page is made.
    func offLoop<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    /// The wall clock, for sessions and edits.
    func now() throws -> UTCTime { try clock.read().realtime }

    /// The best UTC now, from the daemon's clock while it is fresh, else the system's.
    func clockNow() throws -> (reading: SystemClockReading, estimate: UTCEstimate) {
        try clock.estimateNow(published: try store.daemonStatus(), maxSampleAge: try settings.clock.maxSampleAge)
    }

    /// The store's revision: it moves on once a commit is visible, so a page made from data
    /// read after it is at least that new.
    func revision() -> String { storeRevision.current }
}
