import Foundation
import MarkTimeCore
import RigSupport
import Testing
@testable import MarkTimeCLI

/// `marktime daemon` and `marktime web` exec `marktimed`, the executable that runs all day.
@Suite("marktime daemon and web become marktimed", .serialized, .tags(.daemonProcess))
struct DaemonExecTests {
    let cli = CLI()

    /// A folder laid out as `layout` says: paths relative to it, a trailing "/" for a folder,
    /// a trailing "*" for a file that may be run (mode 755; others are 644).
    func folder(_ layout: [String]) throws -> String {
        let root = cli.folder + "/tree"
        for path in layout {
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
            } else {
                let file = root + "/" + (path.hasSuffix("*") ? String(path.dropLast()) : path)
                try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8),
                                                       attributes: [.posixPermissions: path.hasSuffix("*") ? 0o755 : 0o644]))
            }
        }
        return root
    }

    @Test("In a build folder marktimed is found beside marktime")
    func foundBeside() throws {
        let root = try folder(["debug/marktime*", "debug/marktimed*"])
        #expect(try MarkTime.serverExecutable(beside: root + "/debug/marktime") == root + "/debug/marktimed")
    }

    @Test("From /usr/bin, marktimed is found in ../libexec/marktime, where the package puts it")
    func foundInTheLibexecFolder() throws {
        let root = try folder(["usr/bin/marktime*", "usr/libexec/marktime/marktimed*"])
        #expect(try MarkTime.serverExecutable(beside: root + "/usr/bin/marktime") == root + "/usr/bin/../libexec/marktime/marktimed")
    }

    @Test("A folder named marktimed, or one that may not be run, is not taken for the daemon; its absence is a sentence with the fix")
    func missingIsASentence() throws {
        // Given a marktime whose marktimed is a folder, and one in ../libexec/marktime without its execute bit
        let root = try folder(["usr/bin/marktime*", "usr/bin/marktimed/", "usr/libexec/marktime/marktimed"])
        // When the daemon's executable is looked for, then it is refused, naming both places
        #expect(throws: InputError("marktime's server executable is missing: neither \(root)/usr/bin/marktimed nor \(root)/usr/bin/../libexec/marktime/marktimed is a file this user may run; "
            + "reinstall the package (`sudo apt install --reinstall marktime`), or build it (`swift build --product marktimed`)")) {
            try MarkTime.serverExecutable(beside: root + "/usr/bin/marktime")
        }
    }

    @Test("marktimed's refusal is worded as the command line's: 'Error:', the value's escape sequence shown escaped, exit 1")
    func marktimedsRefusalIsEscaped() throws {
        // Given a store path in a folder that does not exist, with an escape sequence in its name
        let store = cli.folder + "/missing/\u{1B}[2J.sqlite"
        // When the daemon is started on it
        let result = try cli.run(["daemon", "--no-web", "--store", store, "--button", cli.folder + "/no-button"], storeFlag: false)
        // Then marktimed refuses it, escaped, and exits 1
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.contains(cli.folder + "/missing/\\u{1B}[2J.sqlite"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test("The process `marktime daemon` starts runs on as marktimed, with the same pid")
    func theSameProcessRunsMarktimed() throws {
        // Given sound off
        #expect(try cli.run(["config", "set", "sound.enabled", "false"], storeFlag: false).status == 0)
        // When `marktime daemon` starts
        let daemon = try DaemonProcess(cli: cli, arguments: ["--gpsd", "127.0.0.1:1", "--button", cli.folder + "/no-button"])
        defer { daemon.stop() }
        #expect(eventually(within: 20) { daemon.log.contains("marktime daemon started") }, "\(daemon.log)")
        // Then the pid it was started as runs the marktimed found for marktime, and status names that pid
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.child.pid)/exe")
        let marktime = URL(fileURLWithPath: CLI.binary).resolvingSymlinksInPath().path
        #expect(exe == URL(fileURLWithPath: try MarkTime.serverExecutable(beside: marktime)).resolvingSymlinksInPath().path)
        #expect(exe.hasSuffix("/marktimed"))
        #expect(try (cli.json(["status"]) as? [String: Any])?["daemon_pid"] as? Int == Int(daemon.child.pid))
    }
}
