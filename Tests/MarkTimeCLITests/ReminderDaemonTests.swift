import Foundation
import MarkTimeCore
import MarkTimeSky
import RigSupport
import Testing

/// Reminders fired by `marktime daemon` on a real store, with the chime captured
/// through an ALSA file PCM. No gpsd and no button: the daemon runs without both. What
/// the reminder thread decides (once, late, never for a task done) is tested on the
/// daemon's fakes, on a fake clock (MarkTimeDaemonTests' ReminderFakesTests); these are
/// its contract with the machine's wall clock, the CLI's doorbell and ALSA.
@Suite("reminders in the daemon", .serialized, .tags(.daemonProcess, .gpsd, .alsa))
struct ReminderDaemonTests {
    let cli = CLI()
    var wav: String { cli.folder + "/chime.wav" }

    init() throws {
        for (key, value) in [("sound.enabled", "true"), ("home.zone", "UTC")] {
            let r = try cli.run(["config", "set", key, value], storeFlag: false)
            precondition(r.status == 0, r.stderr)
        }
        try "pcm.!default {\n type file\n slave.pcm \"null\"\n file \"\(wav)\"\n format \"wav\"\n}\n"
            .write(toFile: cli.folder + "/asound.conf", atomically: true, encoding: .utf8)
    }

    func startDaemon() throws -> DaemonProcess {
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"],
                                       environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(cli.folder)/asound.conf"])
        #expect(try eventually(within: 10) { try cli.json(["status"]) as? [String: Any] != nil && daemon.log.contains("marktime daemon started") })
        return daemon
    }

    func tasks() throws -> [[String: Any]] { try cli.json(["task", "list", "--all"]) as? [[String: Any]] ?? [] }

    func add(_ title: String, due: String, remind: String) throws {
        let r = try cli.run(["task", "add", title, "--due", due, "--remind", remind])
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// The chimes in the WAV file: each two notes, 880 Hz for 200 ms, then 1320 Hz for 300 ms.
    func chimes() throws -> Int {
        let bursts = try PCMSamples(wavFile: wav).bursts()
        let notes = bursts.map { (Int(($0.hertz / 10).rounded()) * 10, Int((Double($0.length) / 48).rounded())) }
        #expect(bursts.count % 2 == 0 && notes.enumerated().allSatisfy { i, n in
            i % 2 == 0 ? abs(n.0 - 880) <= 10 && abs(n.1 - 200) <= 2 : abs(n.0 - 1320) <= 10 && abs(n.1 - 300) <= 2
        }, "\(notes)")
        return bursts.count / 2
    }

    @Test func aReminderAddedWhileRunningFiresWithAChime() throws {
        // Given the daemon running
        let daemon = try startDaemon()
        // When a task is added with a reminder 3 s away, and another one an hour away
        try add("Wind the chronometer", due: "+1h", remind: "+3s")
        try add("Evening star sights", due: "+3h", remind: "+1h")
        // Then the first fires on the machine's wall clock, is logged after its chime was
        // queued (a stop plays what is queued), and the far one does not
        #expect(try eventually(within: 15) { daemon.log.contains("title=Wind the chronometer") }, "daemon log:\n\(daemon.log)")
        daemon.stop()
        let all = try tasks()
        #expect(all.map { $0["reminded_at"] is String } == [true, false])
        #expect(all.first?["reminded_late"] as? Bool == false)
        #expect(try chimes() == 1)
    }

    @Test func aChimeWarnsOfLocalApparentNoonAtTheBoatsPosition() throws {
        // Given plan.alarms on, 10 minutes ahead, and a receiver at 27° 22'.84 S on the longitude where the Sun
        // crosses the meridian 5 minutes from now (by this machine's clock, which the warnings run on)
        for (key, value) in [("plan.alarms", "true"), ("plan.alarm_min", "10")] {
            let r = try cli.run(["config", "set", key, value], storeFlag: false)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let noon = UTCTime(nanosecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1e9) + 300_000_000_000)
        var lon = -Almanac.entry(.sun, at: try #require(SkyTime(noon))).gha
        lon -= 360 * (lon / 360).rounded()
        let minutes = abs(lon) * 60
        let nmea = String(format: "%03d%06.3f,%@", Int(minutes / 60), minutes.truncatingRemainder(dividingBy: 60), lon < 0 ? "W" : "E")
        let gps = try FakeGPS(folder: cli.folder, log: FakeGPS.timed(seconds: Array(0..<900), longitude: nmea))
        defer { gps.kill() }
        // When the daemon runs with it
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"],
                                       environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(cli.folder)/asound.conf"])
        // Then it warns of noon in words, once, with where, and chimes once
        #expect(try eventually(within: 60) { daemon.log.contains("local apparent noon is in ") }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")
        daemon.stop()
        #expect(daemon.log.components(separatedBy: "local apparent noon is in ").count - 1 == 1, "\(daemon.log)")
        #expect(daemon.log.contains(" UTC, at 27° 22'.84 S  "), "\(daemon.log)")
        #expect(try chimes() == 1)
    }
}
