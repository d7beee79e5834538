import Foundation
import MarkTimeCore
import MarkTimeDevices
import Testing

@Suite("Voice memos: FLAC and the capture device")
struct MemoCodecTests {
    /// Two seconds of a 440 Hz tone with a ramp of noise-like values: every sample differs.
    let samples: [Int16] = (0..<32_000).map { (i: Int) -> Int16 in
        let tone: Double = sin(Double(i) * 2 * Double.pi * 440 / 16_000) * 12_000
        let jitter: Int = i * 7919 % 2001 - 1000
        return Int16(clamping: Int(tone.rounded()) + jitter)
    }

    @Test func aMemoDecodesToExactlyItsSamples() throws {
        // When two seconds are encoded as FLAC
        let flac = try FLACCodec.encode(samples, sampleRate: 16_000)
        // Then it is a FLAC stream, smaller than the samples, and decodes to them exactly
        #expect(Array(flac.prefix(4)) == Array("fLaC".utf8))
        #expect(flac.count < samples.count * 2)
        let decoded = try FLACCodec.decode(flac)
        #expect(decoded.sampleRate == 16_000)
        #expect(decoded.samples == samples)
    }

    @Test func anEmptyMemoIsAValidStream() throws {
        let decoded = try FLACCodec.decode(try FLACCodec.encode([], sampleRate: 16_000))
        #expect(decoded.samples.isEmpty)
        #expect(decoded.sampleRate == 16_000)
    }

    @Test func bytesThatAreNotFLACAreRefusedInWords() {
        #expect(throws: DeviceError.self) { try FLACCodec.decode(Array("RIFF....WAVE".utf8)) }
        do { _ = try FLACCodec.decode(Array("RIFF....WAVE".utf8)) } catch { #expect(error.description == "the memo is not FLAC") }
    }

    @Test func aTruncatedStreamIsCalledCorrupt() throws {
        let flac = try FLACCodec.encode(samples, sampleRate: 16_000)
        do {
            _ = try FLACCodec.decode(Array(flac.prefix(flac.count / 2)))
            Issue.record("half a stream decoded")
        } catch {
            #expect(error.description == "the memo's FLAC stream is corrupt")
        }
    }

    @Test func aMissingCaptureDeviceIsNamedWithItsFix() {
        // ALSA's configuration knows no PCM of this name.
        let said = ALSACapture.probe(device: "marktime_no_such_pcm")
        #expect(said?.hasPrefix("the capture device marktime_no_such_pcm is missing (") == true, "\(said ?? "nil")")
        #expect(said?.hasSuffix("plug the microphone in, or set memo.device to one that `arecord -L` lists") == true, "\(said ?? "nil")")
    }
}
