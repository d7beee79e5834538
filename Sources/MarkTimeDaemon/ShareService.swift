import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeShare
import MarkTimeStore
import MarkTimeSystem
import Synchronization

/// One of the share service's writes, run by the daemon's writer on the store or inside
/// a batch of them (`AppDatabase.batch`).
typealias ShareWrite = @Sendable (any ShareRepository) -> Void

/// The boat as an OwnTracks friend on an MQTT broker, and the family's phones on its clock.
///
/// Outgoing messages go into the store's outbox first (through the daemon's one writer),
/// and leave it only when the broker acknowledges them, so they wait out a broker that is
/// away, a daemon restart or a power cut, and go out in order. Incoming messages are
/// checked (`OwnTracks.read`) before the store applies them; a bad one is logged once per
/// topic and dropped. Nothing here is on the sight's path.
final class ShareService: Sendable {
    /// What `marktime share status` shows; kept in a file beside the daemon's status.
    struct State: Sendable {
        var connection = "connecting"
        var connected = false
        /// Sent and not yet acknowledged: the outbox row, and the bytes when on one of the boat's own topics.
        var inFlight: [Int32: (id: Int64, own: [UInt8]?)] = [:]
        /// Whether the boat's own messages come back, or the broker drops them.
        var echo = EchoWatch()
        var lastQueued: Int64 = 0
        var policy: LocationPolicy
        var lastSent: UTCTime?
        var lastReceived: UTCTime?
        var lastReturned: UTCTime?
        var refusedTopics: Set<String> = []
        /// When each command was last answered (monotonic).
        var lastCommand: [String: ContinuousClock.Instant] = [:]
        var limitedLogged: Set<String> = []
        var regions: [String] = []
        /// The last fix, for a `reportLocation` request.
        var lastFix: (Fix, UTCTime)?
        /// A batched write changed what the state file shows: it is written once the batch
        /// commits (`committed`), not once per message.
        var unwritten = false
    }

    static let window = 20
    /// Topics remembered for "dropped once per topic": memory stays bounded under junk.
    static let refusedTopicsLimit = 1_000
    /// A friend's command is answered at most once per this many seconds.
    static let commandInterval = 10
    let settings: ShareSettings
    let rules: GeofenceRules
    let store: AppDatabase
    let transport: any ShareTransport
    /// Tells the core what sharing saw; set before `start`.
    nonisolated(unsafe) var report: @Sendable (DaemonReport) -> Void = { _ in }
    /// Hands a write to the daemon's writer; `durable` when it must be synced at its commit
    /// (the boat's own outgoing messages), not when a power cut may lose the last of them
    /// and the broker restores them (friends' reports, acknowledgements).
    let submit: @Sendable (_ durable: Bool, _ write: @escaping ShareWrite) -> Void
    let now: @Sendable () -> UTCTime
    let statePath: String
    let state: Mutex<State>

    init(settings: ShareSettings, rules: GeofenceRules, store: AppDatabase, transport: any ShareTransport,
         statePath: String, now: @escaping @Sendable () -> UTCTime,
         submit: @escaping @Sendable (_ durable: Bool, _ write: @escaping ShareWrite) -> Void) {
        self.settings = settings
        self.rules = rules
        self.store = store
        self.transport = transport
        self.statePath = statePath
        self.now = now
        self.submit = submit
        state = Mutex(State(policy: LocationPolicy(interval: settings.interval, minMove: settings.minMove)))
    }

