import Foundation
import MarkTimeCore
import MarkTimeStore
import RigSupport

/// `inserts`: `AppDatabase.insert` against a bare prepared INSERT of the same sights, on
/// this machine (no QEMU): marktime's own share of a sight's commit, without TCG's
/// slowdown. Run by `Tests/bench/insert`.
enum Inserts {
    static func run(folder: String, count: Int = 300, rounds: Int = 3) throws -> Int32 {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sights = (0..<count).map(sight)
        var bare: [Double] = [], store: [Double] = []
        // Alternated, so that neither has the disk's quieter moments to itself.
        for round in 0..<rounds {
            bare += try Bench.bareSightInserts(folder: folder, like: sights, spacing: 0, file: "bare-\(round).sqlite")
            store += try Bench.storeInserts(folder: folder, like: sights, spacing: 0, file: "store-\(round).sqlite")
        }
        let ratio = Bench.median(store) / Bench.median(bare)
        say("store disk         \(Bench.mount(of: folder))")
        say("bare sight insert  \(Bench.summary(bare, unit: "ms", over: "\(bare.count) inserts, one after another"))")
        say("store insert       \(Bench.summary(store, unit: "ms", over: "AppDatabase.insert of the same sights"))")
        say(String(format: "store ÷ bare       %.2f (medians)", ratio))
        return 0
    }

    /// A press as the daemon stores it: GPS-stamped by interpolation, with a 3D fix.
    static func sight(_ i: Int) -> Sight {
        let utc = UTCTime(nanosecondsSinceEpoch: 1_763_800_000_000_000_000 + Int64(i) * 1_000_000_000)
        let samples = [0.25, -0.75].map { d in
            StampProvenance.Sample(source: .gps, monotonicNanoseconds: Int64(i) * 1_000_000_000 - Int64(d * 1e9),
                                   utcNanoseconds: utc.nanosecondsSinceEpoch - Int64(d * 1e9), uncertainty: 0.5, distance: d)
        }
        var s = Sight(instant: MonotonicInstant(bootID: "0d9c3c56-5d1c-4ad0-a5b6-1f3a4b8c9d7e", nanoseconds: Int64(i) * 1_000_000_000),
                      estimate: UTCEstimate(utc: utc, source: .gps, uncertainty: 0.500025,
                                            provenance: StampProvenance(method: .interpolated, samples: samples)),
                      createdAt: utc)
        s.position = try? Position(latitude: -27.3807, longitude: 153.3807)
        s.fixMode = 3
        s.fixAge = 0.4
        s.trigger = .button
        return s
    }
}
