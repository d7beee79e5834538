import Foundation
import Logging
import MarkTimeCore
import MarkTimeDevices
import RigSupport
import Testing

/// The beeper on ALSA's own file PCM (`file:FILE=…,FORMAT=wav`, alsa.conf's, over the null
/// device): what it writes is read back from the WAV file once the beeper has finished.
@Suite("the ALSA beeper")
struct ALSABeeperTests {
    @Test("A stop that comes before the player has taken the alarm from its queue ends the alarm too",
          .timeLimit(.minutes(1)))
    func aStopBeforeTheAlarmIsTakenEndsIt() throws {
        // Given a beeper writing to a WAV file
        let folder = NSTemporaryDirectory() + "marktime-beeper-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/alarm.wav"
        let beeper = try ALSABeeper(device: "file:FILE=\(wav),FORMAT=wav", volume: 100, logger: Logger(label: "test"))
        // When the looping alarm is asked for and stopped at once (the player thread most
        // often has not woken yet), and the beeper then finishes what is queued
        beeper.play(.alarm)
        beeper.stop()
        beeper.finish()
        // Then it finished (the alarm did not loop on), and less than one 500 ms cycle of it
        // was written: none, or the first buffer-full if the player took it first
        let written = try PCMSamples(wavFile: wav).bursts().map(\.length).reduce(0, +)
        #expect(written < 24_000, "\(written) samples")
    }
}
