import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeDevices
import MarkTimeRecorder
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem
import ServiceLifecycle
import Synchronization

/// What the Now page shows, read at one moment: the clock, the fix, the last five sights;
/// the page's part, and the live message (`type` "now") with the same fields.
struct NowSnapshot: Encodable {
    var type = "now"
    var utc, source, uncertainty: String
    var sights: [SightView.Row]
    var fix: String
    var fixMode: String?
    var chronometer, gpsWarning: String
    var anchor: AnchorView
    var revision: String
    var daemon: String

    static func read(_ site: Site) throws -> NowSnapshot {
        let (reading, estimate) = try site.clockNow()
        let status = try site.store.daemonStatus()
        var fix = "no GPS fix", fixMode: String?
        if let current = status?.fix, current.isCurrent(for: try .sight(site.settings), at: reading.instant) {
            fix = current.position.ddm + (current.flag == nil ? "" : " (flagged: faster than the boat can)")
            fixMode = "\(current.mode)D"
        }
        // The chronometer, and GPS time set aside or a position flagged, in words.
        let fresh = status.map { $0.bootID == reading.instant.bootID } ?? false
        let alive = status?.isRunning(now: reading.instant) ?? false
        return NowSnapshot(
            utc: estimate.utc.sightFormat, source: estimate.source.rawValue, uncertainty: SightView.uncertainty(estimate.uncertainty),
            sights: try site.store.sights(SightQuery(limit: 5)).map(SightView.Row.init), fix: fix, fixMode: fixMode,
            chronometer: fresh ? status?.chronometer.map { "chronometer: " + $0.sentence(now: reading.instant.nanoseconds) } ?? "" : "",
            gpsWarning: fresh ? [status?.gpsSetAside, status?.fix?.flag].compactMap { $0 }.joined(separator: " · ") : "",
            anchor: try AnchorView(site), revision: site.revision(),
            daemon: alive ? "running" : "not running: the button and the beep need `marktime daemon`")
    }

    /// The live message.
    var json: String { LiveConnection.json(self) }
}

/// The Now page: the snapshot, and a time signal's form again with its answer or refusal.
struct NowView: Encodable {
    var now: NowSnapshot
    var signal: TimeSignalForm?
    var notice, error: String?

    func encode(to encoder: any Encoder) throws {
        try now.encode(to: encoder)
        enum Keys: String, CodingKey { case signal, notice, error }
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encodeIfPresent(signal, forKey: .signal)
        try fields.encodeIfPresent(notice, forKey: .notice)
        try fields.encodeIfPresent(error, forKey: .error)
    }
}

/// A time signal's form as typed.
struct TimeSignalForm: Encodable {
    var tick, date, within: String
}

/// The open live connections with the session each was opened in, and the last message
/// they were sent.
actor LiveHub {
    private var clients: [Int: (writer: WebSocketOutboundWriter, token: String)] = [:]
    private var nextID = 0
    private(set) var last = ""

    var count: Int { clients.count }

    func add(_ writer: WebSocketOutboundWriter, session token: String) -> Int {
        nextID += 1
        clients[nextID] = (writer, token)
        return nextID
    }

    func remove(_ id: Int) { clients[id] = nil }

    /// Each open connection's session token.
    var sessions: [(id: Int, token: String)] { clients.map { ($0.key, $0.value.token) } }

    /// Closes a connection whose session has ended (policy violation, 1008: the page goes
    /// to the login).
    func end(_ id: Int) async {
        guard let client = clients.removeValue(forKey: id) else { return }
        try? await client.writer.close(.policyViolation, reason: LiveConnection.sessionEnded)
    }

    /// Sends `message` to every page, unless it is what they were last sent.
    func broadcast(_ message: String) async {
        guard message != last else { return }
        last = message
        for client in clients.values { try? await client.writer.write(.text(message)) }
    }
}

/// The MARK rate limit the server's pages share.
final class MarkLimiter: Sendable {
    private let limit = Mutex(MarkRateLimit())

