/// What one of the daemon's adapters saw or could not do. The wiring reports it to the
/// core (`DaemonCore.Event.report`), and the core says what it means: the log line, its
/// level and its words are decided here, never in the wiring.
public enum DaemonReport: Hashable, Sendable {
    case started(store: String, button: String, gpsd: String, statusFile: String)
    case stopped
    /// The C library keeps this much freed heap memory (nil: it refused).
    case heapKept(bytes: Int?)
    /// The WAL file was grown once to its checkpoint size.
    case walReserved(bytes: Int)
    /// A chore the wiring could not do, and the error it met.
    case failed(Chore, error: String)
    /// A chore done every second (`Chore.repeats`) that worked.
    case succeeded(Chore)
    case shareConnected(broker: String, topic: String)
    case shareUnavailable(broker: String, reason: String)
    /// The broker acknowledges the boat's messages but they never come back: its ACL drops them.
    case shareDropsOwnMessages(broker: String, topic: String, account: String?)
    /// A friend's message that does not parse (reported once per topic).
    case shareDropped(topic: String, reason: String)
    case friendMoved(member: String, entered: Bool, place: String, topic: String)
    case shareUnknownCommand(topic: String)
    /// The outbox was over its limit: the oldest positions (and then other messages) went.
    case outboxFull(dropped: Int, positions: Int, limit: Int)
    /// Commands on the boat's topic came faster than one per `seconds`: this one is ignored.
    case commandLimited(action: String, seconds: Int)
    /// So many distinct topics sent bad messages that only this many are remembered.
    case tooManyRefusedTopics(Int)
    /// A supervised child process (the phone page).
    case childStarted(name: String, pid: Int32)
    case childExited(name: String, status: Int32?, waitSeconds: Int64)
    case childKilled(name: String, pid: Int32)
    /// The config was read again: keys taken at once, keys that wait for a restart.
    case reloaded(live: [String], restart: [String])
    /// A signal that marktime does not act on.
    case signalIgnored(String)
    /// The store was deleted or moved away from its path while the daemon ran.
    case storeGone(path: String, pending: String)
    /// Another file is at the store's path: the daemon stops, to be started on it.
    case storeReplaced(path: String)
    /// The store's file, WAL or shared memory was made immutable or append-only.
    case storeFrozen(path: String, pending: String)

    /// The daemon's chores that can fail without stopping it.
    public enum Chore: Hashable, Sendable {
        case statusFile(path: String)
        case pendingFile
        case settlePending
        case acknowledgeAnchor
        case recordGap
        case saveTrack
        case saveRate
        case backfill
        case placesFix
        case anchorWatch
        case recordStop
        case sharing
        case reserveWAL
        case wakeSocket
        case reminders
        case readReminders
        case queueShare
        case publishShare(topic: String)
        case applyShare(topic: String)
        /// The commit of a batch of sharing's writes.
        case shareBatch(jobs: Int)
        case startChild(name: String, command: String)
        case reload
        /// Reading the RTC, tried every `Daemon.rtcInterval`.
        case readRTC(path: String)

        /// Done again and again: a failure is logged once, and again only after it worked.
        public var repeats: Bool {
            switch self {
            case .statusFile, .readRTC: true
            default: false
            }
        }
    }

