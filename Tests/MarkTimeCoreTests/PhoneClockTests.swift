import MarkTimeCore
import Testing

@Suite("The phone's clock on the Pi's")
struct PhoneClockTests {
    /// A phone whose clock reads 1_800_000_000_000 ms when the Pi's monotonic clock reads 5 s.
    func exchange(sentMs: Int64, rttMs: Int64, phoneAheadMs: Double = 1_799_999_995_000) -> PhoneClockSync.Exchange {
        let sent = sentMs * 1_000_000, received = (sentMs + rttMs) * 1_000_000
        return .init(sentAt: sent, phoneMillis: phoneAheadMs + Double(sentMs) + Double(rttMs) / 2, receivedAt: received)
    }

    @Test func theShortestRoundTripWins() throws {
        // Given three pings with round trips of 40, 12 and 30 ms
        var sync = PhoneClockSync()
        for (sent, rtt) in [(1000, 40), (1200, 12), (1400, 30)] as [(Int64, Int64)] { sync.add(exchange(sentMs: sent, rttMs: rtt)) }
        // Then the 12 ms one is the best
        #expect(sync.best?.roundTrip == 12_000_000)
    }

    @Test func aMarkMapsToTheMonotonicInstantWithHalfTheRoundTrip() throws {
        // Given a best round trip of 12 ms
        var sync = PhoneClockSync()
        sync.add(exchange(sentMs: 1200, rttMs: 12))
        // When the phone says its press was at its 1_800_000_002_000 ms, arriving at monotonic 7.030 s
        let mapped = try sync.instant(ofPhoneMillis: 1_800_000_002_000, receivedAt: 7_030_000_000)
        // Then the press was at monotonic 7.000 s, known to ±6 ms more
        #expect(mapped.nanoseconds == 7_000_000_000)
        #expect(mapped.uncertainty == 0.006)
    }

    @Test func aMarkWithoutSyncIsRefused() throws {
        #expect(throws: PhoneClockSync.Refusal.notSynced) {
            try PhoneClockSync().instant(ofPhoneMillis: 1_800_000_002_000, receivedAt: 7_030_000_000)
        }
    }

    @Test func aMarkFromTheFutureOrLongAgoIsRefused() throws {
        // Given a sync, then a phone clock stepped by 20 s either way
        var sync = PhoneClockSync()
        sync.add(exchange(sentMs: 1200, rttMs: 12))
        #expect(throws: PhoneClockSync.Refusal.outOfWindow(secondsBeforeArrival: -19.97)) {
            try sync.instant(ofPhoneMillis: 1_800_000_022_000, receivedAt: 7_030_000_000)
        }
        #expect(throws: PhoneClockSync.Refusal.outOfWindow(secondsBeforeArrival: 20.03)) {
            try sync.instant(ofPhoneMillis: 1_799_999_982_000, receivedAt: 7_030_000_000)
        }
    }

    @Test("A phone time too large for the monotonic clock is refused, never a crash", arguments: [1e300, -1e300, 1e22, Double.greatestFiniteMagnitude])
    func aPhoneTimeOfAnySizeIsRefused(phoneMillis: Double) throws {
        var sync = PhoneClockSync()
        sync.add(exchange(sentMs: 1200, rttMs: 12))
        #expect(throws: PhoneClockSync.Refusal.self) { try sync.instant(ofPhoneMillis: phoneMillis, receivedAt: 7_030_000_000) }
    }

    @Test func aMarkJustAfterItsArrivalIsTheArrival() throws {
        // Given a best round trip of 12 ms, a press mapped 4 ms after its arrival (inside ±6 ms)
        var sync = PhoneClockSync()
        sync.add(exchange(sentMs: 1200, rttMs: 12))
        let mapped = try sync.instant(ofPhoneMillis: 1_800_000_002_034, receivedAt: 7_030_000_000)
        #expect(mapped.nanoseconds == 7_030_000_000)
    }

    @Test func onlyTheLastEightExchangesCount() throws {
        // Given a 2 ms exchange followed by eight slower ones
        var sync = PhoneClockSync()
        sync.add(exchange(sentMs: 100, rttMs: 2))
        for i in 0..<8 { sync.add(exchange(sentMs: 200 + Int64(i) * 100, rttMs: 20 + Int64(i))) }
        // Then the 2 ms one has aged out
        #expect(sync.best?.roundTrip == 20_000_000)
    }
}

@Suite("Whether the daemon runs")
struct DaemonRunningTests {
    let status = DaemonStatus(pid: 7, bootID: "boot-a", startedAt: 0, heartbeat: 100_000_000_000)

    @Test func aHeartbeatTenSecondsOldIsRunningAndOlderIsNot() {
        #expect(status.isRunning(now: MonotonicInstant(bootID: "boot-a", nanoseconds: 110_000_000_000)))
        #expect(!status.isRunning(now: MonotonicInstant(bootID: "boot-a", nanoseconds: 110_000_000_001)))
    }

    @Test func aStoppedDaemonOrAnotherBootsIsNotRunning() {
        var stopped = status
        stopped.stopped = true
        #expect(!stopped.isRunning(now: MonotonicInstant(bootID: "boot-a", nanoseconds: 100_000_000_000)))
        #expect(!status.isRunning(now: MonotonicInstant(bootID: "boot-b", nanoseconds: 100_000_000_000)))
    }
}
