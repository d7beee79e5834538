import Foundation
import MarkTimeCore
import RigSupport
import Testing

/// `marktime daemon` against a real gpsd, fed by gpsfake from a log dated 2025-03-14.
@Suite(.serialized, .tags(.gpsd, .daemonProcess))
struct GPSDTests {
    let cli = CLI()

    init() throws {
        // No button and no sound card here: the daemon must run without either. An
        // NTP-synchronised host clock would outrank gpsd; only gpsd counts in these tests.
        for (key, value) in [("sound.enabled", "false"), ("clock.trust_system", "false")] {
            let r = try cli.run(["config", "set", key, value], storeFlag: false)
            precondition(r.status == 0, r.stderr)
        }
    }

    func status() throws -> [String: Any] {
        try cli.json(["status"]) as? [String: Any] ?? [:]
    }

    func hasFix() throws -> Bool { try status()["fix_mode"] as? Int == 3 }

    @Test func statusShowsTheLogsPositionInDDM() throws {
        // Given gpsd playing the log and the daemon watching it
        let gps = try FakeGPS(folder: cli.folder)
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }

        // When the first fix has been published
        #expect(try eventually(within: 30, hasFix), "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")

        // Then status shows it in degrees and decimal minutes
        let table = try cli.run(["status"]).stdout
        #expect(table.contains("position  27° 22'.84 S  153° 22'.84 E  (3D fix"), "\(table)")
        #expect(try status()["gpsd"] as? String == "connected \(gps.address)")
    }

    @Test func aCLIMarkCarriesTheLogsDate() throws {
        // Given the daemon publishing GPS time from a log dated 14 March 2025
        let gps = try FakeGPS(folder: cli.folder)
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30) { try status()["source"] as? String == "gps" }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")

        // When the navigator marks from the command line
        let mark = try cli.run(["mark"])

        // Then the sight is stamped with the log's date, from the gps source
        #expect(mark.status == 0, "\(mark.stderr)")
        let sights = try cli.json(["sights"]) as? [[String: Any]] ?? []
        #expect(sights.count == 1)
        #expect((sights.first?["utc"] as? String)?.hasPrefix("2025-03-14T10:") == true, "\(sights)")
        #expect(sights.first?["source"] as? String == "gps")
    }

    @Test func aLostFixIsSaidAtOnceAndAMarkStoresNoPosition() throws {
        // Given gpsd playing 20 s with a fix, then 300 s in which the receiver has none
        let gps = try FakeGPS(folder: cli.folder, log: FakeGPS.losingItsFix(fixes: 20, lost: 300))
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30, hasFix), "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")

        // When gpsd reports mode 1
        #expect(try eventually(within: 40) { try status()["fix_mode"] as? Int == 1 }, "daemon log:\n\(daemon.log)")

        // Then status says there is no fix, and words the last one as the last
        let table = try cli.run(["status"]).stdout
        #expect(table.contains("position  no fix: gpsd has reported no fix (mode 1) for "), "\(table)")
        #expect(table.contains("; last 3D fix 27° 22'.84 S  153° 22'.84 E, "), "\(table)")
        #expect(try status()["fix_lost_s"] is Double)
        // And a mark stores no position, and the log says when the fix went
        let mark = try cli.json(["mark"]) as? [String: Any] ?? [:]
        #expect(mark["lat"] is NSNull && mark["fix_mode"] is NSNull, "\(mark)")
        #expect(daemon.log.contains("GPS fix lost: gpsd reports no fix"), "\(daemon.log)")
        // And no fix means no gps time and no position fields, but the last fix named as such
        #expect(mark["source"] as? String != "gps", "\(mark)")
        let said = try status()
        #expect(said["lat"] is NSNull && said["lon"] is NSNull && said["position"] is NSNull, "\(said)")
        #expect(said["last_fix_position"] as? String == "27° 22'.84 S  153° 22'.84 E", "\(said)")
    }

    @Test func aJumpInGPSTimeNeverMovesAStoredStamp() throws {
        // Given gpsd looping a log whose time jumps 17 minutes forward after 12 s, and back
        // to its start when it loops, as a receiver's glitch and a looping replay do
        let gps = try FakeGPS(folder: cli.folder, log: FakeGPS.timed(seconds: Array(0..<12) + Array(1032..<1044)))
        defer { gps.kill() }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        #expect(try eventually(within: 30) { try status()["source"] as? String == "gps" }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")

        // When the navigator marks again and again until the time has jumped forward and back
        var marks: [(id: Int64, utc: UTCTime, uncertainty: Double)] = []
        let jumped = try eventually(within: 60) {
            let m = try cli.json(["mark"]) as? [String: Any] ?? [:]
            if m["source"] as? String == "gps", let id = m["id"] as? Int64, let utc = (m["utc"] as? String).flatMap({ UTCTime.parse($0)?.time }),
               let u = m["uncertainty_s"] as? Double {
                marks.append((id, utc, u))
            }
            return daemon.log.components(separatedBy: "gps time jumped").count > 2
        }
        #expect(jumped, "daemon log:\n\(daemon.log)")
        // and the daemon stops, its writer having done every re-stamp it planned
        _ = daemon.stop()

        // Then each jump was said in words, and every stored stamp is within its stated
        // uncertainty of the stamp printed at the press
        #expect(daemon.log.contains("a new run starts, and no stamp is interpolated or carried across the jump"), "\(daemon.log)")
        #expect(marks.count >= 10, "\(marks.count) marks")
        let stored = Dictionary(uniqueKeysWithValues: (try cli.json(["sights", "-n", "10000"]) as? [[String: Any]] ?? []).compactMap { s in
            (s["id"] as? Int64).map { ($0, s) }
        })
        for mark in marks {
            let s = try #require(stored[mark.id])
            let utc = try #require((s["utc"] as? String).flatMap { UTCTime.parse($0)?.time })
            let moved = Double(utc.nanosecondsSinceEpoch - mark.utc.nanosecondsSinceEpoch) / 1e9
            // Both are printed to the millisecond.
            #expect(abs(moved) <= mark.uncertainty + 0.001, "sight \(mark.id) moved \(moved) s from \(mark.utc.iso8601) (±\(mark.uncertainty) s): \(s)")
        }
    }

    /// A log whose time shifts by `seconds` after 12 s. (A date 1024 weeks back in the same
    /// log's RMC, a week rollover, never reached marktime through gpsd 3.22: it sent no time
    /// for 146 s, then the log's time of day on the date it had. The core's tests cover the
    /// rollover itself.)
    static func shifted(by seconds: Int) -> String {
        FakeGPS.timed(seconds: Array(0..<12)) + FakeGPS.timed(seconds: Array((12 + seconds)..<(400 + seconds)))
    }

    @Test(arguments: [2, 30])
    func gpsThatShiftsMidStreamIsSetAsideUntilTheNavigatorTrustsIt(seconds: Int) throws {
        // Given gpsd replaying a log whose time shifts 2 s or 30 s after 12 s (a spoofer's offset)
        let gps = try FakeGPS(folder: cli.folder, log: Self.shifted(by: seconds))
        defer { gps.kill() }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30) { try status()["source"] as? String == "gps" }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")
        // When the shift comes
        let aside = try eventually(within: 60) { try status()["gps_set_aside"] is String }
        // Then GPS is set aside, in words, with how far off it is (the log's second against the daemon's, to 0.3 s)
        #expect(aside, "daemon log:\n\(daemon.log)")
        let said = try #require(try status()["gps_set_aside"] as? String)
        let off = try #require(said.firstMatch(of: /it is ([+-][0-9.]+) s off/).flatMap { Double($0.1) }, "\(said)")
        #expect(abs(off - Double(seconds)) < 0.3, "\(said)")
        #expect(daemon.log.contains("gps time disagrees with the time carried from gps at 2025-03-14T10:00:"), "\(daemon.log)")
        // And a mark is carried from a sample before the shift
        func carriedFrom(_ mark: [String: Any]) throws -> String {
            let id = try #require(mark["id"] as? Int64)
            let sight = try #require(try cli.json(["sight", "show", String(id)]) as? [String: Any])
            let provenance = try #require(sight["provenance"] as? [String: Any], "\(sight)")
            return try #require((provenance["samples"] as? [[String: Any]])?.first?["utc"] as? String, "\(provenance)")
        }
        let before = try carriedFrom(try #require(try cli.json(["mark"]) as? [String: Any]))
        #expect(before.hasPrefix("2025-03-14T10:00:0") || before.hasPrefix("2025-03-14T10:00:10") || before.hasPrefix("2025-03-14T10:00:11"), "\(before)")

        // When the navigator accepts GPS
        let r = try cli.run(["clock", "trust-gps"])
        // Then it counts again, and a mark is stamped from GPS's new time
        #expect(r.status == 0, "\(r.stderr)\n\(daemon.log)")
        #expect(r.stdout.hasSuffix("gps time accepted: it counts again\n"), "\(r.stdout)")
        #expect(try status()["gps_set_aside"] is NSNull)
        let after = try carriedFrom(try #require(try cli.json(["mark"]) as? [String: Any]))
        #expect(after >= "2025-03-14T10:00:\(12 + seconds)" && after < "2025-03-14T10:08", "\(after)")
        #expect(daemon.log.contains("gps time accepted by the navigator as it is: it counts again"), "\(daemon.log)")
    }

    @Test func aPositionThatJumpsFiftyMilesIsFlaggedUntilTheNavigatorTrustsIt() throws {
        // Given gpsd replaying a log whose position jumps 50' of latitude north after 12 s (a spoofer's)
        let log = FakeGPS.timed(seconds: Array(0..<12)) + FakeGPS.timed(seconds: Array(12..<400), latitude: "2632.840,S")
        let gps = try FakeGPS(folder: cli.folder, log: log)
        defer { gps.kill() }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30) { try status()["source"] as? String == "gps" }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")
        // When the jump comes
        // Then the position is flagged, in words, in status and the log
        #expect(try eventually(within: 60) { try status()["position_flag"] is String }, "daemon log:\n\(daemon.log)")
        let flag = try #require(try status()["position_flag"] as? String)
        #expect(flag.hasPrefix("gps position moved 50.0 nm in "), "\(flag)")
        #expect(daemon.log.contains("gps position moved 50.0 nm in "), "\(daemon.log)")
        // And a mark keeps the position only with the flag
        let mark = try #require(try cli.json(["mark"]) as? [String: Any])
        let id = try #require(mark["id"] as? Int64)
        let sight = try #require(try cli.json(["sight", "show", String(id)]) as? [String: Any])
        #expect(sight["lat_ddm"] as? String == "26° 32'.84 S", "\(sight)")
        #expect((sight["position_flag"] as? String)?.hasPrefix("gps position moved 50.0 nm in ") == true, "\(sight)")

        // When the navigator accepts it
        let r = try cli.run(["clock", "trust-gps"])
        // Then it counts again
        #expect(r.status == 0, "\(r.stderr)\n\(daemon.log)")
        #expect(r.stdout.hasSuffix("gps position accepted: it counts again\n"), "\(r.stdout)")
        #expect(try status()["position_flag"] is NSNull)
        let after = try #require(try cli.json(["mark"]) as? [String: Any])
        let afterID = try #require(after["id"] as? Int64)
        let plain = try #require(try cli.json(["sight", "show", String(afterID)]) as? [String: Any])
        #expect(plain["position_flag"] is NSNull, "\(plain)")
    }

    @Test func aDaemonRestartedInTheSameBootFlagsAPositionFiftyMilesFromTheLastOneTrusted() throws {
        // Given a daemon that took gpsd's fixes at 27° 22'.84 S and stopped
        let first = try FakeGPS(folder: cli.folder, log: FakeGPS.timed(seconds: Array(0..<400)))
        defer { first.kill() }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", first.address, "--button", cli.folder + "/no-button"])
        #expect(try eventually(within: 30) { try status()["position"] is String }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(first.child.output)")
        daemon.stop()
        first.kill()
        // When it starts again in this boot, and gpsd's first fix is 50' of latitude north (a spoofer's)
        let spoofed = try FakeGPS(folder: cli.folder, log: FakeGPS.timed(seconds: Array(0..<400), latitude: "2632.840,S"))
        defer { spoofed.kill() }
        let again = try DaemonProcess(cli: cli, arguments: ["--gpsd", spoofed.address, "--button", cli.folder + "/no-button"])
        defer { again.stop() }
        // Then that position is flagged, checked against the last fix trusted before the restart
        #expect(try eventually(within: 60) { try status()["position_flag"] is String }, "daemon log:\n\(again.log)\ngpsfake:\n\(spoofed.child.output)")
        let flag = try #require(try status()["position_flag"] as? String)
        #expect(flag.hasPrefix("gps position moved 50.0 nm in "), "\(flag)")
        #expect(again.log.contains("the last fix trusted before this start (27° 22'.84 S  153° 22'.84 E): the next fix is checked against it"), "\(again.log)")
    }

    @Test func aStoppedGpsdIsFoundSilentStopsCountingAndIsTakenBackWhenItSpeaks() throws {
        // Given the daemon stamping from gpsd's time
        let gps = try FakeGPS(folder: cli.folder)
        defer { gps.kill() }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30) { try status()["source"] as? String == "gps" }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")
        let pid = try #require(gps.gpsdPID)

        // When gpsd hangs (SIGSTOP): its socket stays open and says nothing
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }

        // Then status says it is silent, counting, and the time no longer comes from gps
        #expect(try eventually(within: 30) { (try status()["gpsd"] as? String)?.hasPrefix("silent for ") == true },
                "daemon log:\n\(daemon.log)")
        let said = try status()
        #expect((said["gpsd"] as? String)?.hasSuffix(" s at \(gps.address); reconnecting") == true, "\(said)")
        #expect(said["source"] as? String == "unsynced", "\(said)")
        #expect(said["fix_mode"] as? Int == 0, "\(said)")
        #expect(daemon.log.contains("gpsd is silent; its time and fix no longer count, reconnecting"), "\(daemon.log)")
        // And a mark now is neither stamped from gps nor given the old position
        let mark = try cli.json(["mark"]) as? [String: Any] ?? [:]
        #expect(mark["source"] as? String == "unsynced", "\(mark)")
        #expect(mark["lat"] is NSNull, "\(mark)")

        // When gpsd runs again (SIGCONT)
        kill(pid, SIGCONT)

        // Then it is connected and counts again
        #expect(try eventually(within: 30) { try status()["gpsd"] as? String == "connected \(gps.address)" }, "daemon log:\n\(daemon.log)")
        #expect(try eventually(within: 10) { try status()["source"] as? String == "gps" })
        #expect(try eventually(within: 10, hasFix))
    }

    @Test func aCLIMarkIsStampedAndStoredByTheDaemon() throws {
        // Given the daemon with gpsd's time and fix
        let gps = try FakeGPS(folder: cli.folder)
        defer { gps.kill() }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        // (both: status can show the fix before the daemon counts gpsd's time, and a mark
        // then is stamped unsynced, honestly; trixie's gpsd did so once in CI)
        #expect(try eventually(within: 30) { try hasFix() && status()["source"] as? String == "gps" },
                "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")

        // When the navigator marks from the command line, with a note
        let mark = try cli.json(["mark", "--note", "Sun LL"]) as? [String: Any] ?? [:]

        // Then the daemon stamped and stored it, as for the button: its log has the sight
        // (only the daemon logs there), and what is printed is what the store holds
        #expect(mark["source"] as? String == "gps", "\(mark)")
        #expect(mark["trigger"] as? String == "cli")
        #expect(mark["lat_ddm"] as? String == "27° 22'.84 S", "\(mark)")
        #expect(eventually(within: 10) { daemon.log.contains("trigger=cli") && daemon.log.contains("sight stored") }, "\(daemon.log)")
        let stored = (try cli.json(["sights"]) as? [[String: Any]])?.first ?? [:]
        #expect(stored["utc"] as? String == mark["utc"] as? String)
        #expect(stored["note"] as? String == "Sun LL")
        #expect(stored["id"] as? Int64 == mark["id"] as? Int64)
    }

    @Test func reconnectsWhenGpsdRestarts() throws {
        // Given the daemon connected to gpsd
        let first = try FakeGPS(folder: cli.folder)
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", first.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30, hasFix), "daemon log:\n\(daemon.log)\ngpsfake:\n\(first.child.output)")

        // When gpsd dies
        first.kill()
        #expect(try eventually(within: 10) { (try status()["gpsd"] as? String)?.hasPrefix("waiting for gpsd at \(first.address) (tried ") == true },
                "daemon log:\n\(daemon.log)")

        // Then a gpsd started again on the same port is picked up
        let second = try FakeGPS(folder: cli.folder, port: first.port)
        defer { second.kill() }
        #expect(try eventually(within: 45) { try status()["gpsd"] as? String == "connected \(second.address)" },
                "daemon log:\n\(daemon.log)\ngpsfake:\n\(second.child.output)")
        #expect(try eventually(within: 10) { (try status()["fix_age_s"] as? Double).map { $0 < 2 } == true })
    }

    @Test("While gpsd stays silent the daemon connects and watches again and again, and takes the fix once the receiver speaks")
    func aSilentGpsdIsWatchedAgainAndAgainUntilItsReceiverSpeaks() throws {
        // Given gpsd on a receiver that sends nothing yet, and the daemon watching it (gpsd
        // counts as silent after 1 s)
        #expect(try cli.run(["config", "set", "gpsd.silent_s", "1"], storeFlag: false).status == 0)
        let receiver = try PlayedReceiver(folder: cli.folder)
        defer { _ = receiver.child.stop(SIGKILL) }
        let gpsd = try GPSDOnAReceiver(folder: cli.folder, device: receiver.path)
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gpsd.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30) { (try status()["gpsd"] as? String)?.hasPrefix("silent for ") == true }, "\(daemon.log)")
        // And it has connected and watched again three times (after 1, 2 and 4 s more), still with nothing to hear
        #expect(eventually(within: 30) { gpsd.watches >= 4 }, "daemon log:\n\(daemon.log)\ngpsd:\n\(gpsd.child.output)")

        // When the receiver starts to play the log
        try receiver.speak()

        // Then the daemon is connected, with the log's fix
        #expect(try eventually(within: 90) { try status()["gpsd"] as? String == "connected \(gpsd.address)" && hasFix() },
                "daemon log:\n\(daemon.log)\ngpsd:\n\(gpsd.child.output)")
    }

    @Test func aSightStampedUnsyncedIsBackfilledFromGPS() throws {
        // Given a daemon whose gpsd is not up yet, and a mark stamped from the free-running clock
        let port = try FakeGPS.freePort()
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:\(port)", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 10) { try status()["daemon_heartbeat_age_s"] != nil })
        let mark = try cli.json(["mark"]) as? [String: Any] ?? [:]
        #expect(mark["source"] as? String == "unsynced")

        // When gpsd comes up with time from 14 March 2025
        let gps = try FakeGPS(folder: cli.folder, port: port)
        defer { gps.kill() }

        // Then the sight is re-stamped from GPS, keeping its first stamp
        #expect(try eventually(within: 20) { (try cli.json(["sights"]) as? [[String: Any]])?.first?["source"] as? String == "gps" },
                "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")
        let sight = (try cli.json(["sights"]) as? [[String: Any]])?.first ?? [:]
        #expect((sight["utc"] as? String)?.hasPrefix("2025-03-14T") == true, "\(sight)")
        let original = sight["original"] as? [String: Any] ?? [:]
        #expect(original["utc"] as? String == mark["utc"] as? String)
        #expect(original["source"] as? String == "unsynced")
        #expect(sight["corrected_at"] is String)
        #expect(sight["monotonic_ns"] as? Int64 == mark["monotonic_ns"] as? Int64)
    }

    @Test func aGpsdThatAcceptsButSaysNothingIsNotCalledConnected() throws {
        // Given gpsd hung (SIGSTOP) before the daemon starts: the kernel still accepts its connections
        let gps = try FakeGPS(folder: cli.folder)
        defer { gps.kill() }
        let pid = try #require(gps.gpsdPID)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }

        // When the daemon connects, and finds it silent
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30) { (try status()["gpsd"] as? String)?.hasPrefix("silent for ") == true }, "\(daemon.log)")

        // Then it said it was waiting for a first report, and never that gpsd reports
        #expect(daemon.log.contains("connected to gpsd; waiting for its first report"), "\(daemon.log)")
        #expect(!daemon.log.contains("gpsd reports"), "\(daemon.log)")

        // When gpsd runs again, it is connected once it reports
        kill(pid, SIGCONT)
        #expect(try eventually(within: 30) { try status()["gpsd"] as? String == "connected \(gps.address)" }, "\(daemon.log)")
        #expect(daemon.log.contains("gpsd reports"), "\(daemon.log)")
    }

    @Test func anAbsentGpsdLeavesAQuietRunningDaemon() throws {
        // Given nothing listening on port 1
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }

        // When the daemon has tried three times or more (its status counts them, and says when
        // it tries again: 1 s after the first, then twice as long each time)
        var state = "", tries = 0
        #expect(try eventually(within: 30) {
            state = try status()["gpsd"] as? String ?? ""
            tries = Int(state.split(separator: " ").dropFirst(6).first ?? "") ?? 0
            return tries >= 3
        }, "\(state)\n\(daemon.log)")
        #expect(state == "waiting for gpsd at 127.0.0.1:1 (tried \(tries) times, again in \(min(1 << (tries - 1), 30)) s)")

        // Then it is still running and said so once
        #expect(daemon.child.isRunning, "exit status \(daemon.child.exitStatus.map(String.init) ?? "none"), log:\n\(daemon.log)")
        #expect(daemon.log.components(separatedBy: "gpsd not reachable").count == 2, "\(daemon.log)")
    }

    @Test func sigtermStopsTheDaemon() throws {
        // Given a running daemon
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        #expect(eventually(within: 10) { daemon.log.contains("marktime daemon started") })

        // When systemd sends SIGTERM
        let seconds = daemon.stop()

        // Then it exits cleanly within systemd's patience, saying so
        #expect(daemon.child.exitedCleanly)
        #expect(seconds < 5)
        #expect(daemon.log.contains("marktime daemon stopped"), "\(daemon.log)")
        #expect(try status()["daemon_stopped"] as? Bool == true)
    }

    @Test func aTrackEntersThenLeavesHome() throws {
        // Given Home (150 m, so left beyond 170 m) and the device's member, and a track: 30 fixes
        // at Home, then south at 15 m a fix (29 kn: no faster than a boat can) to 450 m away
        _ = try cli.run(["place", "add", "Home", "--position", "27 22.84 S 153 22.84 E", "--radius", "150", "--kind", "home"])
        _ = try cli.run(["member", "add", "Anna", "--me"])
        let home = (latitude: -(27 + 22.84 / 60), longitude: 153 + 22.84 / 60)
        let south = (1...30).map { k in (latitude: home.latitude - Double(k) * 15 / 1852 / 60, longitude: home.longitude) }
        let track = FakeGPS.track(Array(repeating: home, count: 30) + south)
        // When the daemon follows it from gpsd
        let gps = try FakeGPS(folder: cli.folder, log: track, cycle: 0.1, once: true)
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        let events = { try self.cli.json(["place", "history"]) as? [[String: Any]] ?? [] }
        #expect(try eventually(within: 40) { try events().count == 2 }, "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")
        // Then Anna entered Home (on the third fix the daemon saw there: gpsd's first ones may
        // come before the daemon's watch) and left on the third fix beyond 170 m (the first is
        // 180 m, at 10:00:41), at 10:00:43
        let seen = try events().map { "\($0["member"] ?? "") \($0["event"] ?? "") \($0["place"] ?? "")" }
        #expect(seen == ["Anna enter Home", "Anna leave Home"])
        let times = try events().compactMap { $0["time"] as? String }
        #expect(times.count == 2 && times[0] >= "2025-03-14T10:00:02.000Z" && times[0] <= "2025-03-14T10:00:29.000Z", "\(times)")
        #expect(times.last == "2025-03-14T10:00:43.000Z")
        // And `where` says how far from Home the member was when it left: the leave's fix,
        // 14 × 15 m south (209 m on the sphere)
        #expect(try cli.run(["where"]).stdout == "Unknown — nearest Home, 209 m\n")
    }

    @Test func theShipKeepsZoneTimeForTheFixsLongitude() throws {
        // Given the daemon with a fix at 153° 22'.84 E, and nobody ashore
        let gps = try FakeGPS(folder: cli.folder)
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 30, hasFix), "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")

        // When the people view is asked for 12:00 UTC on 15 January 2026
        let rows = try cli.json(["people", "at", "12:00", "--date", "2026-01-15", "--zone", "UTC"]) as? [[String: Any]] ?? []

        // Then a Ship row keeps zone time: ZD −10, 22:00 the same day
        #expect(rows.count == 1)
        #expect(rows.first?["name"] as? String == "Ship")
        #expect(rows.first?["zone"] as? String == "ZD −10")
        #expect(rows.first?["local"] as? String == "2026-01-15 22:00")
        #expect(rows.first?["offset"] as? String == "+10:00")
        #expect(rows.first?["sky"] as? String == "night")
    }
}

