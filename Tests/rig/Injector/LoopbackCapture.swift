import CALSA
import Foundation
import RigSupport

/// Records what the daemon plays into snd-aloop, from the loopback's capture side
/// (`hw:Loopback,1`), with the CLOCK_MONOTONIC time of every sample.
///
/// It opens first, at 48 kHz mono S16_LE, so the daemon's playback on
/// `plughw:Loopback,0` is held to the same format.
final class LoopbackCapture: @unchecked Sendable {
    static let rate = 48_000
    private let pcm: OpaquePointer
    private let lock = NSLock()
    private var samples: [Int16] = []
    /// (index of a chunk's last sample, its capture time in monotonic ns).
    private var marks: [(index: Int, nanoseconds: Int64)] = []
    private var stopping = false
    /// Each time the capture was restarted after an error: the sample count then, when, and why.
    private var restarts: [(index: Int, nanoseconds: Int64, error: String)] = []
    private let finished = DispatchSemaphore(value: 0)
    /// The capture ring's size in frames. Near the end of a playback stream snd-aloop may
    /// advance the capture pointer for a few milliseconds without writing: the reader
    /// then gets the ring's old content, exactly one ring earlier.
    private let ring: Int
    /// The ring's length in nanoseconds: a tone that starts exactly one ring after another
    /// would be taken for a re-read of it, so presses that must be heard keep further apart.
    var ringNanoseconds: Int64 { Int64(ring) * 1_000_000_000 / Int64(Self.rate) }
    private var staleCount = 0
    /// How many bursts were left out as stale re-reads.
    var staleBursts: Int { lock.withLock { staleCount } }

    init(device: String = "hw:Loopback,1") throws {
        var p: OpaquePointer?
        var rc = snd_pcm_open(&p, device, SND_PCM_STREAM_CAPTURE, 0)
        guard rc >= 0, let p else { throw RigError("cannot capture from \(device): \(String(cString: snd_strerror(rc))) (is snd-aloop loaded?)") }
        // A one-second buffer: a reader starved under an emulated CPU must not overrun and lose samples.
        rc = snd_pcm_set_params(p, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(Self.rate), 0, 1_000_000)
        guard rc >= 0 else { throw RigError("cannot set 48 kHz mono on \(device): \(String(cString: snd_strerror(rc)))") }
        // snd-aloop's capture answers EIO to a read that would start it: start it here.
        var ringFrames = snd_pcm_uframes_t(0), periodFrames = snd_pcm_uframes_t(0)
        rc = snd_pcm_get_params(p, &ringFrames, &periodFrames)
        guard rc >= 0 else { throw RigError("cannot read the capture buffer size on \(device): \(String(cString: snd_strerror(rc)))") }
        ring = Int(ringFrames)
        rc = snd_pcm_start(p)
        guard rc >= 0 else { throw RigError("cannot start capturing on \(device): \(String(cString: snd_strerror(rc)))") }
        pcm = p
        let thread = Thread { [self] in self.loop() }
        thread.name = "rig-capture"
        thread.start()
        guard eventually(within: 5, { lock.withLock { !samples.isEmpty } }) else {
            throw RigError("nothing captured from \(device) in 5 s: \(summary)")
        }
    }

