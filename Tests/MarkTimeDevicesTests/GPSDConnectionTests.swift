import MarkTimeCore
import MarkTimeDevices
import Testing

/// The gpsd client's decisions, played through whole outages with no time passing: what it
/// waits, what the status says, and what is logged. That they are carried out on a real
/// gpsd (a refused port, a gpsd stopped with SIGSTOP, one restarted) is GPSDTests'.
@Suite("the gpsd connection's waits and words")
struct GPSDConnectionTests {
    static let address = "localhost:2947"
    static func at(_ seconds: Int64) -> MonotonicInstant { MonotonicInstant(bootID: "b", nanoseconds: seconds * 1_000_000_000) }

    @Test func anAbsentGpsdIsTriedAgainAfterOneSecondDoublingToThirtyAndLoggedOnce() {
        // Given a connection to a gpsd that is not there
        var c = GPSDConnection(address: Self.address, silence: .seconds(5))
        // When seven connections are refused
        let refused = (0..<7).map { _ in c.refused() }
        // Then it waits 1, 2, 4, 8, 16, 30 and 30 s, the status counts the tries, and only the first is logged
        #expect(refused.map(\.wait) == [1, 2, 4, 8, 16, 30, 30].map { .seconds($0) })
        #expect(refused.map { $0.said?.state } == [
            "waiting for gpsd at localhost:2947 (tried once, again in 1 s)",
            "waiting for gpsd at localhost:2947 (tried 2 times, again in 2 s)",
            "waiting for gpsd at localhost:2947 (tried 3 times, again in 4 s)",
            "waiting for gpsd at localhost:2947 (tried 4 times, again in 8 s)",
            "waiting for gpsd at localhost:2947 (tried 5 times, again in 16 s)",
            "waiting for gpsd at localhost:2947 (tried 6 times, again in 30 s)",
            "waiting for gpsd at localhost:2947 (tried 7 times, again in 30 s)",
        ])
        #expect(refused.map { $0.said?.logged } == [true, false, false, false, false, false, false])
    }

    @Test func aGpsdIsConnectedOnlyOnceItReportsAndAnAcceptedConnectionStartsTheCountAgain() {
        // Given two refused connections
        var c = GPSDConnection(address: Self.address, silence: .seconds(5))
        _ = c.refused()
        _ = c.refused()
        // When gpsd accepts one
        let accepted = c.accepted()
        // Then it is waiting for the first report, for the silence's 5 s, and that is logged
        #expect(accepted.said == .init(state: "connected localhost:2947, waiting for gpsd's first report", logged: true))
        #expect(accepted.firstReportWithin == .seconds(5))
        // When gpsd reports, twice
        // Then it is connected, said and logged once
        #expect(c.reported() == .init(state: "connected localhost:2947", logged: true))
        #expect(c.reported() == nil)
        // When the connection breaks, then that is said and logged, and a refusal after it waits 1 s, the first try
        #expect(c.lost() == .init(state: "lost gpsd at localhost:2947", logged: true))
        let refused = c.refused()
        #expect(refused.wait == .seconds(1))
        #expect(refused.said == .init(state: "waiting for gpsd at localhost:2947 (tried once, again in 1 s)", logged: true))
    }

    @Test func aSilentGpsdIsReportedOnceAndWatchedAgainAfterTwiceTheSilenceDoublingToAMinute() {
        // Given a connected gpsd that reported, with a 5 s silence
        var c = GPSDConnection(address: Self.address, silence: .seconds(5))
        _ = c.accepted()
        _ = c.reported()
        // When it says nothing for 5 s, and then each new connection says nothing
        var reports: [GPSReport?] = [c.silent(since: Self.at(100))]
        var waits: [Duration] = [], said: [GPSDConnection.Said?] = []
        for _ in 0..<5 {
            let accepted = c.accepted()
            said.append(accepted.said)
            waits.append(accepted.firstReportWithin)
            reports.append(c.silent(since: Self.at(100)))
        }
        // Then the silence is reported once, from when gpsd last spoke; each reconnection
        // says nothing and waits 10, 20, 40, 60 and 60 s for a first report
        #expect(reports == [.silent(since: Self.at(100), address: Self.address), nil, nil, nil, nil, nil])
        #expect(said == [nil, nil, nil, nil, nil])
        #expect(waits == [10, 20, 40, 60, 60].map { .seconds($0) })
        // When gpsd reports again, then it is connected, and that is logged afresh
        #expect(c.reported() == .init(state: "connected localhost:2947", logged: true))
        // And a later silence waits twice the silence again, not a minute
        #expect(c.silent(since: Self.at(200)) == .silent(since: Self.at(200), address: Self.address))
        #expect(c.accepted().firstReportWithin == .seconds(10))
    }

    @Test func aGpsdRestartedAfterASilenceIsSaidWaitingAgain() {
        // Given a gpsd that fell silent after waiting had already been logged once
        var c = GPSDConnection(address: Self.address, silence: .seconds(5))
        _ = c.refused()
        _ = c.accepted()
        _ = c.reported()
        _ = c.silent(since: Self.at(100))
        // When its port then refuses (it is restarting)
        let refused = c.refused()
        // Then the status says it is waiting, logged again, and the silence is over: the next
        // connection waits the silence's 5 s and says it is waiting for the first report
        #expect(refused.said == .init(state: "waiting for gpsd at localhost:2947 (tried once, again in 1 s)", logged: true))
        #expect(c.silentSince == nil)
        let accepted = c.accepted()
        #expect(accepted.firstReportWithin == .seconds(5))
        #expect(accepted.said?.state == "connected localhost:2947, waiting for gpsd's first report")
    }
}