    func take(_ account: String, now: Int64) -> Bool { limit.withLock { $0.take(account, now: now) } }
}

/// The store's revision as the pages know it: this server's run, and how many commits it
/// has seen become visible. A page made at an older revision fetches its lists again.
final class StoreRevision: Sendable {
    private let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private let watch: CommitWatch
    private let state: Mutex<(version: Int, commits: Int)>

    init(_ store: AppDatabase) throws(StoreError) {
        watch = try CommitWatch(store)
        state = Mutex((try watch.version(), 0))
    }

    var current: String { "\(run).\(state.withLock { $0.commits })" }

    /// Looks at the store; whether a commit became visible since the last look, which
    /// moves the revision on.
    func update() throws(StoreError) -> Bool {
        let version = try watch.version()
        return state.withLock {
            guard $0.version != version else { return false }
            $0 = (version, $0.commits + 1)
            return true
        }
    }
}

/// Watches the store and the daemon's status file, and tells every open page what changed.
struct LiveService: Service {
    let site: Site
    /// Reads what the pages are told; a test gives one that fails.
    let read: @Sendable (Site) throws -> NowSnapshot
    /// The revision in the last snapshot the pages were told.
    private let told = Told()

    init(site: Site, read: @escaping @Sendable (Site) throws -> NowSnapshot = NowSnapshot.read) {
        self.site = site
        self.read = read
    }

    /// The pauses between looks at the store after its files last changed. A commit becomes
    /// visible after its last write to the WAL, once the WAL is synced (slow on an SD card)
    /// and its index in -shm updated through mmap, which inotify does not see.
    static let recheck: [Duration] = [10, 20, 40, 80, 160, 320, 640, 1280, 2560].map { .milliseconds($0) }

    /// Looks at the store, and tells the pages the Now snapshot if `always`, or if the
    /// revision has moved past the last one they were told. A look or a snapshot that fails
    /// is logged and left to the next look. Returns whether the pages are still owed a move.
    @discardableResult
    func look(always: Bool) async -> Bool {
        do { _ = try site.storeRevision.update() } catch {
            site.logger.warning("could not look at the store for commits; trying again at the next look", metadata: ["error": "\(error)"])
        }
        // A password change, a removal or a log-out everywhere is a commit: the pages of the
        // sessions it ended are closed at once.
        for (id, token) in await site.live.sessions where !LiveConnection.sessionIsLive(token, site: site) {
            await site.live.end(id)
        }
        guard always || owed else { return false }
        do {
            let snapshot = try read(site)
            await site.live.broadcast(snapshot.json)
            told.revision.withLock { $0 = snapshot.revision }
        } catch {
            site.logger.warning("could not read the Now page's snapshot; telling the pages at the next look", metadata: ["error": "\(error)"])
        }
        return owed
    }

    /// Whether the revision has moved past the last one the pages were told.
    private var owed: Bool { told.revision.withLock { $0 } != site.revision() }

