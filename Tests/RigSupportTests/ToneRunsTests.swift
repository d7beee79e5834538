import Foundation
import RigSupport
import Testing

/// Finding a steady tone inside other sound (a beep that cuts speech off), and how long a sound is.
@Suite("Tones inside other sound")
struct ToneRunsTests {
    /// `ms` of a sine at `hertz`, 48 kHz, at `peak`.
    func sine(_ hertz: Double, ms: Int, peak: Double = 20_000) -> [Int16] {
        (0..<(48 * ms)).map { Int16(peak * Foundation.sin(2 * Double.pi * hertz * Double($0) / 48_000)) }
    }

    /// A deterministic noise, loud, with no steady pitch.
    func noise(ms: Int) -> [Int16] {
        var x: UInt32 = 12345
        return (0..<(48 * ms)).map { _ in x = x &* 1_103_515_245 &+ 12_345; return Int16(truncatingIfNeeded: Int(x >> 16) - 32_768) / 2 }
    }

    @Test func aDoubleBeepAfterNoiseIsTwoRunsOfItsPitch() {
        // Given 300 ms of noise, then 80 ms of 2 kHz, 60 ms of silence, 80 ms of 2 kHz, 50 ms of silence
        let pcm = PCMSamples(rate: 48_000, samples: noise(ms: 300) + sine(2000, ms: 80) + [Int16](repeating: 0, count: 48 * 60) + sine(2000, ms: 80)
                                + [Int16](repeating: 0, count: 48 * 50))
        // When runs of 2 kHz in 10 ms frames are found
        let runs = pcm.toneRuns(hertz: 2000, frame: 480)
        // Then there are the two notes, 8 frames each, where they begin; and no run in the noise
        #expect(runs.map(\.start) == [14_400, 21_120])
        #expect(runs.map(\.frames) == [8, 8])
        #expect(pcm.toneRuns(hertz: 1000, frame: 480).isEmpty)
    }

    @Test func aQuietToneIsNoRun() {
        #expect(PCMSamples(rate: 48_000, samples: sine(2000, ms: 80, peak: 900)).toneRuns(hertz: 2000, frame: 480).isEmpty)
    }

    @Test func theLoudSpanRunsFromTheFirstLoudSampleToTheLast() {
        let samples = [Int16](repeating: 0, count: 100) + [2000] + [Int16](repeating: 500, count: 50) + [-1500] + [Int16](repeating: 0, count: 10)
        #expect(PCMSamples(rate: 48_000, samples: samples).loudSpan == 52)
        #expect(PCMSamples(rate: 48_000, samples: [0, 999, -999]).loudSpan == 0)
    }
}
