import MarkTimeCore
import Testing

@Suite("The button filter")
struct ButtonFilterTests {
    let ms: Int64 = 1_000_000

    func key(_ value: Int32, at t: Int64, code: UInt16 = 28) -> InputEvent {
        InputEvent(type: InputEvent.keyType, code: code, value: value, nanoseconds: t)
    }

    @Test func aKeyDownMarksAtTheKernelsInstant() {
        var f = ButtonFilter(debounceMilliseconds: 30)
        #expect(f.handle(key(1, at: 5_000 * ms + 123)) == .mark(5_000 * ms + 123))
    }

    @Test func keyUpAutorepeatAndSyncAreIgnored() {
        var f = ButtonFilter(debounceMilliseconds: 30)
        #expect(f.handle(key(0, at: 1 * ms)) == .ignore(.keyUp))
        #expect(f.handle(key(2, at: 2 * ms)) == .ignore(.autorepeat))
        #expect(f.handle(InputEvent(type: 0, code: 0, value: 0, nanoseconds: 3 * ms)) == .ignore(.notAKey))
    }

    @Test func aHeldKeyMarksOnce() {
        // Given a key held down: one key-down, then autorepeats, then key-up
        var f = ButtonFilter(debounceMilliseconds: 30)
        let events = [key(1, at: 0)] + (1...10).map { key(2, at: 250 * ms + Int64($0) * 33 * ms) } + [key(0, at: 900 * ms)]
        // Then exactly one mark, at the first edge
        #expect(events.map { f.handle($0) }.filter { if case .mark = $0 { true } else { false } } == [.mark(0)])
    }

    @Test func aBounceWithinTheWindowIsDroppedAndTheFirstEdgeKeepsItsTime() {
        var f = ButtonFilter(debounceMilliseconds: 30)
        #expect(f.handle(key(1, at: 100 * ms)) == .mark(100 * ms))
        #expect(f.handle(key(0, at: 102 * ms)) == .ignore(.keyUp))
        #expect(f.handle(key(1, at: 105 * ms)) == .ignore(.bounce))
        #expect(f.handle(key(1, at: 129 * ms)) == .ignore(.bounce))
    }

    @Test func aPressAfterTheWindowMarks() {
        var f = ButtonFilter(debounceMilliseconds: 30)
        _ = f.handle(key(1, at: 100 * ms))
        #expect(f.handle(key(1, at: 130 * ms)) == .mark(130 * ms))
    }

    @Test func theWindowRunsFromTheLastAcceptedPressNotTheLastBounce() {
        var f = ButtonFilter(debounceMilliseconds: 30)
        _ = f.handle(key(1, at: 0))
        #expect(f.handle(key(1, at: 20 * ms)) == .ignore(.bounce))
        #expect(f.handle(key(1, at: 40 * ms)) == .mark(40 * ms))
    }

    @Test func latencyCompensationIsSubtracted() {
        var f = ButtonFilter(debounceMilliseconds: 30, latencyCompensationMilliseconds: 5)
        #expect(f.handle(key(1, at: 1_000 * ms)) == .mark(995 * ms))
    }
}

@Suite("Tone synthesis")
struct ToneSynthTests {
    @Test func theOKBeepIsTwo80msPipsWith60msBetween() {
        #expect(Tone.ok.steps == [ToneStep(2000, 80), ToneStep(0, 60), ToneStep(2000, 80)])
        let samples = ToneSynth.render(Tone.ok.steps, sampleRate: 48_000, volume: 100)
        #expect(samples.count == 48 * 220)
        #expect(samples[(48 * 80)..<(48 * 140)].allSatisfy { $0 == 0 })
    }

    @Test func edgesRampFromSilence() {
        let samples = ToneSynth.render([ToneStep(1000, 10)], sampleRate: 48_000, volume: 100)
        #expect(samples.first == 0)
        #expect(samples.last == 0)
    }

    @Test func volumeScalesThePeak() {
        let loud = ToneSynth.render([ToneStep(1000, 100)], sampleRate: 48_000, volume: 100).map { abs(Int($0)) }.max()
        let half = ToneSynth.render([ToneStep(1000, 100)], sampleRate: 48_000, volume: 50).map { abs(Int($0)) }.max()
        #expect(loud == Int((0.9 * Double(Int16.max)).rounded()))
        #expect(half == Int((0.45 * Double(Int16.max)).rounded()))
    }

    @Test func onlyTheAlarmLoops() {
        #expect(Tone.allCases.filter(\.loops) == [.alarm])
    }
}
