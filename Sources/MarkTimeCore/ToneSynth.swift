import Foundation

/// One part of a tone: a frequency (0 for silence) held for a duration.
public struct ToneStep: Hashable, Sendable {
    public var hertz: Double
    public var milliseconds: Int

    public init(_ hertz: Double, _ milliseconds: Int) {
        self.hertz = hertz
        self.milliseconds = milliseconds
    }
}

extension Tone {
    /// The pattern of each tone. The ok beep is a double 2 kHz pip; the failure
    /// is a long low buzz; the alarm is one cycle, repeated until stopped; the chime
    /// (reminders) is two rising notes.
    public var steps: [ToneStep] {
        switch self {
        case .ok: [ToneStep(2000, 80), ToneStep(0, 60), ToneStep(2000, 80)]
        case .warning: [ToneStep(1000, 120), ToneStep(0, 80), ToneStep(1000, 120), ToneStep(0, 80), ToneStep(1000, 120)]
        case .failure: [ToneStep(400, 1000)]
        case .alarm: [ToneStep(2500, 250), ToneStep(1800, 250)]
        case .chime: [ToneStep(880, 200), ToneStep(0, 40), ToneStep(1320, 300)]
        case .entered: [ToneStep(1200, 60), ToneStep(0, 40), ToneStep(1600, 60), ToneStep(0, 40), ToneStep(2000, 60)]
        case .refused: [ToneStep(700, 200), ToneStep(0, 40), ToneStep(500, 300)]
        }
    }

    /// Whether it repeats until stopped.
    public var loops: Bool { self == .alarm }
}

/// Renders tones as 16-bit mono PCM.
public enum ToneSynth {
    /// Samples for `steps` at `sampleRate`, at `volume` percent of full scale,
    /// with 3 ms ramps at each edge so the speaker does not click.
    public static func render(_ steps: [ToneStep], sampleRate: Int, volume: Int) -> [Int16] {
        let amplitude = Double(max(0, min(100, volume))) / 100 * 0.9 * Double(Int16.max)
        let ramp = sampleRate * 3 / 1000
        var out: [Int16] = []
        for step in steps {
            let n = sampleRate * step.milliseconds / 1000
            guard step.hertz > 0 else {
                out += repeatElement(0, count: n)
                continue
            }
            for i in 0..<n {
                let envelope = Double(min(i, n - 1 - i, ramp)) / Double(max(ramp, 1))
                let phase = 2 * Double.pi * step.hertz * Double(i) / Double(sampleRate)
                out.append(Int16((amplitude * min(1, envelope) * sin(phase)).rounded()))
            }
        }
        return out
    }
}

extension ToneSynth {
    /// `samples` at `from` Hz made `to` Hz, each new sample linearly between its two
    /// neighbours (speech at eSpeak NG's 22,050 Hz for the player's 48 kHz).
    public static func resample(_ samples: [Int16], from: Int, to: Int) -> [Int16] {
        guard from > 0, to > 0, !samples.isEmpty else { return [] }
        guard from != to else { return samples }
        let count = Int((Int64(samples.count) * Int64(to) + Int64(from) - 1) / Int64(from))
        return (0..<count).map { i in
            let x = Double(i) * Double(from) / Double(to)
            let j = Int(x), f = x - Double(j)
            let a = Double(samples[min(j, samples.count - 1)]), b = Double(samples[min(j + 1, samples.count - 1)])
            return Int16((a + (b - a) * f).rounded())
        }
    }
}