    func run() async throws {
        let watcher = try FileWatcher()
        try watcher.watch(site.store.path)
        try watcher.watch(site.store.path + "-wal")
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        watcher.start { continuation.yield() }
        defer { watcher.stop() }
        continuation.yield()  // a commit made before the watch began
        var statusFile: String?
        var settle: Task<Void, Never>?
        await withGracefulShutdownHandler {
            for await _ in changes {
                if let file = try? site.store.daemonStatusFile(), file != statusFile {
                    statusFile = file
                    try? watcher.watch(file)
                }
                await look(always: true)
                settle?.cancel()
                settle = Task {
                    // After the schedule, on at its longest pause while a move is untold.
                    var n = 0, owed = false
                    while n < Self.recheck.count || owed {
                        guard (try? await Task.sleep(for: Self.recheck[min(n, Self.recheck.count - 1)])) != nil else { return }
                        owed = await look(always: false)
                        n += 1
                    }
                }
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
        settle?.cancel()
    }

    private final class Told: Sendable {
        let revision = Mutex<String?>(nil)
    }
}

/// One page's live connection: the Now snapshot on open and on every change, the clock
/// sync (pings the page answers with its own clock), and MARK.
struct LiveConnection {
    let site: Site

    /// Pings at the start (five, 200 ms apart, to find a short round trip), then every 15 s.
    static let pingSchedule: [Duration] = Array(repeating: .milliseconds(200), count: 5) + [.seconds(15)]

    /// Why a connection is closed when its session ends.
    static let sessionEnded = "the session ended: log in again"

    /// Whether the session still opens the page (a store that cannot be read keeps it).
    static func sessionIsLive(_ token: String, site: Site) -> Bool {
        do { return try Logins(site.store).session(token: token, now: try site.now()) != nil } catch { return true }
    }

    func handle(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, context: WebSocketRouterContext<WebContext>) async throws {
        guard let session = context.requestContext.session else { return }
        let (token, account) = (session.token, session.account.name)
        let id = await site.live.add(outbound, session: token)
        defer { Task { [live = site.live] in await live.remove(id) } }
        let state = ConnectionState()
        try await outbound.write(.text(try NowSnapshot.read(site).json))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var n = 0
                while !Task.isCancelled {
                    n += 1
                    let (reading, estimate) = try site.clockNow()
                    state.sent.withLock { $0[n] = reading.instant.nanoseconds; if $0.count > 16 { $0[n - 16] = nil } }
                    try await outbound.write(.text(Self.json(Outbound.Ping(n: n, utcMillis: Double(estimate.utc.nanosecondsSinceEpoch) / 1e6))))
                    try await Task.sleep(for: Self.pingSchedule[min(n - 1, Self.pingSchedule.count - 1)])
                }
            }
            for try await message in inbound.messages(maxSize: 4096) {
                guard case .text(let text) = message, let object = try? JSONDecoder().decode(Inbound.self, from: Data(text.utf8)) else { continue }
                let received = try site.clock.read()
                // Every message, MARK too, is taken only while the session lasts.
                guard Self.sessionIsLive(token, site: site) else {
                    await site.live.end(id)
                    break
                }
                /// Why a crew message (MARK, a reading, Say) is refused now, nil when it is taken: the
                /// role as it is now (`marktime user role` takes effect on an open page), then the
                /// account's rate, shared by all three.
                func refused(_ busy: String) -> Outbound.Refused? {
                    let role = ((try? Logins(site.store).session(token: token, now: try site.now())) ?? nil)?.account.role ?? session.account.role
                    guard role >= Role.neededToMark else { return Outbound.Refused(message: role.refusal(needs: Role.neededToMark)) }
                    guard site.markLimit.take(account, now: received.instant.nanoseconds) else { return Outbound.Refused(message: busy) }
                    return nil
                }
                switch object.type {
                case "pong":
                    guard let n = object.n, let phone = object.phoneMillis, phone.isFinite,
                          let sentAt = state.sent.withLock({ $0.removeValue(forKey: n) }) else { continue }
                    let exchange = PhoneClockSync.Exchange(sentAt: sentAt, phoneMillis: phone, receivedAt: received.instant.nanoseconds)
                    let best = state.sync.withLock { s -> PhoneClockSync.Exchange? in s.add(exchange); return s.best }
                    guard let best else { continue }
                    // The page's ticking clock: the Pi's UTC minus the phone's clock, at the best exchange.
                    let (_, estimate) = try site.clockNow()
                    let midpoint = (best.sentAt + best.receivedAt) / 2
                    let utcMs = Double(estimate.utc.nanosecondsSinceEpoch - (received.instant.nanoseconds - midpoint)) / 1e6
                    try await outbound.write(.text(Self.json(Outbound.Sync(
                        roundTripMillis: Double(best.roundTrip) / 1e6, offsetMillis: utcMs - best.phoneMillis,
                        source: estimate.source.rawValue, uncertainty: SightView.uncertainty(estimate.uncertainty)))))
                case "mark":
                    guard let phone = object.phoneMillis, phone.isFinite else { continue }
                    if let refusal = refused(MarkRateLimit.refusal) {
                        try await outbound.write(.text(Self.json(refusal)))
                        continue
                    }
                    // Answered from a task of its own: while one MARK waits for the daemon (up to
                    // 5 s), the next is taken, and dated, as it comes.
                    let sync = state.sync.withLock { $0 }
                    group.addTask {
                        let (reply, sight) = await mark(phoneMillis: phone, received: received, sync: sync)
                        try await outbound.write(.text(Self.json(reply)))
                        // The quick entry comes after: working out the plan never holds up "Stored".
                        if let sight {
                            try await outbound.write(.text(Self.json(Outbound.Quick(sight: .init(sight), quick: quickEntry(for: sight)))))
                        }
                    }
                case "say":
                    // The plan's preset, read aloud by the daemon on request (the page's Say).
                    guard let text = object.text, DoorbellMessage("say " + text) != nil else { continue }
                    if let refusal = refused(Self.busyRefusal) {
                        try await outbound.write(.text(Self.json(refusal)))
                        continue
                    }
                    DaemonSpeaker(store: site.store.path).say(text)
                case "reading":
                    // The quick entry after a MARK: a sight's Hs as the keypad types it, and its body.
                    guard let sight = object.sight, sight > 0 else { continue }
                    if var refusal = refused(Self.busyRefusal) {
                        refusal.reading = Int64(sight)
                        try await outbound.write(.text(Self.json(refusal)))
                        continue
                    }
                    let (hs, body) = (object.hs ?? "", object.body ?? "")
                    group.addTask { try await outbound.write(.text(Self.json(await reading(sight: Int64(sight), hs: hs, body: body)))) }
                default:
                    continue
                }
            }
            group.cancelAll()
        }
    }