    private func loop() {
        defer { finished.signal() }
        var chunk = [Int16](repeating: 0, count: 240)
        while !lock.withLock({ stopping }) {
            let n = chunk.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, 240) }
            if n < 0 {
                lock.withLock { restarts.append((samples.count, monotonicNow(), String(cString: snd_strerror(Int32(n))))) }
                // EIO comes when the playback side stops: prepare and start again.
                snd_pcm_drop(pcm)
                if snd_pcm_prepare(pcm) < 0 || snd_pcm_start(pcm) < 0 { Thread.sleep(forTimeInterval: 0.01) }
                continue
            }
            var delay = snd_pcm_sframes_t(0)
            if snd_pcm_delay(pcm, &delay) < 0 { delay = 0 }
            let now = monotonicNow()
            lock.withLock {
                samples.append(contentsOf: chunk[0..<Int(n)])
                marks.append((samples.count - 1, now - Int64(delay) * 1_000_000_000 / Int64(Self.rate)))
            }
        }
    }

    /// What has been captured so far, for a failure's message.
    var summary: String {
        lock.withLock {
            let loudest = samples.map { abs(Int($0)) }.max() ?? 0
            return "\(samples.count) samples, loudest \(loudest), last chunk at \(marks.last?.nanoseconds ?? 0) ns, now \(monotonicNow()) ns"
                + (restarts.isEmpty ? "" : ", restarted after " + restarts.suffix(8).map { "\($0.error) at sample \($0.index) (\($0.nanoseconds) ns)" }.joined(separator: "; "))
        }
    }

    func stop() {
        lock.withLock { stopping = true }
        finished.wait()
        snd_pcm_close(pcm)
    }

    /// The monotonic time of sample `i`, from the chunk that holds it.
    func time(ofSample i: Int) -> Int64 {
        var lo = 0, hi = marks.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if marks[mid].index < i { lo = mid + 1 } else { hi = mid }
        }
        let m = marks[lo]
        return m.nanoseconds - Int64(m.index - i) * 1_000_000_000 / Int64(Self.rate)
    }

    /// The first sample captured at or after monotonic `t`.
    private func index(atOrAfter t: Int64) -> Int? {
        guard let m = marks.first(where: { $0.nanoseconds >= t }) else { return nil }
        var i = m.index
        while i > 0, time(ofSample: i - 1) >= t { i -= 1 }
        return i
    }

    /// A tone heard after `t`: its bursts (start times in monotonic ns), once `window`
    /// seconds of sound after its first loud sample have been captured.
    struct Heard {
        var start: Int64
        var bursts: [(start: Int64, burst: PCMSamples.Burst)]
        /// Bursts left out because every sample repeats the one a ring earlier: snd-aloop's
        /// stale re-read, not sound that was played.
        var stale: [(start: Int64, burst: PCMSamples.Burst)] = []
    }

    /// Waits up to `timeout` seconds for sound after monotonic `t`.
    func tone(after t: Int64, window: Double = 0.5, timeout: Double = 10) -> Heard? {
        sound(after: t, window: window, timeout: timeout).map { start, pcm in
            var heard = Heard(start: time(ofSample: start), bursts: [])
            for b in pcm.bursts() {
                let timed = (time(ofSample: start + b.start), b)
                if isStale(from: start + b.start, count: b.length) {
                    heard.stale.append(timed)
                    lock.withLock { staleCount += 1 }
                } else {
                    heard.bursts.append(timed)
                }
            }
            return heard
        }
    }

    /// Whether samples `from..<from + count` are exactly the ones a ring earlier.
    private func isStale(from: Int, count: Int) -> Bool {
        lock.withLock {
            guard from >= ring, from + count <= samples.count else { return false }
            return (from..<from + count).allSatisfy { samples[$0] == samples[$0 - ring] }
        }
    }

    /// `window` seconds of capture from the first loud sample after monotonic `t`,
    /// and that sample's index; waits up to `timeout` seconds for them. Each pass
    /// copies only new samples under the lock and scans them outside it, so a long
    /// wait cannot starve the capture thread.
    func sound(after t: Int64, window: Double, timeout: Double = 10) -> (start: Int, pcm: PCMSamples)? {
        let deadline = Date().addingTimeInterval(timeout)
        let length = Int(window * Double(Self.rate))
        var scanned: Int?, loud: Int?
        while Date() < deadline {
            if let loud {
                let pcm: PCMSamples? = lock.withLock {
                    loud + length <= samples.count ? PCMSamples(rate: Self.rate, samples: Array(samples[loud..<(loud + length)])) : nil
                }
                if let pcm { return (loud, pcm) }
            } else {
                let fresh: (Int, [Int16])? = lock.withLock {
                    guard let from = scanned ?? index(atOrAfter: t) else { return nil }
                    return (from, Array(samples[from...]))
                }
                if let (from, chunk) = fresh {
                    loud = chunk.firstIndex { abs(Int($0)) > 1000 }.map { from + $0 }
                    scanned = from + chunk.count
                    if loud != nil { continue }
                }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// Waits until more than one ring (and 200 ms) has passed since monotonic `t`: a tone
    /// after that cannot be taken for a stale re-read of one before it (`isStale`).
    func waitOutRing(since t: Int64) {
        while monotonicNow() < t + ringNanoseconds + 200_000_000 { Thread.sleep(forTimeInterval: 0.05) }
    }

    /// Waits up to `timeout` seconds for `window` seconds of silence after monotonic
    /// `t`; the time the silence began. Scans new samples outside the lock.
    func quiet(after t: Int64, window: Double = 0.3, timeout: Double = 10) -> Int64? {
        let deadline = Date().addingTimeInterval(timeout)
        let length = Int(window * Double(Self.rate))
        var scanned: Int?, run = 0
        while Date() < deadline {
            let fresh: (Int, [Int16])? = lock.withLock {
                guard let from = scanned ?? index(atOrAfter: t) else { return nil }
                return (from, Array(samples[from...]))
            }
            if let (from, chunk) = fresh {
                for (i, v) in chunk.enumerated() {
                    run = abs(Int(v)) > 1000 ? 0 : run + 1
                    if run == length { return lock.withLock { time(ofSample: from + i - length + 1) } }
                }
                scanned = from + chunk.count
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// What was captured after monotonic `t`: samples, and the loudest.
    func after(_ t: Int64) -> String {
        lock.withLock {
            guard let from = index(atOrAfter: t) else { return "nothing captured after \(t) (last mark \(marks.last?.nanoseconds ?? 0))" }
            return "\(samples.count - from) samples after \(t), loudest \(samples[from...].map { abs(Int($0)) }.max() ?? 0)"
        }
    }

}

/// CLOCK_MONOTONIC now, in nanoseconds.
func monotonicNow() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}
