import Foundation

/// A re-stamp the backfill refused: the stored stamp and the one that would have moved it.
public struct RefusedRestamp: Hashable, Sendable {
    public var sight: Int64
    public var stored: UTCEstimate
    public var candidate: UTCEstimate
    /// Seconds the candidate would have moved the sight (candidate − stored).
    public var moved: Double

    public init(sight: Int64, stored: UTCEstimate, candidate: UTCEstimate, moved: Double) {
        (self.sight, self.stored, self.candidate, self.moved) = (sight, stored, candidate, moved)
    }

    var movedSentence: String {
        String(format: "%+.3f s", moved) + (stored.uncertainty.map { String(format: " (its stamp says ±%.3f s)", $0) } ?? "")
    }
}

/// A window in which the kernel threw input events away (`SYN_DROPPED`): presses in it
/// may be lost, and `marktime sights` shows it between the sights around it.
public struct InputGap: Hashable, Sendable {
    public var id: Int64?
    public var bootID: String
    /// The last event read before the drop, and the drop itself (monotonic ns).
    public var fromNanoseconds: Int64
    public var toNanoseconds: Int64
    /// Their UTC, when a clock was known.
    public var from: UTCTime?
    public var to: UTCTime?

    public init(id: Int64? = nil, bootID: String, fromNanoseconds: Int64, toNanoseconds: Int64, from: UTCTime?, to: UTCTime?) {
        self.id = id
        self.bootID = bootID
        self.fromNanoseconds = fromNanoseconds
        self.toNanoseconds = toNanoseconds
        self.from = from
        self.to = to
    }
}

/// When a sight's insert was handed to the writer, began and committed (monotonic ns).
public struct CommitTiming: Hashable, Sendable {
    public var queuedAt, startedAt, committedAt: Int64
    public init(queuedAt: Int64, startedAt: Int64, committedAt: Int64) {
        self.queuedAt = queuedAt
        self.startedAt = startedAt
        self.committedAt = committedAt
    }
}

/// A log line the core asks for; the wiring hands it to swift-log.
public struct LogLine: Hashable, Sendable {
    public enum Level: String, Sendable { case debug, info, notice, warning, error, critical }
    public var level: Level
    public var message: String
    public var metadata: [String: String]

    public init(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }
}

/// The daemon's decisions, as a state machine: events in, actions out.
///
/// It owns the button filter, the clock track, the last fix, the presses waiting for
/// the store and whether the anchor alarm sounds. It takes no locks, does no I/O and
/// reads no clock: every event carries the monotonic time it needs. The daemon's
/// wiring feeds it from the adapters' threads (one at a time) and carries out the
/// actions: the single writer for store work, the beeper for tones.
public struct DaemonCore: Sendable {
    public enum Event: Hashable, Sendable {
        /// The daemon starts: its boot, the track saved earlier in this boot, and the
        /// presses left in the pending-presses file by an earlier run.
        case started(bootID: String, now: Int64, track: [ClockTrack.Entry], pending: [Sight])
        /// A raw input event; `clock` is the system clock read right after it.
        case input(InputEvent, clock: ClockSample?)
        /// The kernel dropped events (`SYN_DROPPED`, stamped `at`). Events that libevdev
        /// replays to resync follow as `.replayed`, then `.resynced`.
        case inputDropped(at: Int64, clock: ClockSample?)
        case replayed(InputEvent)
        case resynced
        /// A clock sample from gpsd (`gps`, `pps`) or the system clock.
        case clock(ClockSample)
        case fix(Fix)
        /// gpsd reports no fix (mode 1), or is gone (mode 0), at monotonic `at`.
        case noFix(mode: Int, at: Int64)
        /// gpsd at `address` is connected but has sent nothing since `since`.
        case gpsdSilent(since: Int64, address: String)
        case gpsd(String)
        case button(String)
        /// The writer committed this sight (first try or a retry); `timing` says when.
        case stored(Sight, timing: CommitTiming?)
        /// The writer could not store this sight.
        case storeFailed(Sight, reason: String)
        /// The heartbeat, with a fresh system clock sample.
        case tick(now: Int64, clock: ClockSample?)
        /// The anchor watch, after the writer applied fixes or time to it.
        case anchor(AnchorSignal)
        case stopping(now: Int64)
        /// The pending-presses file holds presses (another process kept them there).
        case pendingFound([Sight])
        /// Another process rang the store's doorbell; `from` can be answered, `now` is the
        /// monotonic time the ring was read at.
        case doorbell(DoorbellMessage, from: String? = nil, now: Int64 = 0)
        /// A task's reminder is due (`late` when it was missed while the daemon was down).
        case reminderDue(id: Int64, title: String, due: UTCTime, remind: UTCTime?, late: Bool)
        /// The geofence moved the boat (its own fixes).
        case placeEvents([PlaceEvent])
        /// The backfill re-stamped these sights.
        case restamped([Sight])
        /// The backfill found a better stamp for these sights that would move each by more
        /// than its stated uncertainty (`moved` seconds), and kept their stamps.
        case restampRefused([RefusedRestamp])
        /// An adapter saw something, or could not do a chore.
        case report(DaemonReport)
        /// The config was read again (SIGHUP): the button filter and the sight's rules
        /// take the new settings; the clock track keeps its samples.
        case reconfigure(Configuration)
        /// The rate book's newest line from an earlier boot, read at the start: its rate
        /// carries time until this boot learns its own (the monotonic line), or it corrects
        /// the RTC's readings (the rtc line).
        case rateBook(RateBookEntry)
        /// The RTC was read at the edge of one of its seconds.
        case rtc(RTCReading)
        /// A moment of the sky (noon, a twilight window) is near: `plan.alarms`, in words.
        case skyAlarm(String)
        /// The last fix trusted by the daemon that ran before this one, read at the start:
        /// in the same boot, the next fix is checked against it.
        case earlierTrustedFix(Fix)
        /// A key of the keypad (`keypad.device`), as the kernel queued it.
        case keypad(InputEvent)
        /// The kernel dropped keypad events (`SYN_DROPPED`).
        case keypadDropped
        /// The writer kept a reading request's change (asked by `asker`, nil for the keypad).
        case readingKept(ReadingChange, asker: String? = nil)
        /// The writer could not carry out a reading request: why, in a sentence.
        case readingRefused(String, asker: String? = nil)
        /// No preset could be worked out to say (no fix, no height of eye, no plan): why.
        case presetUnavailable(String)
        /// A held press's voice memo: kept with its sight, or why not.
        case memo(MemoOutcome)
    }