    /// Records a MARK; what the page is told, and the sight stored.
    func mark(phoneMillis: Double, received: SystemClockReading, sync: PhoneClockSync) async -> (any Encodable & Sendable, Sight?) {
        let recorder = SightRecorder(store: site.store, beeper: DaemonBeeper(store: site.store.path), logger: site.logger, attempts: 3)
        do {
            let sight = try await recorder.recordPhoneMark(phoneMillis: phoneMillis, receivedAt: received.instant, sync: sync, system: received.sample,
                                                     published: try site.store.daemonStatus(), settings: site.settings, ask: Self.askOnItsOwnThread)
            return (Outbound.SightMessage(type: "marked", sight: .init(sight)), sight)
        } catch {
            site.logger.warning("phone MARK not stored", metadata: ["error": "\(error)"])
            return (Outbound.Refused(message: "Not stored: \(error)"), nil)
        }
    }

    /// What the quick entry after a MARK starts from (`ReadingEntry.suggestion`): the bodies,
    /// the planned one nearest to the moment, and its predicted Hs as the keypad types it,
    /// for the sextant of the newest sight with a height of eye; nil without a position.
    func quickEntry(for sight: Sight) -> Outbound.Quick.Entry? {
        let recent = (try? site.store.sights(SightQuery(limit: 50))) ?? []
        let sextant = try? SextantReading.planned(eyeHeight: nil, indexError: nil, celsius: nil, hectopascals: nil, limb: .lower,
                                                  newest: recent.first { $0.eyeHeight != nil })
        let hourBefore = sight.estimate.utc.adding(nanoseconds: -3_600_000_000_000)
        let earlier = recent.filter { $0.id != sight.id && $0.estimate.utc >= hourBefore && $0.estimate.utc <= sight.estimate.utc }
        guard let s = ReadingEntry.suggestion(for: sight, sextant: sextant, recent: earlier) else { return nil }
        return .init(bodies: s.bodies.map(\.name), body: s.body?.name ?? "", hs: s.hs.map(KeypadEntry.typed) ?? "")
    }

