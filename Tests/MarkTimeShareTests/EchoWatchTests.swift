import MarkTimeCore
import MarkTimePlaces
import MarkTimeShare
import Testing

/// When the boat's own messages count as dropped by the broker: only on evidence.
@Suite("The boat's echo: dropped only on evidence")
struct EchoWatchTests {
    let second: Int64 = 1_000_000_000
    /// The boat's clock when the broker acknowledged its card.
    let acked = UTCTime(year: 2026, month: 11, day: 23, hour: 12)!
    let card = Array(#"{"_type":"card","name":"boat","tid":"BT"}"#.utf8)

    /// A watch whose card the broker acknowledged at monotonic 100 s.
    func watching() -> EchoWatch {
        var watch = EchoWatch()
        watch.acknowledged(card, at: 100 * second, time: acked)
        return watch
    }

    func seconds(after time: UTCTime, _ s: Int64) -> UTCTime { UTCTime(nanosecondsSinceEpoch: time.nanosecondsSinceEpoch + s * second) }

    @Test("A backlog of friends' older messages, a message every second for five minutes, is no evidence: nothing is flagged")
    func aSlowBacklogIsNotADrop() {
        // Given the boat's card acknowledged
        var watch = watching()
        // When for 300 s the broker hands over a backlog of friends' QoS 1 messages, sent
        // before the card, one a second, with a heartbeat after each
        var flagged: [Int64] = []
        for k in Int64(1)...300 {
            watch.arrived(at: (100 + k) * second, sent: seconds(after: acked, -3_600 + k))
            if watch.check(at: (100 + k) * second + second / 2) { flagged.append(k) }
        }
        // Then nothing was flagged
        #expect(flagged == [])
        #expect(!watch.missing)
        // And when the card comes back at last, there was nothing to clear
        let cleared = watch.echoed(card, at: 401 * second)
        #expect(!cleared)
        #expect(watch.awaiting == nil)
    }

    @Test("A friend's QoS 1 message sent after the acknowledgement arrives, and the card has not: flagged at the next heartbeat")
    func newerTrafficWithoutTheEchoIsADrop() {
        // Given the boat's card acknowledged
        var watch = watching()
        // When a friend's message sent 301 s after the acknowledgement (by the phone's clock,
        // which may be 300 s ahead) arrives 2 s later
        watch.arrived(at: 102 * second, sent: seconds(after: acked, 301))
        // Then the next heartbeat flags it, once
        let flagged = watch.check(at: 103 * second)
        #expect(flagged)
        #expect(watch.missing)
        let again = watch.check(at: 104 * second)
        #expect(!again)
    }

    @Test("A message the phone's clock may have stamped ahead (300 s), or no QoS 1 message, is no evidence")
    func aMessageThatMayBeOlderIsNoEvidence() {
        // Given the boat's card acknowledged
        var watch = watching()
        // When a friend's message stamped exactly 300 s after it arrives, and a QoS 0 or retained one (sent nil)
        watch.arrived(at: 102 * second, sent: seconds(after: acked, 300))
        watch.arrived(at: 103 * second, sent: nil)
        // Then the heartbeat flags nothing
        let flagged = watch.check(at: 104 * second)
        #expect(!flagged)
        #expect(!watch.missing)
    }

    @Test("Nothing at all from the broker for 20 s after the acknowledgement: its queue is empty, and the card is flagged")
    func silenceAfterTheAcknowledgementIsADrop() {
        // Given the boat's card acknowledged at 100 s, and a friend's older message at 105 s
        var watch = watching()
        watch.arrived(at: 105 * second, sent: seconds(after: acked, -60))
        // When the heartbeats come at 125 s and at 125 s and 1 ns
        // Then only the second, over 20 s after the last message, flags it
        let atTwenty = watch.check(at: 125 * second)
        #expect(!atTwenty)
        let past = watch.check(at: 125 * second + 1)
        #expect(past)
    }

    @Test("A card that comes back after it was flagged clears the flag, once; the same card acknowledged again is not awaited")
    func theEchoClearsTheFlag() {
        // Given the card flagged as dropped
        var watch = watching()
        let flagged = watch.check(at: 121 * second)
        #expect(flagged)
        // When it comes back
        // Then the flag ends, once
        let back = watch.echoed(card, at: 122 * second)
        #expect(back)
        #expect(!watch.missing)
        let backAgain = watch.echoed(card, at: 123 * second)
        #expect(!backAgain)
        // And the same card acknowledged again (it came back last) is not awaited
        watch.acknowledged(card, at: 124 * second, time: acked)
        #expect(watch.awaiting == nil)
    }

    @Test("A disconnection forgets what was awaited: the evidence starts again on the next connection")
    func aDisconnectionStartsAgain() {
        // Given a card awaited, and a friend's newer message seen
        var watch = watching()
        watch.arrived(at: 102 * second, sent: seconds(after: acked, 400))
        // When the connection ends before the heartbeat
        watch.disconnected()
        // Then nothing is flagged
        let flagged = watch.check(at: 200 * second)
        #expect(!flagged)
        #expect(watch.awaiting == nil && !watch.overtaken && !watch.missing)
    }

    @Test("A location's and a transition's tst are when they were sent; a card has none")
    func whenAMessageWasSent() throws {
        let fix = GeoFix(position: try Position(latitude: -27.38, longitude: 153.38), error: 12, time: acked)
        #expect(OwnTracks.Incoming.location(fix).sent == acked)
        #expect(OwnTracks.Incoming.transition(place: "Home", kind: .enter, fix: fix).sent == acked)
        #expect(OwnTracks.Incoming.card(name: "Anna").sent == nil)
        #expect(OwnTracks.Incoming.ignored(type: "lwt").sent == nil)
    }
}
