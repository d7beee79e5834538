import Foundation
import Testing

/// The README's two set-up commands: the first, what a navigator pastes on a Pi, installs
/// only what marktime needs to build and run; the test tools are `Tests/run`'s to install.
@Suite("The README's set-up commands")
struct SetupCommandTests {
    /// The packages that the README's first command (after `<!-- setup:run -->`) installs with apt-get.
    static func firstCommandPackages() throws -> [String] {
        let lines = try String(contentsOfFile: LayoutTests.root + "/README.md", encoding: .utf8).split(separator: "\n").map(String.init)
        let marker = try #require(lines.firstIndex(of: "<!-- setup:run -->"))
        let command = lines[marker + 2]
        let install = try #require(command.range(of: "apt-get install -y "))
        return command[install.upperBound...].prefix { $0 != "&" }.split(separator: " ").map(String.init)
    }

    /// The packages of `Tests/packages`: the first word of each line that is not a comment.
    static func testPackages() throws -> [String] {
        try String(contentsOfFile: LayoutTests.root + "/Tests/packages", encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("The README's first command installs none of the test tools of Tests/packages")
    func firstCommandInstallsNoTestTool() throws {
        // Given the packages of the README's first command and those of Tests/packages
        let first = try Self.firstCommandPackages()
        let tests = try Self.testPackages()
        #expect(first.contains("libgps-dev"))
        #expect(tests.contains("chromium"))
        // When the two are compared
        let both = first.filter(tests.contains)
        // Then no package is in both
        #expect(both == [])
    }
}
