import Foundation
import MarkTimeCore
import MarkTimeDevices
import RigSupport
import Testing

@Suite("ALSA tones through a WAV-file PCM", .serialized, .tags(.alsa))
struct ALSATests {
    /// Plays `tone` with `marktime beep` into a `type file` PCM and decodes the WAV.
    func record(_ tone: String, extra: [String] = []) throws -> (CLI.Result, PCMSamples) {
        let cli = CLI()
        let wav = cli.folder + "/out.wav"
        let conf = cli.folder + "/asound.conf"
        try """
            pcm.!default {
                type file
                slave.pcm "null"
                file "\(wav)"
                format "wav"
            }
            """.write(toFile: conf, atomically: true, encoding: .utf8)
        let r = try cli.run(["beep", "--tone", tone] + extra,
                            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(conf)"])
        return (r, try PCMSamples(wavFile: wav))
    }

    @Test func okIsADouble2kHzBeep() throws {
        let (r, wav) = try record("ok")
        #expect(r.status == 0)
        #expect(wav.rate == 48_000)
        let bursts = wav.bursts()
        #expect(bursts.count == 2)
        for b in bursts {
            #expect(abs(b.length - 3840) <= 48, "80 ms at 48 kHz, got \(b.length) samples")
            #expect(abs(b.hertz - 2000) <= 15, "got \(b.hertz) Hz")
        }
        #expect(abs(bursts[1].start - (bursts[0].start + bursts[0].length) - 2880) <= 96, "a 60 ms gap")
    }

    @Test func aToneEndsWithABufferOfSilenceBeforeTheDrain() throws {
        // Given the ok beep played into a file
        let wav = try record("ok").1
        // Then its 10,560 samples (220 ms) are followed by one 50 ms buffer of silence
        let last = wav.bursts().last.map { $0.start + $0.length } ?? 0
        let tail = wav.samples[last...]
        #expect(tail.allSatisfy { $0 == 0 })
        #expect(wav.samples.count == 10_560 + 2_400, "got \(wav.samples.count) samples, the last sound ending at \(last)")
    }

    @Test func warningIsThree1kHzBeeps() throws {
        let bursts = try record("warning").1.bursts()
        #expect(bursts.count == 3)
        for b in bursts {
            #expect(abs(b.length - 5760) <= 48)
            #expect(abs(b.hertz - 1000) <= 10)
        }
    }

    @Test func failureIsOneLongLowBuzz() throws {
        let bursts = try record("failure").1.bursts()
        #expect(bursts.count == 1)
        #expect(abs((bursts.first?.length ?? 0) - 48_000) <= 48)
        #expect(abs((bursts.first?.hertz ?? 0) - 400) <= 5)
    }

    @Test("The alarm plays for exactly --seconds of samples, cut mid-cycle")
    func theAlarmLoopsForItsSecondsAndStopsMidCycle() throws {
        // Given the alarm played for 1.1 s: two whole 500 ms cycles and 100 ms of the 2.5 kHz step
        let wav = try record("alarm", extra: ["--seconds", "1.1"]).1
        let bursts = wav.bursts()
        // Then the file holds exactly 52,800 samples of sound and the 50 ms tail of silence,
        // heard as one continuous sound (the burst finder trims the zero crossings at its ends)
        #expect(wav.samples.count == 52_800 + 2_400)
        #expect(wav.samples[52_800...].allSatisfy { $0 == 0 })
        #expect(bursts.count == 1)
        #expect(abs((bursts.first?.length ?? 0) - 52_800) <= 48)
    }

    @Test func sayPlaysTheSentenceAsTheDaemonSaysItSampleForSample() throws {
        // Given a sentence as the keypad's read-back says it
        let text = "sight 12, Vega, thirty-four twelve point three"
        // When `marktime say` plays it into the file
        let cli = CLI()
        let wav = cli.folder + "/out.wav", conf = cli.folder + "/asound.conf"
        try "pcm.!default {\n type file\n slave.pcm \"null\"\n file \"\(wav)\"\n format \"wav\"\n}\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let r = try cli.run(["say", text], environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(conf)"])
        #expect(r.status == 0, "\(r.stderr)")
        // Then the file holds eSpeak NG's speech at 48 kHz exactly as rendered here, then the 50 ms tail of silence
        let spoken = try EspeakSpeech.render(text, voice: "en", volume: 100)
        let heard = try PCMSamples(wavFile: wav)
        #expect(heard.rate == 48_000)
        #expect(heard.samples == spoken + repeatElement(0, count: ALSABeeper.tail))
        // And it is speech of a sentence's length: 2 to 6 s at 150 words a minute
        #expect((96_000...288_000).contains(spoken.count), "\(spoken.count) samples")
    }

    @Test func anUnknownVoiceIsNamedWithTheFix() throws {
        let cli = CLI()
        try "[sound]\nvoice = \"klingon-xx\"\n".write(toFile: cli.config, atomically: true, encoding: .utf8)
        let r = try cli.run(["say", "hello"], environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("unknown voice klingon-xx: `espeak-ng --voices` lists them; set sound.voice"), "\(r.stderr)")
    }

    @Test func aMissingDeviceIsNamed() throws {
        let cli = CLI()
        try "[sound]\ndevice = \"nosuchcard\"\n".write(toFile: cli.config, atomically: true, encoding: .utf8)
        let r = try cli.run(["beep"])
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("Error: cannot open sound device 'nosuchcard': No such file or directory; set sound.device to one that `aplay -L` lists\n"))
    }
}
