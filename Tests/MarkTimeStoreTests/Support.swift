import Foundation
import MarkTimeCore

/// A fresh folder under /tmp, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "marktime-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var store: String { path + "/marktime.sqlite" }
}

let logDay: Int64 = 1_176_025_975_000_000_000
let second: Int64 = 1_000_000_000

/// A sight stamped `source` at monotonic `seconds` in `boot`.
func sight(at seconds: Int64, boot: String = "boot-a", source: TimeSource = .gps) -> Sight {
    let utc = UTCTime(nanosecondsSinceEpoch: logDay + seconds * second)
    return Sight(instant: MonotonicInstant(bootID: boot, nanoseconds: seconds * second),
                 estimate: UTCEstimate(utc: utc, source: source, uncertainty: source == .unsynced ? nil : 0.5), createdAt: utc)
}