/// gpsd on a private port with one receiver, `device`, which it opens when a client watches.
final class GPSDOnAReceiver {
    let port: UInt16
    let child: Child

    init(folder: String, device: String) throws {
        port = try FakeGPS.freePort()
        // Under a shell that waits for it: gpsd logs to syslog, not to its standard error,
        // when it leads its session, as a Child does.
        child = try Child("/bin/sh", ["-c", "/usr/sbin/gpsd -N -D 4 -S \(port) -F \(folder)/gpsd-\(port).sock \(device); :"],
                          log: folder + "/gpsd-\(port).log", environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard eventually(within: 15, { tcpAccepts(port: self.port) }) else { throw POSIXError(.ECONNREFUSED) }
    }

    var address: String { "127.0.0.1:\(port)" }

    /// How many WATCH commands gpsd has had from its clients.
    var watches: Int { child.output.components(separatedBy: "?WATCH=").count - 1 }

    deinit { _ = child.stop(SIGTERM) }
}

/// A pseudo-terminal that plays `FakeGPS.log()` in a loop, as a serial receiver would,
/// from when `speak` is called.
final class PlayedReceiver {
    let child: Child
    let path: String
    private let go: String

    init(folder: String) throws {
        go = folder + "/receiver.go"
        let log = folder + "/receiver.nmea"
        try FakeGPS.log().write(toFile: log, atomically: true, encoding: .utf8)
        let script = """
            import os, pty, sys, time, tty
            master, slave = pty.openpty()
            tty.setraw(slave)
            os.chmod(os.ttyname(slave), 0o666)
            print(os.ttyname(slave), flush=True)
            sentences = [s for s in open(sys.argv[1], "rb").read().split(b"\\r\\n") if s]
            while not os.path.exists(sys.argv[2]):
                time.sleep(0.1)
            while True:
                for i in range(0, len(sentences), 2):
                    os.write(master, b"\\r\\n".join(sentences[i:i + 2]) + b"\\r\\n")
                    time.sleep(0.5)
            """
        let feeder = try Child("/usr/bin/python3", ["-c", script, log, go], log: folder + "/receiver.log", environment: ["PATH": "/usr/bin:/bin"])
        guard eventually(within: 10, { feeder.output.hasPrefix("/dev/") && feeder.output.hasSuffix("\n") }) else {
            _ = feeder.stop(SIGKILL)
            throw POSIXError(.ENODEV)
        }
        (child, path) = (feeder, feeder.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Starts the sentences.
    func speak() throws { try "go\n".write(toFile: go, atomically: true, encoding: .utf8) }
}