    /// An enter or leave, as the core logs it (Places' events, without its types).
    public struct PlaceEvent: Hashable, Sendable {
        public var entered: Bool
        public var place: String
        public var time: UTCTime
        public var position: Position
        public init(entered: Bool, place: String, time: UTCTime, position: Position) {
            (self.entered, self.place, self.time, self.position) = (entered, place, time, position)
        }
    }

    /// What the stored anchor watch says after the writer updated it.
    public enum AnchorSignal: Hashable, Sendable {
        /// Whether the watch is in alarm (it loops until acknowledged or lifted), with the
        /// figures to log when it starts.
        case alarm(Bool, details: [String: String] = [:])
        /// The watch has had no fix for its stale limit.
        case stale(details: [String: String] = [:])
    }

    public enum Action: Hashable, Sendable {
        /// Store this sight durably (the writer does sights before anything else).
        case insert(Sight)
        /// Keep this sight in the pending-presses file beside the store until it lands; done
        /// before the actions after it (the failure tone) are carried out.
        case keepPending(Sight)
        /// Every pending sight has landed: the pending-presses file can let go of them.
        case settlePending
        case beep(Tone)
        case silenceAlarm
        /// The places changed: the share service sends the waypoints again.
        case resendPlaces
        /// Acknowledge the anchor alarm in the store (it re-arms the watch).
        case acknowledgeAnchor
        case recordGap(InputGap)
        case publish(DaemonStatus)
        /// Save these track samples (a batch; not a sight, so no sync of its own).
        case saveTrack([ClockTrack.Entry])
        /// Write this line of the rate book (the day's line of this boot, replaced).
        case saveRate(RateBookEntry)
        /// Re-stamp this boot's weak sights from the track.
        case backfill(ClockTrack)
        /// Apply these fixes (and the time) to the geofence and the anchor watch.
        case watch([Fix], now: Int64)
        case log(LogLine)
        /// Answer a `mark` rung at the doorbell.
        case answer(MarkAnswer, to: String)
        /// Answer a `clock signal` rung at the doorbell.
        case answerSignal(TimeSignalAnswer, to: String)
        /// Change a sight's reading (the writer answers `readingKept` or `readingRefused`).
        case setReading(ReadingRequest)
        /// Say this aloud (speech never holds up a tone: a tone cuts it).
        case speak(String)
        /// Say the plan's next body aloud: its name, predicted Hs and bearing.
        case speakPreset
        /// Start, keep or drop the voice memo capture (`memo.device`).
        case memo(MemoCommand)
    }

    /// What the core needs from the settings.
    public struct Configuration: Hashable, Sendable {
        public var debounceMilliseconds: Int
        public var latencyCompensationMilliseconds: Int
        public var maxSampleAge: Double
        public var recordPosition: Bool
        public var maxFixAge: Double
        /// Seconds between batches of track samples saved to the store.
        public var trackSaveInterval: Double
        public var pid: Int32
        public var buttonDevice: String
        /// The uncertainty of a time signal's tick pressed by hand, in seconds.
        public var signalUncertainty: Double
        /// Knots beyond which a GPS position is flagged (`gps.max_speed_kn`).
        public var maxSpeedKnots: Double
        /// The shortest run that teaches a rate (`clock.rate_span_s`), and the RTC's device.
        public var rateSpan: Double
        public var rtc: String?
        /// Entries and presets are read aloud (`sound.speech`, with `sound.enabled`).
        public var speech: Bool
        /// Voice memos (`memo.*`); nil: none.
        public var memo: MemoSettings?

        public init(settings: Settings, pid: Int32 = 0, buttonDevice: String = "", trackSaveInterval: Double = 600) throws(InputError) {
            debounceMilliseconds = try settings.button.debounceMilliseconds
            latencyCompensationMilliseconds = try settings.button.latencyCompensationMilliseconds
            maxSampleAge = try settings.clock.maxSampleAge
            signalUncertainty = try settings.clock.signalUncertainty
            maxSpeedKnots = try settings.gpsMaxSpeed
            rateSpan = try settings.clock.rateSpan
            rtc = try settings.clock.rtc
            let sound = try settings.sound
            speech = sound.enabled && sound.speech
            memo = try settings.memo
            recordPosition = try settings.sight.recordPosition
            maxFixAge = try settings.sight.maxFixAge
            self.trackSaveInterval = trackSaveInterval
            self.pid = pid
            self.buttonDevice = buttonDevice
        }
    }

    public private(set) var configuration: Configuration
    public private(set) var bootID = ""
    public private(set) var startedAt: Int64 = 0
    public private(set) var track: ClockTrack
    public private(set) var filter: ButtonFilter
    /// The press a voice memo may be held from; nil without `memo.device`.
    public private(set) var memoHold: MemoHold?
    public private(set) var fix: Fix?
    /// Each fix against the last trusted one.
    public private(set) var positions: PositionCheck
    public private(set) var gpsd = "starting"
    /// gpsd went silent: since when (monotonic ns) and at what address.
    public private(set) var gpsdSilence: (since: Int64, address: String)?
    public private(set) var button = "starting"
    public private(set) var alarmSounding = false
    /// The presses' store answers, under the one failure policy.
    private var recording = Recording()
    /// Sights the store has not taken yet, oldest first; they are in the pending-presses file.
    public var pending: [Sight] { recording.pending }
    /// Who asked for a press through the doorbell, to answer once the store has it.
    private var askers: [MonotonicInstant: String] = [:]
    /// Fixes not yet handed to the geofence and the anchor watch.
    private var fixesToWatch: [Fix] = []
    /// The last input event read (its monotonic time), for the edge of a drop.
    private var lastInput: Int64?
    private var resyncing = false
    /// A tracked sample arrived since the last backfill pass, and weak stamps may exist.
    private var backfillDue = true
    private var lastTrackSave: Int64 = 0
    /// Sights whose re-stamp was refused and logged.
    private var refusedRestamps: Set<Int64> = []
    /// Chores done every second that failed last time (logged once until they work again).
    private var failing: Set<DaemonReport.Chore> = []
    /// A `clock signal` waiting for its press: the request, until when (monotonic ns), and who asked.
    public private(set) var signalWait: (request: TimeSignalRequest, until: Int64, asker: String?)?
    /// The instant of the last time signal's press: a second press just after it is not a sight.
    private var signalPressedAt: Int64?
    /// The rate last written to the rate book, and the system clock's last error measured.
    private var bookedRate: ClockRate?
    private var bookedError: Double?
    /// The RTC kept as a chronometer, and its line last written to the rate book.
    public private(set) var rtc: RTCChronometer
    private var bookedRTC: RateBookEntry?
    /// What the RTC's last reading without good time gave, so each kind is logged once.
    private var rtcSaid: RTCSaid?
    private enum RTCSaid { case sample, uncalibrated, behind }
    /// The keypad's typing, the sight it sets (the last one stored in this run; nil: the
    /// store's newest), and the changes it kept, newest last, for undo.
    public private(set) var keypad = KeypadEntry()
    public private(set) var lastSightID: Int64?
    public private(set) var kept: [ReadingChange] = []
    /// How many kept changes undo can take back.
    public static let undoDepth = 20
    /// Presses this close after a time signal's are taken for a second press on the tick.
    public static let signalSecondPress: Int64 = 5_000_000_000
    /// How long after its window a `clock signal` still waits for a press stamped inside
    /// it: the key-down is read a moment after the kernel stamps it, later on a busy machine.
    public static let signalReadGrace: Int64 = 2_000_000_000

