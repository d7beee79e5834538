import Foundation
import RigSupport
import Testing

/// `marktime daemon` against a real gpsd replaying logs recorded from real receivers
/// (`../shared/nmea/`, from gpsd's own regression suite). The same tests run against
/// bookworm's gpsd 3.22 here and against trixie's 3.25 and unstable's 3.27 in
/// `Tests/rig/run trixie unstable`, so each libgps API's `gps_data_t` is read for real.
@Suite(.serialized, .tags(.gpsd, .daemonProcess))
struct ReceiverLogTests {
    /// A receiver's log and what marktime must make of it.
    struct Receiver: CustomTestStringConvertible, Sendable {
        let file: String
        /// The dates gpsd may give the log's fixes, as a sight's UTC starts: the log's own, and
        /// for a log older than gpsd's GPS week-rollover floor, that date 1024 weeks later
        /// (gpsd takes an old NMEA date for a receiver that lost a GPS week era: bookworm's
        /// 3.22 dates the 2014 log 2034-08-16 and the 2007 one 2026-11-22).
        let dates: [String]
        var testDescription: String { file }
    }

    static let receivers = [
        Receiver(file: "bu353s4.log", dates: ["2014-12-31", "2034-08-16"]),
        Receiver(file: "haicom-305N.log", dates: ["2007-04-08", "2026-11-22"]),
        Receiver(file: "jl-micro-jlt.log", dates: ["2021-08-12"]),
    ]

    static let folder: String? = {
        let here = URL(fileURLWithPath: #filePath)
        let shared = here.deletingLastPathComponent().appendingPathComponent("../../../shared/nmea").standardized.path
        return FileManager.default.fileExists(atPath: shared) ? shared : nil
    }()

    /// Every position the log's valid RMC and GGA sentences give, as `status` writes it.
    static func positions(in log: String) -> Set<String> {
        // A minute ending in exactly 5 thousandths may round either way once gpsd has made
        // degrees of it: both are accepted.
        func ddm(_ field: String, _ hemisphere: String, _ degreeDigits: Int) -> [String] {
            guard field.count > degreeDigits, let degrees = Int(field.prefix(degreeDigits)),
                  let minutes = Double(field.dropFirst(degreeDigits)) else { return [] }
            let scaled = minutes * 100
            let choices = abs(scaled - scaled.rounded(.down) - 0.5) < 1e-6 ? [scaled.rounded(.down), scaled.rounded(.up)] : [scaled.rounded()]
            return choices.map { String(format: "%d° %02d'.%02d %@", degrees, Int($0) / 100, Int($0) % 100, hemisphere) }
        }
        var found = Set<String>()
        for line in log.split(whereSeparator: \.isNewline) {
            let f = line.split(separator: "*").first.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
            var lat: [String] = [], lon: [String] = []
            if f.first?.hasSuffix("RMC") == true, f.count > 6, f[2] == "A" {
                lat = ddm(f[3], f[4], 2); lon = ddm(f[5], f[6], 3)
            } else if f.first?.hasSuffix("GGA") == true, f.count > 6, Int(f[6]) ?? 0 > 0 {
                lat = ddm(f[2], f[3], 2); lon = ddm(f[4], f[5], 3)
            }
            for a in lat { for o in lon { found.insert("\(a)  \(o)") } }
        }
        return found
    }

    @Test(.enabled(if: folder != nil, "needs ../shared/nmea beside the checkout"), arguments: receivers)
    func theDaemonShowsTheReceiversFixAndStampsAMarkFromIt(_ receiver: Receiver) throws {
        // Given gpsd replaying a real receiver's log, and the daemon watching it
        let cli = CLI()
        for (key, value) in [("sound.enabled", "false"), ("clock.trust_system", "false")] {
            let r = try cli.run(["config", "set", key, value], storeFlag: false)
            try #require(r.status == 0, "\(r.stderr)")
        }
        let log = try String(contentsOfFile: Self.folder! + "/" + receiver.file, encoding: .utf8)
        let expected = Self.positions(in: log)
        try #require(!expected.isEmpty)
        let gps = try FakeGPS(folder: cli.folder, log: log, cycle: 0.1)
        defer { gps.kill() }
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", gps.address, "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        func status() throws -> [String: Any] { try cli.json(["status"]) as? [String: Any] ?? [:] }

        // When gpsd has a fix and a time from the log
        #expect(try eventually(within: 60) { try status()["source"] as? String == "gps" },
                "daemon log:\n\(daemon.log)\ngpsfake:\n\(gps.child.output)")
        let mark = try cli.run(["mark"])
        let table = try cli.run(["status"]).stdout

        // Then status shows one of the log's own positions in degrees and decimal minutes,
        // and the mark is stamped from GPS on the date gpsd gives the log
        let line = table.split(separator: "\n").first { $0.hasPrefix("position") }.map(String.init) ?? ""
        let shown = line.dropFirst("position".count).trimmingCharacters(in: .whitespaces).components(separatedBy: "  (").first ?? ""
        #expect(expected.contains(shown), "status shows '\(shown)'; the log has \(expected.sorted().prefix(5))…\n\(table)")
        #expect(mark.status == 0, "\(mark.stderr)")
        let sight = (try cli.json(["sights"]) as? [[String: Any]])?.first ?? [:]
        let day = (sight["utc"] as? String)?.prefix(10).description
        #expect(day.map(receiver.dates.contains) == true, "\(sight)")
        #expect(sight["source"] as? String == "gps", "\(sight)")
    }

    @Test func theLogsPositionsAreReadAsStatusWritesThem() {
        // Given an RMC and a GGA of one place, and a void RMC elsewhere
        let log = "$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D\r\n"
            + "$GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,0.9,12.0,M,39.0,M,,*00\r\n"
            + "$GPRMC,095255.810,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A*6E\r\n"
        // When the test reads the positions it must accept
        let positions = Self.positions(in: log)
        // Then both valid sentences give the same place, and the void one none
        #expect(positions == ["37° 47'.09 S  175° 18'.89 E"])
    }
}
