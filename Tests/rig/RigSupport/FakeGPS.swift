import Foundation

/// gpsd fed by gpsfake on a private port, looping an NMEA log the test wrote.
public final class FakeGPS {
    public let port: UInt16
    public let child: Child

    /// A log of RMC and GGA sentences, one pair per second from `start` (hhmmss),
    /// dated `date` (ddmmyy), at 27° 22'.84 S 153° 22'.84 E.
    public static func log(date: String = "140325", seconds: Int = 60) -> String {
        (0..<seconds).map { i in
            let t = String(format: "10%02d%02d.00", i / 60, i % 60)
            return [
                "GPRMC,\(t),A,2722.840,S,15322.840,E,000.0,000.0,\(date),,,A",
                "GPGGA,\(t),2722.840,S,15322.840,E,1,08,0.9,12.0,M,39.0,M,,",
            ].map(sentence).joined()
        }.joined()
    }

    public static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$\(body)*\(String(format: "%02X", sum))\r\n"
    }

    /// Starts gpsfake on `port` (a free one when nil) with `log` written to `folder`, at two
    /// sentences a second, so that log time runs at the real rate.
    public init(folder: String, port: UInt16? = nil, log: String = FakeGPS.log()) throws {
        self.port = try port ?? FakeGPS.freePort()
        let file = folder + "/gps-\(self.port).nmea"
        try log.write(toFile: file, atomically: true, encoding: .utf8)
        child = try Child("/usr/bin/gpsfake", ["-q", "-c", "0.5", "-P", "\(self.port)", file],
                          log: folder + "/gpsfake-\(self.port).log",
                          environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"])
    }

    public var address: String { "127.0.0.1:\(port)" }

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
