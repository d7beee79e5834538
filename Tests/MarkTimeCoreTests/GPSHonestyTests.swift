import MarkTimeCore
import Testing

/// What the core makes of gpsd losing its fix or going silent, and of a `mark` asked
/// through the doorbell (#45).
@Suite("The core, honest about the GPS, and marks asked of the daemon")
struct GPSHonestyTests {
    let at11 = MonotonicInstant(bootID: "boot-a", nanoseconds: 11 * second)

    @Test func aNoFixReportMarksTheFixLostAndAPressStoresNoPosition() {
        // Given a core with a 3D fix received at 10 s
        var core = startedCore()
        // When gpsd reports mode 1 at 10.5 s
        let said = core.handle(.noFix(mode: 1, at: 10 * second + 500_000_000))
        // Then the fix is kept as lost since 10.5 s, said once, and a press at 11 s stores no position
        #expect(core.fix?.lost == FixLoss(since: MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second + 500_000_000), mode: 1))
        #expect(said.messages == ["GPS fix lost: gpsd reports no fix"])
        #expect(core.handle(.noFix(mode: 1, at: 11 * second)).isEmpty)
        let sight = core.handle(.input(keyDown(11 * second), clock: nil)).inserts.first
        #expect(sight?.position == nil)
        #expect(sight?.fixMode == nil)
        // And the published status says so
        #expect(core.status(now: 12 * second).fix?.lost?.mode == 1)
    }

    @Test func aNoFixReportStopsGPSTimeAtOnce() {
        // Given a core stamping from GPS time to 10 s
        var core = startedCore()
        // When gpsd reports mode 1 at 10.5 s, and a press comes at 11 s (GPS's last sample is 1 s old)
        _ = core.handle(.noFix(mode: 1, at: 10 * second + 500_000_000))
        let clock = sample(.unsynced, mono: 11 * second, utc: 99 * second, nil)
        let sight = core.handle(.input(keyDown(11 * second), clock: clock)).inserts.first
        // Then the press is not stamped from gps, and status publishes no gps sample
        #expect(sight?.estimate.source == .unsynced)
        #expect(core.status(now: 11 * second).clock?.source == .unsynced)
        // When GPS time comes again with a fix
        _ = core.handle(.clock(sample(.gps, mono: 12 * second, utc: logDay + 12 * second, 0.5)))
        // Then it counts again
        #expect(core.handle(.input(keyDown(12 * second + 100_000_000), clock: nil)).inserts.first?.estimate.source == .gps)
    }

    @Test func aGpsdThatIsGoneStopsGPSTimeAtOnce() {
        var core = startedCore()
        _ = core.handle(.noFix(mode: 0, at: 10 * second + 500_000_000))
        let clock = sample(.unsynced, mono: 11 * second, utc: 99 * second, nil)
        #expect(core.handle(.input(keyDown(11 * second), clock: clock)).inserts.first?.estimate.source == .unsynced)
    }

