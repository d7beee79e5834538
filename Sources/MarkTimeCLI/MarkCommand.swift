import ArgumentParser
import Logging
import MarkTimeCore
import MarkTimeDevices
import MarkTimeRecorder
import MarkTimeStore

extension MarkTime {
    struct Mark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark",
            abstract: "Record a sight now, as the button does.",
            discussion: """
                A running daemon is asked to record the press: it stamps the instant from its own clock track (pps, \
                system or gps) and stores its current GPS fix, as for the button, beeps once the sight is stored, \
                and this prints what it stored. Without a daemon (or when it does not answer within 5 s) the press \
                is recorded here: the time from the daemon's last published sample while fresh, else the system \
                clock (`system` when adjtimex says it is synchronised, else `unsynced`).

                Example: marktime mark --note "Sun LL, first of three"
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Option(parsing: .unconditional, help: "A note to keep with the sight.")
        var note: String?

        @Flag(help: "Print only the new sight's id.")
        var quiet = false

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let settings = try config.settings()
            let db: AppDatabase
            do { db = try store.open() } catch StoreError.busy(let path, let holders) {
                // The store would not even open: the press is kept beside it, never lost.
                let (reading, estimate) = try sharedClock(settings, nil)
                try SightRecorder.keepUnopened(storePath: path, error: .busy(path: path, holders: holders), instant: reading.instant,
                                               estimate: estimate, settings: settings, note: note, beeper: DaemonBeeper(store: path),
                                               logger: Logger(label: "marktime", factory: { _ in SwiftLogNoOpLogHandler() }))
            }
            let published = try db.daemonStatus()
            let (reading, estimate) = try sharedClock(settings, published)
            let recorder = SightRecorder(store: db, beeper: DaemonBeeper(store: db.path), logger: Logger(label: "marktime", factory: { _ in SwiftLogNoOpLogHandler() }),
                                         attempts: 3)
            let sight = try await recorder.recordAskingDaemon(instant: reading.instant, estimate: estimate, fix: published?.fix,
                                                              settings: settings, note: note)
            if quiet {
                print(sight.id ?? 0)
            } else if format == .json {
                print(SightRendering.json(sight).render())
            } else {
                print(SightRendering.detail(sight))
            }
        }
    }

    struct Now: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "now",
            abstract: "Show the current UTC in sight format, with its clock source and uncertainty.")

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let settings = try config.settings()
            let (_, e) = try sharedClock(settings, try store.openForReading().daemonStatus())
            switch format {
            case .table:
                print("\(e.utc.sightFormat)  \(e.utc.iso8601)  \(e.source.rawValue) \(SightRendering.uncertainty(e.uncertainty))")
            case .json:
                print(JSON.object([("utc", .string(e.utc.iso8601)), ("source", .string(e.source.rawValue)),
                                   ("uncertainty_s", .from(e.uncertainty))]).render())
            }
        }
    }
}
