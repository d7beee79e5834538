import Foundation
import MarkTimeCore
import MarkTimeStore
import RigSupport

/// Runs the built `marktime` binary in a private folder with its own store and config.
final class CLI: Sendable {
    /// `marktime`, built beside this test bundle by `swift test`.
    static let binary: String = {
        if let override = ProcessInfo.processInfo.environment["MARKTIME_BIN"] { return override }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("marktime").path
    }()

    let folder: String
    var store: String { folder + "/marktime.sqlite" }
    var config: String { folder + "/config.toml" }

    init() {
        folder = NSTemporaryDirectory() + "marktime-cli-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// A private home, XDG folders and config; nothing from the caller's environment.
    var environment: [String: String] {
        ["HOME": folder, "XDG_DATA_HOME": folder + "/data", "XDG_CONFIG_HOME": folder + "/cfg",
         "MARKTIME_CONFIG": config, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    typealias Result = CommandResult

    /// Runs `marktime ARGS --store S` (unless `storeFlag` is false) with stdin from `input`, else /dev/null.
    func run(_ args: [String], storeFlag: Bool = true, environment extra: [String: String] = [:], input: String? = nil) throws -> Result {
        try runCommand(Self.binary, args + (storeFlag ? ["--store", store] : []), environment: environment.merging(extra) { $1 }, input: input)
    }

    /// Parses JSON output.
    func json(_ args: [String]) throws -> Any {
        let r = try run(args + ["--format", "json"])
        guard r.status == 0 else { throw CLIFailure(result: r) }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8), options: [.fragmentsAllowed])
    }

    func database() throws -> AppDatabase { try AppDatabase(path: store, createDirectory: false) }
}

struct CLIFailure: Error { var result: CLI.Result }

let logDay: Int64 = 1_176_025_975_000_000_000
let second: Int64 = 1_000_000_000

/// A sight at 2007-04-08T09:52:55Z plus `seconds`, at the Haicom log's position.
func sight(at seconds: Int64, boot: String = "boot-a") throws -> Sight {
    let utc = UTCTime(nanosecondsSinceEpoch: logDay + seconds * second + 654_000_000)
    var s = Sight(instant: MonotonicInstant(bootID: boot, nanoseconds: seconds * second),
                  estimate: UTCEstimate(utc: utc, source: .gps, uncertainty: 0.5), createdAt: utc)
    s.position = try Position(latitude: -(27 + 12.64 / 60), longitude: 153 + 3.12 / 60)
    s.fixMode = 3
    s.fixAge = 0.25
    return s
}
