import MarkTimeCore
import Testing

/// A core like `startedCore`, with voice memos on (`memo.device`): a hold of 1 s, a limit of 60 s.
func memoCore() -> DaemonCore {
    var s = Settings()
    s.set("memo.device", .string("plughw:1,0"))
    var core = DaemonCore(configuration: try! .init(settings: s, pid: 7, buttonDevice: "/dev/input/marktime", trackSaveInterval: 600))
    _ = core.handle(.started(bootID: "boot-a", now: 0, track: [], pending: []))
    for t in Int64(0)...10 { _ = core.handle(.clock(sample(.gps, mono: t * second, utc: logDay + t * second, 0.5))) }
    return core
}

func keyUp(_ ns: Int64, code: UInt16 = 28) -> InputEvent { InputEvent(type: 1, code: code, value: 0, nanoseconds: ns) }

extension [DaemonCore.Action] {
    var memos: [MemoCommand] { compactMap { if case .memo(let m) = $0 { m } else { nil } } }
}

@Suite("Voice memos: a press held into a memo")
struct MemoTests {
    let press = MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second)

    @Test func aSightsKeyDownStartsTheCaptureAfterItsInsert() {
        // Given a core with memos on
        var core = memoCore()
        // When the key goes down
        let actions = core.handle(.input(keyDown(10 * second), clock: nil))
        // Then the sight is inserted first, then the capture starts for its press
        #expect(actions.count == 2)
        #expect(actions.inserts.map(\.instant) == [press])
        #expect(actions.last == .memo(.start(press)))
    }

    @Test func aKeyUpBeforeTheHoldDropsTheCapture() {
        var core = memoCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        // When the key comes up 0.999 s later
        let actions = core.handle(.input(keyUp(11 * second - 1_000_000), clock: nil))
        // Then what was captured is thrown away, and nothing is said
        #expect(actions == [.memo(.discard)])
        #expect(core.memoHold?.down == nil)
    }

    @Test func aKeyUpAfterTheHoldKeepsTheMemoWithHowLongItWasHeld() {
        var core = memoCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        // When the key comes up 2.5 s later
        let actions = core.handle(.input(keyUp(12 * second + 500_000_000), clock: nil))
        // Then the memo is kept for that press
        #expect(actions == [.memo(.keep(MemoKeep(press: press, held: 2.5, limit: 60)))])
    }

    @Test func aKeyHeldBeyondTheLimitKeepsTheFirstSixtySecondsAndSaysSo() {
        var core = memoCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        let actions = core.handle(.input(keyUp(82 * second + 400_000_000), clock: nil))
        #expect(actions.memos == [.keep(MemoKeep(press: press, held: 72.4, limit: 60))])
        #expect(actions.messages == ["the button was held 72.4 s, longer than the memo's limit of 60 s (memo.max_s): its first 60 s are kept; raise memo.max_s for longer memos"])
    }

    @Test func anotherKeysUpAndAutorepeatLeaveTheCaptureRunning() {
        var core = memoCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        #expect(core.handle(.input(InputEvent(type: 1, code: 28, value: 2, nanoseconds: 10 * second + 600_000_000), clock: nil)).isEmpty)
        #expect(core.handle(.input(keyUp(11 * second, code: 29), clock: nil)).isEmpty)
        #expect(core.memoHold?.down == MemoHold.Down(code: 28, press: press))
    }

    @Test func anotherKeysPressWhileAMemoRecordsIsASightAndTheMemoGoesOn() {
        var core = memoCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        // When another key goes down and up while the first is held
        let next = core.handle(.input(InputEvent(type: 1, code: 29, value: 1, nanoseconds: 10 * second + 500_000_000), clock: nil))
        let up = core.handle(.input(keyUp(11 * second, code: 29), clock: nil))
        // Then it is a sight of its own, and starts and ends no capture
        #expect(next.inserts.map(\.instant) == [MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second + 500_000_000)])
        #expect(next.memos.isEmpty)
        #expect(up.isEmpty)
        // And the first key's up keeps the memo for the first press
        #expect(core.handle(.input(keyUp(12 * second), clock: nil)) == [.memo(.keep(MemoKeep(press: press, held: 2, limit: 60)))])
    }

    @Test func theSameKeyDownAgainWithItsUpLostStartsAfresh() {
        var core = memoCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        let again = core.handle(.input(keyDown(12 * second), clock: nil))
        #expect(again.memos == [.discard, .start(MonotonicInstant(bootID: "boot-a", nanoseconds: 12 * second))])
    }

    @Test func eventsLostWhileAMemoRecordsDropItAndSaySo() {
        var core = memoCore()
        _ = core.handle(.input(keyDown(10 * second), clock: nil))
        let actions = core.handle(.inputDropped(at: 11 * second, clock: nil))
        #expect(actions.memos == [.discard])
        #expect(actions.messages.first == "voice memo not kept: the button's events were lost while it recorded (the kernel's buffer overflowed)")
    }

    @Test func withoutAMemoDeviceAPressStartsNoCapture() {
        var core = startedCore()
        let actions = core.handle(.input(keyDown(10 * second + 250_000_000), clock: nil))
        #expect(actions.memos.isEmpty)
        #expect(core.handle(.input(keyUp(12 * second), clock: nil)).isEmpty)
    }

    @Test func aKeptMemoIsConfirmedByTheEnteredToneAndLogged() {
        var core = memoCore()
        let memo = SightMemo(sightID: 12, sampleRate: 16_000, frames: 134_400, cut: false, data: Array(repeating: 0, count: 61_400),
                             createdAt: UTCTime(nanosecondsSinceEpoch: logDay))
        let actions = core.handle(.memo(.kept(memo)))
        #expect(actions == [.beep(.entered), .log(LogLine(.notice, "voice memo kept with sight 12: 8.4 s, FLAC 16 kHz, 61 KB",
                                                          ["sight": "12", "frames": "134400", "bytes": "61400"]))])
    }

    @Test func aMemoNotKeptSoundsTheRefusedToneAndSaysWhy() {
        var core = memoCore()
        let reason = "the capture device hw:9 is missing (No such file or directory): plug the microphone in, or set memo.device to one that `arecord -L` lists"
        #expect(core.handle(.memo(.failed(reason))) == [.beep(.refused), .log(LogLine(.warning, "voice memo not kept: " + reason))])
    }

    @Test func aMemoCutAtTheLimitSaysSoInItsSummary() {
        let memo = SightMemo(sightID: 3, sampleRate: 16_000, frames: 960_000, cut: true, data: Array(repeating: 0, count: 400), createdAt: UTCTime(nanosecondsSinceEpoch: 0))
        #expect(memo.summary == "60.0 s, FLAC 16 kHz, 1 KB, cut at the limit")
        #expect(memo.seconds == 60)
    }
}

