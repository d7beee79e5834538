import Foundation
import RigSupport
import Testing

/// A user who may read the store but not write it: the file is 0444 and its folder 0555,
/// and when the tests run as root the commands run as `nobody` (root ignores modes).
@Suite("A store the user may only read")
struct ReadOnlyStoreTests {
    let cli = CLI()

    /// Runs `marktime ARGS --store S` as a user without write access.
    func runAsReader(_ args: [String]) throws -> CommandResult {
        let marktime = [CLI.binary] + args + ["--store", cli.store]
        if getuid() == 0 {
            return try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + marktime, environment: cli.environment)
        }
        return try runCommand(marktime[0], Array(marktime.dropFirst()), environment: cli.environment)
    }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: cli.folder).sorted() }

    @Test func readingCommandsWorkWritingIsRefusedAndNothingIsCreated() throws {
        // Given a store with one sight, then made read-only for the user
        #expect(try cli.run(["mark", "--note", "seed"]).status == 0)
        chmod(cli.store, 0o444)
        chmod(cli.folder, 0o555)
        defer { chmod(cli.folder, 0o755) }
        let before = try files()

        // When the user lists, exports and shows the status, and tries to mark
        let list = try runAsReader(["sights", "--format", "json"])
        let export = try runAsReader(["export", "csv"])
        let status = try runAsReader(["status"])
        let mark = try runAsReader(["mark"])

        // Then reading works, marking is refused with the reason, and no file appeared
        #expect(list.status == 0, "\(list.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])?.map { $0["note"] as? String } == ["seed"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.split(whereSeparator: \.isNewline).count == 2)  // the header and the sight
        #expect(status.status == 0, "\(status.stderr)")
        #expect(mark.status == 1)
        #expect(mark.stderr == "Error: cannot open store \(cli.store): attempt to write a readonly database; "
            + "check that you may read and write the file and its folder, or choose another with --store\n")
        #expect(try files() == before)
    }

    @Test func readingAStoreThatDoesNotExistCreatesNothing() throws {
        // Given a path with no store yet
        // When a reading command runs on it
        let r = try cli.run(["sights"])
        // Then it says there are none, and neither the store nor anything else was made
        #expect(r.status == 0)
        #expect(r.stdout == "No sights yet: press the button, or run `marktime mark`.\n")
        #expect(try files() == [])
    }
}
