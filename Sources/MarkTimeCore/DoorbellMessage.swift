/// Where a change made outside the daemon tells it to read again: the store's doorbell
/// (`StoreDoorbell` in MarkTimeDevices), or a test's list of what rang.
public protocol DaemonBell: Sendable {
    func ring(_ message: DoorbellMessage)
}

/// What another process asks of the daemon through the store's doorbell (a datagram
/// socket beside the store): typed here, as text on the wire.
public enum DoorbellMessage: Hashable, Sendable {
    /// Tasks changed: the reminder thread reads them again.
    case tasksChanged
    /// Places changed: the share service sends the waypoints again.
    case placesChanged
    /// Play a tone for a process without the sound card (the phone page, `marktime mark`).
    case beep(Tone)
    /// Record a press at this instant (`marktime mark`'s own CLOCK_MONOTONIC reading), with
    /// an optional note; the daemon answers with a `MarkAnswer`.
    case mark(MonotonicInstant, note: String?)
    /// Record a phone page's MARK at this instant (the phone's tap placed on this machine's
    /// clock by the page's clock sync, whose best round trip was `roundTrip` ns); the daemon
    /// answers with a `MarkAnswer`.
    case phoneMark(MonotonicInstant, roundTrip: Int64)
    /// The navigator accepts GPS time that was set aside as disagreeing (`marktime clock trust-gps`).
    case trustGPS
    /// The next press is a time signal's tick (`marktime clock signal`); the daemon
    /// answers with a `TimeSignalAnswer` once it came, or the wait ended.
    case signal(TimeSignalRequest)
    /// A lunar's UT for a sight's instant (`marktime lunar --sight ID --set-clock`); the
    /// daemon answers with a `TimeSignalAnswer`.
    case lunar(LunarTime)
    /// Set a sight's Hs (degrees) and body, either nil to leave it (the phone page's quick
    /// entry); the daemon answers with a `MarkAnswer`: `stored` with the sight's id once kept.
    case reading(sight: Int64, hs: Double?, body: String?)
    /// Say this aloud (the phone page's preset), when speech is on.
    case say(String)

    /// The longest text `say` takes.
    public static let longestSaid = 200

    /// The message a datagram holds; nil for anything else.
    public init?(_ text: String) {
        switch text {
        case "tasks": self = .tasksChanged
        case "places": self = .placesChanged
        case "trust gps": self = .trustGPS
        default:
            // signal HH:MM:SS WINDOW [YYYY-MM-DD] [force]
            if text.hasPrefix("signal ") {
                var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
                let force = words.last == "force"
                if force { words.removeLast() }
                guard (3...4).contains(words.count), let tick = try? TimeSignalRequest.parseTick(words[1]),
                      words[2].count <= 4, words[2].allSatisfy({ $0.isASCII && $0.isNumber }), let window = Int(words[2]),
                      TimeSignalRequest.windows.contains(window) else { return nil }
                var date: UTCTime?
                if words.count == 4 {
                    guard let d = try? TimeSignalRequest.parseDate(words[3]) else { return nil }
                    date = d
                }
                self = .signal(TimeSignalRequest(secondOfDay: tick, window: window, force: force, date: date))
                return
            }
            // lunar SIGHT BOOT NANOSECONDS UTC_NS UNCERTAINTY_S
            if text.hasPrefix("lunar ") {
                let w = text.split(separator: " ", omittingEmptySubsequences: false)
                guard w.count == 6, let sight = Int64(w[1]), !w[2].isEmpty, let ns = Int64(w[3]), ns >= 0, let utc = Int64(w[4]),
                      let u = Double(w[5]), LunarTime.uncertainties.contains(u) else { return nil }
                self = .lunar(LunarTime(sight: sight, instant: MonotonicInstant(bootID: String(w[2]), nanoseconds: ns),
                                        utc: UTCTime(nanosecondsSinceEpoch: utc), uncertainty: u))
                return
            }
            if text.hasPrefix("say ") {
                let said = String(text.dropFirst(4))
                guard !said.isEmpty, said.count <= Self.longestSaid, !said.contains(where: { $0.isNewline }) else { return nil }
                self = .say(said)
                return
            }
            // reading SIGHT HS|- [BODY]
            if text.hasPrefix("reading ") {
                let w = text.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard (3...4).contains(w.count), let sight = Int64(w[1]), sight > 0 else { return nil }
                var hs: Double?
                if w[2] != "-" {
                    guard let v = Double(w[2]), (0...90).contains(v) else { return nil }
                    hs = v
                }
                let body = w.count == 4 ? String(w[3]) : nil
                guard hs != nil || body != nil, body.map({ !$0.isEmpty && $0.count <= 40 && !$0.contains("\n") }) ?? true else { return nil }
                self = .reading(sight: sight, hs: hs, body: body)
                return
            }
            // phone BOOT NANOSECONDS ROUND_TRIP_NS
            if text.hasPrefix("phone ") {
                let w = text.split(separator: " ", omittingEmptySubsequences: false)
                guard w.count == 4, !w[1].isEmpty, let ns = Int64(w[2]), ns >= 0, let rtt = Int64(w[3]),
                      (0...PhoneClockSync.maxRoundTripNanoseconds).contains(rtt) else { return nil }
                self = .phoneMark(MonotonicInstant(bootID: String(w[1]), nanoseconds: ns), roundTrip: rtt)
                return
            }
            if text.hasPrefix("beep "), let tone = Tone(rawValue: String(text.dropFirst(5))) {
                self = .beep(tone)
                return
            }
            // mark BOOT NANOSECONDS, then the note on the lines after.
            let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let words = lines[0].split(separator: " ")
            guard words.count == 3, words[0] == "mark", let ns = Int64(words[2]) else { return nil }
            self = .mark(MonotonicInstant(bootID: String(words[1]), nanoseconds: ns), note: lines.count > 1 ? String(lines[1]) : nil)
        }
    }

