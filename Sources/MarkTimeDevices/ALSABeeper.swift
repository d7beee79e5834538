import CALSA
import Foundation
import Logging
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// Plays tones through ALSA on its own thread, so `play` never blocks.
///
/// The PCM (`sound.device`) is opened once and kept ready, and every tone is rendered
/// once, at start-up. The buffer holds the longest tone whole: a tone is written into it
/// before playback starts, so however long the system keeps this thread from running, an
/// underrun cannot cut a tone. A looping alarm keeps the buffer full a period at a time,
/// and stops within one period of `stop()`. A missing or busy device is logged once and
/// opened again at the next tone; it never stops anything else. Speech (`speak`) plays
/// between tones, a period at a time, and a tone asked for meanwhile cuts it at once.
public final class ALSABeeper: Beeper, Sendable {
    public static let sampleRate = 48_000
    /// The silence after a tone, before the drain (frames: 50 ms), so that a driver that
    /// glitches in a drain's last milliseconds glitches in silence.
    public static let tail = 2_400
    /// The period asked for, microseconds: how soon a looping alarm hears `stop()`.
    static let periodTime: UInt32 = 10_000
    /// The latency asked for from a device that refuses a buffer the size of a tone.
    static let fallbackLatency: UInt32 = 50_000

    let device: String
    let volume: Int
    let logger: Logger
    let rendered: [Tone: [Int16]]
    /// The buffer asked for, microseconds: the longest tone that does not loop, with its tail.
    let bufferTime: UInt32
    private let queue = Mutex<Queue>(Queue())
    private let wake: EventFD
    private let thread: PollThread

    struct Queue {
        var tones = ToneQueue()
        /// Speech waiting, 48 kHz mono; the newest few.
        var speech: [[Int16]] = []
        var spoken = 0, cut = 0
        var stopping = false
        /// `hush()`: no speech from now on.
        var hushed = false
        var state = "not opened"
        var failedOnce = false
        var played = 0
    }

    /// Starts the player thread and opens the device.
    public init(device: String, volume: Int, logger: Logger) throws(DeviceError) {
        self.device = device
        self.volume = volume
        self.logger = logger
        rendered = Dictionary(uniqueKeysWithValues: Tone.allCases.map {
            ($0, ToneSynth.render($0.steps, sampleRate: Self.sampleRate, volume: volume))
        })
        let longest = rendered.filter { !$0.key.loops }.values.map(\.count).max() ?? 0
        bufferTime = UInt32((longest + Self.tail) * 1_000_000 / Self.sampleRate)
        do {
            wake = try EventFD()
            thread = try PollThread(name: "marktime-alsa")
        } catch { throw DeviceError(error) }
        thread.start { [self] t in loop(t) }
    }

    /// `ready on DEVICE`, or why not.
    public var state: String { queue.withLock { $0.state } }

    /// How many tones were written to the device in full.
    public var played: Int { queue.withLock { $0.played } }

    public func play(_ tone: Tone) {
        queue.withLock { $0.tones.append(tone) }
        wake.signal()
    }

    /// Plays a looping tone for exactly `frames` samples (cut wherever that falls in its
    /// cycle), unless `stop()` comes first: a length counted in samples, not in time.
    public func play(_ tone: Tone, frames: Int) {
        queue.withLock { $0.tones.append(tone, frames: frames) }
        wake.signal()
    }

    /// Plays `samples` (48 kHz mono) once no tone is waiting; a tone asked for while they
    /// play cuts them off within a period. At most 3 wait; older ones are dropped.
    public func speak(_ samples: [Int16]) {
        queue.withLock {
            guard !$0.hushed else { return }
            $0.speech.append(samples)
            if $0.speech.count > 3 { $0.speech.removeFirst() }
        }
        wake.signal()
    }

    /// Speech played to its end, and speech a tone cut off.
    public var speechCounts: (spoken: Int, cut: Int) { queue.withLock { ($0.spoken, $0.cut) } }

    /// Ends a looping alarm, playing or still queued.
    public func stop() {
        queue.withLock { $0.tones.stopLooping() }
    }

    /// Plays what is queued, then closes the device and ends the thread.
    public func finish() {
        queue.withLock { $0.stopping = true }
        thread.stop()
    }

    /// Cuts off the speech playing, drops what waits, and says nothing more: the daemon's
    /// stop, which a sentence of up to 20 s must not hold up. Tones still play.
    public func hush() {
        queue.withLock {
            $0.hushed = true
            $0.speech.removeAll()
        }
        wake.signal()
    }

    private func loop(_ t: PollThread) {
        var pcm: OpaquePointer? = nil
        var period = 480, buffer = 2_400
        defer {
            if let pcm { snd_pcm_close(pcm) }
        }
        pcm = open(period: &period, buffer: &buffer)
        while true {
            let woke = try? t.wait([wake.fd])
            wake.drain()
            playQueued(&pcm, period: &period, buffer: &buffer, on: t)
            if woke == .stopped || woke == nil || queue.withLock({ $0.stopping }) { return }
        }
    }

