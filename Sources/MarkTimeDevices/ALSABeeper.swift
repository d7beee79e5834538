import CALSA
import Foundation
import Logging
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// Plays tones through ALSA on its own thread, so `play` never blocks.
///
/// The PCM (`sound.device`) is opened once and kept ready with a small buffer
/// (`latency`) that starts playing once one period is queued, and every tone is
/// rendered once, at start-up: a beep starts within a period of being asked for. A
/// looping alarm is written a period at a time, so it stops within one buffer of
/// `stop()`. A missing or busy device is logged once and opened again at the next
/// tone; it never stops anything else.
public final class ALSABeeper: Beeper, Sendable {
    public static let sampleRate = 48_000
    /// The PCM's buffer, microseconds.
    public static let latency: UInt32 = 50_000

    let device: String
    let volume: Int
    let logger: Logger
    let rendered: [Tone: [Int16]]
    private let queue = Mutex<Queue>(Queue())
    private let wake: EventFD
    private let thread: PollThread

    struct Queue {
        var tones: [Tone] = []
        var looping = false
        var stopping = false
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

    /// Ends a looping alarm.
    public func stop() {
        queue.withLock { $0.looping = false }
    }

    /// Plays what is queued, then closes the device and ends the thread.
    public func finish() {
        queue.withLock { $0.stopping = true }
        thread.stop()
    }

    private func loop(_ t: PollThread) {
        var pcm: OpaquePointer? = nil
        var period = 240, buffer = 960
        defer {
            if let pcm { snd_pcm_close(pcm) }
        }
        pcm = open(period: &period, buffer: &buffer)
        while true {
            let woke = try? t.wait([wake.fd])
            wake.drain()
            while let tone = queue.withLock({ q -> Tone? in q.tones.isEmpty ? nil : q.tones.removeFirst() }) {
                if pcm == nil { pcm = open(period: &period, buffer: &buffer) }
                guard let p = pcm else { continue }
                if tone.loops { queue.withLock { $0.looping = true } }
                let samples = rendered[tone]!
                let began = ContinuousClock.now
                var written = 0
                var silenced = false
                repeat {
                    // A tone goes in one blocking write, as a whole. The looping alarm goes a period
                    // at a time after a first write that fills the buffer, so it hears `stop()` within
                    // one buffer. Playback starts once a period is queued, at the end of the first write.
                    var offset = 0
                    while offset < samples.count {
                        let n = tone.loops ? min(written == 0 ? buffer : period, samples.count - offset) : samples.count
                        if !write(samples[offset..<offset + n], to: p) {
                            snd_pcm_close(p)
                            pcm = nil
                            break
                        }
                        offset += n
                        written += n
                        if tone.loops, !queue.withLock({ $0.looping && !$0.stopping }) {
                            silenced = true
                            break
                        }
                        // Stay within a buffer and 30 ms of real time on a device that does not pace
                        // writes (a file). A real card blocks first, so this never sleeps there: a sleep
                        // that overshot would drain its buffer and put a gap in the tone.
                        let ahead = Duration.milliseconds(written * 1000 / Self.sampleRate) - (ContinuousClock.now - began)
                        let limit = Duration.microseconds(Self.latency) + .milliseconds(30)
                        if ahead > limit { Thread.sleep(forTimeInterval: (ahead - limit) / .seconds(1)) }
                    }
                } while pcm != nil && !silenced && tone.loops && queue.withLock({ $0.looping && $0.tones.isEmpty && !$0.stopping })
                if let p = pcm {
                    // A silenced alarm is cut off at once. A tone plays to its end, followed by a buffer
                    // of silence before the drain, so a driver that glitches in a drain's last
                    // milliseconds glitches in silence; the ring beyond the data is kept silent too
                    // (calsa_open).
                    if silenced {
                        snd_pcm_drop(p)
                    } else {
                        if !write(ArraySlice(repeatElement(Int16(0), count: buffer)), to: p) {
                            snd_pcm_close(p)
                            pcm = nil
                            continue
                        }
                        snd_pcm_drain(p)
                    }
                    snd_pcm_prepare(p)
                    queue.withLock { $0.played += 1 }
                }
            }
            if woke == .stopped || woke == nil || queue.withLock({ $0.stopping }) { return }
        }
    }

    private func open(period: inout Int, buffer: inout Int) -> OpaquePointer? {
        var pcm: OpaquePointer? = nil
        var periodFrames = snd_pcm_uframes_t(0), bufferFrames = snd_pcm_uframes_t(0)
        let rc = calsa_open(&pcm, device, UInt32(Self.sampleRate), Self.latency, &periodFrames, &bufferFrames)
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
            var offset = 0
            while offset < buffer.count {
                let n = snd_pcm_writei(pcm, buffer.baseAddress! + offset, snd_pcm_uframes_t(buffer.count - offset))
                if n >= 0 {
                    offset += Int(n)
                } else if snd_pcm_recover(pcm, Int32(n), 1) >= 0 {
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
        let rc = calsa_open(&pcm, device, UInt32(sampleRate), latency, &period, &buffer)
        if let pcm { snd_pcm_close(pcm) }
        return rc < 0 ? String(cString: snd_strerror(rc)) : nil
    }
}
