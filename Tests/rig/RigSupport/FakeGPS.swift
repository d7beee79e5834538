import Foundation

/// gpsd fed by gpsfake on a private port, looping an NMEA log the test wrote.
public final class FakeGPS {
    public let port: UInt16
    public let child: Child

    /// A log of RMC and GGA sentences, one pair per second from `start` (hhmmss),
    /// dated `date` (ddmmyy), at 27° 22'.84 S 153° 22'.84 E.
    public static func log(date: String = "140325", seconds: Int = 60) -> String {
        track(date: date, Array(repeating: (latitude: -(27 + 22.84 / 60), longitude: 153 + 22.84 / 60), count: seconds))
    }

    /// A track: one RMC and GGA pair per second from 10:00:00 on `date`, through `points`
    /// (signed decimal degrees).
    public static func track(date: String = "140325", _ points: [(latitude: Double, longitude: Double)]) -> String {
        func ddmm(_ v: Double, _ width: Int) -> String {
            let a = abs(v), d = Int(a), m = (a - Double(d)) * 60
            return String(format: "%0\(width)d%06.3f", d, m)
        }
        return points.enumerated().map { i, p in
            let t = String(format: "%02d%02d%02d.00", 10 + i / 3600, i / 60 % 60, i % 60)
            let lat = "\(ddmm(p.latitude, 2)),\(p.latitude < 0 ? "S" : "N")", lon = "\(ddmm(p.longitude, 3)),\(p.longitude < 0 ? "W" : "E")"
            return [
                "GPRMC,\(t),A,\(lat),\(lon),000.0,000.0,\(date),,,A",
                "GPGGA,\(t),\(lat),\(lon),1,08,0.9,12.0,M,39.0,M,,",
            ].map(sentence).joined()
        }.joined()
    }

    /// One RMC and GGA pair per entry of `seconds` (seconds after 10:00:00 on `date`, in the
    /// order given), at 27° 22'.84 S 153° 22'.84 E unless told: a log whose time can jump.
    public static func timed(date: String = "140325", seconds: [Int], latitude: String = "2722.840,S", longitude: String = "15322.840,E") -> String {
        seconds.map { i in
            let t = String(format: "%02d%02d%02d.00", 10 + i / 3600, i / 60 % 60, i % 60)
            return [
                "GPRMC,\(t),A,\(latitude),\(longitude),000.0,000.0,\(date),,,A",
                "GPGGA,\(t),\(latitude),\(longitude),1,08,0.9,12.0,M,39.0,M,,",
            ].map(sentence).joined()
        }.joined()
    }

    /// `fixes` seconds of the log's fix at 27° 22'.84 S 153° 22'.84 E from 10:00:00, then
    /// `lost` seconds in which the receiver has none (RMC status V, GGA quality 0).
    public static func losingItsFix(date: String = "140325", fixes: Int, lost: Int) -> String {
        log(date: date, seconds: fixes) + (fixes..<(fixes + lost)).map { i in
            let t = String(format: "%02d%02d%02d.00", 10 + i / 3600, i / 60 % 60, i % 60)
            return [
                "GPRMC,\(t),V,,,,,,,\(date),,,N",
                "GPGGA,\(t),,,,,0,00,99.9,,M,,M,,",
            ].map(sentence).joined()
        }.joined()
    }

    public static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$\(body)*\(String(format: "%02X", sum))\r\n"
    }

    /// Starts gpsfake on `port` (a free one when nil) with `log` written to `folder`; gpsd logs
    /// at level 3 (devices and clients) into `child.output`, for a failing test to show. `cycle`
    /// is the delay between sentences: 0.5 s gives log time at the real rate. `once` plays
    /// the log once instead of in a loop.
    public init(folder: String, port: UInt16? = nil, log: String = FakeGPS.log(), cycle: Double = 0.5, once: Bool = false) throws {
        self.port = try port ?? FakeGPS.freePort()
        let file = folder + "/gps-\(self.port).nmea"
        try log.write(toFile: file, atomically: true, encoding: .utf8)
        let port = self.port
        func start() throws -> Child {
            try Child("/usr/bin/gpsfake", ["-q", "-D", "3", "-c", "\(cycle)", "-P", "\(port)"] + (once ? ["-1"] : []) + [file],
                      log: folder + "/gpsfake-\(port).log",
                      // gpsfake names gpsd's control socket /tmp/gpsfake-PID.sock and takes an
                      // old one left by a killed run with the same PID for gpsd's: it then adds
                      // no receiver, and gpsd reports nothing. Each run gets a folder of its own.
                      environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "TMPDIR": folder])
        }
        // gpsfake adds its receiver once, through gpsd's control socket, as soon as the socket's
        // file exists; gpsd makes the file before it listens on it, so on a loaded machine that
        // connection can be refused, and gpsfake then plays its log to a receiver gpsd never
        // hears of (its log has no "<= control("). Then it is started again, at most twice.
        var child = try start()
        for _ in 0..<2 where !eventually(within: 5, { Self.hasReceiver(port: port) }) && !child.output.contains("<= control(") {
            child.stop(SIGKILL)
            child = try start()
        }
        self.child = child
        // gpsfake feeds its log from the start, watched or not: return once gpsd listens and
        // has the fake receiver, so a client started now connects at its first try, not after
        // a retry's back-off. gpsfake adds the receiver after gpsd listens, and gpsd (without
        // -n) opens a receiver only at a client's WATCH: a client that watched before the
        // receiver came would get no report until it watched again.
        _ = eventually(within: 15) { Self.hasReceiver(port: port) }
    }

    /// Whether gpsd on `port` lists a receiver among its devices.
    static func hasReceiver(port: UInt16) -> Bool { gpsdDevices(port: port)?.contains("\"path\":\"") == true }

    public var address: String { "127.0.0.1:\(port)" }

    /// The process id of gpsfake's gpsd (the one listening on `port`).
    public var gpsdPID: pid_t? {
        let procs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in procs {
            guard let pid = pid_t(entry), let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let args = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if args.first.map({ $0.hasSuffix("gpsd") }) == true, zip(args, args.dropFirst()).contains(where: { $0 == "-S" && $1 == "\(port)" }) {
                return pid
            }
        }
        return nil
    }

    /// Kills gpsfake and its gpsd at once, as a crash would.
    public func kill() { child.stop(SIGKILL) }

    /// A TCP port nobody listens on right now.
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return UInt16(bigEndian: addr.sin_port)
    }
}
