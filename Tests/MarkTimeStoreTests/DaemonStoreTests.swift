import Foundation
import GRDB
import MarkTimeCore
import MarkTimePlaces
import MarkTimeStore
import Testing

@Suite("The daemon's store work")
struct DaemonStoreTests {
    @Test func thePendingPressesFileKeepsEachSightUntilItLands() throws {
        // Given two sights appended, the second with a position and a provenance
        let tmp = TemporaryFolder()
        let pendingPresses = PendingPresses(storePath: tmp.store)
        var b = sight(at: 2)
        b.position = try Position(latitude: -27.3807, longitude: 153.3807)
        b.fixMode = 3
        b.fixAge = 0.25
        b.estimate.provenance = StampProvenance(method: .projected, samples: [
            .init(source: .gps, monotonicNanoseconds: second, utcNanoseconds: logDay + second, uncertainty: 0.5, distance: 1),
        ])
        try pendingPresses.append(sight(at: 1))
        try pendingPresses.append(b)
        // Then both read back exactly, in order
        #expect(pendingPresses.load() == [sight(at: 1), b])
        // When the first has landed: the file keeps only the second
        try pendingPresses.settle { $0.instant == sight(at: 1).instant }
        #expect(pendingPresses.load() == [b])
        // When the second has landed too: the file is gone
        try pendingPresses.settle { _ in true }
        #expect(!FileManager.default.fileExists(atPath: pendingPresses.path))
        #expect(pendingPresses.load() == [])
    }

    @Test func aPressKeptByMarktime0150StillLoads() throws {
        // Given a pending-presses line as marktime 0.150 wrote it (lat/lon, provenance as an object)
        let tmp = TemporaryFolder()
        let pendingPresses = PendingPresses(storePath: tmp.store)
        let line = #"{"boot_id":"boot-a","monotonic_ns":5000000000,"utc_ns":1400000000000000000,"source":"gps","uncertainty_s":0.5,"lat":-27.5,"lon":153.25,"fix_mode":3,"fix_age_s":0.25,"note":"Sun LL","created_at_ns":1400000000000000000}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: pendingPresses.path))
        // When it is read
        let loaded = pendingPresses.load()
        // Then the press comes back whole
        #expect(loaded.count == 1)
        #expect(loaded.first?.instant == MonotonicInstant(bootID: "boot-a", nanoseconds: 5_000_000_000))
        #expect(loaded.first?.estimate.utc == UTCTime(nanosecondsSinceEpoch: 1_400_000_000_000_000_000))
        #expect(loaded.first?.estimate.source == .gps)
        #expect(loaded.first?.position == (try Position(latitude: -27.5, longitude: 153.25)))
        #expect(loaded.first?.note == "Sun LL")
    }

