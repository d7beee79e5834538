import Foundation
import RigSupport

/// Debian's Mosquitto on a private port, anonymous, with its persistence file in the
/// test's folder; stopped on deinit.
final class Broker {
    let port: UInt16
    let folder: String
    private(set) var child: Child?

    init(folder: String, port: UInt16? = nil) throws {
        self.folder = folder
        self.port = try port ?? FakeGPS.freePort()
        // Persistence keeps a friend's session (its subscription and its queued QoS 1
        // messages) across a broker restart, as a real broker's does.
        // As root, Mosquitto would drop to its own user, who cannot write the test's folder.
        let me = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "mosquitto"
        try "listener \(self.port) 127.0.0.1\nallow_anonymous true\nuser \(me)\npersistence true\npersistence_location \(folder)/\n"
            .write(toFile: folder + "/mosquitto-\(self.port).conf", atomically: true, encoding: .utf8)
    }

    var address: String { "127.0.0.1:\(port)" }

    /// Starts the broker and waits until it accepts connections.
    func start() throws {
        child = try Child("/usr/sbin/mosquitto", ["-c", folder + "/mosquitto-\(port).conf"], log: folder + "/mosquitto-\(port).log",
                          environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard eventually(within: 10, { tcpAccepts(port: port) }) else { throw POSIXError(.ECONNREFUSED) }
    }

    func stop() {
        child?.stop(SIGTERM)
        child = nil
    }

    /// `mosquitto_pub` of one QoS 1 message, as a phone's OwnTracks app sends it.
    func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        let r = try runCommand("/usr/bin/mosquitto_pub", ["-p", "\(port)", "-q", "1", "-t", topic, "-m", payload] + (retain ? ["-r"] : []),
                               environment: ["PATH": "/usr/bin:/bin"])
        precondition(r.status == 0, r.stderr)
    }

    /// A `mosquitto_sub -v` on `topic` writing to a file, started and subscribed before this
    /// returns. With `session`, a persistent session under that client id: the broker keeps
    /// its subscription and queues its QoS 1 messages while it is away; the retained copies
    /// it sends again at each subscription are left out (`-R`), so only deliveries show.
    func subscribe(_ topic: String, session: String? = nil) throws -> Child {
        let log = folder + "/sub-\(UUID().uuidString).log"
        let persistent = session.map { ["-c", "-R", "-i", $0] } ?? []
        let sub = try Child("/usr/bin/mosquitto_sub", ["-d", "-v", "-q", "1", "-p", "\(port)", "-t", topic] + persistent, log: log,
                            environment: ["PATH": "/usr/bin:/bin"])
        _ = eventually(within: 10) { sub.output.contains("Client") && sub.output.contains("received SUBACK") }
        return sub
    }

    deinit { stop() }
}

extension Child {
    /// The `topic payload` lines a `mosquitto_sub -v -d` printed, without its debug lines.
    var messages: [(topic: String, payload: String)] {
        output.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("owntracks/"), let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
    }
}

/// A Mosquitto with TLS (a CA and a server certificate for localhost made with openssl),
/// password accounts, and the ACL OwnTracks documents.
final class TLSBroker {
    let broker: Broker
    let ca: String
    private let dir: String

    /// With `serverName`, the certificate is for that host only; with `expired`, it expired yesterday.
    init(folder: String, user: String, password: String, serverName: String? = nil, expired: Bool = false) throws {
        broker = try Broker(folder: folder)
        dir = folder + "/tls"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        ca = dir + "/ca.pem"
        let env = ["PATH": "/usr/bin:/bin:/usr/sbin"]
        func run(_ tool: String, _ args: [String]) throws {
            let r = try runCommand(tool, args, environment: env)
            guard r.status == 0 else { throw POSIXError(.EINVAL) }
        }
        try Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=marktime test CA",
                          "-keyout", dir + "/ca.key", "-out", ca])
        try Self.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(serverName ?? "localhost")", "-keyout", dir + "/server.key",
                          "-out", dir + "/server.csr"])
        try "subjectAltName=\(serverName.map { "DNS:\($0)" } ?? "DNS:localhost,IP:127.0.0.1")\n".write(toFile: dir + "/san.ext", atomically: true, encoding: .utf8)
        try sign(expired: expired)
        try run("/usr/bin/mosquitto_passwd", ["-b", "-c", dir + "/passwd", user, password])
        try "pattern readwrite owntracks/%u/#\npattern read owntracks/#\n".write(toFile: dir + "/acl", atomically: true, encoding: .utf8)
        let me = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "mosquitto"
        // Every local address: the client reaches it as localhost, ::1 or 127.0.0.1.
        try """
            listener \(broker.port)
            user \(me)
            cafile \(ca)
            certfile \(dir)/server.pem
            keyfile \(dir)/server.key
            allow_anonymous false
            password_file \(dir)/passwd
            acl_file \(dir)/acl

            """.write(toFile: folder + "/mosquitto-\(broker.port).conf", atomically: true, encoding: .utf8)
    }
}

extension TLSBroker {
    /// Signs the server's certificate with the CA: valid for two days, or with `expired`,
    /// from now until a day ago (`-days -1`).
    func sign(expired: Bool = false) throws {
        try Self.openssl(["x509", "-req", "-in", dir + "/server.csr", "-CA", ca, "-CAkey", dir + "/ca.key", "-CAcreateserial",
                          "-days", expired ? "-1" : "2", "-extfile", dir + "/san.ext", "-out", dir + "/server.pem"])
    }

    /// As the broker's owner renews an expired certificate: a new one from the same CA, and
    /// the broker restarted on the same port.
    func renew() throws {
        try sign()
        broker.stop()
        try broker.start()
    }

    static func openssl(_ args: [String]) throws {
        let r = try runCommand("/usr/bin/openssl", args, environment: ["PATH": "/usr/bin:/bin:/usr/sbin"])
        guard r.status == 0 else { throw POSIXError(.EINVAL) }
    }
}

/// A CA of its own, made with openssl, that signed nothing the broker has: its PEM file.
func unrelatedCA(in folder: String) throws -> String {
    let path = folder + "/other-ca.pem"
    let r = try runCommand("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=another CA",
                                                "-keyout", folder + "/other-ca.key", "-out", path], environment: ["PATH": "/usr/bin:/bin"])
    guard r.status == 0 else { throw POSIXError(.EINVAL) }
    return path
}
