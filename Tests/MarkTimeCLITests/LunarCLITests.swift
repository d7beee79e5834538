import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimeSky
import MarkTimeStore
import RigSupport
import Testing

@Suite("marktime lunar")
struct LunarCLITests {
    static let regulus = ["lunar", "--body", "Regulus", "--limb", "near", "--distance", "36 48.9", "--at", "2005-03-26T00:00:00Z", "--dr", "0 00 N 0 00 E"]

    @Test func itGivesTheLibrarysAnswer() throws {
        // Given Huxtable's Regulus lunar
        let cli = CLI()
        // When worked as JSON
        let j = try #require(try cli.json(Self.regulus) as? [String: Any])
        // Then error_s and uncertainty_s are the library's
        let lib = try LunarSolution(LunarObservation(body: Body(named: "Regulus")!, limb: .near, distance: 36 + 48.9 / 60,
                                                     watch: UTCTime(year: 2005, month: 3, day: 26)!, position: try Position(latitude: 0, longitude: 0)))
        #expect(abs(try #require(j["error_s"] as? Double) - lib.error) < 1e-9)
        #expect(abs(try #require(j["uncertainty_s"] as? Double) - lib.uncertainty) < 1e-9)
        #expect(j["utc"] as? String == lib.utc.iso8601)
    }

