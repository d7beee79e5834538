import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeStore

extension MarkTime {
    struct Sights: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sights",
            abstract: "List, clear or restore sights.",
            subcommands: [List.self, Clear.self, Restore.self],
            defaultSubcommand: List.self)
    }
}

extension MarkTime.Sights {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List sights, newest first (the last 5 unless told otherwise).",
            discussion: """
                Dates are UTC: YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z. --until with a bare date includes that whole day. \
                A GAP line marks a time when the kernel dropped button events (the daemon fell behind): presses in it may be lost.

                Examples:
                  marktime sights              the last five
                  marktime sights -n 20        the last twenty
                  marktime sights --all --since 2026-11-01 --format csv
                """)

        @OptionGroup var store: StoreOptions

        @Option(name: .short, parsing: .unconditional, help: "How many to show.")
        var n: Int?

        @Flag(help: "Show every sight.")
        var all = false

        @Option(help: "Only sights at or after this UTC date or time.")
        var since: String?

        @Option(help: "Only sights before this UTC date or time.")
        var until: String?

        @Flag(help: "List the archived sights instead (see `sights clear`).")
        var archived = false

        @Option(help: "Output: table, json or csv.")
        var format: ListFormat = .table

        func validate() throws {
            if all, n != nil { throw ValidationError("give either -n N or --all, not both") }
            if let n, n < 1 { throw ValidationError("-n must be at least 1, not \(n)") }
        }

        func run() async throws {
            let query = SightQuery(limit: all ? nil : (n ?? 5),
                                   since: try parseBound(since, upper: false, option: "--since"),
                                   until: try parseBound(until, upper: true, option: "--until"),
                                   archived: archived)
            let db = try store.openForReading()
            let sights = try db.sights(query)
            switch format {
            case .json: print(JSON.array(sights.map(SightRendering.json)).render())
            case .csv: print(SightRendering.csv(sights.reversed()), terminator: "")
            case .table:
                if sights.isEmpty {
                    print(archived ? "No archived sights." : "No sights yet: press the button, or run `marktime mark`.")
                } else {
                    // Gaps within the listing's span (all of them when every sight is listed), between the sights around them.
                    let from = query.limit == nil ? query.since : sights.last!.estimate.utc
                    let gaps = archived ? [] : try db.inputGaps().filter { g in
                        guard let to = g.to else { return false }
                        return from.map { to >= $0 } ?? true && (query.until.map { to < $0 } ?? true)
                    }
                    print(SightRendering.table(sights, gaps: gaps))
                }
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Archive every current sight (`sights restore` brings them back).",
            discussion: "With --purge, every sight, current and archived, is deleted for good.")

        @OptionGroup var store: StoreOptions

        @Flag(name: .shortAndLong, help: "Do not ask for confirmation.")
        var yes = false

        @Flag(help: "Delete for good instead of archiving.")
        var purge = false

        func run() async throws {
            let db = try store.open()
            let counts = try db.sightCounts()
            if purge {
                let total = counts.current + counts.archived
                guard total > 0 else { return print("No sights to purge.") }
                if !yes, try !confirm("Delete all \(total) sights (\(counts.archived) archived) for good? This cannot be undone.",
                                       hint: "add --yes to purge") {
                    throw ExitCode.failure
                }
                print("Purged \(try db.purgeSights()) sights.")
            } else {
                guard counts.current > 0 else { return print("No current sights to clear.") }
                if !yes, try !confirm("Archive \(counts.current) sights?", hint: "add --yes to archive them") {
                    throw ExitCode.failure
                }
                let n = try db.archiveAll(now: try wallClock())
                print("Archived \(n) sights. `marktime sights restore` brings them back.")
            }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring back every archived sight.")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let n = try store.open().restoreArchived()
            print(n == 0 ? "No archived sights to restore." : "Restored \(n) sights.")
        }
    }
}
