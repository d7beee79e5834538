import Foundation
import RigSupport
import Testing

/// `marktime web` refusing what it cannot serve with a sentence, not a socket's or a
/// TLS library's raw error.
@Suite("The phone page's start-up errors")
struct WebErrorTests {
    /// A TCP socket listening on 127.0.0.1 at a free port; closed by the caller.
    func listener() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        try #require(ok)
        return (fd, UInt16(bigEndian: addr.sin_port))
    }

    @Test("A port another program listens on is named, with how to find it")
    func aPortInUse() throws {
        let cli = CLI()
        let (fd, port) = try listener()
        defer { close(fd) }
        let r = try cli.run(["web", "--listen", "127.0.0.1:\(port)"])
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("Error: cannot listen on 127.0.0.1:\(port) (--listen): another program listens there already (`ss -ltnp` shows which); "
            + "give another port, e.g. --listen 127.0.0.1:\(port == 8081 ? 8082 : 8081)\n"), "\(r.stderr)")
    }

    @Test("A web.listen that names no address is named with its config file and the command that fixes it, and no store is made")
    func anUnresolvableListenInTheConfig() throws {
        // Given web.listen set to a name no resolver knows, and no store yet
        let cli = CLI()
        #expect(try cli.run(["config", "set", "web.listen", "nohost.invalid:8080"], storeFlag: false).status == 0)
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo("nohost.invalid", nil, &hints, &list)
        try #require(code != 0)
        // When the page is started
        let r = try cli.run(["web"])
        // Then the sentence names the setting, its file and the fix, in words, and nothing is written
        #expect(r.status == 1)
        #expect(r.stderr == "Error: cannot listen on 'nohost.invalid:8080' (web.listen in \(cli.config)): nohost.invalid is no address or name this machine can find "
            + "(\(String(cString: gai_strerror(code)))); give one of its addresses: `marktime config set web.listen 0.0.0.0:8080` for every network, "
            + "or `marktime config set web.listen 127.0.0.1:8080` for this machine alone\n", "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.store))
    }

    @Test("Under TLS every answer tells the browser to keep to HTTPS for a year (HSTS)", .timeLimit(.minutes(10)))
    func hstsUnderTLS() throws {
        // Given a self-signed certificate and `marktime web` serving it
        let cli = CLI()
        let cert = cli.folder + "/cert.pem", key = cli.folder + "/key.pem"
        let made = try runCommand("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                                                       "-keyout", key, "-out", cert], environment: ["PATH": "/usr/bin:/bin"])
        try #require(made.status == 0, "\(made.stderr)")
        for (k, v) in [("web.tls_cert", cert), ("web.tls_key", key)] { #expect(try cli.run(["config", "set", k, v], storeFlag: false).status == 0) }
        let (fd, port) = try listener()
        close(fd)
        let web = try Child(CLI.binary, ["web", "--listen", "127.0.0.1:\(port)", "--store", cli.store, "--config", cli.config],
                            log: cli.folder + "/web.log", environment: cli.environment)
        defer { web.stop() }
        try #require(eventually(within: 30) { tcpAccepts(port: port) }, "\(web.output)")
        // When the login page is fetched over TLS
        let r = try runCommand("/usr/bin/openssl", ["s_client", "-quiet", "-connect", "127.0.0.1:\(port)"], environment: ["PATH": "/usr/bin:/bin"],
                               input: "GET /login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        // Then the answer carries HSTS for a year
        #expect(r.stdout.hasPrefix("HTTP/1.0 200") || r.stdout.hasPrefix("HTTP/1.1 200"), "\(r.stdout.prefix(200))")
        #expect(r.stdout.lowercased().contains("strict-transport-security: max-age=31536000\r\n"), "\(r.stdout.prefix(600))")
    }

    @Test("A TLS certificate that is missing, or not PEM, is named")
    func badCertificates() throws {
        let cli = CLI()
        let text = cli.folder + "/not.pem"
        try "hello\n".write(toFile: text, atomically: true, encoding: .utf8)
        for (key, value) in [("web.tls_cert", cli.folder + "/missing.pem"), ("web.tls_key", text)] {
            #expect(try cli.run(["config", "set", key, value], storeFlag: false).status == 0)
        }
        let missing = try cli.run(["web", "--listen", "127.0.0.1:1"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasSuffix("Error: web.tls_cert \(cli.folder)/missing.pem does not exist: set web.tls_cert to a PEM file (`marktime config set web.tls_cert PATH`)\n"))
        #expect(try cli.run(["config", "set", "web.tls_cert", text], storeFlag: false).status == 0)
        let notPEM = try cli.run(["web", "--listen", "127.0.0.1:1"])
        #expect(notPEM.status == 1)
        #expect(notPEM.stderr.hasSuffix("Error: web.tls_cert \(text) is not a PEM certificate (-----BEGIN CERTIFICATE-----): give the certificate's PEM file\n"))
    }
}
