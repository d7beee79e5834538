import CALSA
import CFLAC
import Foundation
import MarkTimeCore
import MarkTimeSystem
import Synchronization

/// Records voice memos from an ALSA capture device (`memo.device`), mono S16 at 16 kHz.
///
/// A capture starts at a sight's key-down, on a thread of its own, so the press and its
/// beep never wait for the device; it ends at the key-up, kept or thrown away, or at the
/// limit. A device that is missing or busy is named when a memo was wanted, never for a
/// plain press.
public final class ALSACapture: MemoRecorder, Sendable {
    public let device: String
    public let sampleRate: Int
    /// The longest memo, in samples.
    let limitFrames: Int
    /// About this long per read: how late a key-up or a stop is seen, at most.
    static let periodMicroseconds: UInt32 = 20_000
    /// The longest wait for samples before the thread looks at what it is asked again.
    static let waitMilliseconds: Int32 = 100
    /// The ring: how long the thread may be kept from reading before samples are lost.
    static let bufferMicroseconds: UInt32 = 500_000

    /// What the thread is asked: the presses to capture for, and how each ends.
    private let asked = Mutex(MemoAsks())
    private let wake: EventFD
    private let thread: PollThread
    private let taken = Mutex<(@Sendable (MemoTake) -> Void)?>(nil)

    public init(device: String, sampleRate: Int = MemoSettings.sampleRate, limit: Double) throws(DeviceError) {
        (self.device, self.sampleRate) = (device, sampleRate)
        limitFrames = Int((limit * Double(sampleRate)).rounded())
        do {
            wake = try EventFD()
            thread = try PollThread(name: "marktime-memo")
        } catch { throw DeviceError(error) }
    }

    public func start(_ taken: @escaping @Sendable (MemoTake) -> Void) {
        self.taken.withLock { $0 = taken }
        thread.start { [self] t in loop(t) }
    }

    public func command(_ command: MemoCommand) {
        asked.withLock { $0.ask(command) }
        wake.signal()
    }

    /// Ends the thread (a memo recording is dropped) and lets go of the handler, and so of
    /// the daemon it calls: a daemon started again in this process takes the store's lock.
    public func stop() {
        thread.stop()
        taken.withLock { $0 = nil }
    }

    private func loop(_ t: PollThread) {
        var seen = 0
        while true {
            // Idle until a press asks for a capture.
            let next = asked.withLock { a in a.generation != seen ? (a.generation, a.press) : nil }
            guard let (generation, press) = next, let press else {
                switch try? t.wait([wake.fd]) {
                case .stopped, nil: return
                default: wake.drain()
                }
                continue
            }
            seen = generation
            guard capture(for: press, generation: generation, on: t) else { return }
        }
    }

    /// One capture, until its press's end is asked (or another press starts one); false
    /// when the thread is stopping.
    private func capture(for press: MonotonicInstant, generation: Int, on t: PollThread) -> Bool {
        var pcm: OpaquePointer? = nil
        var failure: String?
        let rc = calsa_open_capture(&pcm, device, UInt32(sampleRate), Self.periodMicroseconds, Self.bufferMicroseconds)
        if rc < 0 { failure = Self.sentence(device: device, rc: rc) }
        defer { if let pcm { snd_pcm_close(pcm) } }
        var samples: [Int16] = []
        samples.reserveCapacity(min(limitFrames, sampleRate * 10))
        var chunk = [Int16](repeating: 0, count: sampleRate / 50)
        while true {
            switch asked.withLock({ $0.step(generation) }) {
            case .superseded, .end(.discard), .end(.start):
                return true
            case .end(.keep):
                let take: MemoTake = if let failure { .failed(failure) } else if samples.isEmpty {
                    .failed("the capture device \(device) gave no sound before the key-up; check it with `arecord -D \(device) -f S16_LE -r 16000 test.wav`")
                } else {
                    .recorded(press: press, samples: samples, sampleRate: sampleRate, cut: samples.count >= limitFrames)
                }
                taken.withLock { $0 }?(take)
                return true
            case .record:
                break
            }
            if t.isStopping { return false }
            // Read while the device works and the limit is not reached; else wait for the key-up.
            guard let pcm, failure == nil, samples.count < limitFrames else {
                switch try? t.wait([wake.fd]) {
                case .stopped, nil: return false
                default: wake.drain()
                }
                continue
            }
            // Waited for with a limit, so that a device that stops delivering (a stalled
            // USB microphone) cannot hold the thread past a key-up or the daemon's stop.
            // Only what is there is read: a blocking read of more could wait past both.
            let ready = snd_pcm_wait(pcm, Self.waitMilliseconds)
            if ready == 0 { continue }
            let avail = ready < 0 ? snd_pcm_sframes_t(ready) : snd_pcm_avail_update(pcm)
            if avail == 0 { continue }
            let want = min(chunk.count, limitFrames - samples.count, Int(max(avail, 0)))
            let n = avail < 0 ? avail
                : chunk.withUnsafeMutableBufferPointer { snd_pcm_readi(pcm, $0.baseAddress!, snd_pcm_uframes_t(want)) }
            if n > 0 {
                samples += chunk[0..<Int(n)]
            } else if n < 0 {
                // An overrun (the thread kept from reading a whole ring) loses samples but
                // not the memo: recovered, and started again as at the open if it stands
                // prepared (a resumed one runs already).
                if snd_pcm_recover(pcm, Int32(n), 1) < 0 || calsa_start(pcm) < 0 {
                    failure = "the capture device \(device) failed while recording: \(String(cString: snd_strerror(Int32(n))))"
                }
            }
        }
    }

