import Foundation
import MarkTimeSystem
import Testing

@Suite("a spawned child process")
struct ChildProcessTests {
    /// A file in a fresh directory of its own.
    static func scratch(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("marktime-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    @Test func itsExitCodeIsWhatItExitedWith() throws {
        // Given a shell that exits 3; when it is waited for
        let child = try ChildProcess.spawn(["/bin/sh", "-c", "exit 3"], environment: [:])
        // Then the code is 3
        #expect(child.waitForExit() == 3)
    }

    @Test func aSignalledChildReportsTheSignal() throws {
        // Given a child that kills itself with SIGTERM; when it is waited for
        let child = try ChildProcess.spawn(["/bin/sh", "-c", "kill -TERM $$"], environment: [:])
        // Then the code is the signal's number
        #expect(child.waitForExit() == SIGTERM)
    }

    @Test func itGetsTheEnvironmentAndOutputFileItWasGiven() throws {
        // Given an output file and one variable
        let out = try Self.scratch("out")
        // When the child prints the variable there
        let child = try ChildProcess.spawn(["/bin/sh", "-c", "printf '%s' \"$GREETING\""], environment: ["GREETING": "ahoy"],
                                           output: .file(out, flags: O_WRONLY | O_CREAT | O_TRUNC))
        #expect(child.waitForExit() == 0)
        // Then the file holds exactly the value
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "ahoy")
    }

    @Test func noDescriptorAboveTwoIsInherited() throws {
        // Given a descriptor this process holds open without close-on-exec
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        let out = try Self.scratch("fds")
        // When the child asks whether it has that descriptor, and its standard output
        let script = "for fd in \(held) 1; do if [ -e /proc/$$/fd/$fd ]; then echo open; else echo closed; fi; done"
        let child = try ChildProcess.spawn(["/bin/sh", "-c", script], environment: [:],
                                           output: .file(out, flags: O_WRONLY | O_CREAT | O_TRUNC))
        #expect(child.waitForExit() == 0)
        // Then the held one is closed there, and its output open
        #expect(held > 2)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "closed\nopen\n")
    }

    @Test func aMissingExecutableIsAnErrorNamingIt() {
        // Given a path with nothing there; when it is spawned
        // Then the error names the call and the path
        #expect(throws: SystemError("posix_spawn /nonexistent/marktime-web", .noSuchFileOrDirectory)) {
            try ChildProcess.spawn(["/nonexistent/marktime-web"], environment: [:])
        }
    }
}
