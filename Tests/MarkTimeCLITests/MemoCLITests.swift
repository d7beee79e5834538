import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import RigSupport
import Testing

@Suite("marktime: a sight's voice memo")
struct MemoCLITests {
    /// A store with sights 1 and 2; sight 2 has a memo of `samples` (half a second at 16 kHz).
    let samples: [Int16] = (0..<8000).map { Int16(truncatingIfNeeded: $0 * 97 % 30011 - 15000) }

    func withMemo() throws -> (CLI, [UInt8]) {
        let cli = CLI()
        let db = try cli.database()
        _ = try db.insert(try sight(at: 10))
        _ = try db.insert(try sight(at: 20))
        let flac = try FLACCodec.encode(samples, sampleRate: 16_000)
        try db.keepMemo(SightMemo(sightID: 0, sampleRate: 16_000, frames: samples.count, cut: false, data: flac,
                                  createdAt: UTCTime(nanosecondsSinceEpoch: logDay)),
                        pressedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 20 * second))
        return (cli, flac)
    }

    @Test func sightShowListsTheMemoAndHowToSaveIt() throws {
        let (cli, flac) = try withMemo()
        let shown = try cli.run(["sight", "show", "2"])
        #expect(shown.status == 0)
        let kb = Int((Double(flac.count) / 1000).rounded())
        #expect(shown.stdout.contains("voice memo   0.5 s, FLAC 16 kHz, \(kb) KB: `marktime sight memo 2` saves it as a FLAC file"), "\(shown.stdout)")
        let json = try #require(try cli.json(["sight", "show", "2", "--format", "json"]) as? [String: Any])
        let memo = try #require(json["memo"] as? [String: Any])
        #expect(memo["format"] as? String == "flac")
        #expect(memo["seconds"] as? Double == 0.5)
        #expect(memo["frames"] as? Int == 8000)
        #expect(memo["bytes"] as? Int == flac.count)
        #expect(memo["cut"] as? Bool == false)
        #expect((try cli.json(["sight", "show", "1", "--format", "json"]) as? [String: Any])?["memo"] is NSNull)
    }

    @Test func sightMemoSavesTheFLACThatDecodesToTheSamples() throws {
        let (cli, flac) = try withMemo()
        let path = cli.folder + "/memo.flac"
        let r = try cli.run(["sight", "memo", "2", "-o", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Wrote sight 2's voice memo (0.5 s, FLAC 16 kHz, "), "\(r.stderr)")
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == flac)
        #expect(try FLACCodec.decode(written).samples == samples)
    }

    @Test func withoutAFileTheMemoGoesToStandardOutputByteForByte() throws {
        // Given standard output that is a file, not a terminal
        let (cli, flac) = try withMemo()
        let path = cli.folder + "/stdout.flac"
        let r = try runCommand("/bin/sh", ["-c", "exec \"$0\" sight memo 2 --store \"$1\" > \"$2\"", CLI.binary, cli.store, path], environment: cli.environment)
        // Then the FLAC stream is written there whole, and nothing is said
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == flac)
    }

    @Test func aSightWithoutAMemoIsRefusedWithHowToRecordOne() throws {
        let (cli, _) = try withMemo()
        let r = try cli.run(["sight", "memo", "1", "-o", cli.folder + "/none.flac"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("sight 1 has no voice memo: hold the button past memo.hold_s after a press to record one (memo.device names the microphone)"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/none.flac"))
    }

    @Test func anOutputPathEndingInASlashIsRefusedAndNothingIsWritten() throws {
        let (cli, _) = try withMemo()
        let r = try cli.run(["sight", "memo", "2", "-o", cli.folder + "/memo.flac/"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("cannot write"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/memo.flac"))
    }
}
