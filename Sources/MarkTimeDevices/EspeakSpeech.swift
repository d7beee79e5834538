import CEspeak
import Foundation
import Logging
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// Says sentences through eSpeak NG (Debian's libespeak-ng) and the ALSA player.
///
/// Text is synthesised on a thread of its own (a sentence takes a Pi tens of
/// milliseconds), made 48 kHz at `sound.volume`, and handed to the player, which plays it
/// between tones: a press's beep cuts it off, and never waits for it. A failure (no
/// espeak-ng-data, an unknown voice) is logged once and named in `state`.
public final class EspeakSpeech: Speaker, Sendable {
    let voice: String
    let volume: Int
    let player: ALSABeeper
    let logger: Logger
    /// Words a minute: a little slower than eSpeak NG's 175, for a noisy deck.
    public static let wordsPerMinute: Int32 = 150
    /// The longest sentence said, in seconds of speech; a longer one is cut there.
    public static let longest = 20
    private let texts = Mutex<(waiting: [String], state: String)>(([], "not started"))
    private let wake: EventFD
    private let thread: PollThread
    /// eSpeak NG is not thread-safe: every call goes through here, with its sample rate
    /// once started (0: not yet) and the voice chosen.
    private static let engine = Mutex<(rate: Int32, voice: String)>((0, ""))

    public init(voice: String, volume: Int, player: ALSABeeper, logger: Logger) throws(DeviceError) {
        (self.voice, self.volume, self.player, self.logger) = (voice, volume, player, logger)
        do {
            wake = try EventFD()
            thread = try PollThread(name: "marktime-speech")
        } catch { throw DeviceError(error) }
        // Started here, before the daemon's other threads: eSpeak NG sets the process's
        // LC_CTYPE as it starts. A failure is said at the first sentence.
        _ = try? Self.engine.withLock { e throws(InputError) in try Self.start(&e, voice: voice) }
        thread.start { [self] t in loop(t) }
    }

    public func say(_ text: String) {
        texts.withLock {
            $0.waiting.append(text)
            if $0.waiting.count > 3 { $0.waiting.removeFirst() }
        }
        wake.signal()
    }

    /// `ready`, or why speech is not heard.
    public var state: String { texts.withLock { $0.state } }

    public func stop() { thread.stop() }

    /// Drops the sentences waiting and cuts off the one playing.
    public func hush() {
        texts.withLock { $0.waiting.removeAll() }
        player.hush()
    }

    private func loop(_ t: PollThread) {
        var failed = false
        while true {
            let woke = try? t.wait([wake.fd])
            wake.drain()
            if woke == .stopped || woke == nil { return }
            while let text = texts.withLock({ $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }) {
                do {
                    player.speak(try Self.render(text, voice: voice, volume: volume))
                    texts.withLock { $0.state = "ready" }
                } catch {
                    texts.withLock { $0.state = error.description }
                    // Once: the same failure would follow every sentence.
                    if !failed { logger.warning("speech unavailable: its confirmations are tones", metadata: ["reason": "\(error.description)"]) }
                    failed = true
                    // Never silence where a confirmation was due: the entered tone instead.
                    player.play(.entered)
                }
            }
        }
    }

    /// Starts eSpeak NG once (its rate kept even when the voice is refused) and chooses `voice`.
    private static func start(_ e: inout (rate: Int32, voice: String), voice: String) throws(InputError) {
        if e.rate <= 0 {
            let rate = cespeak_start()
            if rate == -3 {
                let why = cespeak_error().map { String(cString: $0) } ?? "libespeak-ng.so.1 cannot be loaded"
                throw InputError("eSpeak NG cannot be loaded (\(why)): install it (`sudo apt-get install libespeak-ng1`)")
            }
            guard rate > 0 else { throw InputError("eSpeak NG cannot start: is espeak-ng-data installed (`sudo apt-get install espeak-ng-data`)?") }
            e.rate = rate
        }
        if e.voice != voice {
            guard cespeak_voice(voice) == 0 else { throw InputError("unknown voice \(voice): `espeak-ng --voices` lists them; set sound.voice") }
            e.voice = voice
        }
    }

    /// `text` as the daemon says it: eSpeak NG's `voice` at 48 kHz and `volume` percent, at
    /// most `longest` seconds; refused in words when eSpeak NG cannot start or say it.
    public static func render(_ text: String, voice: String, volume: Int) throws(InputError) -> [Int16] {
        let (samples, rate) = try engine.withLock { e throws(InputError) -> ([Int16], Int32) in
            try start(&e, voice: voice)
            var buffer = cespeak_buffer(samples: nil, count: 0, capacity: 0, limit: e.rate * Int32(longest))
            defer { cespeak_free(&buffer) }
            guard cespeak_synth(text, wordsPerMinute, &buffer) == 0, buffer.count > 0, let samples = buffer.samples else {
                throw InputError("eSpeak NG could not say '\(text)'")
            }
            return (Array(UnsafeBufferPointer(start: samples, count: Int(buffer.count))), e.rate)
        }
        let scale = Double(max(0, min(100, volume))) / 100
        return ToneSynth.resample(samples, from: Int(rate), to: ALSABeeper.sampleRate).map { Int16((Double($0) * scale).rounded()) }
    }
}