    /// The MQTT client for `settings`: the password read from its file, which others may not read.
    static func transport(_ settings: ShareSettings, will: [UInt8]) throws(InputError) -> MosquittoClient {
        guard let (host, port) = ConfigKey.address(settings.broker) else { throw InputError("share.broker '\(settings.broker)' is not HOST:PORT") }
        var password: String?
        if let file = settings.passwordFile {
            let readableByAll: Bool
            do { readableByAll = try Files.isReadableByOthers(file) } catch {
                throw InputError("cannot read share.password_file \(file): \(String(cString: strerror(error.errno.rawValue)))")
            }
            guard !readableByAll else {
                throw InputError("share.password_file \(file) is readable by every user: `chmod o-r \(file)`, then start the daemon again")
            }
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw InputError("cannot read share.password_file \(file)") }
            password = text.trimmingCharacters(in: .newlines)
        }
        return MosquittoClient(.init(host: host, port: port, clientID: "marktime-\(settings.user)-\(settings.device)",
                                     username: settings.username, password: password, caFile: settings.tlsCA,
                                     subscriptions: ["owntracks/+/+", "owntracks/+/+/event", "owntracks/+/+/info", settings.topic + "/cmd"],
                                     will: (settings.topic, will)))
    }

    func start(boatName: String, at place: String?) throws(InputError) {
        state.withLock { $0.regions = place.map { [$0] } ?? [] }
        enqueue([ShareMessage(topic: settings.topic + "/info", payload: OwnTracks.card(name: boatName, tid: settings.tid), retain: true, kind: .card),
                 waypoints()])
        writeState()
        try transport.start { [weak self] event in self?.handle(event) }
    }

    /// The places as waypoints, retained.
    func waypoints() -> ShareMessage {
        ShareMessage(topic: settings.topic + "/waypoints", payload: OwnTracks.waypoints((try? store.places()) ?? []),
                     retain: true, kind: .waypoints)
    }

    /// A place was added, removed or renamed (`PlaceBook` rang): the waypoints again.
    func placesChanged() {
        enqueue([waypoints()])
    }

    func stop() {
        transport.stop()
        _ = try? SideFile.remove(statePath)
    }

    // MARK: Out

    /// A fix from gpsd: the boat's location when the policy says so.
    func fix(_ fix: Fix) {
        guard let time = fix.time else { return }
        let geo = GeoFix(position: fix.position, error: fix.horizontalError, time: time)
        let (trigger, regions) = state.withLock { s in
            s.lastFix = (fix, time)
            return (s.policy.consider(geo), s.regions)
        }
        guard let trigger else { return }
        enqueue([location(fix, time: time, trigger: trigger, regions: regions)])
    }

    func location(_ fix: Fix, time: UTCTime, trigger: String, regions: [String]) -> ShareMessage {
        ShareMessage(topic: settings.topic, payload: OwnTracks.location(fix, time: time, tid: settings.tid, trigger: trigger, inRegions: regions),
                     retain: true, kind: .location)
    }

    /// The boat entered or left its places: a transition each.
    func transitions(_ events: [PlaceEvent], error: Double?) {
        guard !events.isEmpty else { return }
        state.withLock { s in
            for e in events {
                if e.kind == .enter { s.regions.append(e.place) } else { s.regions.removeAll { $0 == e.place } }
            }
        }
        let waypointTimes = OwnTracks.waypointTimes((try? store.places()) ?? [])
        enqueue(events.map { e in
            ShareMessage(topic: settings.topic + "/event",
                         payload: OwnTracks.transition(e, tid: settings.tid, error: error, waypointTime: waypointTimes[e.place]),
                         retain: false, kind: .transition)
        })
    }

    /// Into the outbox (on the writer's thread), then out as the window allows.
    func enqueue(_ messages: [ShareMessage]) {
        submit(true) { [self] repository in
            do {
                let dropped = try repository.enqueue(messages, now: now())
                if dropped.locations + dropped.oldest > 0 {
                    report(.outboxFull(dropped: dropped.locations + dropped.oldest, positions: dropped.locations, limit: AppDatabase.outboxLimit))
                }
            } catch {
                report(.failed(.queueShare, error: "\(error)"))
            }
            pump()
        }
    }

    /// Publishes waiting messages in order, keeping at most `window` unacknowledged.
    func pump() {
        state.withLock { s in
            guard s.connected, s.inFlight.count < Self.window,
                  let waiting = try? store.outbox(after: s.lastQueued, limit: Self.window - s.inFlight.count) else { return }
            for m in waiting {
                guard let id = m.id else { continue }
                do {
                    let mid = try transport.publish(topic: m.topic, payload: m.payload, retain: m.retain)
                    s.inFlight[mid] = (id, ownTopics.contains(m.topic) ? m.payload : nil)
                    s.lastQueued = id
                } catch {
                    report(.failed(.publishShare(topic: m.topic), error: "\(error)"))
                    return
                }
            }
        }
    }

    // MARK: Events

    func handle(_ event: TransportEvent) {
        switch event {
        case .connected:
            let last = state.withLock { s in
                s.connected = true
                s.connection = "connected"
                return (s.lastFix, s.regions)
            }
            report(.shareConnected(broker: settings.broker, topic: settings.topic))
            writeState()
            // A phone that connects at any moment sees the boat: its position goes out again,
            // retained, after what waits in the outbox.
            if let (fix, time) = last.0 { enqueue([location(fix, time: time, trigger: "c", regions: last.1)]) }
            pump()
        case .refused(let reason), .disconnected(let reason):
            let changed = state.withLock { s in
                let text = event == .refused(reason) ? "refused: \(reason)" : "disconnected: \(reason)"
                // What was in flight goes again from the outbox, oldest first, on the next
                // connection, before anything newer: the retained position stays the newest.
                s.inFlight = [:]
                s.lastQueued = 0
                s.echo.disconnected()
                defer { (s.connected, s.connection) = (false, text) }
                return s.connection != text
            }
            if changed {
                report(.shareUnavailable(broker: settings.broker, reason: reason))
                writeState()
            }
        case .acknowledged(let mid):
            guard let id = state.withLock({ s -> Int64? in
                guard let sent = s.inFlight.removeValue(forKey: mid) else { return nil }
                s.lastSent = now()
                if let own = sent.own { s.echo.acknowledged(own, at: SystemClock.monotonicNow(), time: now()) }
                return sent.id
            }) else { return }
            submit(false) { [self] repository in
                try? repository.acknowledged(id)
                state.withLock { $0.unwritten = true }
            }
        case .message(let topic, let payload, let qos, let retained):
            receive(topic: topic, payload: payload, qos: qos, retained: retained)
        }
    }

    func receive(topic text: String, payload: [UInt8], qos: Int32 = 1, retained: Bool = false) {
        if ownTopics.contains(text) { return echoed(payload) }
        // Anything else from the broker shows its queue moving; a friend's QoS 1 message sent
        // after the boat's last one shows that queue went past the boat's message.
        var sent: UTCTime?
        defer { state.withLock { $0.echo.arrived(at: SystemClock.monotonicNow(), sent: qos >= 1 && !retained ? sent : nil) } }
        if text == settings.topic + "/cmd" { return command(payload) }
        guard let topic = OwnTracks.Topic(text), topic.base != settings.topic else { return }
        // An empty retained message clears a topic: nothing to apply.
        guard !payload.isEmpty else { return }
        let incoming: OwnTracks.Incoming
        do {
            incoming = try OwnTracks.read(topic: topic, payload: payload, now: now())
            sent = incoming.sent
        } catch {
            let (first, full) = state.withLock { s -> (Bool, Bool) in
                guard s.refusedTopics.count < Self.refusedTopicsLimit else { return (false, false) }
                let first = s.refusedTopics.insert(text).inserted
                return (first, s.refusedTopics.count == Self.refusedTopicsLimit)
            }
            if first { report(.shareDropped(topic: text, reason: "\(error)")) }
            if full { report(.tooManyRefusedTopics(Self.refusedTopicsLimit)) }
            return
        }
        submit(false) { [self] repository in
            do {
                let outcome = try repository.applyShared(incoming, topic: topic, rules: rules, now: now())
                state.withLock { s in (s.lastReceived, s.unwritten) = (now(), true) }
                if case .moved(let member, let events) = outcome {
                    for e in events {
                        report(.friendMoved(member: member, entered: e.kind == .enter, place: e.place, topic: topic.base))
                    }
                }
            } catch {
                report(.failed(.applyShare(topic: topic.base), error: "\(error)"))
            }
        }
    }

    /// The boat's own topics, to which it is subscribed as to its friends': what it
    /// publishes there comes back, unless the broker's ACL drops it.
    var ownTopics: Set<String> { [settings.topic, settings.topic + "/info"] }

    /// One of the boat's own messages came back from the broker.
    func echoed(_ payload: [UInt8]) {
        let time = now()
        let back = state.withLock { s -> Bool in
            s.lastReturned = time
            guard s.echo.echoed(payload, at: SystemClock.monotonicNow()) else { return false }
            s.connection = "connected"
            return true
        }
        if back { report(.shareConnected(broker: settings.broker, topic: settings.topic)) }
        writeState()
    }

    /// The daemon's heartbeat: an acknowledged message that did not come back, though the
    /// broker sent what it queued after it (or went quiet), is named (see `EchoWatch`).
    func beat() {
        let missing = state.withLock { s -> Bool in
            guard s.connected, s.echo.check(at: SystemClock.monotonicNow()) else { return false }
            s.connection = "connected, but the broker drops what the boat publishes: its ACL does not let "
                + "\(settings.username.map { "account \($0)" } ?? "an anonymous client") write (or read) \(settings.topic); "
                + "set share.user and share.device to a topic the account may use"
            return true
        }
        if missing {
            report(.shareDropsOwnMessages(broker: settings.broker, topic: settings.topic, account: settings.username))
            writeState()
        }
    }

    /// A friend's app asks for the boat's position (`reportLocation`) or its places (`waypoints`).
    func command(_ payload: [UInt8]) {
        if let action = OwnTracks.command(payload) {
            // Answered once per interval; the first one ignored in an interval is logged.
            let (answer, log) = state.withLock { s -> (Bool, Bool) in
                let now = ContinuousClock.now
                if let last = s.lastCommand[action], now - last < .seconds(Self.commandInterval) {
                    return (false, s.limitedLogged.insert(action).inserted)
                }
                s.lastCommand[action] = now
                s.limitedLogged.remove(action)
                return (true, false)
            }
            guard answer else { return log ? report(.commandLimited(action: action, seconds: Self.commandInterval)) : () }
        }
        switch OwnTracks.command(payload) {
        case "waypoints":
            enqueue([waypoints()])
        case "reportLocation":
            let (last, regions) = state.withLock { ($0.lastFix, $0.regions) }
            if let (fix, time) = last { enqueue([location(fix, time: time, trigger: "r", regions: regions)]) }
        default:
            report(.shareUnknownCommand(topic: settings.topic + "/cmd"))
        }
    }

    /// The connection, last sent and received, for `marktime share status` (on tmpfs; no sync).
    /// The writer committed a batch of sharing's writes: the state file once for all of
    /// them, then what waits in the outbox (a pump on another thread meanwhile could not
    /// read what the batch queued).
    func committed() {
        if state.withLock({ s in defer { s.unwritten = false }; return s.unwritten }) { writeState() }
        pump()
    }

    func writeState() {
        let s = state.withLock { $0 }
        let state = ShareState(connection: s.connection, connected: s.connected, broker: settings.broker, topic: settings.topic,
                               lastSent: s.lastSent, lastReceived: s.lastReceived, lastReturned: s.lastReturned)
        try? SideFile.replace(statePath, with: state.json)
    }
}