    @Test func aJumpInGPSTimeIsLoggedInWords() {
        // Given GPS time to 10 s
        var core = startedCore()
        // When the next second's sample is 1,075 s on
        let said = core.handle(.clock(sample(.gps, mono: 11 * second, utc: logDay + 1086 * second, 0.5)))
        // Then the jump is logged as a warning, in words, and GPS is set aside: its time disagrees with the time carried
        #expect(said.messages == ["gps time jumped: it moved +1076.000 s while the monotonic clock moved +1.000 s, +1075.000 s off where "
                + "at most ±1.000 s is possible; a new run starts, and no stamp is interpolated or carried across the jump",
            "gps time disagrees with the time carried from gps at 2007-04-08T09:53:05.000Z: it is +1075.000 s off where at most ±1.000 s "
                + "is possible; gps is set aside (stamps are carried, nothing is re-stamped from it) until it agrees again or "
                + "`marktime clock trust-gps` accepts it"])
    }

    @Test func aRefusedRestampIsLoggedOncePerSight() {
        // Given a sight whose better stamp would move it 3 s, past its ±0.5 s
        var core = startedCore()
        let stored = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5)
        let candidate = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay + 3 * second), source: .pps, uncertainty: 0.000001)
        let refused = RefusedRestamp(sight: 4, stored: stored, candidate: candidate, moved: 3)
        // When the backfill reports it twice
        let first = core.handle(.restampRefused([refused]))
        let again = core.handle(.restampRefused([refused]))
        // Then it is logged once, with the figures
        #expect(first.messages == ["sight not re-stamped: the better stamp would move it +3.000 s (its stamp says ±0.500 s), more than "
                + "its stated uncertainty, so one of the two clocks is wrong; the sight keeps its stamp"])
        #expect(again.isEmpty)
    }

    @Test("A listed position shows its fix's age from 2 s", arguments: [
        (nil as Double?, "27° 22'.84 S  153° 22'.84 E"), (0.25, "27° 22'.84 S  153° 22'.84 E"),
        (1.99, "27° 22'.84 S  153° 22'.84 E"), (2, "27° 22'.84 S  153° 22'.84 E (fix 2 s old)"),
        (12.4, "27° 22'.84 S  153° 22'.84 E (fix 12 s old)"),
    ])
    func aListedPositionShowsAStaleFixsAge(age: Double?, shown: String) {
        var sight = Sight(instant: at11, estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .gps, uncertainty: 0.5),
                          createdAt: UTCTime(nanosecondsSinceEpoch: logDay))
        #expect(sight.positionSummary == "no fix")
        (sight.position, sight.fixAge) = (testFix.position, age)
        #expect(sight.positionSummary == shown)
    }

    @Test func aNewFixAfterTheLossIsCurrentAgain() {
        var core = startedCore()
        _ = core.handle(.noFix(mode: 1, at: 10 * second + 500_000_000))
        var fresh = testFix
        fresh.receivedAt = at11
        // gpsd's TPV with a fix carries its time too
        _ = core.handle(.fix(fresh))
        _ = core.handle(.clock(sample(.gps, mono: 11 * second, utc: logDay + 11 * second, 0.5)))
        #expect(core.fix?.lost == nil)
        #expect(core.handle(.input(keyDown(11 * second), clock: nil)).inserts.first?.fixMode == 3)
    }

    @Test func theLastKnownPositionStillServesTheSkyButNotASightOrAPlace() throws {
        var fix = testFix
        fix.lost = FixLoss(since: at11, mode: 1)
        let now = MonotonicInstant(bootID: "boot-a", nanoseconds: 15 * second)
        #expect(fix.refusal(for: .sky, at: now) == nil)
        #expect(fix.refusal(for: .ship, at: now) == nil)
        #expect(fix.refusal(for: try .sight(Settings()), at: now) == .lost(FixLoss(since: at11, mode: 1)))
        let status = DaemonStatus(pid: 1, bootID: "boot-a", startedAt: 0, heartbeat: 15 * second, fix: fix)
        #expect(throws: InputError("--here needs a current GPS fix, and gpsd has reported no fix (mode 1) for 4 s; give --position POS")) {
            try DaemonStatus.freshPosition(status, now: now, use: try .place(Settings()), what: "--here", instead: "--position POS")
        }
    }

    @Test func aSilentGpsdStopsCountingForNewStampsAndComesBackWhenItSpeaks() {
        // Given GPS time from 0 to 10 s and a fix at 10 s
        var core = startedCore()
        // When gpsd has said nothing since 10 s, and that is found at 15 s
        let said = core.handle(.gpsdSilent(since: 10 * second, address: "localhost:2947"))
        // Then it is logged once, the fix is lost (mode 0), and status counts the silence
        #expect(said.messages == ["GPS fix lost: gpsd is gone or silent", "gpsd is silent; its time and fix no longer count, reconnecting"])
        #expect(core.handle(.gpsdSilent(since: 10 * second, address: "localhost:2947")).isEmpty)
        #expect(core.fix?.lost?.mode == 0)
        #expect(core.status(now: 17 * second).gpsd == "silent for 7 s at localhost:2947; reconnecting")
        // And a press at 15 s is not stamped from gps, though its last sample is within 10 s
        let clock = sample(.unsynced, mono: 15 * second, utc: 99 * second, nil)
        #expect(core.handle(.input(keyDown(15 * second), clock: clock)).inserts.first?.estimate.source == .unsynced)
        // When gpsd speaks again
        _ = core.handle(.gpsd("connected localhost:2947"))
        _ = core.handle(.clock(sample(.gps, mono: 16 * second, utc: logDay + 16 * second, 0.5)))
        // Then gps counts again, and status says connected
        #expect(core.handle(.input(keyDown(16 * second), clock: nil)).inserts.first?.estimate.source == .gps)
        #expect(core.status(now: 17 * second).gpsd == "connected localhost:2947")
    }

    @Test func aMarkAskedThroughTheDoorbellIsStampedFromTheTrackAndAnsweredOnceStored() {
        // Given a core with GPS time and a fix
        var core = startedCore()
        // When `marktime mark` asks for a press at 10.25 s, from socket "00abcd"
        let instant = MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second + 250_000_000)
        let asked = core.handle(.doorbell(.mark(instant, note: "Sun LL"), from: "00abcd", now: 10 * second + 300_000_000))
        // Then one insert: marked by the CLI, with its note, GPS time and the fix, as a button press
        #expect(asked.count == 1)
        let sight = asked.inserts.first
        #expect(sight?.trigger == .cli)
        #expect(sight?.note == "Sun LL")
        #expect(sight?.estimate.source == .gps)
        #expect(sight?.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + 10 * second + 250_000_000))
        #expect(sight?.position == testFix.position)
        // When the store has it: the ok tone, the log line, and the answer with its id
        var stored = sight!
        stored.id = 42
        let done = core.handle(.stored(stored, timing: nil))
        #expect(done.tones == [.ok])
        #expect(done.last == .answer(.stored(42), to: "00abcd"))
        // And nothing is answered twice
        #expect(!core.handle(.stored(stored, timing: nil)).contains(.answer(.stored(42), to: "00abcd")))
    }

    @Test func aPhoneMarkIsStampedFromTheTrackWithHalfItsRoundTripAdded() throws {
        // Given a core with GPS time (±0.5 s) and a fix
        var core = startedCore()
        // When the page asks for a phone's MARK placed at 10.25 s by a sync whose best round trip was 80 ms
        let instant = MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second + 250_000_000)
        let asked = core.handle(.doorbell(.phoneMark(instant, roundTrip: 80_000_000), from: "00beef", now: 10 * second + 300_000_000))
        // Then one insert: marked by the phone, GPS time at that instant, ±(0.5, 0.25 s at 100 ppm, 40 ms), the round trip named, the fix
        let sight = try #require(asked.inserts.first)
        #expect(asked.count == 1)
        #expect(sight.trigger == .phone)
        #expect(sight.estimate.source == .gps)
        #expect(sight.estimate.utc == UTCTime(nanosecondsSinceEpoch: logDay + 10 * second + 250_000_000))
        let uncertainty = try #require(sight.estimate.uncertainty)
        #expect(abs(uncertainty - 0.540025) < 1e-12)
        #expect(sight.estimate.provenance?.phoneRoundTrip == 0.08)
        #expect(sight.position == testFix.position)
        // When the store has it, then the ok tone and the answer with its id
        var stored = sight
        stored.id = 43
        let done = core.handle(.stored(stored, timing: nil))
        #expect(done.tones == [.ok])
        #expect(done.last == .answer(.stored(43), to: "00beef"))
    }

    @Test func aPhoneMarkFromAnotherBootIsRefused() {
        var core = startedCore()
        let other = MonotonicInstant(bootID: "boot-z", nanoseconds: 10 * second)
        #expect(core.handle(.doorbell(.phoneMark(other, roundTrip: 1_000_000), from: "00ab", now: 10 * second))
                == [.answer(.refused("the press is from boot boot-z, the daemon runs in boot-a"), to: "00ab")])
    }

    @Test func aMarkTheStoreRefusesIsAnsweredPendingAfterItIsKept() {
        var core = startedCore()
        let instant = MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second)
        let sight = core.handle(.doorbell(.mark(instant, note: nil), from: "00ab", now: 10 * second)).inserts[0]
        let failed = core.handle(.storeFailed(sight, reason: "disk I/O error"))
        #expect(failed.first == .keepPending(sight))
        #expect(failed.last == .answer(.pending("disk I/O error"), to: "00ab"))
    }

    @Test func aMarkFromAnotherBootOrWithNoClockIsRefused() {
        var core = startedCore()
        let other = MonotonicInstant(bootID: "boot-z", nanoseconds: 10 * second)
        #expect(core.handle(.doorbell(.mark(other, note: nil), from: "00ab", now: 10 * second))
                == [.answer(.refused("the press is from boot boot-z, the daemon runs in boot-a"), to: "00ab")])
        var bare = DaemonCore(configuration: try! .init(settings: Settings()))
        _ = bare.handle(.started(bootID: "boot-a", now: 0, track: [], pending: []))
        #expect(bare.handle(.doorbell(.mark(MonotonicInstant(bootID: "boot-a", nanoseconds: second), note: nil), from: "00ab", now: second))
                == [.answer(.refused("the daemon has no clock sample"), to: "00ab")])
    }

    @Test("A mark's text reads back with its note, newlines and all; answers read back", arguments: [
        DoorbellMessage.mark(MonotonicInstant(bootID: "b0d1", nanoseconds: 123_456_789), note: nil),
        .mark(MonotonicInstant(bootID: "b0d1", nanoseconds: 5), note: "Sun LL\nsecond line"),
        .mark(MonotonicInstant(bootID: "b0d1", nanoseconds: 5), note: ""),
        .phoneMark(MonotonicInstant(bootID: "b0d1", nanoseconds: 123_456_789), roundTrip: 80_000_000),
        .phoneMark(MonotonicInstant(bootID: "b0d1", nanoseconds: 0), roundTrip: 60_000_000_000),
    ])
    func aMarkReadsBack(message: DoorbellMessage) {
        #expect(DoorbellMessage(message.text) == message)
    }

    @Test func answersReadBack() {
        for answer in [MarkAnswer.stored(7), .pending("disk I/O error"), .refused("no clock")] {
            #expect(MarkAnswer(answer.text) == answer)
        }
        #expect(MarkAnswer("stored seven") == nil)
        #expect(DoorbellMessage("mark b0d1") == nil)
    }

    @Test("A phone mark that is not whole, or whose round trip is negative or over a minute, is no message", arguments: [
        "phone b0d1 5", "phone b0d1 5 80 9", "phone  5 80", "phone b0d1 -5 80", "phone b0d1 5 -1", "phone b0d1 5 60000000001", "phone b0d1 5 8e7",
    ])
    func aBrokenPhoneMarkIsNoMessage(text: String) {
        #expect(DoorbellMessage(text) == nil)
    }
}