    @Test func aPressStoresItsProvenanceAsJSONAndReadsItBackExactly() throws {
        // Given a press stamped between two samples, the second without an uncertainty
        let tmp = TemporaryFolder()
        let store = try AppDatabase(path: tmp.store, createDirectory: false)
        var press = sight(at: 2)
        press.estimate.provenance = StampProvenance(method: .interpolated, samples: [
            .init(source: .gps, monotonicNanoseconds: second, utcNanoseconds: logDay + second, uncertainty: 0.5, distance: 1),
            .init(source: .system, monotonicNanoseconds: 3 * second, utcNanoseconds: logDay + 3 * second, uncertainty: nil, distance: -1.25),
        ])
        // When it is inserted
        let stored = try store.insert(press)
        // Then the column holds this JSON (Core's writer: a whole number without a decimal point),
        // and the sight reads back as it went in
        let text = try DatabaseQueue(path: tmp.store).read { try String.fetchOne($0, sql: "SELECT provenance FROM sight") }
        #expect(text == """
            {"method":"interpolated","samples":[{"source":"gps","monotonic_ns":1000000000,"utc_ns":1176025976000000000,"uncertainty_s":0.5,\
            "distance_s":1},{"source":"system","monotonic_ns":3000000000,"utc_ns":1176025978000000000,"distance_s":-1.25}]}
            """)
        press.id = stored.id
        #expect(try store.sight(id: stored.id!).sight == press)
    }

    @Test func anEditedSightInsertsEveryColumn() throws {
        // Given a sight carrying fields no press sets: a body, a limb, Hs, a note, an original stamp
        let tmp = TemporaryFolder()
        let store = try AppDatabase(path: tmp.store, createDirectory: false)
        var full = sight(at: 4)
        full.body = "Sun"
        full.limb = .lower
        full.hs = 42.5
        full.note = "noon"
        full.original = UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: logDay), source: .unsynced, uncertainty: nil)
        full.correctedAt = UTCTime(nanosecondsSinceEpoch: logDay + 9 * second)
        // When it is inserted
        var stored = try store.insert(full)
        // Then every field reads back
        stored = try store.sight(id: stored.id!).sight
        full.id = stored.id
        #expect(stored == full)
    }

    @Test func aTornLastLineIsSkipped() throws {
        // Given a pending-presses file whose last append was cut off by a power cut
        let tmp = TemporaryFolder()
        let pendingPresses = PendingPresses(storePath: tmp.store)
        try pendingPresses.append(sight(at: 1))
        let handle = try #require(FileHandle(forWritingAtPath: pendingPresses.path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"boot_id\":\"boot-a\",\"monot".utf8))
        handle.closeFile()
        // Then the whole line still counts
        #expect(pendingPresses.load() == [sight(at: 1)])
    }

    @Test func theLiveStatusComesFromTheStatusFileWhileTheDaemonRuns() throws {
        // Given the row written at start, naming a status file, and a later heartbeat in the file
        let tmp = TemporaryFolder()
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        let file = StatusFile(path: tmp.path + "/status.json")
        let start = DaemonStatus(pid: 42, bootID: "boot-a", startedAt: second, heartbeat: second, gpsd: "starting")
        try db.publish(start, statusFile: file.path)
        var live = start
        live.heartbeat = 9 * second
        live.gpsd = "connected localhost:2947"
        live.anchor = AnchorLive(droppedAt: UTCTime(nanosecondsSinceEpoch: logDay), state: "watching", lastFix: 9 * second,
                                 lastFixTime: UTCTime(nanosecondsSinceEpoch: logDay + 9 * second), distance: 12.5, bearing: 270)
        try file.write(live)
        // Then status reads the file
        #expect(try db.daemonStatus() == live)
        // When the daemon stops, the row says so and the file no longer counts
        var stopped = live
        stopped.stopped = true
        stopped.anchor = nil
        try db.publish(stopped, statusFile: file.path)
        #expect(try db.daemonStatus() == stopped)
    }

    @Test func theChronometerIsPublishedInTheFileAndTheRow() throws {
        // Given a status whose chronometer carries the time from GPS
        let tmp = TemporaryFolder()
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        let file = StatusFile(path: tmp.path + "/status.json")
        var status = DaemonStatus(pid: 42, bootID: "boot-a", startedAt: second, heartbeat: 9 * second)
        let rate = ClockRate(gain: -0.432, scatter: 0.1728, source: .gps, span: 7200, samples: 121, learnedAt: 8 * second)
        status.chronometer = Chronometer(rate: rate, carriedFrom: ClockSample(source: .gps, monotonicNanoseconds: 8 * second,
                                                                            utc: UTCTime(nanosecondsSinceEpoch: logDay), uncertainty: 0.5))
        // When it is published in the row, then in the file
        try db.publish(status, statusFile: file.path)
        #expect(try db.daemonStatus() == status)
        status.heartbeat = 10 * second
        try file.write(status)
        // Then each reads back whole
        #expect(try db.daemonStatus() == status)
    }

    @Test func theLastTrustedFixIsKeptInTheRowAndTheFile() throws {
        // Given a status with the position check's last trusted fix
        let tmp = TemporaryFolder()
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        let file = StatusFile(path: tmp.path + "/status.json")
        var status = DaemonStatus(pid: 42, bootID: "boot-a", startedAt: second, heartbeat: 9 * second)
        status.trustedFix = Fix(position: try Position(latitude: -27.3807, longitude: 153.3807), mode: 3, horizontalError: 4.5,
                                time: UTCTime(nanosecondsSinceEpoch: logDay), receivedAt: MonotonicInstant(bootID: "boot-a", nanoseconds: 8 * second))
        // When it is published in the row, then in the file
        try db.publish(status, statusFile: file.path)
        #expect(try db.daemonStatus() == status)
        status.heartbeat = 10 * second
        try file.write(status)
        // Then each reads back whole
        #expect(try db.daemonStatus() == status)
    }

    @Test func aStatusFileFromAnotherDaemonIsIgnored() throws {
        let tmp = TemporaryFolder()
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        let file = StatusFile(path: tmp.path + "/status.json")
        let row = DaemonStatus(pid: 42, bootID: "boot-a", startedAt: second, heartbeat: second)
        try db.publish(row, statusFile: file.path)
        try file.write(DaemonStatus(pid: 43, bootID: "boot-a", startedAt: second, heartbeat: 9 * second))
        #expect(try db.daemonStatus() == row)
    }

    @Test func theStatusFileIsNamedForItsStore() {
        let a = StatusFile.choose(storePath: "/a/marktime.sqlite", environment: ["RUNTIME_DIRECTORY": NSTemporaryDirectory()])
        let b = StatusFile.choose(storePath: "/b/marktime.sqlite", environment: ["RUNTIME_DIRECTORY": NSTemporaryDirectory()])
        #expect(a.path.hasPrefix(NSTemporaryDirectory()))
        #expect(a.path != b.path)
    }

    @Test func theTrackIsSavedAndRestoredPerBoot() throws {
        let db = try AppDatabase.inMemory()
        let entries = [
            ClockTrack.Entry(sample: ClockSample(source: .gps, monotonicNanoseconds: second, utc: UTCTime(nanosecondsSinceEpoch: logDay),
                                                 uncertainty: 0.5), segment: 0),
            ClockTrack.Entry(sample: ClockSample(source: .pps, monotonicNanoseconds: 2 * second,
                                                 utc: UTCTime(nanosecondsSinceEpoch: logDay + second), uncertainty: 0.000001), segment: 1),
        ]
        try db.saveTrack(entries, bootID: "boot-a")
        try db.saveTrack(entries, bootID: "boot-a")
        #expect(try db.track(bootID: "boot-a") == entries)
        #expect(try db.track(bootID: "boot-b") == [])
    }

    @Test func aGapIsRecordedOnce() throws {
        let db = try AppDatabase.inMemory()
        let gap = InputGap(bootID: "boot-a", fromNanoseconds: second, toNanoseconds: 2 * second,
                           from: UTCTime(nanosecondsSinceEpoch: logDay + second), to: UTCTime(nanosecondsSinceEpoch: logDay + 2 * second))
        let stored = try db.recordGap(gap)
        try db.recordGap(gap)
        var expected = gap
        expected.id = 1
        #expect(stored == expected)
        #expect(try db.inputGaps() == [expected])
    }

    @Test func aQuietFixThatChangesNothingWritesNothing() throws {
        // Given the boat's first fix recorded
        let db = try AppDatabase.inMemory()
        let here = try Position(latitude: -27.3807, longitude: 153.3807)
        try db.report(GeoFix(position: here, error: 5, time: UTCTime(nanosecondsSinceEpoch: logDay)), member: nil, rules: GeofenceRules(), quiet: true)
        // When a fix 10 m away comes a minute later
        let near = try Position(latitude: -27.3807 + 10 / 1852.0 / 60, longitude: 153.3807)
        try db.report(GeoFix(position: near, error: 5, time: UTCTime(nanosecondsSinceEpoch: logDay + 60 * second)), member: nil,
                      rules: GeofenceRules(), quiet: true)
        // Then the member still has the first fix: nothing was written
        #expect(try db.members().first?.reportedAt == UTCTime(nanosecondsSinceEpoch: logDay))
        // When a fix 200 m away comes, it is written
        let far = try Position(latitude: -27.3807 + 200 / 1852.0 / 60, longitude: 153.3807)
        try db.report(GeoFix(position: far, error: 5, time: UTCTime(nanosecondsSinceEpoch: logDay + 120 * second)), member: nil,
                      rules: GeofenceRules(), quiet: true)
        #expect(try db.members().first?.reportedAt == UTCTime(nanosecondsSinceEpoch: logDay + 120 * second))
    }

    @Test func theAnchorKeeperWritesOnlyWhenTheWatchChanges() throws {
        // Given a watch with a 50 m radius, and fixes 20 m away
        let db = try AppDatabase.inMemory()
        let anchor = try Position(latitude: -27.3807, longitude: 153.3807)
        try db.dropAnchor(at: anchor, radius: 50, now: UTCTime(nanosecondsSinceEpoch: logDay))
        var keeper = AnchorKeeper()
        let settings = Settings()
        let inside = try Position(latitude: -27.3807 + 20 / 1852.0 / 60, longitude: 153.3807)
        let outside = try Position(latitude: -27.3807 + 80 / 1852.0 / 60, longitude: 153.3807)
        func fix(_ p: Position, _ t: Int64) -> GeoFix { GeoFix(position: p, error: 3, time: UTCTime(nanosecondsSinceEpoch: logDay + t * second)) }
        func rowFixTime() throws -> Int64? {
            try db.anchorWatch(settings: settings)?.watch.lastFixTime?.nanosecondsSinceEpoch
        }
        _ = try keeper.update([fix(inside, 1)], now: 1 * second, bootID: "boot-a", settings: settings, store: db)
        let first = try rowFixTime()
        // When more fixes inside come
        let inside2 = try keeper.update([fix(inside, 2), fix(inside, 3)], now: 3 * second, bootID: "boot-a", settings: settings, store: db)
        // Then the keeper has them, but the row does not change
        #expect(inside2?.watch.watch.lastFixTime == UTCTime(nanosecondsSinceEpoch: logDay + 3 * second))
        #expect(try rowFixTime() == first)
        // When three fixes outside raise the alarm, the row is written at once
        let alarm = try keeper.update([fix(outside, 4), fix(outside, 5), fix(outside, 6)], now: 6 * second, bootID: "boot-a",
                                      settings: settings, store: db)
        #expect(alarm?.actions == [.soundAlarm])
        #expect(try db.anchorWatch(settings: settings)?.watch.state == .alarm)
        #expect(try rowFixTime() == logDay + 6 * second)
    }

    @Test func anAcknowledgementFromTheCommandLineReachesTheKeeper() throws {
        let db = try AppDatabase.inMemory()
        let anchor = try Position(latitude: -27.3807, longitude: 153.3807)
        try db.dropAnchor(at: anchor, radius: 50, now: UTCTime(nanosecondsSinceEpoch: logDay))
        var keeper = AnchorKeeper()
        let settings = Settings()
        let outside = try Position(latitude: -27.3807 + 80 / 1852.0 / 60, longitude: 153.3807)
        let fixes = (1...3).map { GeoFix(position: outside, error: 3, time: UTCTime(nanosecondsSinceEpoch: logDay + Int64($0) * second)) }
        _ = try keeper.update(fixes, now: 3 * second, bootID: "boot-a", settings: settings, store: db)
        // When `anchor ack` changes the row
        try db.updateAnchorWatch(settings: settings) { w, _ in w.acknowledge() }
        // Then the keeper takes the row's state, not its own
        let next = try keeper.update([], now: 4 * second, bootID: "boot-a", settings: settings, store: db)
        #expect(next?.watch.watch.state == .watching)
    }
}