    /// Why `device` cannot record, with what to do.
    static func sentence(device: String, rc: Int32) -> String {
        let reason = String(cString: snd_strerror(rc))
        switch -rc {
        case EBUSY:
            return "the capture device \(device) is busy (\(reason)): another program records from it (`fuser -v /dev/snd/*` names it); stop it, or set memo.device to another device"
        case ENOENT, ENODEV:
            return "the capture device \(device) is missing (\(reason)): plug the microphone in, or set memo.device to one that `arecord -L` lists"
        default:
            return "the capture device \(device) cannot record mono 16-bit at 16 kHz (\(reason)): use its plughw: name, which converts, or another device (`arecord -L`)"
        }
    }

    /// Opens `device` for capture and closes it again: nil when it works, else why not.
    public static func probe(device: String, sampleRate: Int = MemoSettings.sampleRate) -> String? {
        var pcm: OpaquePointer? = nil
        let rc = calsa_open_capture(&pcm, device, UInt32(sampleRate), periodMicroseconds, bufferMicroseconds)
        if let pcm { snd_pcm_close(pcm) }
        return rc < 0 ? sentence(device: device, rc: rc) : nil
    }
}

/// Voice memos in FLAC (Debian's libFLAC): lossless, so a memo decodes to exactly what was
/// recorded, in about half the room.
public enum FLACCodec {
    /// The FLAC stream of mono S16 `samples` at `sampleRate`.
    public static func encode(_ samples: [Int16], sampleRate: Int) throws(DeviceError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var count = 0
        let rc = samples.withUnsafeBufferPointer { cflac_encode($0.baseAddress, $0.count, UInt32(sampleRate), &out, &count) }
        guard rc == 0, let out else { throw DeviceError("libFLAC could not encode the memo (code \(rc))") }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    /// The samples and rate of a mono 16-bit FLAC stream.
    public static func decode(_ bytes: [UInt8]) throws(DeviceError) -> (samples: [Int16], sampleRate: Int) {
        var samples: UnsafeMutablePointer<Int16>? = nil
        var frames = 0
        var rate: UInt32 = 0
        let rc = bytes.withUnsafeBufferPointer { cflac_decode($0.baseAddress, $0.count, &samples, &frames, &rate) }
        guard rc == 0 else {
            let why = switch rc {
            case 2: "the memo is not mono 16-bit FLAC"
            case 3: "the memo's FLAC stream is corrupt"
            case 4: "the memo is not FLAC"
            default: "libFLAC could not decode the memo (code \(rc))"
            }
            throw DeviceError(why)
        }
        defer { free(samples) }
        return (samples.map { Array(UnsafeBufferPointer(start: $0, count: frames)) } ?? [], Int(rate))
    }
}