    @Test func theTableSaysWhatTheWatchIs() throws {
        // Given Ed's Aldebaran lunar with its altitudes
        let cli = CLI()
        // When worked
        let r = try cli.run(["lunar", "--body", "Aldebaran", "--limb", "far", "--distance", "95 53.8", "--at", "2017-12-24T00:05:54Z",
                             "--dr", "28 41.2 N 82 18.3 W", "--moon-hs", "36 52.3", "--body-hs", "36 12.0", "--eye-height", "0", "--pressure", "1013.25"])
        // Then the cleared distance and the watch's error are said
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("  cleared              95° 04'.8"), "\(r.stdout)")
        #expect(r.stdout.contains("The watch is 11 s fast: UT − watch = -11.2 s ± 24.2 s."), "\(r.stdout)")
    }

    @Test(arguments: [
        (["--body", "Moon"], "a lunar is the distance from the Moon to another body: give --body Sun, a planet or a star near the Moon's path"),
        (["--distance", "200"], "--distance 200° is out of range: it must be between 0° and 180°"),
        (["--moon-hs", "40 10"], "a measured altitude needs --eye-height (metres; 0 for an artificial horizon's half angle): its dip"),
        (["--moon-hs", "40 10", "--moon-limb", "center", "--eye-height", "2"], "--moon-limb is lower or upper: the Moon's centre cannot be brought to the horizon"),
        (["--body-hs", "40 10", "--body-limb", "lower", "--eye-height", "2"], "--body-limb: Regulus is taken by its centre; leave --body-limb out"),
        (["--error", "0"], "--error must be 0.01' to 30', not 0'"),
        (["--at", "1960-03-26T00:00:00Z"], "1960-03-26T00:00:00.000Z is outside the almanac's years 1990–2060"),
    ])
    func badInputIsRefusedWithASentence(_ change: [String], _ sentence: String) throws {
        // Given Huxtable's lunar with one thing wrong
        let cli = CLI()
        var args = Self.regulus
        for pair in stride(from: 0, to: change.count, by: 2) {
            if let i = args.firstIndex(of: change[pair]) { args[i + 1] = change[pair + 1] } else { args += [change[pair], change[pair + 1]] }
        }
        // When worked
        let r = try cli.run(args)
        // Then refused, saying why
        #expect(r.status != 0)
        #expect(r.stderr.contains(sentence), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    /// Stores a sight stamped unsynced at `watch` (Huxtable's watch time unless given), at
    /// `instant` (of an earlier boot unless given), on the equator at 0°.
    func mark(_ cli: CLI, at watch: UTCTime = UTCTime(year: 2005, month: 3, day: 26)!,
              instant: MonotonicInstant = MonotonicInstant(bootID: "boot-old", nanoseconds: 5_000_000_000)) throws {
        var sight = Sight(instant: instant, estimate: UTCEstimate(utc: watch, source: .unsynced, uncertainty: nil), createdAt: watch)
        sight.position = try Position(latitude: 0, longitude: 0)
        _ = try cli.database().insert(sight)
    }

    /// A store holding one sight, stamped at Huxtable's watch time on the equator at 0°.
    func markedStore() throws -> CLI {
        let cli = CLI()
        try mark(cli)
        return cli
    }

    @Test func aMarkedSightsStampIsTheWatchTimeAndItsPositionTheDR() throws {
        // Given the sight marked at Huxtable's distance
        let cli = try markedStore()
        // When worked with --sight 1, without --at or --dr
        let args = Array(Self.regulus.prefix(7)) + ["--sight", "1", "--format", "json"]
        let marked = try #require(try cli.json(args) as? [String: Any])
        // Then the answer is the one worked with --at and --dr, and names the sight
        let typed = try #require(try cli.json(Self.regulus + ["--format", "json"]) as? [String: Any])
        #expect(marked["error_s"] as? Double == typed["error_s"] as? Double)
        #expect(marked["utc"] as? String == typed["utc"] as? String)
        #expect(marked["sight"] as? Double == 1)
        #expect(marked["clock"] == nil)
    }

    @Test(.tags(.daemonProcess)) func setClockGivesTheLunarToTheRunningDaemonAndTheSightIsRedated() throws {
        // Given a running daemon whose system clock is no source (a boot without GPS or an RTC),
        // and a sight marked in this boot a moment ago, stamped unsynced at Huxtable's watch time
        let cli = CLI()
        for (key, value) in [("clock.trust_system", "false"), ("sound.enabled", "false")] {
            #expect(try cli.run(["config", "set", key, value], storeFlag: false).status == 0)
        }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { daemon.log.contains("marktime daemon started") }, "\(daemon.log)")
        let watch = UTCTime(year: 2005, month: 3, day: 26)!
        try mark(cli, at: watch, instant: try SystemClock().read().instant)
        // When its lunar is worked with --set-clock
        let r = try cli.run(Array(Self.regulus.prefix(7)) + ["--sight", "1", "--set-clock"])
        // Then the daemon takes it, the command says so, and the sight is re-dated from it
        let lib = try LunarSolution(LunarObservation(body: Body(named: "Regulus")!, limb: .near, distance: 36 + 48.9 / 60, watch: watch,
                                                     position: try Position(latitude: 0, longitude: 0)))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Clock: the lunar's UT, \(lib.utc.iso8601), is taken (lunar \(UTCEstimate.text(uncertainty: lib.uncertainty))) "
            + "and re-dates this boot's sights where it is better"), "\(r.stdout)")
        #expect(try eventually(within: 20) { try cli.database().sights().first?.estimate.source == .lunar }, "\(daemon.log)")
        let redated = try #require(try cli.database().sights().first)
        #expect(redated.estimate.utc == lib.utc)
        #expect(redated.estimate.uncertainty == lib.uncertainty)
    }

    @Test func setClockWithoutADaemonNamesTheFix() throws {
        // Given the marked sight and no daemon
        let cli = try markedStore()
        // When worked with --set-clock
        let r = try cli.run(Array(Self.regulus.prefix(7)) + ["--sight", "1", "--set-clock"])
        // Then refused, naming how to start the daemon and how to work it alone
        #expect(r.status == 1)
        #expect(r.stderr.contains("--set-clock gives the lunar's UT to the daemon's clock (start it with `marktime daemon`, or "
            + "`sudo systemctl start marktime`); without --set-clock the lunar is only worked"), "\(r.stderr)")
    }

    @Test func withASightWhoseStampIsDaysOffAtGivesTheWatchTime() throws {
        // Given a sight whose unsynced stamp is three days off
        let cli = CLI()
        try mark(cli, at: UTCTime(year: 2005, month: 3, day: 23)!)
        // When worked with --sight 1 and the watch time read at the distance
        let marked = try #require(try cli.json(Array(Self.regulus.prefix(9)) + ["--sight", "1", "--format", "json"]) as? [String: Any])
        // Then the answer is the one worked with --at alone
        let typed = try #require(try cli.json(Self.regulus + ["--format", "json"]) as? [String: Any])
        #expect(marked["utc"] as? String == typed["utc"] as? String)
        #expect(marked["sight"] as? Double == 1)
    }

    @Test(arguments: [
        (["--set-clock"], "--set-clock needs --sight ID: the sight marked at the distance ties its UT to the daemon's clock"),
    ])
    func setClockNeedsASight(_ extra: [String], _ sentence: String) throws {
        // Given Huxtable's lunar with --set-clock but no sight
        let cli = CLI()
        // When worked
        let r = try cli.run(Self.regulus + extra)
        // Then refused, saying why
        #expect(r.status == 64)
        #expect(r.stderr.contains(sentence), "\(r.stderr)")
    }

    @Test func withNeitherAtNorSightItAsksForTheWatchTime() throws {
        // Given Huxtable's lunar without --at
        let cli = CLI()
        // When worked
        let r = try cli.run(Array(Self.regulus.prefix(7)) + ["--dr", "0 00 N 0 00 E"])
        // Then refused, naming both ways
        #expect(r.status == 64)
        #expect(r.stderr.contains("give the watch time of the distance: --at TIME, or --sight ID for a marked one"), "\(r.stderr)")
    }

    @Test func withNoDRAndNoFixItAsksForTheDR() throws {
        // Given no --dr and no daemon
        let cli = CLI()
        // When worked
        let r = try cli.run(Array(Self.regulus.dropLast(2)))
        // Then refused, naming --dr
        #expect(r.status != 0)
        #expect(r.stderr.contains("no DR: give --dr (e.g. \"28 41.2 N 82 18.3 W\"), the position you reckon you are at"), "\(r.stderr)")
    }
}
