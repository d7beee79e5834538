import Logging
import ArgumentParser
import Foundation
import MarkTimeConfig
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeSystem

/// `--store PATH`, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store file.",
        discussion: "Default: $MARKTIME_STORE, then /var/lib/marktime/marktime.sqlite if it exists, then $XDG_DATA_HOME/marktime/marktime.sqlite (~/.local/share/marktime/marktime.sqlite).",
        valueName: "path"))
    var store: String?

    func open() throws -> AppDatabase { try AppDatabase.resolving(store, environment: ProcessInfo.processInfo.environment) }

    /// The store for a command that only reads: read-only, so that a user who may read the
    /// file but not write it can use it; no file yet reads as an empty store.
    func openForReading() throws -> AppDatabase {
        let (path, _) = StorePath.resolve(explicit: store, environment: ProcessInfo.processInfo.environment,
                                          exists: FileManager.default.fileExists(atPath:))
        try AppDatabase.checkNotVanished(path)
        return try AppDatabase.reading(path: path)
    }
}

/// `--config PATH`.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The config file.",
        discussion: "Default: $MARKTIME_CONFIG, then /etc/marktime/config.toml if it exists, then $XDG_CONFIG_HOME/marktime/config.toml (~/.config/marktime/config.toml).",
        valueName: "path"))
    var config: String?

    var file: ConfigFile {
        ConfigFile.resolve(explicit: config, environment: ProcessInfo.processInfo.environment,
                           exists: FileManager.default.fileExists(atPath:))
    }

    /// The settings, with zone names checked against the tz database.
    func settings() throws -> Settings { try file.load(zoneExists: TZDatabase().knows) }
}

/// Output for one record or a summary.
enum Format: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

/// Output for a listing.
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

/// Reads a user's date bound: `YYYY-MM-DD` or ISO-8601 in UTC. A bare date used
/// as an upper bound includes the whole of that day.
func parseBound(_ text: String?, upper: Bool, option: String) throws -> UTCTime? {
    guard let text else { return nil }
    return try UTCTime.bound(text, upper: upper, what: option)
}

/// Asks on the terminal; refuses (with a hint) when there is no terminal to ask.
func confirm(_ question: String, hint: String) throws -> Bool {
    guard Terminal.isTerminal(STDIN_FILENO) else {
        throw InputError("\(question.trimmingCharacters(in: .punctuationCharacters)): no terminal to confirm on; \(hint)")
    }
    print("\(question) [y/N] ", terminator: "")
    fflush(nil)
    guard let answer = readLine()?.lowercased() else { return false }
    return answer == "y" || answer == "yes"
}

/// The daemon's published GPS position when its fix can stand for `use`.
func daemonPosition(_ db: AppDatabase, for use: FixUse) throws -> Position? {
    try db.daemonStatus()?.usablePosition(for: use, now: try SystemClock().read().instant)
}

/// The system's wall clock, for bookkeeping times such as `edited_at`.
func wallClock() throws -> UTCTime { try SystemClock().read().realtime }

/// Now, on the clock the daemon publishes while it is fresh, else on the system clock:
/// the one clock CLI marks and button marks share.
func sharedClock(_ settings: Settings, _ published: DaemonStatus?) throws -> (SystemClockReading, UTCEstimate) {
    try SystemClock(trustSynchronised: settings.clock.trustSystem).estimateNow(published: published, maxSampleAge: try settings.clock.maxSampleAge)
}

/// Why the output file `path` could not be written, in words: a folder that does not
/// exist, one the user may not write in, a full disk, or the system's own reason.
/// `example` is a file name to suggest inside a folder.
func cannotWrite(_ path: String, _ error: any Error, example: String = "out") -> InputError {
    guard !path.trimmingWhitespace().isEmpty else {
        return InputError("the output file's name is empty: give a file, e.g. \(example), or - for standard output")
    }
    let folder: String = {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }()
    switch (error as? SystemError)?.errno {
    case .noSuchFileOrDirectory? where FileKind(folder) == .folder:
        // The folder is there, but the new file beside the old one could not be made (/proc).
        return InputError("cannot write \(path): folder \(folder) takes no new files (a system folder such as /proc or /sys); choose a file in another folder")
    case .noSuchFileOrDirectory?:
        return InputError("cannot write \(path): folder \(folder) does not exist; create it, or choose another file")
    case .isDirectory? where path.hasSuffix("/") && path != "/":
        return InputError("cannot write \(path): a file name cannot end with /; give a file name, e.g. \(path.dropLast(path.reversed().prefix { $0 == "/" }.count))")
    case .isDirectory?:
        return InputError("cannot write \(path): it is a folder; give a file name, e.g. \(path.hasSuffix("/") ? path : path + "/")\(example)")
    case .tooManySymbolicLinkLevels?:
        return InputError("cannot write \(path): its symbolic links go round in a loop; give another file")
    case .fileNameTooLong?:
        return InputError("cannot write \(path): its name is too long (\(FileKind.nameLimits)); give a shorter one")
    case .noSuchAddressOrDevice?:
        return InputError("cannot write \(path): it is a FIFO (named pipe) that no program read within \(SideFile.fifoReaderWait.components.seconds) s; "
            + "start its reader first, or choose a file")
    case .noSpace?:
        return InputError("cannot write \(path): the disk holding \(folder) is full; free space on it (`df -h \(folder)` shows it), or choose another disk")
    case .permissionDenied?, .readOnlyFileSystem?:
        return InputError("cannot write \(path): you may not write in \(folder); choose another file")
    default:
        return InputError("cannot write \(path): \(error)")
    }
}

/// Reads a number option as a plain decimal (`ArgumentParser`'s own `Double` takes `0x10`
/// and `1e308`): `@Option(transform: decimal) var radius: Double`.
@Sendable func decimal(_ text: String) throws -> Double {
    guard let v = Quantity.decimal(text) else {
        throw InputError("'\(Text.escaped(text))' is not a decimal number: write it like 150, 2.5 or -1.5")
    }
    return v
}
