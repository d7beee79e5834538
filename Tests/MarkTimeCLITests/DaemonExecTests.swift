import Foundation
import MarkTimeCore
import RigSupport
import Testing
@testable import MarkTimeCLI

/// `marktime daemon` execs `marktimed`, the daemon's own executable.
@Suite("marktime daemon becomes marktimed", .serialized, .tags(.daemonProcess))
struct DaemonExecTests {
    let cli = CLI()

    /// A folder laid out as `layout` says: paths relative to it, a trailing "/" for a folder.
    func folder(_ layout: [String]) throws -> String {
        let root = cli.folder + "/tree"
        for path in layout {
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
            } else {
                try FileManager.default.createDirectory(atPath: root + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                #expect(FileManager.default.createFile(atPath: root + "/" + path, contents: Data("x".utf8)))
            }
        }
        return root
    }

    @Test("In a build folder marktimed is found beside marktime")
    func foundBeside() throws {
        let root = try folder(["debug/marktime", "debug/marktimed"])
        #expect(try MarkTime.Daemon.daemonExecutable(beside: root + "/debug/marktime") == root + "/debug/marktimed")
    }

    @Test("From /usr/bin, marktimed is found in ../lib/marktime, where the package puts it")
    func foundInTheLibraryFolder() throws {
        let root = try folder(["usr/bin/marktime", "usr/lib/marktime/marktimed"])
        #expect(try MarkTime.Daemon.daemonExecutable(beside: root + "/usr/bin/marktime") == root + "/usr/bin/../lib/marktime/marktimed")
    }

    @Test("A folder named marktimed is not taken for the daemon, and its absence is a sentence with the fix")
    func missingIsASentence() throws {
        // Given a marktime whose marktimed is a folder, and none in ../lib/marktime
        let root = try folder(["usr/bin/marktime", "usr/bin/marktimed/"])
        // When the daemon's executable is looked for, then it is refused, naming both places
        #expect(throws: InputError("the daemon's executable is missing: neither \(root)/usr/bin/marktimed nor \(root)/usr/bin/../lib/marktime/marktimed exists; "
            + "reinstall the package (`sudo apt install --reinstall marktime`), or build it (`swift build --product marktimed`)")) {
            try MarkTime.Daemon.daemonExecutable(beside: root + "/usr/bin/marktime")
        }
    }

    @Test("The process `marktime daemon` starts runs on as marktimed, with the same pid")
    func theSameProcessRunsMarktimed() throws {
        // Given sound off
        #expect(try cli.run(["config", "set", "sound.enabled", "false"], storeFlag: false).status == 0)
        // When `marktime daemon` starts
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(try eventually(within: 20) { daemon.log.contains("marktime daemon started") }, "\(daemon.log)")
        // Then the pid it was started as runs marktimed from beside marktime, and status names that pid
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.child.pid)/exe")
        let folder = URL(fileURLWithPath: CLI.binary).resolvingSymlinksInPath().deletingLastPathComponent().path
        #expect(exe == folder + "/marktimed")
        #expect(try (cli.json(["status"]) as? [String: Any])?["daemon_pid"] as? Int == Int(daemon.child.pid))
    }
}