    /// The datagram's text.
    public var text: String {
        switch self {
        case .tasksChanged: "tasks"
        case .placesChanged: "places"
        case .beep(let tone): "beep \(tone.rawValue)"
        case .mark(let instant, let note): "mark \(instant.bootID) \(instant.nanoseconds)" + (note.map { "\n" + $0 } ?? "")
        case .phoneMark(let instant, let roundTrip): "phone \(instant.bootID) \(instant.nanoseconds) \(roundTrip)"
        case .trustGPS: "trust gps"
        case .signal(let r):
            "signal \(TimeSignalRequest.text(secondOfDay: r.secondOfDay)) \(r.window)" + (r.date.map { " " + String($0.iso8601.prefix(10)) } ?? "")
                + (r.force ? " force" : "")
        case .reading(let sight, let hs, let body): "reading \(sight) \(hs.map { "\($0)" } ?? "-")" + (body.map { " " + $0 } ?? "")
        case .say(let said): "say \(said)"
        case .lunar(let l): "lunar \(l.sight) \(l.instant.bootID) \(l.instant.nanoseconds) \(l.utc.nanosecondsSinceEpoch) \(l.uncertainty)"
        }
    }
}

/// The daemon's answer to a `mark` rung at its doorbell.
public enum MarkAnswer: Hashable, Sendable {
    /// The sight is in the store, with this id.
    case stored(Int64)
    /// The store refused it; it waits in the pending-presses file (the failure buzz sounded).
    case pending(String)
    /// The daemon made no sight (the instant is from another boot, or it has no clock).
    case refused(String)

    public init?(_ text: String) {
        let (word, rest) = text.firstIndex(of: " ").map { (text[..<$0], String(text[text.index(after: $0)...])) } ?? (text[...], "")
        switch word {
        case "stored": guard let id = Int64(rest) else { return nil }; self = .stored(id)
        case "pending": self = .pending(rest)
        case "refused": self = .refused(rest)
        default: return nil
        }
    }

    public var text: String {
        switch self {
        case .stored(let id): "stored \(id)"
        case .pending(let reason): "pending \(reason)"
        case .refused(let reason): "refused \(reason)"
        }
    }
}
