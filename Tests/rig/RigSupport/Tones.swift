import Foundation

/// 16-bit mono samples, from a WAV file or a capture, and the tones in them.
public struct PCMSamples: Sendable {
    public var rate: Int
    public var samples: [Int16]

    public init(rate: Int, samples: [Int16]) {
        self.rate = rate
        self.samples = samples
    }

    /// Reads a 16-bit mono WAV file.
    public init(wavFile path: String) throws {
        let d = try Data(contentsOf: URL(fileURLWithPath: path))
        func u32(_ at: Int) -> Int { Int(d[at]) | Int(d[at + 1]) << 8 | Int(d[at + 2]) << 16 | Int(d[at + 3]) << 24 }
        // A file still being written may not have its header yet, and its data chunk's size
        // (0, or more than is there) is set when it is closed: read to the end.
        rate = d.count >= 28 ? u32(24) : 0
        var at = 12
        samples = []
        while at + 8 <= d.count {
            let size = u32(at + 4)
            if d[at..<at + 4].elementsEqual("data".utf8) {
                let end = size == 0 ? d.count : min(d.count, at + 8 + size)
                samples = stride(from: at + 8, to: end - 1, by: 2).map { Int16(bitPattern: UInt16(d[$0]) | UInt16(d[$0 + 1]) << 8) }
                break
            }
            at += 8 + size
        }
    }

    /// A stretch of sound: where it starts and ends (samples) and its frequency from zero crossings.
    public struct Burst: Sendable { public var start: Int; public var length: Int; public var hertz: Double }

    /// Runs of sound separated by at least 2 ms of near-silence.
    public func bursts() -> [Burst] {
        let quiet = rate * 2 / 1000
        var out: [Burst] = []
        var start: Int?, lastLoud = 0
        func close() {
            guard let s = start else { return }
            let part = samples[s...lastLoud]
            let crossings = zip(part, part.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
            let length = lastLoud - s + 1
            out.append(Burst(start: s, length: length, hertz: Double(crossings) / 2 / (Double(length) / Double(rate))))
            start = nil
        }
        for (i, v) in samples.enumerated() where abs(Int(v)) > 100 {
            if start != nil, i - lastLoud > quiet { close() }
            if start == nil { start = i }
            lastLoud = i
        }
        close()
        return out
    }

    /// Runs of `frame`-sample frames that each hold a steady `hertz` (zero crossings within
    /// 3 %) at a peak over 1000: where a tone plays inside other sound, such as a beep that
    /// cuts speech off. Each run's first sample and its length in frames.
    public func toneRuns(hertz: Double, frame: Int) -> [(start: Int, frames: Int)] {
        var runs: [(start: Int, frames: Int)] = []
        var at = 0
        while at + frame <= samples.count {
            let part = samples[at..<at + frame]
            let crossings = zip(part, part.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
            let pitch = Double(crossings) / 2 / (Double(frame) / Double(rate))
            let steady = abs(pitch - hertz) < hertz * 0.03 && part.contains { abs(Int($0)) > 1000 }
            if steady {
                if let last = runs.last, last.start + last.frames * frame == at { runs[runs.count - 1].frames += 1 } else { runs.append((at, 1)) }
            }
            at += frame
        }
        return runs
    }

    /// From the first sample over 1000 to the last, inclusive; 0 for silence.
    public var loudSpan: Int {
        guard let first = samples.firstIndex(where: { abs(Int($0)) > 1000 }), let last = samples.lastIndex(where: { abs(Int($0)) > 1000 }) else { return 0 }
        return last - first + 1
    }
}
