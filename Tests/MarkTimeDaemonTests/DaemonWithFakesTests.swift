import Foundation
import MarkTimeCore
import MarkTimeDaemon
import Logging
import MarkTimeDevices
import MarkTimeRecorder
import MarkTimeSky
import MarkTimeStore
import MarkTimeSystem
import Synchronization
import Testing

import DaemonFakes

@Suite("the whole daemon on fakes")
struct DaemonWithFakesTests {
    @Test func aKeyDownIsStoredFromGPSTimeAndConfirmedThenTheDaemonStops() async throws {
        // Given the daemon on a real store with a fake clock, button, gpsd and beeper
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let (folder, store, daemon, clock, button, gps, beeper) = (f.folder, f.store, f.daemon, f.clock, f.button, f.gps, f.beeper)
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { button.started && gps.started })
        // When gpsd gives time at 100 s and a fix, and the key goes down at 100.25 s (read at 100.3 s)
        gps.send(.clock(ClockSample(source: .gps, monotonicNanoseconds: 100 * second, utc: UTCTime(nanosecondsSinceEpoch: logDay),
                                    uncertainty: 0.5)))
        let position = try Position(latitude: -27.3807, longitude: 153.3807)
        gps.send(.fix(Fix(position: position, mode: 3, horizontalError: 4, time: UTCTime(nanosecondsSinceEpoch: logDay),
                          receivedAt: MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second))))
        clock.monotonic.withLock { $0 = 100 * second + 300_000_000 }
        button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: 100 * second + 250_000_000)))
        // Then the sight is stored as the core stamped it, and the ok tone follows
        #expect(try await waitFor { try store.sights().count == 1 && beeper.played == [.ok] }, "tones \(beeper.played)")
        let s = try #require(try store.sights().first)
        #expect(s.instant == MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second + 250_000_000))
        #expect(s.estimate.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 250_000_000), source: .gps,
                                               uncertainty: 0.5 + 0.25 * 100 / 1e6))
        #expect(s.position == position)
        // And `marktime status` reads the live file
        #expect(try await waitFor { try store.daemonStatus()?.clock?.source == .gps })
        #expect(try store.daemonStatus()?.buttonState == "ready: fake")
        // When it is stopped, the row says so and the file is gone
        await daemon.shutdown()
        try await running.value
        #expect(try store.daemonStatus()?.stopped == true)
        #expect(!FileManager.default.fileExists(atPath: folder + "/status.json"))
    }

    @Test func theDaemonGrowsItsStoresWALBeforeTheButtonStarts() async throws {
        // Given the daemon on a new store, with fakes
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let (folder, store, daemon, button, gps) = (f.folder, f.store, f.daemon, f.button, f.gps)
        // When it has started its button
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { button.started && gps.started })
        // Then the WAL file is at least 1000 frames of 4096 + 24 bytes after its 32-byte header,
        // and there is nothing left to grow
        let wal = try FileManager.default.attributesOfItem(atPath: folder + "/marktime.sqlite-wal")[.size] as? Int
        #expect(try #require(wal) >= 32 + 1000 * (4096 + 24))
        #expect(try store.reserveWAL() == 0)
        await daemon.shutdown()
        try await running.value
    }

    @Test func theButtonPressedOnATimeSignalsTickSetsTheClock() async throws {
        // Given the daemon on fakes, its free-running clock reading 09:54:35 at 100 s, and its real doorbell
        let log = LogLines()
        let f = try DaemonOnFakes(logger: log.logger)
        defer { f.remove() }
        let (store, daemon, clock, button, beeper) = (f.store, f.daemon, f.clock, f.button, f.beeper)
        clock.realtimeOffset.withLock { $0 = logDay }
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { button.started && FileManager.default.fileExists(atPath: Doorbell.path(forStore: store.path)) })
        // When `marktime clock signal 09:55` asks, and the button goes down at 120 s, when that clock says 09:54:55
        let path = store.path
        let asked = Task.detached { try TimeSignalClient.ask(store: path, request: TimeSignalRequest(secondOfDay: 9 * 3600 + 55 * 60, date: UTCTime(year: 2007, month: 4, day: 8))) }
        #expect(try await waitFor { log.messages.contains("waiting 120 s for a press on the time signal's tick of 09:55:00 UTC") }, "\(log.messages)")
        clock.monotonic.withLock { $0 = 120 * second + 1_000_000 }
        button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: 120 * second)))
        // Then the asker hears that the tick was taken, the clock 5 s slow; the ok tone sounds and no sight is made
        let answer = try await asked.value
        #expect(answer == .taken(tick: UTCTime(nanosecondsSinceEpoch: logDay + 125 * second), uncertainty: 0.3,
                                 before: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 120 * second), source: .unsynced, uncertainty: nil)))
        #expect(try await waitFor { beeper.played == [.ok] }, "tones \(beeper.played)")
        #expect(try store.sights().isEmpty)
        // And the status shows the signal's time, and the track it saves on stopping holds the tick
        #expect(try await waitFor { try store.daemonStatus()?.clock?.source == .signal })
        await daemon.shutdown()
        try await running.value
        #expect(try store.track(bootID: "boot-fake").map(\.sample) == [ClockSample(source: .signal, monotonicNanoseconds: 120 * second,
                                                                                   utc: UTCTime(nanosecondsSinceEpoch: logDay + 125 * second), uncertainty: 0.3)])
    }

    @Test func aLunarForAMarkedSightRedatesItInTheStore() async throws {
        // Given the daemon on fakes, its free-running clock 70 s fast, and a sight marked unsynced at 100 s
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let (store, daemon, clock, button) = (f.store, f.daemon, f.clock, f.button)
        clock.realtimeOffset.withLock { $0 = logDay + 70 * second }
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { button.started && FileManager.default.fileExists(atPath: Doorbell.path(forStore: store.path)) })
        clock.monotonic.withLock { $0 = 100 * second + 1_000_000 }
        button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: 100 * second)))
        #expect(try await waitFor { try store.sights().count == 1 })
        let marked = try #require(try store.sights().first)
        #expect(marked.estimate.source == .unsynced)
        // When `marktime lunar --sight 1 --set-clock` sends its UT, logDay + 100 s ±28 s
        clock.monotonic.withLock { $0 = 400 * second }
        let path = store.path
        let lunar = LunarTime(sight: try #require(marked.id), instant: marked.instant, utc: UTCTime(nanosecondsSinceEpoch: logDay + 100 * second),
                              uncertainty: 28)
        let answer = try await Task.detached { try TimeSignalClient.tell(store: path, lunar: lunar) }.value
        // Then the daemon takes it, saying the clock was 70 s fast, and the stored sight is re-dated from it
        #expect(answer.isLunar)
        #expect(answer.clockError == -70)
        #expect(try await waitFor { try store.sights().first?.estimate.source == .lunar }, "\((try? store.sights())?.map(\.estimate) ?? [])")
        let redated = try #require(try store.sights().first)
        #expect(redated.estimate.bare == UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 100 * second), source: .lunar, uncertainty: 28))
        await daemon.shutdown()
        try await running.value
    }

    @Test func aPhoneMarkIsStampedFromTheDaemonsTrackAndStoredByItsWriter() async throws {
        // Given the daemon on fakes with GPS time at 100 s (±0.5 s) and a fix, its doorbell listening
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { f.button.started && f.gps.started && FileManager.default.fileExists(atPath: Doorbell.path(forStore: f.store.path)) })
        f.gps.send(.clock(ClockSample(source: .gps, monotonicNanoseconds: 100 * second, utc: UTCTime(nanosecondsSinceEpoch: logDay),
                                      uncertainty: 0.5)))
        let position = try Position(latitude: -27.3807, longitude: 153.3807)
        f.gps.send(.fix(Fix(position: position, mode: 3, horizontalError: 4, time: UTCTime(nanosecondsSinceEpoch: logDay),
                            receivedAt: MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second))))
        f.clock.monotonic.withLock { $0 = 100 * second + 300_000_000 }
        // When the page records a MARK tapped at 100.25 s by a phone synced with an 80 ms round
        // trip, and the page's own clock would have dated it from a system clock 7 s off
        var sync = PhoneClockSync()
        sync.add(.init(sentAt: 100 * second + 200_000_000, phoneMillis: 1e12 + 100_240, receivedAt: 100 * second + 280_000_000))
        let recorder = SightRecorder(store: f.store, beeper: nil, logger: Logger(label: "test"), attempts: 1)
        let system = ClockSample(source: .system, monotonicNanoseconds: 100 * second, utc: UTCTime(nanosecondsSinceEpoch: logDay + 7 * second),
                                 uncertainty: 0.01)
        let sight = try await recorder.recordPhoneMark(phoneMillis: 1e12 + 100_250, receivedAt: MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second + 300_000_000),
                                                       sync: sync, system: system, published: nil, settings: Settings())
        // Then the daemon stored it, stamped from its GPS track: ±(0.5, 25 ms at 100 ppm, 40 ms), the round trip named, its fix, the ok tone
        #expect(sight.trigger == .phone)
        #expect(sight.instant == MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second + 250_000_000))
        #expect(sight.estimate.source == .gps)
        #expect(sight.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + 250_000_000))
        let uncertainty = try #require(sight.estimate.uncertainty)
        let expected: Double = 0.5 + 0.25 * 100 / 1e6 + 0.04
        #expect(abs(uncertainty - expected) < 1e-12)
        #expect(sight.estimate.provenance?.phoneRoundTrip == 0.08)
        #expect(sight.position == position)
        #expect(try f.store.sights().count == 1)
        #expect(try await waitFor { f.beeper.played == [.ok] }, "tones \(f.beeper.played)")
        await daemon.shutdown()
        try await running.value
    }

    /// Memos on, from the fake microphone (`memo.device`; hold 1 s, limit 60 s).
    static var memoSettings: Settings {
        var settings = Settings()
        settings.set("memo.device", .string("fake"))
        return settings
    }

    /// Once the daemon's button and gpsd run: a GPS sample at 100 s (±0.5 s), the clock at 103 s.
    static func timedWithGPS(_ f: DaemonOnFakes) async throws {
        #expect(try await waitFor { f.button.started && f.gps.started })
        f.gps.send(.clock(ClockSample(source: .gps, monotonicNanoseconds: 100 * second, utc: UTCTime(nanosecondsSinceEpoch: logDay), uncertainty: 0.5)))
        f.clock.monotonic.withLock { $0 = 103 * second }
    }

    @Test func aPressHeldPastTheHoldKeepsItsVoiceMemoAndAShortOneNone() async throws {
        // Given the daemon on fakes with memos on (hold 1 s), GPS time, and a microphone
        let f = try DaemonOnFakes(settings: Self.memoSettings)
        defer { f.remove() }
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        try await Self.timedWithGPS(f)
        // When one press comes up after 0.4 s, and the next is held 2.5 s
        let short = MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second)
        let held = MonotonicInstant(bootID: "boot-fake", nanoseconds: 101 * second)
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: short.nanoseconds)))
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 0, nanoseconds: short.nanoseconds + 400_000_000)))
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: held.nanoseconds)))
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 0, nanoseconds: held.nanoseconds + 2_500_000_000)))
        // Then both are sights; the held one's memo is kept by the writer, confirmed by the entered tone
        #expect(try await waitFor { f.beeper.played == [.ok, .ok, .entered] }, "tones \(f.beeper.played)")
        let sights = try f.store.sights(SightQuery(oldestFirst: true))
        #expect(sights.map(\.instant) == [short, held])
        let heldID = try #require(sights[1].id), shortID = try #require(sights[0].id)
        let memo = try #require(try f.store.memo(sightID: heldID))
        #expect(memo.sampleRate == 16_000)
        #expect(memo.frames == f.memo.samples.count)
        #expect(memo.cut == false)
        // And it decodes to what the microphone heard; the short press has none
        #expect(try FLACCodec.decode(memo.data).samples == f.memo.samples)
        #expect(try f.store.memo(sightID: shortID) == nil)
        #expect(f.memo.commands == [.start(short), .discard, .start(held), .keep(MemoKeep(press: held, held: 2.5, limit: 60))])
        await daemon.shutdown()
        try await running.value
    }

    @Test func aMemoTheMicrophoneCannotRecordIsRefusedInWordsAndTheSightStays() async throws {
        // Given the daemon on fakes with memos on, GPS time, and a microphone that is busy
        let reason = "the capture device fake is busy (Device or resource busy): another program records from it"
        let lines = LogLines()
        let f = try DaemonOnFakes(settings: Self.memoSettings, logger: lines.logger, memo: FakeMemo(failure: reason))
        defer { f.remove() }
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        try await Self.timedWithGPS(f)
        // When a press is held 1.5 s (its sight stored meanwhile, as the hold outlasts a commit)
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: 100 * second)))
        #expect(try await waitFor { f.beeper.played == [.ok] }, "tones \(f.beeper.played)")
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 0, nanoseconds: 101 * second + 500_000_000)))
        // Then the memo is refused with its tone and the reason, and the sight stays
        #expect(try await waitFor { f.beeper.played == [.ok, .refused] }, "tones \(f.beeper.played)")
        #expect(lines.messages.contains("voice memo not kept: " + reason), "\(lines.messages)")
        #expect(try f.store.sights().count == 1)
        #expect(try f.store.memo(sightID: 1) == nil)
        await daemon.shutdown()
        try await running.value
    }

    @Test func theDaemonsStopCutsItsSpeechOff() async throws {
        // Given the daemon on fakes, with speech on (the default)
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { f.button.started && f.gps.started })
        #expect(f.speaker.hushed == 0)
        // When it stops
        await daemon.shutdown()
        try await running.value
        // Then its speech was hushed once
        #expect(f.speaker.hushed == 1)
    }

    @Test func theKeypadSetsTheSightJustPressedStepsItsBodyAndUndoes() async throws {
        // Given the daemon on fakes without speech, with GPS time and a fix, and a sight pressed and stored
        var settings = Settings()
        settings.set("sound.speech", .bool(false))
        let f = try DaemonOnFakes(settings: settings)
        defer { f.remove() }
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { f.button.started && f.keypad.started && f.gps.started })
        f.gps.send(.clock(ClockSample(source: .gps, monotonicNanoseconds: 100 * second, utc: UTCTime(nanosecondsSinceEpoch: logDay),
                                      uncertainty: 0.5)))
        let position = try Position(latitude: -27.3807, longitude: 153.3807)
        f.gps.send(.fix(Fix(position: position, mode: 3, horizontalError: 4, time: UTCTime(nanosecondsSinceEpoch: logDay),
                            receivedAt: MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second))))
        f.clock.monotonic.withLock { $0 = 100 * second + 300_000_000 }
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: 100 * second + 250_000_000)))
        #expect(try await waitFor { f.beeper.played == [.ok] }, "tones \(f.beeper.played)")
        func type(_ codes: [UInt16]) {
            for (i, code) in codes.enumerated() {
                f.keypad.send(.event(InputEvent(type: 1, code: code, value: 1, nanoseconds: 101 * second + Int64(i) * 1_000_000)))
                f.keypad.send(.event(InputEvent(type: 1, code: code, value: 0, nanoseconds: 101 * second + Int64(i) * 1_000_000 + 500_000)))
            }
        }
        func sight() throws -> Sight { try #require(try f.store.sights().first) }
        // When 3412.3 Enter is typed on the keypad
        type([81, 75, 79, 80, 83, 81, 96])
        // Then the sight's Hs is 34° 12'.3, kept by the writer, and the entered tone confirms it
        #expect(try await waitFor { f.beeper.played == [.ok, .entered] }, "tones \(f.beeper.played)")
        #expect(try sight().hs == 34 + 12.3 / 60)
        // When the body key is pressed
        type([78])
        // Then the body is the first the plan steps through at the sight's time and place
        let first = try ReadingEntry.bodies(at: try sight().estimate.utc, from: position)[0].name
        #expect(try await waitFor { f.beeper.played == [.ok, .entered, .entered] }, "tones \(f.beeper.played)")
        #expect(try sight().body == first)
        // When undo is pressed twice
        type([74])
        #expect(try await waitFor { f.beeper.played.count == 4 }, "tones \(f.beeper.played)")
        #expect(try sight().body == nil)
        #expect(try sight().hs == 34 + 12.3 / 60)
        type([74])
        #expect(try await waitFor { f.beeper.played.count == 5 }, "tones \(f.beeper.played)")
        // Then the sight is as it was pressed, and a third undo and 3490 are refused with their tone
        #expect(try sight().hs == nil)
        type([74])
        type([4, 5, 10, 11, 96])
        #expect(try await waitFor { f.beeper.played == [.ok, .entered, .entered, .entered, .entered, .refused, .refused] }, "tones \(f.beeper.played)")
        #expect(try sight().hs == nil)
        #expect(try sight().body == nil)
        await daemon.shutdown()
        try await running.value
    }

    @Test func withSpeechTheKeypadsEntryIsReadBackAndTheStarKeySaysThePreset() async throws {
        // Given the daemon on fakes (speech on, the default) with GPS time and a fix off Plymouth
        // at the evening twilight of 27 November 2026, a sight pressed, and one with a height of eye
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let daemon = f.daemon
        let twilight = try #require(UTCTime(year: 2026, month: 11, day: 27)).adding(nanoseconds: (17 * 3600 + 32) * second)
        var earlier = Sight(instant: MonotonicInstant(bootID: "boot-fake", nanoseconds: 1), estimate: UTCEstimate(utc: twilight, source: .gps, uncertainty: 0.5),
                            createdAt: twilight)
        earlier.eyeHeight = 2.4
        _ = try f.store.insert(earlier)
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { f.button.started && f.keypad.started && f.gps.started })
        f.gps.send(.clock(ClockSample(source: .gps, monotonicNanoseconds: 100 * second, utc: twilight, uncertainty: 0.5)))
        let plymouth = try Position(latitude: 50 + 10.0 / 60, longitude: -(4 + 20.0 / 60))
        f.gps.send(.fix(Fix(position: plymouth, mode: 3, horizontalError: 4, time: twilight, receivedAt: MonotonicInstant(bootID: "boot-fake", nanoseconds: 100 * second))))
        f.clock.monotonic.withLock { $0 = 100 * second + 300_000_000 }
        f.button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: 100 * second + 250_000_000)))
        #expect(try await waitFor { f.beeper.played == [.ok] }, "tones \(f.beeper.played)")
        func type(_ codes: [UInt16]) {
            for (i, code) in codes.enumerated() {
                f.keypad.send(.event(InputEvent(type: 1, code: code, value: 1, nanoseconds: 101 * second + Int64(i) * 1_000_000)))
            }
        }
        // When 3412.3 Enter is typed
        type([81, 75, 79, 80, 83, 81, 96])
        // Then the entry is read back once the writer kept it, with no tone
        #expect(try await waitFor { f.speaker.said == ["sight 2, no body, thirty-four twelve point three"] }, "said \(f.speaker.said)")
        // When the star key is pressed (said at once: it waits on no writer, so it is pressed after the read-back here)
        type([55])
        // Then the preset is said: the plan's first chosen body at the fix, with its Hs for the newest sight's height of eye, at the track's time
        let sextant = SextantReading(hs: 0, eyeHeight: 2.4, limb: .lower)
        let preset = try ReadingEntry.presetSpoken(at: twilight.adding(nanoseconds: 300_000_000), from: plymouth, sextant: sextant, recent: [])
        #expect(try await waitFor { f.speaker.said == ["sight 2, no body, thirty-four twelve point three", preset] }, "said \(f.speaker.said)")
        #expect(f.beeper.played == [.ok])
        await daemon.shutdown()
        try await running.value
    }

    @Test func aPhoneReadingIsKeptByTheDaemonsWriterThroughTheDoorbell() async throws {
        // Given the daemon on fakes, its doorbell listening, and a sight in the store
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let daemon = f.daemon
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { f.button.started && FileManager.default.fileExists(atPath: Doorbell.path(forStore: f.store.path)) })
        let id = try #require(try f.store.insert(Sight(instant: MonotonicInstant(bootID: "boot-fake", nanoseconds: 5),
                                                       estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5),
                                                       createdAt: UTCTime(nanosecondsSinceEpoch: logDay))).id)
        // When the page keeps Hs 34° 12'.3 and Vega through the recorder, as the quick entry does
        let recorder = SightRecorder(store: f.store, beeper: nil, logger: Logger(label: "test"))
        let kept = try await recorder.setReading(sight: id, hs: 34.205, body: "vega", now: UTCTime(nanosecondsSinceEpoch: logDay))
        // Then the daemon kept them: edited at its clock's time (100 s + 5 s), not the page's; and no tone sounds
        #expect((kept.hs, kept.body) == (34.205, "Vega"))
        #expect(try f.store.sight(id: id).sight.editedAt == UTCTime(nanosecondsSinceEpoch: 105 * second))
        #expect(f.beeper.played == [])
        // And an unknown sight is refused by the daemon, in words
        await #expect(throws: InputError("no sight with id 999: `marktime sights --all` lists the ids")) {
            _ = try await recorder.setReading(sight: 999, hs: 20, body: nil, now: UTCTime(nanosecondsSinceEpoch: logDay))
        }
        await daemon.shutdown()
        try await running.value
    }

    @Test func anotherProcessAsksTheDaemonToBeepThroughTheDoorbell() async throws {
        // Given the daemon on a real store, with its real doorbell socket
        let f = try DaemonOnFakes()
        defer { f.remove() }
        let (store, daemon, button, beeper) = (f.store, f.daemon, f.button, f.beeper)
        let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
        #expect(try await waitFor { button.started && FileManager.default.fileExists(atPath: Doorbell.path(forStore: store.path)) })
        // When the phone page stores a sight and rings for its tones, and rings for tasks and an alarm too
        let other = DaemonBeeper(store: store.path)
        other.play(.warning)
        Doorbell.ring(store: store.path)
        other.play(.alarm)
        other.play(.ok)
        // Then the daemon plays the sight's tones in order, and neither the task ring nor the alarm
        #expect(try await waitFor { beeper.played == [.warning, .ok] }, "tones \(beeper.played)")
        await daemon.shutdown()
        try await running.value
    }
}
