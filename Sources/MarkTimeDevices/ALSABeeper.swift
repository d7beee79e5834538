import CALSA
import Foundation
import Logging
import MarkTimeCore
import Synchronization

/// Plays tones through ALSA on its own thread, so `play` never blocks.
///
/// The PCM (`sound.device`) is opened once and kept ready, so a beep starts
/// within a period of being asked for. A missing or busy device is logged once
/// and opened again at the next tone; it never stops anything else.
public final class ALSABeeper: Beeper, Sendable {
    public static let sampleRate = 48_000

    let device: String
    let volume: Int
    let logger: Logger
    private let queue = Mutex<Queue>(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    struct Queue {
        var tones: [Tone] = []
        var looping = false
        var stopping = false
        var state = "not opened"
        var failedOnce = false
        var played = 0
    }

    /// Starts the player thread and opens the device.
    public init(device: String, volume: Int, logger: Logger) {
        self.device = device
        self.volume = volume
        self.logger = logger
        let thread = Thread { [self] in self.loop() }
        thread.name = "marktime-alsa"
        thread.start()
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
        wake.signal()
        done.wait()
    }

    private func loop() {
        var pcm: OpaquePointer? = nil
        defer {
            if let pcm { snd_pcm_close(pcm) }
            done.signal()
        }
        pcm = open()
        while true {
            wake.wait()
            while let tone = queue.withLock({ q -> Tone? in q.tones.isEmpty ? nil : q.tones.removeFirst() }) {
                if pcm == nil { pcm = open() }
                guard let p = pcm else { continue }
                if tone.loops { queue.withLock { $0.looping = true } }
                let samples = ToneSynth.render(tone.steps, sampleRate: Self.sampleRate, volume: volume)
                let began = ContinuousClock.now
                var written = 0
                repeat {
                    if !write(samples, to: p) {
                        snd_pcm_close(p)
                        pcm = nil
                        break
                    }
                    // Stay within 100 ms of real time even on a device that does not pace writes.
                    written += samples.count
                    let ahead = Duration.milliseconds(written * 1000 / Self.sampleRate) - (ContinuousClock.now - began)
                    if ahead > .milliseconds(100) { Thread.sleep(forTimeInterval: (ahead - .milliseconds(100)) / .seconds(1)) }
                } while tone.loops && queue.withLock({ $0.looping && $0.tones.isEmpty && !$0.stopping })
                if let p = pcm {
                    snd_pcm_drain(p)
                    snd_pcm_prepare(p)
                    queue.withLock { $0.played += 1 }
                }
            }
            if queue.withLock({ $0.stopping }) { return }
        }
    }

    private func open() -> OpaquePointer? {
        var pcm: OpaquePointer? = nil
        let rc = calsa_open(&pcm, device, UInt32(Self.sampleRate), 50_000)
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
    private func write(_ samples: [Int16], to pcm: OpaquePointer) -> Bool {
        samples.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = snd_pcm_writei(pcm, buffer.baseAddress! + offset, snd_pcm_uframes_t(buffer.count - offset))
                if n >= 0 {
                    offset += Int(n)
                } else if snd_pcm_recover(pcm, Int32(n), 1) < 0 {
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
        let rc = calsa_open(&pcm, device, UInt32(sampleRate), 50_000)
        if let pcm { snd_pcm_close(pcm) }
        return rc < 0 ? String(cString: snd_strerror(rc)) : nil
    }
}