    /// The line the log gets.
    public var line: LogLine {
        switch self {
        case .started(let store, let button, let gpsd, let statusFile):
            LogLine(.info, "marktime daemon started", ["store": store, "button": button, "gpsd": gpsd, "status_file": statusFile])
        case .stopped:
            LogLine(.info, "marktime daemon stopped")
        case .heapKept(let bytes?):
            LogLine(.info, "heap: freed memory kept, so a commit faults no pages back in", ["bytes": "\(bytes)"])
        case .heapKept(nil):
            LogLine(.notice, "heap: the C library refused to keep freed memory; commits may fault pages back in")
        case .walReserved(let bytes):
            LogLine(.info, "store: WAL file grown once to its checkpoint size", ["bytes": "\(bytes)"])
        case .failed(let chore, let error):
            Self.failure(chore, error)
        case .succeeded(.statusFile(let path)):
            LogLine(.notice, "the status file is written again", ["path": path])
        case .succeeded(.readRTC(let path)):
            LogLine(.notice, "the RTC is read again", ["path": path])
        case .succeeded:
            LogLine(.notice, "a failed chore works again")
        case .shareConnected(let broker, let topic):
            LogLine(.info, "sharing: connected to the broker", ["broker": broker, "topic": topic])
        case .shareUnavailable(let broker, let reason):
            LogLine(.warning, "sharing: broker unavailable; messages wait in the outbox", ["broker": broker, "reason": reason])
        case .shareDropsOwnMessages(let broker, let topic, let account):
            LogLine(.warning, "sharing: the broker acknowledges the boat's messages but drops them (its ACL); nobody sees the boat",
                    ["broker": broker, "topic": topic, "account": account ?? "anonymous",
                     "fix": "set share.user and share.device to a topic the account may write"])
        case .shareDropped(let topic, let reason):
            LogLine(.warning, "sharing: message dropped", ["topic": Text.escaped(topic), "reason": reason])
        case .friendMoved(let member, let entered, let place, let topic):
            LogLine(.info, "\(member) \(entered ? "entered" : "left") \(place)", ["topic": topic])
        case .shareUnknownCommand(let topic):
            LogLine(.warning, "sharing: unknown command ignored", ["topic": topic])
        case .outboxFull(let dropped, let positions, let limit):
            LogLine(.warning, "sharing: the outbox is full (the broker has been away long): the oldest messages were dropped, positions first, as newer ones supersede them",
                    ["dropped": "\(dropped)", "positions": "\(positions)", "limit": "\(limit)"])
        case .commandLimited(let action, let seconds):
            LogLine(.notice, "sharing: command ignored, one per \(seconds) s is answered", ["action": action])
        case .tooManyRefusedTopics(let count):
            LogLine(.warning, "sharing: bad messages from more than \(count) topics; further ones are dropped without a line each", ["topics": "\(count)"])
        case .childStarted(let name, let pid):
            LogLine(.info, "\(name) started", ["pid": "\(pid)"])
        case .childExited(let name, let status, let wait):
            LogLine(.warning, "\(name) exited; starting it again", ["status": status.map(String.init) ?? "not started", "wait_s": "\(wait)"])
        case .childKilled(let name, let pid):
            LogLine(.warning, "\(name) did not stop after SIGTERM; killing it", ["pid": "\(pid)"])
        case .reloaded(let live, let restart):
            live.isEmpty && restart.isEmpty ? LogLine(.notice, "config reloaded: nothing changed")
                : LogLine(restart.isEmpty ? .notice : .warning,
                          restart.isEmpty ? "config reloaded" : "config reloaded; some changes wait for a restart: `sudo systemctl restart marktime`",
                          ["applied": live.joined(separator: ","), "after_restart": restart.joined(separator: ",")])
        case .storeGone(let path, let pending):
            LogLine(.critical, "the store is gone from its path: presses wait in the pending-presses file and land when a store is there again; "
                + "restore the store from a backup, or restart the daemon to start a new one", ["store": path, "pending": pending])
        case .storeReplaced(let path):
            LogLine(.critical, "another file is at the store's path: the daemon stops, to be started again on it (systemd does so); "
                + "the pending presses land at its start", ["store": path])
        case .storeFrozen(let path, let pending):
            LogLine(.critical, "the store's files are immutable or append-only (chattr): nothing is written to it; presses wait in the "
                + "pending-presses file and land once `sudo chattr -i -a \(path) \(path)-wal \(path)-shm` is run", ["store": path, "pending": pending])
        case .signalIgnored(let name):
            LogLine(.notice, "\(name) ignored: SIGHUP reloads the config, SIGTERM stops the daemon")
        }
    }

    private static func failure(_ chore: Chore, _ error: String) -> LogLine {
        let e = ["error": error]
        switch chore {
        case .statusFile(let path):
            return LogLine(.error, "cannot write the status file: `marktime status` shows the daemon as silent until it can; free space on its disk",
                           ["path": path, "error": error])
        case .pendingFile: return LogLine(.critical, "cannot write the pending-presses file: the sight is kept in memory only", e)
        case .settlePending: return LogLine(.error, "cannot settle the pending-presses file", e)
        case .acknowledgeAnchor: return LogLine(.error, "cannot acknowledge the anchor alarm", e)
        case .recordGap: return LogLine(.error, "cannot record the input gap", e)
        case .saveTrack: return LogLine(.error, "cannot save the clock track", e)
        case .saveRate: return LogLine(.error, "cannot write the rate book", e)
        case .backfill: return LogLine(.error, "cannot backfill sights", e)
        case .placesFix: return LogLine(.error, "cannot record the fix for places", e)
        case .anchorWatch: return LogLine(.error, "cannot update the anchor watch", e)
        case .recordStop: return LogLine(.error, "cannot record the stop in the store", e)
        case .sharing: return LogLine(.error, "sharing is off: \(error)")
        case .reserveWAL: return LogLine(.warning, "store: cannot grow the WAL file; each sight's commit will grow it instead", e)
        case .wakeSocket: return LogLine(.warning, "no wake socket: new reminders are seen within a minute", e)
        case .reminders: return LogLine(.error, "reminders stopped", e)
        case .readReminders: return LogLine(.error, "cannot read reminders; retrying in 5 s", e)
        case .queueShare: return LogLine(.error, "cannot queue messages for the broker", e)
        case .publishShare(let topic): return LogLine(.warning, "cannot publish; it waits in the outbox", ["topic": topic, "error": error])
        case .applyShare(let topic): return LogLine(.error, "sharing: cannot apply a message", ["topic": topic, "error": error])
        case .shareBatch(let jobs): return LogLine(.error, "sharing: cannot commit its writes; they are undone", ["writes": "\(jobs)", "error": error])
        case .startChild(let name, let command): return LogLine(.error, "cannot start \(name)", ["command": command, "error": error])
        case .reload: return LogLine(.error, "config not reloaded; the daemon keeps its settings", e)
        case .readRTC(let path):
            return LogLine(.warning, "cannot read the RTC: it is neither compared with good time nor used without it; "
                + "set clock.rtc to \"\" if the machine has none", ["path": path, "error": error])
        }
    }
}