    /// Keeps a quick entry's reading (`hs` as the keypad types it: `3412.3`) and body on
    /// sight `id`, through the daemon's writer when it runs (`SightRecorder.setReading`).
    func reading(sight id: Int64, hs: String, body: String) async -> any Encodable & Sendable {
        do {
            let value = hs.isEmpty ? nil : try KeypadEntry.reading(hs)
            let name = body.isEmpty ? nil : try Body.parse(body).name
            guard value != nil || name != nil else { throw InputError("nothing to keep: type the reading, or choose the body") }
            let recorder = SightRecorder(store: site.store, beeper: nil, logger: site.logger)
            let sight = try await recorder.setReading(sight: id, hs: value, body: name, now: try site.now(), ask: Self.askOnItsOwnThread)
            return Outbound.SightMessage(type: "kept", sight: .init(sight))
        } catch {
            return Outbound.Refused(message: "Not kept: \(error)", reading: id)
        }
    }

    /// A reading or a Say over the account's share of MARKs (`MarkRateLimit`, shared with them).
    static let busyRefusal = "Not sent: more than 5 MARKs, readings or Says in a few seconds from this account; wait a second and try again."

    /// Asks the daemon to store a MARK, waiting for its answer on a thread of its own; with
    /// no doorbell beside the store (no daemon has run on it), nothing is sent.
    static let askOnItsOwnThread: SightRecorder.Ask = { store, message, timeout in
        guard FileManager.default.fileExists(atPath: Doorbell.path(forStore: store)) else { return .notSent }
        return (try? await onThreadOfItsOwn(named: "marktime-mark") { Doorbell.ask(store: store, message: message, timeout: timeout) }) ?? .noAnswer
    }

    /// The pings in flight (by number, their monotonic send time) and the sync so far.
    final class ConnectionState: Sendable {
        let sent = Mutex<[Int: Int64]>([:])
        let sync = Mutex(PhoneClockSync())
    }

    /// A live message on one line, its keys sorted.
    static func json(_ message: some Encodable) -> String {
        ViewValue.of(message).json.compact
    }

    /// A message from the page: its type, and the fields that type carries.
    struct Inbound: Decodable {
        var type: String
        /// pong: the ping it answers, and the phone's clock when it answered.
        var n: Int?
        var phoneMillis: Double?
        /// say: the sentence.
        var text: String?
        /// reading: the sight, its Hs as the keypad types it, and its body.
        var sight: Int?
        var hs, body: String?

        enum CodingKeys: String, CodingKey {
            case type, n, text, sight, hs, body
            case phoneMillis = "phone_ms"
        }
    }

    /// The messages to the page (and "now", `NowSnapshot`).
    enum Outbound {
        /// The Pi's clock, for the phone's to be measured against.
        struct Ping: Encodable, Sendable {
            var type = "ping"
            var n: Int
            var utcMillis: Double
            enum CodingKeys: String, CodingKey { case type, n, utcMillis = "utc_ms" }
        }

        /// The phone's clock against the Pi's, at the best exchange so far.
        struct Sync: Encodable, Sendable {
            var type = "sync"
            var roundTripMillis, offsetMillis: Double
            var source, uncertainty: String
            enum CodingKeys: String, CodingKey { case type, source, uncertainty, roundTripMillis = "rtt_ms", offsetMillis = "offset_ms" }
        }

        /// A MARK, a reading or a Say not taken, and why; `reading` names the sight of a refused reading.
        struct Refused: Encodable, Sendable {
            var type = "refused"
            var message: String
            var reading: Int64?
        }

        /// A sight stored ("marked") or its reading kept ("kept").
        struct SightMessage: Encodable, Sendable {
            var type: String
            var sight: SightView.Row
        }

        /// What the quick entry after a MARK starts from; `quick` is null without a position.
        struct Quick: Encodable, Sendable {
            struct Entry: Encodable, Sendable {
                var bodies: [String]
                var body, hs: String
            }

            var type = "quick"
            var sight: SightView.Row
            var quick: Entry?

            func encode(to encoder: any Encoder) throws {
                enum Keys: String, CodingKey { case type, sight, quick }
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(type, forKey: .type)
                try c.encode(sight, forKey: .sight)
                try c.encode(quick, forKey: .quick)
            }
        }
    }
}