    public init(configuration: Configuration) {
        self.configuration = configuration
        track = ClockTrack(maxSampleAge: configuration.maxSampleAge, rateSpan: configuration.rateSpan)
        rtc = RTCChronometer(rateSpan: configuration.rateSpan)
        positions = PositionCheck(maxKnots: configuration.maxSpeedKnots)
        filter = ButtonFilter(debounceMilliseconds: configuration.debounceMilliseconds,
                              latencyCompensationMilliseconds: configuration.latencyCompensationMilliseconds)
        memoHold = configuration.memo.map { MemoHold(hold: $0.hold, limit: $0.limit) }
    }

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .started(let boot, let now, let saved, let leftOver):
            bootID = boot
            startedAt = now
            lastTrackSave = now
            track.restore(saved.filter { $0.sample.source != .unsynced })
            return recording.adopt(leftOver).map(Action.init)
        case .input(let input, let clock):
            return keyEvent(input, clock: clock)
        case .inputDropped(let at, let clock):
            return dropped(at: at, clock: clock)
        case .replayed:
            return []
        case .resynced:
            resyncing = false
            filter.reset()
            return []
        case .clock(let sample):
            return addClock(sample)
        case .fix(let f):
            return newFix(f)
        case .noFix(let mode, let at):
            return lose(mode: mode, at: at)
        case .gpsdSilent(let since, let address):
            let first = gpsdSilence == nil
            gpsdSilence = (since, address)
            // A silent gpsd's time is not offered for new stamps; its fix is no longer current.
            track.suspend(.gps)
            return lose(mode: 0, at: since) + (first ? [.log(LogLine(.warning, "gpsd is silent; its time and fix no longer count, reconnecting", [
                "gpsd": address, "silent_since_ns": "\(since)",
            ]))] : [])
        case .gpsd(let text):
            // A reconnected gpsd counts again only once it sends a sample (`addClock`).
            gpsdSilence = nil
            gpsd = text
            return []
        case .button(let text):
            button = text
            return []
        case .stored(let sight, let timing):
            if let id = sight.id { lastSightID = id }
            let answer = askers.removeValue(forKey: sight.instant).map { Action.answer(.stored(sight.id ?? 0), to: $0) }
            return recording.stored(sight, timing: timing).map(Action.init) + (answer.map { [$0] } ?? [])
        case .storeFailed(let sight, let reason):
            // Answered after the press is in the pending-presses file.
            let answer = askers.removeValue(forKey: sight.instant).map { Action.answer(.pending(reason), to: $0) }
            return recording.failed(sight, reason: reason).map(Action.init) + (answer.map { [$0] } ?? [])
        case .pendingFound(let found):
            return recording.adopt(found).map(Action.init)
        case .doorbell(.mark(let instant, let note), let from, let now):
            return markAsked(at: instant, note: note, trigger: .cli, from: from, now: now)
        case .doorbell(.phoneMark(let instant, let roundTrip), let from, let now):
            return markAsked(at: instant, note: nil, trigger: .phone, roundTrip: roundTrip, from: from, now: now)
        case .doorbell(.signal(let request), let from, let now):
            // A later request takes the place of one still waiting.
            let replaced = signalWait?.asker.map { [Action.answerSignal(.refused("another `marktime clock signal` took its place"), to: $0)] } ?? []
            let window = Int64(min(max(request.window, TimeSignalRequest.windows.lowerBound), TimeSignalRequest.windows.upperBound))
            signalWait = (request, now + window * 1_000_000_000, from)
            return replaced + [.log(LogLine(.notice, "waiting \(request.window) s for a press on the time signal's tick of "
                + "\(TimeSignalRequest.text(secondOfDay: request.secondOfDay)) UTC"))]
        case .presetUnavailable(let reason):
            return [.log(LogLine(.warning, "no preset to say: \(reason)")), .speak("no preset")]
        case .doorbell(.reading(let sight, let hs, let body), let from, _):
            // Answered to its asker; one that cannot be answered is no keypad entry either.
            guard let from else { return [.log(LogLine(.warning, "a reading came to the doorbell with no address to answer: ignored"))] }
            return [.setReading(ReadingRequest(sightID: sight, change: .set(hs: hs, body: body), asker: from))]
        case .doorbell(.lunar(let lunar), let from, let now):
            return lunarTaken(lunar, from: from, now: now)
        case .doorbell(let message, _, _):
            return doorbell(message)
        case .reminderDue(let id, let title, let due, let remind, let late):
            let line = LogLine(.notice, late ? "reminder (late)" : "reminder", [
                "task": "\(id)", "title": title, "due": due.iso8601, "remind": remind?.iso8601 ?? "", "late": "\(late)",
            ])
            // A chime would cut the anchor alarm short.
            return (alarmSounding ? [] : [.beep(.chime)]) + [.log(line)]
        case .skyAlarm(let sentence):
            return (alarmSounding ? [] : [.beep(.chime)]) + [.log(LogLine(.notice, sentence))]
        case .placeEvents(let events):
            return events.map { e in
                .log(LogLine(.info, "\(e.entered ? "entered" : "left") \(e.place)", ["utc": e.time.iso8601, "position": e.position.ddm]))
            }
        case .restampRefused(let refused):
            // Said once per sight: the same pass runs again at the next kept sample.
            return refused.filter { refusedRestamps.insert($0.sight).inserted }.map { r in
                .log(LogLine(.warning, "sight not re-stamped: the better stamp would move it \(r.movedSentence), more than its "
                             + "stated uncertainty, so one of the two clocks is wrong; the sight keeps its stamp", [
                    "id": "\(r.sight)", "utc": r.stored.utc.iso8601, "source": r.stored.source.rawValue,
                    "uncertainty_s": r.stored.uncertainty.map { "\($0)" } ?? "unknown",
                    "refused_utc": r.candidate.utc.iso8601, "refused_source": r.candidate.source.rawValue,
                ]))
            }
        case .restamped(let sights):
            return sights.map { s in
                .log(LogLine(.info, "sight re-stamped", [
                    "id": "\(s.id ?? 0)", "utc": s.estimate.utc.iso8601, "source": s.estimate.source.rawValue,
                    "uncertainty_s": s.estimate.uncertainty.map { "\($0)" } ?? "unknown",
                ]))
            }
        case .tick(let now, let clock):
            return tick(now: now, clock: clock, stopping: false)
        case .anchor(let signal):
            return anchor(signal)
        case .stopping(let now):
            return tick(now: now, clock: nil, stopping: true)
        case .report(.failed(let chore, let error)) where chore.repeats:
            // A chore done every second is logged when it starts failing, not every time.
            return failing.insert(chore).inserted ? [.log(DaemonReport.failed(chore, error: error).line)] : []
        case .report(.succeeded(let chore)):
            return failing.remove(chore) != nil ? [.log(DaemonReport.succeeded(chore).line)] : []
        case .report(let report):
            return [.log(report.line)]
        case .rateBook(let line) where line.clock == RTCChronometer.clock:
            guard line.bootID != bootID else {
                // A restart: this boot's own measurements, as they were saved.
                rtc.adopt(line, own: true)
                bookedRTC = line
                return []
            }
            rtc.adopt(line)
            return [.log(LogLine(.info, "the rate book's last RTC line (\(line.day), boot \(line.bootID.prefix(8))): the RTC read \(line.errorText) "
                + "against \(line.rate.source.rawValue) at \(line.learnedUTC.iso8601), rate \(line.rate.text); a reading without good time is corrected by it"))]
        case .rtc(let reading):
            return rtcRead(reading)
        case .earlierTrustedFix(let f):
            // After a reboot its monotonic time cannot be compared with this boot's.
            guard f.receivedAt.bootID == bootID, f.flag == nil, positions.lastTrusted == nil else { return [] }
            positions.trust(f)
            return [.log(LogLine(.info, "the last fix trusted before this start (\(f.position.ddm)): the next fix is checked against it",
                                 ["received_ns": "\(f.receivedAt.nanoseconds)"]))]
        case .rateBook(let line):
            guard line.bootID != bootID else { return [] }
            track.adopt(bookRate: line.rate, fromBoot: line.bootID, learnedUTC: line.learnedUTC)
            return [.log(LogLine(.info, "the rate book's last line (\(line.day), boot \(line.bootID.prefix(8))): \(line.rate.text); "
                + "time is carried at it until this boot learns its own, if it is no more than "
                + "\(Int(ClockRate.bookLifetimeDays)) days old then"))]
        case .keypad(let input):
            return keypadKey(input)
        case .memo(let outcome):
            return memoDone(outcome)
        case .keypadDropped:
            // A key may be lost: what was typed could read as another reading.
            keypad = KeypadEntry()
            return readingRefused("the keypad's keys were lost (the kernel's buffer overflowed): the entry is cleared; type it again")
        case .readingKept(let change, let asker):
            if !change.undoes {
                kept.append(change)
                if kept.count > Self.undoDepth { kept.removeFirst() }
            }
            // The phone shows what it kept; the keypad's navigator hears it, read back or as a tone.
            guard let asker else {
                return [.log(LogLine(.notice, "reading kept: \(change.sentence)")), configuration.speech ? .speak(change.spoken) : .beep(.entered)]
            }
            return [.log(LogLine(.notice, "reading kept from the phone: \(change.sentence)")), .answer(.stored(change.sightID), to: asker)]
        case .readingRefused(let reason, let asker):
            guard let asker else { return readingRefused(reason) }
            return [.log(LogLine(.warning, "phone reading refused: \(reason)")), .answer(.refused(reason), to: asker)]
        case .reconfigure(let new):
            var c = new
            (c.pid, c.buttonDevice, c.maxSampleAge, c.trackSaveInterval) = (configuration.pid, configuration.buttonDevice,
                                                                              configuration.maxSampleAge, configuration.trackSaveInterval)
            (c.rateSpan, c.rtc, c.speech, c.memo) = (configuration.rateSpan, configuration.rtc, configuration.speech, configuration.memo)
            configuration = c
            positions.maxKnots = c.maxSpeedKnots
            filter = ButtonFilter(debounceMilliseconds: c.debounceMilliseconds, latencyCompensationMilliseconds: c.latencyCompensationMilliseconds)
            return []
        }
    }

    // MARK: The button

    private mutating func keyEvent(_ input: InputEvent, clock: ClockSample?) -> [Action] {
        lastInput = input.nanoseconds
        var actions: [Action] = []
        if let clock { actions += addClock(clock) }
        if input.type == InputEvent.keyType, input.value == 0, let command = memoHold?.released(code: input.code, at: input.nanoseconds) {
            actions += memoReleased(command)
        }
        guard !resyncing, case .mark(let nanoseconds) = filter.handle(input) else { return actions }
        // A press while the anchor alarm sounds silences it (and is not a sight).
        if alarmSounding {
            alarmSounding = false
            return actions + [.acknowledgeAnchor, .silenceAlarm, .log(LogLine(.notice, "anchor alarm acknowledged with the button"))]
        }
        let now = clock?.monotonicNanoseconds ?? nanoseconds
        if let wait = signalWait, nanoseconds <= wait.until {
            return actions + timeSignal(wait, at: nanoseconds, now: now)
        }
        if let at = signalPressedAt, nanoseconds - at < Self.signalSecondPress {
            return actions + [.log(LogLine(.notice, "a second press \(String(format: "%.2f", Double(nanoseconds - at) / 1e9)) s after the time signal's: "
                + "taken for a press on the same tick, not a sight", ["monotonic_ns": "\(nanoseconds)"]))]
        }
        guard let estimate = track.estimate(at: nanoseconds, now: now) else {
            return actions + [.beep(.failure),
                              .log(LogLine(.critical, "key-down with no clock at all; sight not stamped", ["monotonic_ns": "\(nanoseconds)"]))]
        }
        let sight = Sight.mark(instant: MonotonicInstant(bootID: bootID, nanoseconds: nanoseconds), estimate: estimate,
                               fix: configuration.recordPosition ? fix : nil, maxFixAge: configuration.maxFixAge,
                               createdAt: estimate.utc)
        if estimate.source != .pps { backfillDue = true }
        // After the press's own work: a memo's capture never comes before the sight.
        let memo = memoHold?.pressed(code: input.code, at: sight.instant).map(Action.memo) ?? []
        return actions + recording.press(sight).map(Action.init) + memo
    }

    /// The key-up of a press that started a memo's capture: kept (said when cut at the
    /// limit) or dropped.
    private func memoReleased(_ command: MemoCommand) -> [Action] {
        guard case .keep(let keep) = command, keep.cut else { return [.memo(command)] }
        return [.memo(command), .log(LogLine(.warning, "the button was held \(String(format: "%.1f", keep.held)) s, longer than the memo's limit "
            + "of \(Quantity.whole(keep.limit)) s (memo.max_s): its first \(Quantity.whole(keep.limit)) s are kept; raise memo.max_s for longer memos"))]
    }

    /// How a memo went: kept (the entered tone), or not (the refused tone and why).
    private func memoDone(_ outcome: MemoOutcome) -> [Action] {
        switch outcome {
        case .kept(let memo):
            return [.beep(.entered), .log(LogLine(.notice, "voice memo kept with sight \(memo.sightID): \(memo.summary)",
                                                  ["sight": "\(memo.sightID)", "frames": "\(memo.frames)", "bytes": "\(memo.data.count)"]))]
        case .failed(let reason):
            return [.beep(.refused), .log(LogLine(.warning, "voice memo not kept: \(reason)"))]
        }
    }

    /// `marktime mark` or the phone page asked for a press at its own instant: stamped from
    /// the track, like the button's (a phone's with half its clock sync's round trip added),
    /// and recorded on the same path.
    private mutating func markAsked(at instant: MonotonicInstant, note: String?, trigger: SightTrigger, roundTrip: Int64? = nil,
                                    from: String?, now: Int64) -> [Action] {
        func refuse(_ reason: String) -> [Action] { from.map { [.answer(.refused(reason), to: $0)] } ?? [] }
        guard instant.bootID == bootID else { return refuse("the press is from boot \(instant.bootID), the daemon runs in \(bootID)") }
        guard var estimate = track.estimate(at: instant.nanoseconds, now: max(now, instant.nanoseconds)) else {
            return refuse("the daemon has no clock sample")
        }
        if let roundTrip { estimate = estimate.phoneMark(roundTrip: roundTrip) }
        let sight = Sight.mark(instant: instant, estimate: estimate, fix: configuration.recordPosition ? fix : nil,
                               maxFixAge: configuration.maxFixAge, note: note, trigger: trigger, createdAt: estimate.utc)
        if estimate.source != .pps { backfillDue = true }
        if let from { askers[instant] = from }
        return recording.press(sight).map(Action.init)
    }

    // MARK: A time signal

    /// The press at `instant` is the tick `wait` asked for: a `signal` sample, unless the
    /// tick is further from the clock's own time than its uncertainty and half a minute.
    private mutating func timeSignal(_ wait: (request: TimeSignalRequest, until: Int64, asker: String?), at instant: Int64, now: Int64) -> [Action] {
        signalWait = nil
        signalPressedAt = instant
        func answer(_ a: TimeSignalAnswer) -> [Action] { wait.asker.map { [.answerSignal(a, to: $0)] } ?? [] }
        let before = track.estimate(at: instant, now: now)
        guard let before else {
            let reason = "the daemon has no clock at all to date the tick by; nothing changed"
            return [.beep(.warning), .log(LogLine(.warning, "time signal refused: " + reason))] + answer(.refused(reason))
        }
        guard before.source != .unsynced || wait.request.date != nil else {
            let reason = "the clock does not know the date (it is unsynced, and may be days off): give the tick's date too, "
                + "`marktime clock signal \(TimeSignalRequest.text(secondOfDay: wait.request.secondOfDay)) --date YYYY-MM-DD`; nothing changed"
            return [.beep(.warning), .log(LogLine(.warning, "time signal refused: " + reason))] + answer(.refused(reason))
        }
        let tick = wait.request.tick(near: before.utc)
        let off = Double(tick.nanosecondsSinceEpoch - before.utc.nanosecondsSinceEpoch) / 1e9
        if !wait.request.force, before.source != .unsynced, let u = before.uncertainty, abs(off) > u + TimeSignalRequest.slack {
            let reason = "the tick of \(TimeSignalRequest.text(secondOfDay: wait.request.secondOfDay)) UTC is \(String(format: "%.1f", abs(off))) s "
                + "\(off > 0 ? "after" : "before") the clock's \(before.utc.iso8601) (\(before.source.rawValue) \(UTCEstimate.text(uncertainty: u))), "
                + "more than its uncertainty and half a minute: check the minute the tick began and run `marktime clock signal` again; "
                + "if the clock is the one that is wrong, add --force; nothing changed"
            return [.beep(.warning), .log(LogLine(.warning, "time signal refused: " + reason, ["tick_utc": tick.iso8601]))] + answer(.refused(reason))
        }
        let sample = ClockSample(source: .signal, monotonicNanoseconds: instant, utc: tick, uncertainty: configuration.signalUncertainty)
        var actions = addClock(sample)
        // The track keeps it at once: a daemon that crashes later still has it.
        let unsaved = track.takeUnsaved()
        if !unsaved.isEmpty { actions.append(.saveTrack(unsaved)) }
        // GPS set aside that agrees with the tick counts again: the signal is the check
        // (against a GPS sample of the moment, not one carried from long ago).
        if track.suspect != nil, let gps = track.latest[.gps]?.sample, instant - gps.monotonicNanoseconds <= track.maxSampleAgeNanoseconds {
            let carried = ClockTrack.project(gps, to: instant, driftPPM: track.driftPPM)
            let apart = Double(carried.utc.nanosecondsSinceEpoch - tick.nanosecondsSinceEpoch) / 1e9
            if abs(apart) <= (carried.uncertainty ?? 0) + configuration.signalUncertainty, let lifted = track.trust() {
                actions.append(.log(LogLine(.warning, "gps time agrees with the time signal (\(String(format: "%+.3f", apart)) s): it counts again, "
                    + "\(String(format: "%+.3f", lifted.seconds)) s off the time carried before", ["offset_s": "\(lifted.seconds)"])))
            }
        }
        backfillDue = true
        let taken = TimeSignalAnswer.taken(tick: tick, uncertainty: configuration.signalUncertainty, before: before.bare)
        return actions + [.beep(.ok), .log(LogLine(.notice, "time signal taken: " + taken.sentence, [
            "tick_utc": tick.iso8601, "monotonic_ns": "\(instant)", "clock_error_s": "\(off)",
            "uncertainty_s": "\(configuration.signalUncertainty)",
        ]))] + answer(taken)
    }

    /// A lunar for a sight of this boot: a `lunar` sample at the sight's instant, which
    /// re-dates this boot's sights where it is better, unless the clock already dates that
    /// instant better than the lunar can.
    private mutating func lunarTaken(_ lunar: LunarTime, from: String?, now: Int64) -> [Action] {
        func answer(_ a: TimeSignalAnswer) -> [Action] { from.map { [.answerSignal(a, to: $0)] } ?? [] }
        func refuse(_ reason: String) -> [Action] {
            [.log(LogLine(.notice, "lunar not taken: " + reason, ["sight": "\(lunar.sight)"]))] + answer(.refused(reason))
        }
        let instant = lunar.instant.nanoseconds
        guard lunar.instant.bootID == bootID else {
            return refuse("sight \(lunar.sight) was taken before the last reboot: its kernel time cannot be tied to this boot's clock; "
                + "nothing changed (take a new lunar, and mark it)")
        }
        guard instant <= now else { return refuse("sight \(lunar.sight)'s kernel time is after the daemon's now; nothing changed") }
        // The time the clock gave the instant: the free-running clock's, when nothing else is heard.
        let before = track.estimate(at: instant, now: now)
            ?? track.latest[.unsynced].map { ClockTrack.project($0.sample, to: instant, driftPPM: track.driftPPM) }
        let best = ClockTrack.carriedSources.compactMap { track.estimate(at: instant, from: $0) }
            .filter { $0.uncertainty != nil }.min { $0.uncertainty! < $1.uncertainty! }
        let off = before.map { Double(lunar.utc.nanosecondsSinceEpoch - $0.utc.nanosecondsSinceEpoch) / 1e9 }
        if let best, let u = best.uncertainty, u <= lunar.uncertainty {
            let said = off.map { String(format: "; the lunar puts the clock %.1f s %@ there", abs($0), $0 >= 0 ? "slow" : "fast") } ?? ""
            return refuse("the clock already dates sight \(lunar.sight) better (\(best.source.rawValue) \(UTCEstimate.text(uncertainty: u))) "
                + "than the lunar (\(UTCEstimate.text(uncertainty: lunar.uncertainty)))" + said + "; nothing changed")
        }
        if let last = track.latest[.lunar]?.sample, instant <= last.monotonicNanoseconds {
            return refuse("a lunar for this sight or a later one is on the clock's track already: only a later sight's is taken; nothing changed")
        }
        var actions = addClock(ClockSample(source: .lunar, monotonicNanoseconds: instant, utc: lunar.utc, uncertainty: lunar.uncertainty))
        let unsaved = track.takeUnsaved()
        if !unsaved.isEmpty { actions.append(.saveTrack(unsaved)) }
        // Re-dated at once: the instant is in the past, so no fresh source asks for it.
        actions.append(.backfill(track))
        let taken = TimeSignalAnswer.lunar(utc: lunar.utc, uncertainty: lunar.uncertainty, before: before?.bare)
        return actions + [.log(LogLine(.notice, "lunar taken: " + taken.sentence, [
            "sight": "\(lunar.sight)", "utc": lunar.utc.iso8601, "monotonic_ns": "\(instant)",
            "clock_error_s": off.map { "\($0)" } ?? "-", "uncertainty_s": "\(lunar.uncertainty)",
        ]))] + answer(taken)
    }

    /// The `clock signal` waiting for a press gives up at `now`, past its window and the
    /// grace for reading a press stamped inside it (a press stamped after the window is a sight).
    private mutating func signalExpired(now: Int64) -> [Action] {
        guard let wait = signalWait, now > wait.until + Self.signalReadGrace else { return [] }
        signalWait = nil
        let reason = "no press within \(wait.request.window) s of asking: nothing changed; run `marktime clock signal` again a little before the tick"
        return [.log(LogLine(.notice, "time signal: " + reason))] + (wait.asker.map { [.answerSignal(.refused(reason), to: $0)] } ?? [])
    }

    private mutating func dropped(at: Int64, clock: ClockSample?) -> [Action] {
        var actions: [Action] = []
        if let clock { actions += addClock(clock) }
        resyncing = true
        // The key-up may be among what was lost: a memo is not kept on a guess.
        let memo: [Action] = memoHold?.lost().map { [.memo($0), .log(LogLine(.warning,
            "voice memo not kept: the button's events were lost while it recorded (the kernel's buffer overflowed)"))] } ?? []
        let from = lastInput ?? startedAt
        let now = clock?.monotonicNanoseconds ?? at
        let gap = InputGap(bootID: bootID, fromNanoseconds: from, toNanoseconds: at,
                           from: track.estimate(at: from, now: now)?.utc, to: track.estimate(at: at, now: now)?.utc)
        lastInput = at
        return actions + memo + [
            .beep(.warning),
            .log(LogLine(.warning, "the kernel dropped input events: presses between the last event read and the drop may be lost", [
                "from": gap.from?.iso8601 ?? "\(from) ns", "to": gap.to?.iso8601 ?? "\(at) ns",
            ])),
            .recordGap(gap),
        ]
    }

    // MARK: GPS

    /// A fix from gpsd: trusted when the boat could have sailed to it from the last one
    /// trusted; else flagged, said once until a fix is trusted again, and kept from the
    /// geofence and the anchor watch (a jump of miles is no drag).
    private mutating func newFix(_ f: Fix) -> [Action] {
        var f = f
        let wasFlagged = fix?.flag != nil
        if let jump = positions.check(f) {
            f.flag = jump.sentence
            fix = f
            return wasFlagged ? [] : [.log(LogLine(.warning, jump.sentence, [
                "from": jump.from.position.ddm, "to": f.position.ddm, "nm": String(format: "%.3f", jump.nauticalMiles),
                "seconds": String(format: "%.3f", jump.seconds),
            ]))]
        }
        fix = f
        if f.time != nil { fixesToWatch.append(f) }
        return wasFlagged ? [.log(LogLine(.notice, "gps position within reach of the last trusted fix again: it counts again", ["position": f.position.ddm]))] : []
    }

    /// gpsd has no fix (mode 1), or is gone or silent (mode 0): the last fix stays, marked
    /// lost from `at`, so nothing takes it for a current one.
    private mutating func lose(mode: Int, at: Int64) -> [Action] {
        // No fix, no GPS time: the last sample is not carried into new stamps.
        track.suspend(.gps)
        guard var f = fix, f.lost == nil else { return [] }
        f.lost = FixLoss(since: MonotonicInstant(bootID: bootID, nanoseconds: max(at, f.receivedAt.nanoseconds)), mode: mode)
        fix = f
        return [.log(LogLine(.notice, mode == 0 ? "GPS fix lost: gpsd is gone or silent" : "GPS fix lost: gpsd reports no fix", [
            "mode": "\(mode)", "last_fix": f.position.ddm,
        ]))]
    }

    // MARK: Time

    private mutating func addClock(_ sample: ClockSample) -> [Action] {
        // A fresh sample of a source that had stopped (no fix, a silent gpsd) means it is back.
        if sample.source == .gps, gpsdSilence == nil { track.resume(.gps) }
        let added = track.add(sample)
        if added.kept { backfillDue = true }
        var said: [Action] = []
        if let jump = added.jump {
            said.append(.log(LogLine(.warning, jump.sentence, [
                "source": jump.source.rawValue, "before_utc": jump.before.utc.iso8601, "after_utc": jump.after.utc.iso8601,
                "jump_s": "\(jump.seconds)", "monotonic_ns": "\(jump.after.monotonicNanoseconds)",
            ])))
        }
        if let suspicion = added.suspicion {
            said.append(.log(LogLine(.warning, suspicion.sentence, [
                "gps_utc": suspicion.sample.utc.iso8601, "carried_utc": suspicion.reference.utc.iso8601, "offset_s": "\(suspicion.seconds)",
            ])))
        }
        if let cleared = added.cleared {
            said.append(.log(LogLine(.notice, "gps time agrees again with the time carried: it counts again", [
                "was_off_s": "\(cleared.seconds)",
            ])))
        }
        return said
    }

    private mutating func tick(now: Int64, clock: ClockSample?, stopping: Bool) -> [Action] {
        var actions: [Action] = []
        if let clock { actions += addClock(clock) }
        actions += signalExpired(now: now)
        if stopping, let wait = signalWait {
            signalWait = nil
            if let asker = wait.asker { actions.append(.answerSignal(.refused("the daemon is stopping: nothing changed; run `marktime clock signal` again once it is back"), to: asker)) }
        }
        // Presses the store refused: try again, in order, unless an attempt is still under way.
        actions += recording.retry().map(Action.init)
        if !fixesToWatch.isEmpty || !stopping {
            actions.append(.watch(fixesToWatch, now: now))
            fixesToWatch = []
        }
        if backfillDue, let best = track.bestSource(now: now), best != .unsynced {
            backfillDue = false
            actions.append(.backfill(track))
        }
        if stopping || Double(now - lastTrackSave) / 1e9 >= configuration.trackSaveInterval {
            let batch = track.takeUnsaved()
            lastTrackSave = now
            if !batch.isEmpty { actions.append(.saveTrack(batch)) }
            if let line = rateBookLine(clock: clock) { actions.append(.saveRate(line)) }
            if let line = rtc.line(bootID: bootID), line != bookedRTC {
                bookedRTC = line
                actions.append(.saveRate(line))
            }
        }
        actions.append(.publish(status(now: now, stopping: stopping)))
        return actions
    }

    /// The rate book's line for a rate learned in this boot and not yet written: with the
    /// system clock's error against the rate's source, when `clock` (the system clock read
    /// now) falls where that source is heard.
    private mutating func rateBookLine(clock: ClockSample?) -> RateBookEntry? {
        guard let rate = track.rate, rate.fromBoot == nil, rate != bookedRate,
              let learned = track.estimate(at: rate.learnedAt, from: rate.source) else { return nil }
        bookedRate = rate
        // Measured when the system clock is read where the rate's source is heard; else (the
        // stop) the last error measured stands.
        if let clock, let good = track.estimate(at: clock.monotonicNanoseconds, from: rate.source),
           good.provenance?.method == .interpolated || abs(clock.monotonicNanoseconds - rate.learnedAt) <= track.maxSampleAgeNanoseconds {
            bookedError = Double(clock.utc.nanosecondsSinceEpoch - good.utc.nanosecondsSinceEpoch) / 1e9
        }
        return RateBookEntry(bootID: bootID, rate: rate, learnedUTC: learned.utc, error: bookedError)
    }

    // MARK: The RTC

    /// A reading of the RTC: compared with good time where there is some (a good source
    /// heard now, or a time signal of this daemon's newer than the RTC's last comparison),
    /// else, corrected by the last comparison, an `rtc` sample for the track, when it is
    /// better than the time carried from the last good sample.
    private mutating func rtcRead(_ reading: RTCReading) -> [Action] {
        guard let check = reading.interruptCheck else { return rtcUse(reading) }
        let said = Action.log(LogLine(check.atTheEdge ? .info : .notice, check.sentence,
                                      ["lag_s": check.lag.map { "\($0)" } ?? "none", "checks": "\(check.checks)"]))
        return [said] + rtcUse(reading)
    }

    private mutating func rtcUse(_ reading: RTCReading) -> [Action] {
        let at = reading.monotonicNanoseconds
        var reference: UTCEstimate?
        if let best = track.bestSource(now: at), best < .signal {
            reference = track.estimate(at: at, from: best)
        } else if let tick = track.lastTrusted[.signal]?.sample, tick.monotonicNanoseconds >= startedAt,
                  rtc.fromBoot != nil || tick.monotonicNanoseconds > (rtc.last?.monotonicNanoseconds ?? .min) {
            reference = track.estimate(at: at, from: .signal)
        }
        if let reference {
            rtcSaid = nil
            guard let step = rtc.compare(reading, against: reference) else { return [] }
            return [.log(LogLine(.warning, step.sentence, ["before_s": "\(step.before.error)", "after_s": "\(step.after.error)",
                                                          "against": reference.source.rawValue]))]
        }
        switch rtc.sample(reading) {
        case .sample(let sample):
            // Only where it is better than the time carried from the last good sample.
            if let carried = track.carried(at: at)?.uncertainty, carried <= sample.uncertainty ?? .infinity { return [] }
            var actions = addClock(sample)
            if rtcSaid != .sample {
                rtcSaid = .sample
                actions.append(.log(LogLine(.notice, "no good time: the RTC, corrected by its last comparison, dates the sights", [
                    "rtc_utc": reading.rtc.iso8601, "utc": sample.utc.iso8601, "uncertainty_s": "\(sample.uncertainty ?? 0)",
                ])))
            }
            return actions
        case .uncalibrated:
            guard rtcSaid != .uncalibrated else { return [] }
            rtcSaid = .uncalibrated
            return [.log(LogLine(.notice, "the RTC has never been compared with good time here: its reading is not used until GPS "
                + "or a time signal gives some", ["rtc_utc": reading.rtc.iso8601]))]
        case .behind(let compared):
            guard rtcSaid != .behind else { return [] }
            rtcSaid = .behind
            return [.log(LogLine(.warning, "the RTC reads \(reading.rtc.iso8601), before its last comparison at \(compared.iso8601): "
                + "its battery may be flat, or it was reset; it is not used until good time measures it again"))]
        }
    }

    /// What `marktime status` shows, but for the sound's state, which the beeper knows.
    public func status(now: Int64, stopping: Bool = false) -> DaemonStatus {
        let gpsd = gpsdSilence.map { "silent for \(Quantity.whole(max(0, Double(now - $0.since) / 1e9))) s at \($0.address); reconnecting" } ?? gpsd
        var status = DaemonStatus(pid: configuration.pid, bootID: bootID, startedAt: startedAt, heartbeat: now,
                                  clock: track.currentSample(now: now), fix: fix, gpsd: gpsd, buttonDevice: configuration.buttonDevice,
                                  buttonState: button, stopped: stopping)
        status.chronometer = track.chronometer(now: now)
        status.rtc = configuration.rtc.map { rtc.sentence(device: $0) }
        status.gpsSetAside = track.suspect?.sentence
        status.trustedFix = positions.lastTrusted
        return status
    }

    // MARK: The keypad

    private mutating func keypadKey(_ input: InputEvent) -> [Action] {
        switch keypad.handle(input) {
        case nil:
            return []
        case .hs(let value, _):
            if let waiting = waitingPress { return readingRefused(waiting) }
            return [.setReading(ReadingRequest(sightID: lastSightID, change: .hs(value)))]
        case .nextBody:
            if let waiting = waitingPress { return readingRefused(waiting) }
            return [.setReading(ReadingRequest(sightID: lastSightID, change: .nextBody))]
        case .undo:
            guard let last = kept.popLast() else {
                return readingRefused("nothing to undo: no reading was kept (from the keypad or a phone) since the daemon started")
            }
            return [.setReading(ReadingRequest(sightID: last.sightID, change: .restore(last)))]
        case .refused(let reason):
            return readingRefused(reason)
        case .speakPlan:
            guard configuration.speech else { return readingRefused("speech is off (sound.speech, sound.enabled): the preset is on `marktime plan --live` and the phone page") }
            return [.speakPreset]
        }
    }

    /// Why an entry would not reach the press it is for: the last press waits in the
    /// pending-presses file (so "the last stored" is the one before it); nil when none waits.
    private var waitingPress: String? {
        pending.isEmpty ? nil : "the last press is not in the store yet (it waits in the pending-presses file): "
            + "its reading can be set once it is stored; nothing was changed"
    }

    private func readingRefused(_ reason: String) -> [Action] {
        [.log(LogLine(.warning, "keypad: \(reason)")), .beep(.refused)]
    }

    // MARK: The anchor watch

    private mutating func anchor(_ signal: AnchorSignal) -> [Action] {
        switch signal {
        case .alarm(true, let details) where !alarmSounding:
            alarmSounding = true
            return [.beep(.alarm), .log(LogLine(.critical, "anchor dragging", details))]
        case .alarm(false, _) where alarmSounding:
            alarmSounding = false
            return [.silenceAlarm]
        case .stale(let details):
            return [.beep(.warning), .log(LogLine(.warning, "anchor watch has no GPS fix", details))]
        default:
            return []
        }
    }

    // MARK: The doorbell

    private mutating func doorbell(_ message: DoorbellMessage) -> [Action] {
        switch message {
        case .trustGPS:
            var said: [Action] = []
            if var f = fix, f.flag != nil {
                f.flag = nil
                fix = f
                positions.trust(f)
                said.append(.log(LogLine(.warning, "gps position accepted by the navigator as it is: it counts again", ["position": f.position.ddm])))
            }
            guard let lifted = track.trust() else {
                return said.isEmpty ? [.log(LogLine(.info, "trust-gps asked, but gps time is not set aside: nothing to accept"))] : said
            }
            backfillDue = true
            return said + [.log(LogLine(.warning, "gps time accepted by the navigator as it is: it counts again, "
                + "\(String(format: "%+.3f", lifted.seconds)) s off the time carried before", ["offset_s": "\(lifted.seconds)"]))]
        case .tasksChanged, .mark, .phoneMark, .signal, .lunar, .reading:
            return []
        case .say(let text):
            guard configuration.speech else { return [.log(LogLine(.info, "asked to say something, but speech is off (sound.speech, sound.enabled)"))] }
            return [.log(LogLine(.notice, "saying for another process: \(text)")), .speak(text)]
        case .placesChanged:
            return [.resendPlaces]
        case .beep(let tone):
            // Another process asks only for a sight's tones: never the alarm or a chime, and
            // nothing over the anchor alarm.
            guard tone != .alarm, tone != .chime, !alarmSounding else { return [] }
            return [.beep(tone), .log(LogLine(.info, "beep for another process", ["tone": tone.rawValue]))]
        }
    }
}

extension DaemonCore.Action {
    /// The daemon carries out the recording policy's actions as its own.
    init(_ action: Recording.Action) {
        switch action {
        case .insert(let sight): self = .insert(sight)
        case .keepPending(let sight): self = .keepPending(sight)
        case .settlePending: self = .settlePending
        case .beep(let tone): self = .beep(tone)
        case .log(let line): self = .log(line)
        }
    }
}