    /// Every tone queued, then speech while no tone waits, until neither is left.
    private func playQueued(_ pcm: inout OpaquePointer?, period: inout Int, buffer: inout Int, on t: PollThread) {
        while true {
            playTones(&pcm, period: &period, buffer: &buffer)
            guard let samples = queue.withLock({ $0.speech.isEmpty ? nil : $0.speech.removeFirst() }) else { return }
            if pcm == nil { pcm = open(period: &period, buffer: &buffer) }
            guard let p = pcm else { continue }
            switch settle(say(samples, on: p, period: period, buffer: buffer, thread: t), &pcm) {
            case .silenced: queue.withLock { $0.cut += 1 }
            case .whole: queue.withLock { $0.spoken += 1 }
            case .lost: break
            }
        }
    }

    /// The device after a sound: closed when lost; cut off at once when silenced; else
    /// drained (the tail of silence is queued, and the ring beyond it kept silent too,
    /// `calsa_open`). Prepared again for the next either way; the outcome passed on.
    private func settle(_ outcome: Outcome, _ pcm: inout OpaquePointer?) -> Outcome {
        guard let p = pcm else { return outcome }
        switch outcome {
        case .lost:
            snd_pcm_close(p)
            pcm = nil
        case .silenced:
            snd_pcm_drop(p)
            snd_pcm_prepare(p)
        case .whole:
            snd_pcm_drain(p)
            snd_pcm_prepare(p)
        }
        return outcome
    }

    /// Writes speech a period at a time (the first fill at most a buffer), stopping as soon
    /// as a tone waits; then its tail of silence, and waits for it to play out on the
    /// player's own wake-up, not in a drain, so a tone asked for then is not held up either.
    private func say(_ samples: [Int16], on p: OpaquePointer, period: Int, buffer: Int, thread t: PollThread) -> Outcome {
        let all = samples + repeatElement(0, count: Self.tail)
        let cut = { self.queue.withLock { !$0.tones.tones.isEmpty || $0.hushed } }
        var position = 0
        while position < all.count {
            if cut() { return .silenced }
            let n = min(position == 0 ? buffer : period, all.count - position)
            // Room is waited for on the player's own wake-up, not in a blocking write: a tone
            // asked for meanwhile cuts the speech at once, not a period later.
            let room = position == 0 ? n : Int(snd_pcm_avail_update(p))
            if room >= 0, room < n {
                let ms = max(1, (n - room) * 1000 / Self.sampleRate)
                if case .ready? = try? t.wait([wake.fd], timeout: .milliseconds(ms)) {
                    wake.drain()
                    continue
                }
            }
            guard write(all[position..<position + n], to: p) else { return .lost }
            if position == 0 { calsa_start(p) }
            position += n
        }
        while true {
            if cut() { return .silenced }
            var delay = snd_pcm_sframes_t(0)
            guard snd_pcm_delay(p, &delay) >= 0, delay > 0 else { return .whole }
            switch try? t.wait([wake.fd], timeout: .milliseconds(max(1, Int(delay) * 1000 / Self.sampleRate))) {
            // Finishing: the drain plays it out.
            case .stopped?, nil: return .whole
            case .ready?: wake.drain()
            case .timedOut?: continue
            }
        }
    }

    private func playTones(_ pcm: inout OpaquePointer?, period: inout Int, buffer: inout Int) {
        while let (tone, limit) = queue.withLock({ $0.tones.next() }) {
            if pcm == nil { pcm = open(period: &period, buffer: &buffer) }
            guard let p = pcm else { continue }
            if settle(play(tone, limit: limit, on: p, period: period, buffer: buffer), &pcm) != .lost { queue.withLock { $0.played += 1 } }
        }
    }

    enum Outcome { case whole, silenced, lost }

    /// Writes a tone and its tail: the first buffer-full before playback starts, the rest a
    /// period at a time for a looping tone (checking for `stop()`), or at once for a tone.
    private func play(_ tone: Tone, limit: Int?, on p: OpaquePointer, period: Int, buffer: Int) -> Outcome {
        let cycle = rendered[tone]!
        // A tone's frames, then its tail; a looping tone's cycle again and again, up to its limit.
        let total = tone.loops ? limit : cycle.count + Self.tail
        func frames(_ from: Int, _ count: Int) -> [Int16] {
            (from..<from + count).map { i in tone.loops ? cycle[i % cycle.count] : i < cycle.count ? cycle[i] : 0 }
        }
        let began = ContinuousClock.now
        var position = 0
        while total.map({ position < $0 }) ?? true {
            let chunk = position == 0 ? buffer : tone.loops ? period : .max
            let n = min(chunk, (total ?? .max) - position)
            guard write(frames(position, n)[...], to: p) else { return .lost }
            if position == 0 { calsa_start(p) }
            position += n
            if tone.loops, !queue.withLock({ $0.tones.looping && (limit != nil || !$0.stopping) }) { return .silenced }
            // Stay within a buffer and 30 ms of real time on a device that does not pace
            // writes (a file). A real card blocks first, so this never sleeps there.
            let ahead = Duration.milliseconds(position * 1000 / Self.sampleRate) - (ContinuousClock.now - began)
            let most = Duration.milliseconds(buffer * 1000 / Self.sampleRate) + .milliseconds(30)
            if ahead > most { Thread.sleep(forTimeInterval: (ahead - most) / .seconds(1)) }
        }
        if tone.loops {
            // A limited alarm ends with the tail of silence too.
            guard write(ArraySlice(repeatElement(Int16(0), count: Self.tail)), to: p) else { return .lost }
        }
        return .whole
    }