/// The kernel clock's error after chrony stops updating it.
@Suite("The kernel clock's error, kept and running free")
struct KernelClockErrorTests {
    @Test func whileChronyUpdatesTheEstimateStands() {
        // Given readings a second apart, chrony setting maxerror back to 0.1 s every 4 s
        var error = KernelClockError()
        var seen: [Double] = []
        for k in 0..<12 {
            let maxError = 0.1 + KernelClockError.growthPerSecond * Double(k % 4)
            seen.append(error.uncertainty(estimated: 0.0024, maxError: maxError, at: Int64(k) * 1_000_000_000))
        }
        // Then the uncertainty is the estimate plus at most three seconds of growth
        #expect(seen.map { (($0 - 0.0024) * 1e6).rounded() } == [0, 500, 1000, 1500, 0, 500, 1000, 1500, 0, 500, 1000, 1500])
    }

    @Test func onceUpdatesStopTheGrowthIsAdded() {
        // Given an update at 0 s, then none: the kernel adds 500 µs a second
        var error = KernelClockError()
        _ = error.uncertainty(estimated: 0.0024, maxError: 0.1, at: 0)
        var last = 0.0
        for s in 1...60 { last = error.uncertainty(estimated: 0.0024, maxError: 0.1 + 0.0005 * Double(s), at: Int64(s) * 1_000_000_000) }
        // Then a minute later the clock may be off by 32.4 ms, not 2.4
        #expect((last * 1e6).rounded() == 32_400)
    }

    @Test func anUpdateThatRaisesTheMaximumStartsAgain() {
        var error = KernelClockError()
        _ = error.uncertainty(estimated: 0.001, maxError: 0.1, at: 0)
        _ = error.uncertainty(estimated: 0.001, maxError: 0.1005, at: 1_000_000_000)
        // chrony's next update sets 0.2 s: more than a second's growth, so an update
        #expect(error.uncertainty(estimated: 0.003, maxError: 0.2, at: 2_000_000_000) == 0.003)
    }
}
