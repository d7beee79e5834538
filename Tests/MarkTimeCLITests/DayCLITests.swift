import Foundation
import MarkTimeCore
import MarkTimePlaces
import MarkTimeStore
import RigSupport
import Testing

@Suite("marktime day and cal")
struct DayCLITests {
    let cli = CLI()
    let home = "27 22.84 S 153 22.84 E"

    init() throws {
        let r = try cli.run(["config", "set", "home.zone", "Australia/Brisbane"], storeFlag: false)
        precondition(r.status == 0, r.stderr)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` as an instant.
    func utc(_ text: String) -> UTCTime { UTCTime.parse(text)!.time }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = cli.folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func media() throws -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cli.folder + "/media")) ?? []).sorted()
    }

    @Test func theDayGathersEveryModuleInOrderAcrossTheZonesDayBoundary() throws {
        // Given entries from every module around Brisbane's 21 November (14:00Z on the 20th to 14:00Z on the 21st)
        #expect(try cli.run(["place", "add", "Home", "--position", home, "--radius", "150"]).status == 0)
        #expect(try cli.run(["day", "note", "Before the day", "--date", "2026-11-20", "--time", "23:59"]).status == 0)
        #expect(try cli.run(["day", "note", "First light", "--date", "2026-11-21", "--time", "00:00"]).status == 0)
        #expect(try cli.run(["day", "checkin", "--position", home, "--date", "2026-11-21", "--time", "09:30"]).status == 0)
        let db = try cli.database()
        var s = Sight(instant: MonotonicInstant(bootID: "b", nanoseconds: 1),
                      estimate: UTCEstimate(utc: utc("2026-11-21T03:01:46.654Z"), source: .gps, uncertainty: 0.5), createdAt: utc("2026-11-21T03:01:46.654Z"))
        s.body = "Sun"
        _ = try db.insert(s)
        _ = try db.report(GeoFix(position: try Position.parse(home), error: 5, time: utc("2026-11-20T23:02:00Z")), member: nil,
                          rules: GeofenceRules(confirmations: 1))
        let task = try db.insertTask(title: "Plot the noon sight", due: utc("2026-11-21T02:00:00Z"), remind: utc("2026-11-21T01:30:00Z"),
                                  course: nil, now: utc("2026-11-20T00:00:00Z"))
        _ = try db.markReminded(task, at: utc("2026-11-21T01:30:00Z"), late: false)
        try db.setTaskDone(task, at: utc("2026-11-21T02:10:00Z"))
        #expect(try cli.run(["day", "note", "After the day", "--date", "2026-11-22", "--time", "00:00"]).status == 0)

        // When the day is shown as JSON
        let page = try cli.json(["day", "2026-11-21"]) as? [String: Any] ?? [:]

        // Then it has exactly that day's entries, in time order, with their kinds
        let entries = page["entries"] as? [[String: Any]] ?? []
        #expect(page["date"] as? String == "2026-11-21")
        #expect(entries.map { $0["kind"] as? String } == ["moment", "place", "checkin", "reminder", "task", "sight"])
        #expect(entries.map { $0["time"] as? String } == [
            "2026-11-20T14:00:00.000Z", "2026-11-20T23:02:00.000Z", "2026-11-20T23:30:00.000Z",
            "2026-11-21T01:30:00.000Z", "2026-11-21T02:10:00.000Z", "2026-11-21T03:01:46.654Z",
        ])
        #expect(entries.map { $0["text"] as? String } == ["First light", "Home", "Home", "Plot the noon sight", "Plot the noon sight", "Sun"])
        #expect(entries[2]["position"] as? String == "27° 22'.84 S  153° 22'.84 E")
    }

    @Test("A 2 GB file is refused by its size before it is read, and nothing is added")
    func aHugeFileIsRefusedBeforeItIsRead() throws {
        // Given a sparse 2 GB file that starts like a JPEG
        let path = try write("video.jpg", [0xFF, 0xD8, 0xFF, 0xE0])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        // When it is added as a photo
        let r = try cli.run(["day", "photo", "add", path])
        // Then it is refused by its size, and the media folder stays empty
        #expect(r.status == 1)
        #expect(r.stderr == "Error: \(path) is 2048 MB: marktime keeps photos up to 16 MB; make it smaller (e.g. `convert \(path) -resize 50% smaller.jpg`) and add that: nothing added\n")
        #expect(try media() == [])
    }

    @Test func aCheckinInsideAPlaceIsNamedAfterIt() throws {
        _ = try cli.run(["place", "add", "Home", "--position", home, "--radius", "150"])
        _ = try cli.run(["place", "add", "Marina", "--position", "27 23.84 S 153 22.84 E", "--radius", "200"])
        let r = try cli.run(["day", "checkin", "--position", "27 22.85 S 153 22.84 E", "--date", "2026-11-21", "--time", "09:30"])
        #expect(r.stdout == "check-in 1: Home at 27° 22'.85 S  153° 22'.84 E, 2026-11-21 09:30 AEST\n", "\(r.stderr)")
    }

    @Test func aCheckinOutsideListsTheThreeNearest() throws {
        _ = try cli.run(["place", "add", "Home", "--position", home, "--radius", "150"])
        _ = try cli.run(["place", "add", "Marina", "--position", "27 23.84 S 153 22.84 E", "--radius", "200"])
        _ = try cli.run(["place", "add", "Club", "--position", "27 25.84 S 153 22.84 E", "--radius", "200"])
        _ = try cli.run(["place", "add", "Far", "--position", "28 22.84 S 153 22.84 E", "--radius", "200"])
        let r = try cli.run(["day", "checkin", "--position", "27 21.84 S 153 22.84 E", "--date", "2026-11-21", "--time", "09:30"])
        #expect(r.stdout == """
            check-in 1: Check-in at 27° 21'.84 S  153° 22'.84 E, 2026-11-21 09:30 AEST
            not within a known place; nearest: Home 1.0 nm, Marina 2.0 nm, Club 4.0 nm

            """, "\(r.stderr)")
    }

    @Test func anImpossibleDateIsRefused() throws {
        let r = try cli.run(["day", "note", "Leap?", "--date", "2026-02-30"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: --date '2026-02-30' is not a real date: use YYYY-MM-DD, e.g. 2026-11-21\n")
        #expect((try cli.json(["cal", "2026-02"]) as? [Any])?.count == 0)
    }

    @Test func aTimeTheClocksSkipIsRefused() throws {
        _ = try cli.run(["config", "set", "home.zone", "America/New_York"], storeFlag: false)
        let r = try cli.run(["day", "note", "Gap", "--date", "2026-03-08", "--time", "02:30"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: 02:30 does not exist on 2026-03-08 in America/New_York: the clocks go forward 60 minutes there, from EST to EDT; choose a time outside the gap\n")
    }

    @Test func theSamePhotoTwiceIsStoredOnce() throws {
        let file = try write("sunset.jpg", jpegBytes(width: 4032, height: 3024, taken: "2026:11:21 18:45:10"))
        let first = try cli.run(["day", "photo", file, "--caption", "Green flash"])
        #expect(first.stdout == "photo 1: 4032×3024 jpeg, 2026-11-21 18:45 AEST\n", "\(first.stderr)")
        let second = try cli.run(["day", "photo", file])
        #expect(second.stdout == "photo 1 already has this image: kept once\n")
        #expect(try media() == [try sha(file) + ".jpg"])
        let entries = (try cli.json(["day", "2026-11-21"]) as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["time"] as? String } == ["2026-11-21T08:45:10.000Z"])
        #expect(entries.first?["width"] as? Int == 4032)
    }

    @Test func aMissingFileIsRefused() throws {
        let r = try cli.run(["day", "photo", cli.folder + "/nowhere.jpg"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: cannot read \(cli.folder)/nowhere.jpg"), "\(r.stderr)")
        #expect(try media() == [])
    }

    @Test func aTextFileRenamedJpgIsRefused() throws {
        let file = try write("notes.jpg", Array("Fair winds\n".utf8))
        let r = try cli.run(["day", "photo", file])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: \(file) is not a JPEG or PNG image (its first bytes say so, whatever its name): nothing added\n")
        #expect(try media() == [])
    }

    @Test func removingAPhotoDeletesItsFile() throws {
        let file = try write("chart.png", pngBytes(width: 64, height: 32))
        #expect(try cli.run(["day", "photo", file, "--date", "2026-11-21", "--time", "10:00"]).status == 0)
        #expect(try media().count == 1)
        #expect(try cli.run(["day", "photo", "remove", "1"]).stdout == "photo 1 removed\n")
        #expect(try media() == [])
    }

    @Test func removingAMomentNeedsConfirmationOffATerminal() throws {
        _ = try cli.run(["day", "note", "Oops", "--date", "2026-11-21", "--time", "10:00"])
        let refused = try cli.run(["day", "remove", "moment", "1"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: Delete moment 1 “Oops” for good: no terminal to confirm on; add --yes to delete without asking\n")
        #expect(try cli.run(["day", "remove", "moment", "1", "--yes"]).stdout == "moment 1 removed\n")
    }

    @Test func calMarksDaysWithEntries() throws {
        _ = try cli.run(["day", "note", "One", "--date", "2026-02-01", "--time", "10:00"])
        _ = try cli.run(["day", "note", "Two", "--date", "2026-02-14", "--time", "10:00"])
        _ = try cli.run(["day", "note", "Three", "--date", "2026-02-14", "--time", "11:00"])
        #expect(try cli.run(["cal", "2026-02"]).stdout == """
               February 2026
            Su Mo Tu We Th Fr Sa
             1* 2  3  4  5  6  7
             8  9 10 11 12 13 14*
            15 16 17 18 19 20 21
            22 23 24 25 26 27 28

            """)
        let days = try cli.json(["cal", "2026-02"]) as? [[String: Any]] ?? []
        #expect(days.map { $0["date"] as? String } == ["2026-02-01", "2026-02-14"])
        #expect(days.map { $0["entries"] as? Int } == [1, 2])
    }

    @Test func theDayOpensWithTheSunAtTheHomePlace() throws {
        // Given a home place in Brisbane and nothing recorded on 22 December
        #expect(try cli.run(["place", "add", "Home", "--kind", "home", "--position", "27 28 S 153 02 E", "--radius", "150"]).status == 0)
        // When the day is shown
        let table = try cli.run(["day", "2026-12-22"]).stdout
        let sun = (try cli.json(["day", "2026-12-22"]) as? [String: Any])?["sun"] as? [String: Any] ?? [:]
        // Then the Sun's events are worked there: sunrise 04:50, sunset 18:43 local
        let expected = "Sun at 27° 28'.00 S  153° 02'.00 E (home place Home): "
            + "astronomical dawn 03:17, nautical dawn 03:51, civil dawn 04:23, sunrise 04:50, sunset 18:43, civil dusk 19:09, "
            + "nautical dusk 19:41, astronomical dusk 20:15"
        let lines: [String] = table.split(separator: "\n").map(String.init)
        #expect(lines.dropFirst().first == expected)
        #expect(sun["source"] as? String == "home place Home")
        #expect(sun["sunrise"] as? String == "2026-12-21T18:49:46.000Z")
        #expect(sun["sunset"] as? String == "2026-12-22T08:42:40.000Z")
    }

    @Test func exportWritesTheMarkdownPage() throws {
        _ = try cli.run(["day", "note", "Dolphins off the bow", "--date", "2026-11-21", "--time", "06:05"])
        let out = cli.folder + "/day.md"
        #expect(try cli.run(["day", "export", "2026-11-21", "-o", out]).stdout == "wrote \(out)\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == """
            # Saturday 21 November 2026

            Times are Australia/Brisbane (AEST, UTC+10:00); sights in UTC.

            Sun: no position for this day; add a home place (`marktime place add Home --kind home --position POS`)

            - **06:05** Dolphins off the bow

            """)
    }
}

/// The SHA-256 of a file, from coreutils.
func sha(_ path: String) throws -> String {
    String(try runCommand("/usr/bin/sha256sum", [path], environment: [:]).stdout.prefix(64))
}

func pngBytes(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    // Typed steps: Swift 6.2 cannot type-check one long chain of literals in time.
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header: [UInt8] = be32(13) + Array("IHDR".utf8)
    let size: [UInt8] = be32(width) + be32(height)
    let rest: [UInt8] = [8, 2, 0, 0, 0, 0, 0, 0, 0]
    return signature + header + size + rest
}

/// A JPEG with an EXIF DateTimeOriginal (no offset) and a SOF0.
func jpegBytes(width: Int, height: Int, taken: String) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    let text = Array((taken + "\0").utf8)
    var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
    tiff += le16(1) + le16(0x8769) + le16(4) + le32(1) + le32(26) + le32(0)
    tiff += le16(1) + le16(0x9003) + le16(2) + le32(text.count) + le32(26 + 2 + 12 + 4) + le32(0) + text
    let app1 = Array("Exif".utf8) + [0, 0] + tiff
    let start: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + be16(app1.count + 2) + app1
    let sof0: [UInt8] = [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width)
    let components: [UInt8] = [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    return start + sof0 + components + [0xFF, 0xD9]
}
