import Foundation
import MarkTimeCore
import MarkTimeStore
import RigSupport
import Testing

/// A press that the store could not take, left in the pending-presses file by an earlier
/// run, lands when `marktime daemon` starts: with the ok tone, and the pending-presses file emptied.
@Suite("the pending-presses file and a daemon restart", .serialized, .tags(.daemonProcess, .alsa))
struct PendingPressesDaemonTests {
    let cli = CLI()
    var wav: String { cli.folder + "/beeps.wav" }

    @Test func aPressLeftInTheJournalLandsWhenTheDaemonStarts() throws {
        // Given a store and a pending-presses file beside it holding one press
        try "pcm.!default {\n type file\n slave.pcm \"null\"\n file \"\(wav)\"\n format \"wav\"\n}\n"
            .write(toFile: cli.folder + "/asound.conf", atomically: true, encoding: .utf8)
        _ = try cli.database()
        let left = try sight(at: 5)
        let pendingPresses = PendingPresses(storePath: cli.store)
        try pendingPresses.append(left)
        // When the daemon starts
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"],
                                       environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(cli.folder)/asound.conf"])
        let landed = try eventually(within: 10) { try cli.database().sights().count == 1 && !FileManager.default.fileExists(atPath: pendingPresses.path) }
        daemon.stop()
        // Then the sight is stored exactly as pressed, the pending-presses file is gone, and the ok double beep played
        #expect(landed, "daemon log:\n\(daemon.log)")
        var expected = left
        expected.id = 1
        #expect(try cli.database().sights() == [expected])
        #expect(daemon.log.contains("sights from the pending-presses file go to the store"))
        #expect(daemon.log.contains("late=true"))
        let bursts = try PCMSamples(wavFile: wav).bursts()
        #expect(bursts.count == 2 && bursts.allSatisfy { abs($0.hertz - 2000) < 20 }, "\(bursts)")
    }

    /// Found by `Tests/rig/run flushpoints`: a cut after a pending press was committed and
    /// before the file let go of it left the file holding it for good.
    @Test func aPressAlreadyInTheStoreIsLetGoOfWhenTheDaemonStarts() throws {
        // Given a store that holds a press and a pending-presses file that still holds it
        let store = try cli.database()
        let left = try sight(at: 5)
        _ = try store.insert(left)
        let pendingPresses = PendingPresses(storePath: cli.store)
        try pendingPresses.append(left)
        // When the daemon starts
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        let settled = eventually(within: 10) { !FileManager.default.fileExists(atPath: pendingPresses.path) }
        daemon.stop()
        // Then the file is gone and the press is in the store once
        #expect(settled, "daemon log:\n\(daemon.log)")
        #expect(try cli.database().sights().map(\.instant) == [left.instant])
        #expect(!daemon.log.contains("sights from the pending-presses file go to the store"))
    }
}