@Suite("Voice memos: what the capture thread is asked")
struct MemoAsksTests {
    let first = MonotonicInstant(bootID: "boot-a", nanoseconds: 10 * second)
    let next = MonotonicInstant(bootID: "boot-a", nanoseconds: 12 * second)

    @Test func aCaptureRecordsUntilItsEndIsAskedThenEndsOnce() {
        var asks = MemoAsks()
        asks.ask(.start(first))
        #expect(asks.step(1) == .record)
        let keep = MemoKeep(press: first, held: 1.5, limit: 60)
        asks.ask(.keep(keep))
        #expect(asks.step(1) == .end(.keep(keep)))
        #expect(asks.step(1) == .record)
    }

    @Test func aKeyUpAndTheNextPressBeforeTheThreadLooksStillKeepTheFirst() {
        // Given a capture for the first press
        var asks = MemoAsks()
        asks.ask(.start(first))
        // When its keep and the next press's start are both asked before the thread looks
        let keep = MemoKeep(press: first, held: 1.5, limit: 60)
        asks.ask(.keep(keep))
        asks.ask(.start(next))
        // Then the first capture ends as asked, and the next one records
        #expect(asks.step(1) == .end(.keep(keep)))
        #expect(asks.generation == 2)
        #expect(asks.press == next)
        #expect(asks.step(2) == .record)
    }

    @Test func aCaptureWithNoEndAskedIsSupersededByTheNextPress() {
        var asks = MemoAsks()
        asks.ask(.start(first))
        asks.ask(.start(next))
        #expect(asks.step(1) == .superseded)
        #expect(asks.step(2) == .record)
    }

    @Test func anEndWithNoCaptureAskedIsIgnored() {
        var asks = MemoAsks()
        asks.ask(.discard)
        asks.ask(.start(first))
        #expect(asks.step(1) == .record)
    }
}
