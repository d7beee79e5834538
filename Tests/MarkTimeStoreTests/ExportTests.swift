import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore
import MarkTimeExport
import Testing

@Suite("The CSV export, written on several threads")
struct ExportTests {
    @Test("Three batches and a part of sights reach the file in order, as one thread writes them")
    func batchesInOrder() throws {
        // Given 10,000 sights (over two 4,096-row batches), every tenth a practice Sun sight in the
        // afternoon off Brisbane, which reduces,
        // others without a body, an odd note, or in the southern or western hemispheres;
        let tmp = TemporaryFolder()
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        let reading = SextantReading(hs: 0, indexError: -1.2, eyeHeight: 2.4, limb: .lower, celsius: 18, hectopascals: 1013)
        var sights: [Sight] = []
        for i in 0..<10_000 as Range<Int64> {
            var s: Sight
            if i % 10 == 0, let p = Sight.practice(.sun, at: UTCTime(year: 2007, month: 4, day: 8, hour: 1)!.adding(nanoseconds: i * second),
                                                     from: try Position(latitude: -27.38 + Double(i) * 1e-4, longitude: 153.38), reading: reading) {
                s = p
                s.instant = MonotonicInstant(bootID: "boot-a", nanoseconds: i * second)
            } else {
                s = sight(at: i)
                s.position = try Position(latitude: Double(i % 170) - 85 + 0.123456, longitude: Double(i % 350) - 175 - 0.000001)
                s.fixAge = Double(i % 1000) / 7
                if i % 3 == 0 { s.note = "sight \(i), \"hazy\"" }
            }
            sights.append(try db.insert(s))
        }
        // when it is exported,
        var exported: [UInt8] = []
        let count = try SightCSV.export(db, SightQuery(oldestFirst: true)) { exported += $0 }
        // then every sight is there, oldest first, byte for byte as one thread renders the same sights.
        let stored = try db.sights(SightQuery(oldestFirst: true))
        #expect(count == 10_000)
        #expect(String(decoding: exported, as: UTF8.self) == SightCSV.render(stored))
        let lines = String(decoding: exported, as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 10_001)
        // The practice sights' reductions are filled in (their last column, the GPS error, ends the line).
        let reducible = stored.filter { (try? ReducedSight($0)) != nil }.count
        #expect(reducible == 1_000)
        #expect(lines.dropFirst().filter { !$0.hasSuffix(",") }.count == reducible)
    }
}
