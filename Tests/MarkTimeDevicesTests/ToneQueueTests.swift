import MarkTimeCore
import MarkTimeDevices
import Testing

/// The beeper's queue: a stop ends the looping alarm wherever it is, queued or playing,
/// so `anchor ack` never leaves it looping (a stop before the player took the alarm used
/// to be undone when it did).
@Suite("the beeper's queue")
struct ToneQueueTests {
    @Test func aStopBeforeTheAlarmIsTakenDropsItAndKeepsTheOtherTones() {
        // Given a sight's tone and the alarm queued
        var queue = ToneQueue()
        queue.append(.ok)
        queue.append(.alarm)
        // When the alarm is stopped before the player takes anything
        queue.stopLooping()
        // Then the player takes the sight's tone, and nothing after it
        #expect(queue.next().map { $0.0 } == .ok)
        #expect(queue.next() == nil)
        #expect(!queue.looping)
    }

    @Test func takingTheAlarmMarksItPlayingAndAStopThenEndsIt() {
        // Given the alarm queued for 52,800 samples
        var queue = ToneQueue()
        queue.append(.alarm, frames: 52_800)
        // When the player takes it
        let taken = queue.next()
        // Then it is marked playing, with its length
        #expect(taken?.0 == .alarm && taken?.1 == 52_800)
        #expect(queue.looping)
        // When it is stopped while it plays, then the player's next check ends it
        queue.stopLooping()
        #expect(!queue.looping)
    }

    @Test func aToneThatDoesNotLoopKeepsNoLength() {
        // Given a sight's tone queued with a length
        var queue = ToneQueue()
        queue.append(.ok, frames: 100)
        // When it is taken, then it plays whole and nothing is marked looping
        let taken = queue.next()
        #expect(taken?.0 == .ok && taken?.1 == nil)
        #expect(!queue.looping)
    }
}
