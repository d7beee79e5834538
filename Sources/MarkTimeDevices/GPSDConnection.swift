import MarkTimeCore

/// What the gpsd client does next, decided without a socket or a clock: how long it waits
/// after a failed connection (1 s, doubling to 30 s), how long a connection may say nothing
/// (`silence`; after a silence, twice that, doubling to a minute, so that a gpsd that hung
/// is watched afresh without filling its accept queue), what the status says, and which
/// changes are logged (each kind once, however long it lasts). `GPSDClient` carries out its
/// answers on gpsd's socket; its tests play whole outages on it with no time passing.
public struct GPSDConnection: Sendable, Equatable {
    /// A status to report, and whether its kind changed since the last one logged.
    public struct Said: Hashable, Sendable {
        public var state: String
        public var logged: Bool

        public init(state: String, logged: Bool) {
            self.state = state
            self.logged = logged
        }
    }

    public let address: String
    public let silence: Duration
    /// How long the next failed connection waits.
    public private(set) var backoff: Duration = .seconds(1)
    /// Failed connections in a row.
    public private(set) var tries = 0
    /// When gpsd last spoke, while it is silent.
    public private(set) var silentSince: MonotonicInstant?
    /// How long a new connection to a silent gpsd waits for its first report.
    public private(set) var silentRetry: Duration
    private var lastState = "", lastKind = ""

    public init(address: String, silence: Duration) {
        self.address = address
        self.silence = silence
        silentRetry = silence * 2
    }

    /// A new state, said only when it differs from the last, logged only when its `kind`
    /// (the state, unless given) does.
    private mutating func say(_ state: String, kind: String? = nil) -> Said? {
        guard state != lastState else { return nil }
        let logged = (kind ?? state) != lastKind
        (lastState, lastKind) = (state, kind ?? state)
        return Said(state: state, logged: logged)
    }

    /// gpsd did not accept the connection: what to say (the tries counted, logged once),
    /// and how long to wait before the next. gpsd is gone: its fix with it.
    public mutating func refused() -> (said: Said?, wait: Duration) {
        tries += 1
        let wait = backoff
        let said = say("waiting for gpsd at \(address) (tried \(tries == 1 ? "once" : "\(tries) times"), again in \(wait.components.seconds) s)",
                       kind: "waiting")
        silentSince = nil
        backoff = min(backoff * 2, .seconds(30))
        return (said, wait)
    }

    /// gpsd accepted the connection: what to say (nothing while it is still silent: it is
    /// connected only once it reports), and how long to wait for its first report.
    public mutating func accepted() -> (said: Said?, firstReportWithin: Duration) {
        (backoff, tries) = (.seconds(1), 0)
        guard silentSince == nil else { return (nil, silentRetry) }
        return (say("connected \(address), waiting for gpsd's first report"), silence)
    }

    /// gpsd sent a report on the connection.
    public mutating func reported() -> Said? {
        silentSince = nil
        return say("connected \(address)")
    }

    /// The connection broke: what to say.
    public mutating func lost() -> Said? {
        silentSince = nil
        return say("lost gpsd at \(address)")
    }

    /// The connection said nothing for its wait, gpsd having last spoken at `since`: the
    /// report to make, the first time only (the core words how long it lasts). Each
    /// reconnection that stays silent waits twice as long, up to a minute.
    public mutating func silent(since: MonotonicInstant) -> GPSReport? {
        defer { silentSince = since }
        guard silentSince == nil else {
            silentRetry = min(silentRetry * 2, .seconds(60))
            return nil
        }
        // The next state is said afresh, whatever was said before the silence.
        (lastState, lastKind) = ("", "")
        silentRetry = silence * 2
        return .silent(since: since, address: address)
    }
}
