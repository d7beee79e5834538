import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import RigSupport
import Testing

/// Command lines an outsider tried carelessly (issue 57): a crash, a hang, files turned into
/// what they were not, and answers given in silence where a sentence was owed.
@Suite("Careless command lines: no crash, no hang, no file changed, and a sentence where one is owed")
struct CarelessInputCLITests {
    static let truth = try! Position(latitude: 35, longitude: -40)
    static let evening = UTCTime(year: 2026, month: 3, day: 10, hour: 22)!

    /// Star sights taken at `truth`, a minute apart.
    func stars(_ cli: CLI, _ names: [String]) throws -> [String] {
        try names.enumerated().map { k, name in
            let s = practiceSight(Body(named: name)!, at: Self.evening.adding(nanoseconds: Int64(k) * 60_000_000_000), from: Self.truth)
            return String(try cli.database().insert(s).id!)
        }
    }

    /// Runs `marktime ARGS` under `timeout`, so that a command that blocks fails the test
    /// (status 124) instead of hanging it.
    func runBounded(_ cli: CLI, _ args: [String]) throws -> CLI.Result {
        try runCommand("/usr/bin/timeout", ["60", CLI.binary] + args + ["--store", cli.store], environment: cli.environment)
    }

    @Test("reduce --average with two runs reduces both averages (they have no ID), without a crash")
    func reduceAverageOfTwoRuns() throws {
        // Given three sights of Sirius and three of Capella
        let cli = CLI()
        let ids = try stars(cli, ["Sirius", "Sirius", "Sirius", "Capella", "Capella", "Capella"])
        // When reduced with their runs averaged
        let r = try cli.run(["reduce", "--average", "--format", "json"] + ids)
        // Then both averages are reduced, with no ID and no run residual
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["body"] as? String } == ["Sirius", "Capella"])
        #expect(rows.allSatisfy { $0["id"] is NSNull && $0["run_residual_arcmin"] is NSNull })
    }

    @Test("A sight given twice is refused by every command that takes sight IDs, and a run's residual still shows")
    func aRepeatedSightIsRefused() throws {
        // Given three sights of Sirius
        let cli = CLI()
        let ids = try stars(cli, ["Sirius", "Sirius", "Sirius"])
        // When each command is given the first sight three times
        for command in ["reduce", "average", "fix", "plot", "noon"] {
            let r = try cli.run([command, ids[0], ids[0], ids[0]])
            // Then it is refused with one sentence
            #expect(r.status == 1)
            #expect(r.stderr == "Error: sight \(ids[0]) is given 3 times: a sight counts once in a reduction, an average or a fix; give each ID once\n", "\(command)")
        }
        // And the three sights once each make a run with residuals
        let rows = try #require(try cli.json(["reduce"] + ids) as? [[String: Any]])
        #expect(rows.allSatisfy { $0["run_residual_arcmin"] is Double })
    }

    @Test("average --at a century from the run is refused, not read off the line at Hs −4,402,314°")
    func anAverageFarFromItsRunIsRefused() throws {
        let cli = CLI()
        let ids = try stars(cli, ["Sirius", "Sirius", "Sirius"])
        let r = try cli.run(["average", "--at", "1990-01-01"] + ids)
        #expect(r.status == 1)
        #expect(r.stderr == "Error: the time to average to, 1990-01-01T00:00:00.000Z, is not within 10 minutes of the run "
            + "(2026-03-10T22:00:00.000Z to 2026-03-10T22:02:00.000Z): the almanac's slope carries a run over minutes, not hours; "
            + "give a time within the run, or leave it out for the kept sights' mean time\n")
    }

    // MARK: noon

    static let equinoxDR = try! Position(latitude: 45, longitude: 0)
    static var equinoxNoon: UTCTime { MeridianPassage.localApparentNoon(DeadReckoning(equinoxDR, at: UTCTime(year: 2026, month: 3, day: 20, hour: 12)!))!.utc }

    /// A Sun sight at 45° N 0° on 2026-03-20, `minutes` from the meridian passage.
    func sunSight(_ cli: CLI, minutes: Double) throws -> String {
        let s = practiceSight(.sun, at: Self.equinoxNoon.adding(nanoseconds: Int64(minutes * 6e10)), from: Self.equinoxDR)
        return String(try cli.database().insert(s).id!)
    }

    @Test("noon refuses a sight 3 hours before the meridian passage, saying how far it is and the limit")
    func noonRefusesASightFarFromTheMeridian() throws {
        let cli = CLI()
        let id = try sunSight(cli, minutes: -180)
        let r = try cli.run(["noon", id])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: sight \(id) was taken 3 h 0 min before the Sun's meridian passage at the DR, where its altitude changed "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("' a minute: a meridian sight is taken while it changes under 1' a minute (so that 15' of longitude in the DR moves the latitude "
            + "under 1'), within 15 min 21 s of the passage here; reduce it as a line of position with `marktime fix`, or give a sight taken nearer noon\n"), "\(r.stderr)")
        // And 30 minutes off too, where it once gave a latitude 21' out
        let half = try sunSight(cli, minutes: 30)
        #expect(try cli.run(["noon", half]).status == 1)
    }

    @Test("noon reduces a sight 5 minutes after the passage to the meridian and gives the true latitude, saying the rule")
    func noonReducesANearSightToTheMeridian() throws {
        let cli = CLI()
        let id = try sunSight(cli, minutes: 5)
        let json = try #require(try cli.json(["noon", id]) as? [String: Any])
        let meridian = try #require(json["meridian"] as? [String: Any])
        #expect(abs(try #require(meridian["latitude"] as? Double) - 45) < 1e-6)
        #expect(String(format: "%.1f", try #require(meridian["reduction_arcmin"] as? Double)) == "0.8")
        #expect(String(format: "%.1f", try #require(meridian["minutes_from_meridian"] as? Double)) == "5.0")
        let table = try cli.run(["noon", id])
        #expect(table.stdout.contains("Reduced to the meridian: +0.8' for 5 min 0 s after the passage at the DR (the altitude changing 0.3' a minute; "
            + "a sight is reduced while it changes under 1' a minute)\nLatitude: 45° 00'.00 N"), "\(table.stdout)")
    }

    @Test("noon warns of a run near the zenith")
    func noonWarnsNearTheZenith() throws {
        // Given seven Sun sights a minute apart around noon at 21° 26' N on 2026-06-21, 88° high
        let cli = CLI()
        let dr = try Position(latitude: 21.43, longitude: 0)
        let noon = try #require(MeridianPassage.localApparentNoon(DeadReckoning(dr, at: UTCTime(year: 2026, month: 6, day: 21, hour: 12)!))).utc
        let ids = try (-3...3).map { k in
            String(try cli.database().insert(practiceSight(.sun, at: noon.adding(nanoseconds: Int64(k) * 60_000_000_000), from: dr)).id!)
        }
        // When their latitude is worked
        let json = try #require(try cli.json(["noon"] + ids) as? [String: Any])
        // Then it carries the warning
        let flags = try #require(json["flags"] as? [[String: String]])
        #expect(flags.map { $0["kind"] } == ["high-altitude"])
        #expect(flags.first?["message"]?.contains("within 5° of the zenith") == true)
    }

    // MARK: ΔT

    @Test("almanac, sky, noon, polaris and identify say when UT1 is past the measured ΔT table",
          arguments: [["almanac", "Sun"], ["almanac", "Aries"], ["sky"], ["noon"], ["polaris", "--ho", "50"], ["identify", "--altitude", "40", "--zn", "120", "--radius", "90"]])
    func deltaTIsSaid(_ command: [String]) throws {
        // Given an instant in 2030, past the last measured ΔT (2026-10-01)
        let cli = CLI()
        let args = command + ["--at", "2030-08-01T01:00:00Z", "--position", "40 N 70 W"]
        // When the command is run, as a table and as JSON
        let table = try cli.run(args)
        let json = try #require(try cli.json(args) as? [String: Any])
        // Then both say how uncertain UT1 is: 0.05 s + 0.9 s a year for the 1,400 days and 1 h since
        let deltaT = 0.05 + 0.9 * (1_400 + 1.0 / 24) / 365.25
        let message = String(format: "past the last measured ΔT (2026-10-01): UT1 is uncertain by ±%.1f s, ±%.2f′ of GHA", deltaT, deltaT * 0.25)
        #expect(table.stdout.hasSuffix(message + "\n"), "\(table.stdout)\(table.stderr)")
        #expect(json["flags"] as? [[String: String]] == [["kind": "delta-t", "message": message]])
    }

    @Test("reduce --assumed says when UT1 is past the measured ΔT table, as reduce does")
    func assumedSaysDeltaT() throws {
        // Given a Vega sight on 2030-08-01
        let cli = CLI()
        let utc = UTCTime(year: 2030, month: 8, day: 1, hour: 1)!
        let id = String(try cli.database().insert(practiceSight(Body(named: "Vega")!, at: utc, from: Self.truth)).id!)
        let time = try #require(SkyTime(utc))
        let flag = try #require(ReductionFlag.deltaT(at: time)).message
        // When it is worked from an assumed position
        let table = try cli.run(["reduce", id, "--assumed"])
        let json = try #require(try cli.json(["reduce", id, "--assumed"]) as? [[String: Any]])
        // Then the flag is said beside the working, and in the JSON
        #expect(table.stdout.hasSuffix("  " + flag + "\n"), "\(table.stdout)\(table.stderr)")
        #expect(json.first?["flags"] as? [[String: String]] == [["kind": "delta-t", "message": flag]])
    }

    @Test("sky --twilight near the almanac's end says so, not polar day at the equator")
    func twilightPastTheAlmanacsEnd() throws {
        let cli = CLI()
        let r = try cli.run(["sky", "--twilight", "evening", "--at", "2060-12-31T20:00:00Z", "--position", "0 0"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: the next 36 hours from 2060-12-31T20:00:00.000Z run past the almanac's end (2060-12-31), so the next civil twilight "
            + "cannot be found: give --at at least 36 hours before it\n")
    }

    // MARK: polaris

    @Test("polaris from a DR at the pole gives both latitudes that fit, and --zn chooses; no formula past 68° N")
    func polarisAtThePole() throws {
        // Given Polaris's Hc at 89° N 128° W on 2030-02-01 03:00 UTC
        let cli = CLI()
        let e = Almanac.entry(Body(named: "Polaris")!, at: SkyTime(UTCTime(year: 2030, month: 2, day: 1, hour: 3)!)!)
        let hc = Computed(gha: e.gha, declination: e.declination, latitude: 89, longitude: -128).altitude
        let args = ["polaris", "--ho", String(hc), "--at", "2030-02-01T03:00:00Z", "--position", "90 N 128 W"]
        // When worked from the pole
        let table = try cli.run(args)
        let json = try #require(try cli.json(args) as? [String: Any])
        // Then the two latitudes are named with Polaris's bearing from each, and the formula is not printed
        #expect(table.stdout.contains("(the almanac's tables and formula stop at 68° N: the exact solution alone holds here)"), "\(table.stdout)")
        #expect(table.stdout.contains("and 89° 00'.00 N with it bearing 000°; the one nearer the DR is given: give --zn with the bearing seen to choose"), "\(table.stdout)")
        #expect(json["almanac_formula_latitude"] is NSNull)
        #expect(abs(try #require(json["other_latitude"] as? Double) - 89) < 1e-9)
        // And with the bearing seen, 000°, it is 89° N
        let seen = try #require(try cli.json(args + ["--zn", "0"]) as? [String: Any])
        #expect(abs(try #require(seen["latitude"] as? Double) - 89) < 1e-9)
    }

    // MARK: files

    @Test("A config.toml that is a symbolic link to a file is read, and config set writes through it, keeping the link")
    func aSymlinkedConfigIsRead() throws {
        // Given the config as a link to a file elsewhere
        let cli = CLI()
        let real = cli.folder + "/real.toml"
        try "[sound]\nvolume = 40\n".write(toFile: real, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: cli.config, withDestinationPath: real)
        // When a key is read and another set
        let get = try cli.run(["config", "get", "sound.volume"])
        let set = try cli.run(["config", "set", "sound.volume", "30"])
        // Then the file is read, the link stays a link, and its file holds the new value
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "40\n")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: cli.config) == real)
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("volume = 30"))
        #expect(try cli.run(["status"]).status == 0)
    }

    @Test("export and plot to a FIFO that no program reads are refused after 5 s, not blocked for ever; one with a reader gets the file")
    func aFIFOWithNoReaderIsRefused() throws {
        // Given three stars and a FIFO
        let cli = CLI()
        let ids = try stars(cli, ["Sirius", "Capella", "Regulus"])
        let fifo = cli.folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // When exported and plotted to it with no reader
        for args in [["export", "csv", "-o", fifo], ["plot", "-o", fifo] + ids] {
            let r = try runBounded(cli, args)
            // Then each is refused, not left waiting
            #expect(r.status == 1)
            #expect(r.stderr.hasSuffix("Error: cannot write \(fifo): it is a FIFO (named pipe) that no program read within 5 s; start its reader first, or choose a file\n"),
                    "\(r.stderr)")
        }
        // And with a reader, the CSV goes through it
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let r = try runBounded(cli, ["export", "csv", "-o", fifo])
        #expect(r.status == 0, "\(r.stderr)")
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        // (a header and three sights, CSV's CRLF lines)
        #expect(String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).count == 4)
    }

    @Test("sights and status on an empty file read an empty store and leave the file empty")
    func anEmptyFileIsNotMadeAStoreByAReader() throws {
        let cli = CLI()
        let empty = cli.folder + "/empty.sqlite"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for command in [["sights"], ["status"], ["sights", "--format", "json"]] {
            let r = try cli.run(command, storeFlag: false, environment: ["MARKTIME_STORE": empty])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: empty + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: empty + "-shm"))
        // And status names the file, not ":memory:"
        let status = try #require(try cli.run(["status", "--format", "json"], storeFlag: false, environment: ["MARKTIME_STORE": empty]).stdout.data(using: .utf8))
        #expect((try JSONSerialization.jsonObject(with: status) as? [String: Any])?["store"] as? String == empty)
    }

    /// Whether this machine lets a test mount a small tmpfs in its own namespace.
    static let canMountTmpfs: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
              let r = try? runCommand("/usr/bin/unshare", ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /tmp"], environment: ["PATH": "/usr/bin:/bin"])
        else { return false }
        return r.status == 0
    }()

    @Test("A store on a nearly full disk is named as such, not as a disk I/O error", .enabled(if: canMountTmpfs))
    func aNearlyFullDiskIsNamed() throws {
        // Given a 256 KB disk with 24 KB free, in a mount namespace of the test's own
        let cli = CLI()
        let disk = cli.folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let script = "mount -t tmpfs -o size=256k tmpfs \"$1\" && dd if=/dev/zero of=\"$1/fill\" bs=1k count=232 2>/dev/null; exec \"$2\" mark --store \"$1/n.sqlite\""
        // When a sight is marked on it
        let r = try runCommand("/usr/bin/unshare", ["-rm", "sh", "-c", script, "sh", disk, CLI.binary], environment: cli.environment)
        // Then the full disk is named
        #expect(r.status == 1)
        #expect(r.stderr.contains("failed: the disk holding it is full"), "\(r.stderr)")
        #expect(!r.stderr.contains("disk I/O error"))
    }
}
