import ArgumentParser
import MarkTimeCLI
import Testing

/// `marktime --help`: its groups, and help paragraphs that argument-parser wraps itself.
@Suite("The help's layout")
struct HelpLayoutTests {
    @Test("marktime --help lists its subcommands under eight groups")
    func theRootHelpGroupsItsSubcommands() throws {
        // When the root help is shown
        let r = try CLI().run(["--help"], storeFlag: false)
        // Then it succeeds and names each group, in order
        #expect(r.status == 0)
        let groups = ["SIGHTS SUBCOMMANDS:", "SKY SUBCOMMANDS:", "PLACES AND CREW SUBCOMMANDS:", "PEOPLE SUBCOMMANDS:",
                      "TASKS AND COURSES SUBCOMMANDS:", "JOURNAL SUBCOMMANDS:", "PHONE PAGE AND SHARING SUBCOMMANDS:",
                      "SYSTEM SUBCOMMANDS:"]
        let offsets = groups.map { r.stdout.range(of: $0)?.lowerBound }
        #expect(!offsets.contains(nil), "missing: \(zip(groups, offsets).filter { $0.1 == nil }.map(\.0))")
        #expect(offsets.compactMap { $0 } == offsets.compactMap { $0 }.sorted())
        // And each subcommand sits in its group: `mark` under sights, `daemon` under system
        let sights = try #require(r.stdout.range(of: "SIGHTS SUBCOMMANDS:")), sky = try #require(r.stdout.range(of: "SKY SUBCOMMANDS:"))
        #expect(r.stdout[sights.upperBound..<sky.lowerBound].contains("  mark "))
        let system = try #require(r.stdout.range(of: "SYSTEM SUBCOMMANDS:"))
        #expect(r.stdout[system.upperBound...].contains("  daemon "))
    }

    @Test("No discussion breaks a sentence across lines: argument-parser wraps paragraphs to the terminal")
    func noDiscussionIsHardWrapped() {
        // Given every command's discussion
        var wrapped: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: String) {
            let configuration = command.configuration
            let name = path + (configuration.commandName ?? "")
            let lines = configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            // Then a line that goes on in the next (which is not indented, a list item or after a colon) ends its sentence
            for (line, next) in zip(lines, lines.dropFirst()) {
                guard let first = next.first, let start = line.first, start != " ", first != " ", first != "-", first != "•", !first.isNumber else { continue }
                if let last = line.last, !".:!?)`".contains(last) { wrapped.append("\(name): \(line)") }
            }
            for sub in configuration.subcommands { visit(sub, path: name + " ") }
        }
        visit(MarkTime.self, path: "")
        #expect(wrapped == [])
    }
}