    private func open(period: inout Int, buffer: inout Int) -> OpaquePointer? {
        var pcm: OpaquePointer? = nil
        var periodFrames = snd_pcm_uframes_t(0), bufferFrames = snd_pcm_uframes_t(0)
        let rc = calsa_open(&pcm, device, UInt32(Self.sampleRate), bufferTime, Self.periodTime, Self.fallbackLatency, &periodFrames, &bufferFrames)
        if rc >= 0, periodFrames > 0, bufferFrames >= periodFrames {
            period = Int(periodFrames)
            buffer = Int(bufferFrames)
        }
        guard rc >= 0, let pcm else {
            let reason = String(cString: snd_strerror(rc))
            let first = queue.withLock { q in
                q.state = "cannot open \(device): \(reason)"
                defer { q.failedOnce = true }
                return !q.failedOnce
            }
            if first {
                logger.warning("sound device unavailable; will retry at the next tone", metadata: ["device": "\(device)", "error": "\(reason)"])
            }
            return nil
        }
        queue.withLock { $0.state = "ready on \(device)"; $0.failedOnce = false }
        return pcm
    }

    /// Writes every sample, recovering from underruns. False when the device is gone.
    private func write(_ samples: ArraySlice<Int16>, to pcm: OpaquePointer) -> Bool {
        samples.withUnsafeBufferPointer { buffer in
            var offset = 0, recovered = false
            while offset < buffer.count {
                let n = snd_pcm_writei(pcm, buffer.baseAddress! + offset, snd_pcm_uframes_t(buffer.count - offset))
                if n > 0 {
                    offset += Int(n)
                    // A recovered stream is prepared, not running, and only `calsa_start` starts
                    // it (its start threshold is the boundary): started again once it holds sound,
                    // or the next write would wait on a full ring for ever.
                    if recovered {
                        calsa_start(pcm)
                        recovered = false
                    }
                } else if n == 0 {
                    // A blocking write that took nothing: the device is stuck, not busy.
                    queue.withLock { $0.state = "lost \(device): it takes no samples" }
                    logger.warning("sound device takes no samples; will reopen it", metadata: ["device": "\(device)"])
                    return false
                } else if snd_pcm_recover(pcm, Int32(n), 1) >= 0 {
                    recovered = true
                    // The buffer ran dry before this thread refilled it: the tone has a gap.
                    if n == -snd_pcm_sframes_t(EPIPE) { logger.notice("sound underrun: a gap in the tone", metadata: ["device": "\(device)"]) }
                } else {
                    let reason = String(cString: snd_strerror(Int32(n)))
                    queue.withLock { $0.state = "lost \(device): \(reason)" }
                    logger.warning("sound device failed; will reopen it", metadata: ["device": "\(device)", "error": "\(reason)"])
                    return false
                }
            }
            return true
        }
    }

    /// Opens `device` and closes it again: nil when it works, else why not.
    public static func probe(device: String) -> String? {
        var pcm: OpaquePointer? = nil
        var period = snd_pcm_uframes_t(0), buffer = snd_pcm_uframes_t(0)
        let rc = calsa_open(&pcm, device, UInt32(sampleRate), fallbackLatency, periodTime, fallbackLatency, &period, &buffer)
        if let pcm { snd_pcm_close(pcm) }
        return rc < 0 ? String(cString: snd_strerror(rc)) : nil
    }
}

/// The player's queue of tones. A looping tone is marked playing in the same step that
/// takes it, so a `stopLooping()` at any moment ends it: queued, taken, or playing.
public struct ToneQueue: Sendable {
    /// Tones to play; a looping one with the frames it stops after (nil: until stopped).
    public private(set) var tones: [(tone: Tone, frames: Int?)] = []
    /// Whether a looping tone taken from the queue may go on.
    public private(set) var looping = false

    public init() {}

    /// Queues `tone`; a looping one for `frames` samples when given.
    public mutating func append(_ tone: Tone, frames: Int? = nil) {
        tones.append((tone, tone.loops ? frames : nil))
    }

    /// The next tone to play, with its frames.
    public mutating func next() -> (Tone, Int?)? {
        guard !tones.isEmpty else { return nil }
        let (tone, frames) = tones.removeFirst()
        if tone.loops { looping = true }
        return (tone, frames)
    }

    /// Ends the looping tone being played, and drops any still queued.
    public mutating func stopLooping() {
        looping = false
        tones.removeAll { $0.tone.loops }
    }
}
