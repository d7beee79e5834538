import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RigSupport
import Testing

/// `marktime daemon` running the phone page as its child (web.enabled), as the README's
/// first command does: one command starts everything.
@Suite("The daemon supervises the phone page", .serialized, .tags(.daemonProcess))
struct DaemonWebTests {
    let cli = CLI()

    /// The HTTP status of GET `url`, or nil when nothing answers.
    func status(_ url: String) -> Int? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var code: Int?
        URLSession.shared.dataTask(with: URL(string: url)!) { _, response, _ in
            code = (response as? HTTPURLResponse)?.statusCode
            done.signal()
        }.resume()
        done.wait()
        return code
    }

    /// The pid the daemon logged for its n-th start of the page.
    func pagePids(_ log: String) -> [pid_t] {
        log.split(separator: "\n").filter { $0.contains("phone page started") }
            .compactMap { line in line.range(of: "pid=").flatMap { pid_t(line[$0.upperBound...].prefix { $0.isNumber }) } }
    }

    /// Whether `pid` runs; a zombie (state Z) that nobody has reaped yet counts as gone.
    func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    /// web.listen on a free port, and `marktime daemon` with `options`, without gpsd or a button.
    func startDaemon(_ options: [String] = []) throws -> (port: UInt16, daemon: Child) {
        let port = try FakeGPS.freePort()
        _ = try cli.run(["config", "set", "web.listen", "127.0.0.1:\(port)"], storeFlag: false)
        let daemon = try Child(CLI.binary, ["daemon"] + options + ["--store", cli.store, "--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"],
                               log: cli.folder + "/daemon.log", environment: cli.environment)
        return (port, daemon)
    }

    @Test func thePageStartsWithTheDaemonComesBackWhenKilledAndStopsWithIt() throws {
        // Given web.listen on a free port, and the daemon started with the page
        let (port, daemon) = try startDaemon()
        defer { _ = daemon.stop(SIGKILL) }
        // Then the login page answers
        #expect(eventually(within: 30) { status("http://127.0.0.1:\(port)/login") == 200 }, "\(daemon.output)")
        let first = try #require(pagePids(daemon.output).first)

        // When the page's process is killed
        kill(first, SIGKILL)
        // Then the daemon starts it again, and it answers again
        #expect(eventually(within: 30) { pagePids(daemon.output).count == 2 && status("http://127.0.0.1:\(port)/login") == 200 }, "\(daemon.output)")
        #expect(daemon.output.contains("phone page exited; starting it again"))
        let second = pagePids(daemon.output)[1]

        // When systemd stops the daemon (SIGTERM to the daemon alone, not its process group)
        kill(daemon.pid, SIGTERM)
        // Then the daemon exits cleanly, and the page with it
        #expect(eventually(within: 10) { !daemon.isRunning })
        #expect(daemon.exitedCleanly, "\(daemon.output)")
        #expect(eventually(within: 10) { !alive(second) })
        #expect(status("http://127.0.0.1:\(port)/login") == nil)
    }

    @Test("The page the daemon starts runs the daemon's own executable, marktimed, so the two share its pages")
    func thePageRunsMarktimed() throws {
        // Given the daemon started with the page
        let (port, daemon) = try startDaemon()
        defer { _ = daemon.stop(SIGKILL) }
        #expect(eventually(within: 30) { status("http://127.0.0.1:\(port)/login") == 200 }, "\(daemon.output)")
        // Then the daemon and its page run the same file, marktimed
        let page = try #require(pagePids(daemon.output).first)
        let exe = { (pid: pid_t) in try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") }
        #expect(try exe(page) == exe(daemon.pid))
        #expect(try exe(page).hasSuffix("/marktimed"))
    }

    @Test func aKilledDaemonTakesThePageWithIt() throws {
        // Given the daemon running the page
        let (port, daemon) = try startDaemon()
        defer { _ = daemon.stop(SIGKILL) }
        #expect(eventually(within: 30) { status("http://127.0.0.1:\(port)/login") == 200 }, "\(daemon.output)")
        let page = try #require(pagePids(daemon.output).first)
        // When the daemon alone is killed, with no chance to stop its child
        kill(daemon.pid, SIGKILL)
        // Then the kernel's parent-death signal stops the page too
        #expect(eventually(within: 10) { !alive(page) })
    }

    @Test func noWebLeavesThePageToItsOwnUnit() throws {
        // Given the daemon started with --no-web, as its systemd unit does
        let (port, daemon) = try startDaemon(["--no-web"])
        defer { _ = daemon.stop(SIGKILL) }
        // When it has started
        #expect(eventually(within: 10) { daemon.output.contains("marktime daemon started") })
        // Then no page was started
        #expect(pagePids(daemon.output) == [])
        #expect(status("http://127.0.0.1:\(port)/login") == nil)
    }
}
