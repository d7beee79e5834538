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

    @Test("For spreadsheets, notes that would run as formulas get a leading quote; numbers and other notes are as stored")
    func formulasNeutralised() throws {
        // Given sights at 27° S 153° E with notes a spreadsheet would run, and one it would not
        let tmp = TemporaryFolder()
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        let notes = ["=HYPERLINK(\"http://evil.example\",\"click\")", "+1", "-2+3", "@SUM(A1)", "\tx", "hazy, low cloud"]
        for (i, note) in notes.enumerated() {
            var s = sight(at: Int64(i))
            s.position = try Position(latitude: -27.5, longitude: 153.25)
            s.note = note
            _ = try db.insert(s)
        }
        // When it is exported for spreadsheets, and as it is
        var safe: [UInt8] = [], plain: [UInt8] = []
        _ = try SightCSV.export(db, SightQuery(oldestFirst: true), forSpreadsheets: true) { safe += $0 }
        _ = try SightCSV.export(db, SightQuery(oldestFirst: true)) { plain += $0 }
        // Then the notes that start a formula are quoted text, and nothing else changed
        let header = SightCSV.header
        let note = try #require(header.firstIndex(of: "note")), lat = try #require(header.firstIndex(of: "gps_lat"))
        func column(_ bytes: [UInt8], _ i: Int) -> [String] {
            String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").dropFirst().map { line in
                // Every note here but the first and the last has no comma; the first ends with one quoted field.
                String(line.split(separator: ",", omittingEmptySubsequences: false)[i])
            }
        }
        #expect(column(safe, lat) == Array(repeating: "-27.5", count: 6))
        let safeNotes = String(decoding: safe, as: UTF8.self).split(separator: "\r\n").dropFirst().map(String.init)
        #expect(safeNotes[0].contains(#","'=HYPERLINK(""http://evil.example"",""click"")","#))
        #expect(column(safe, note)[1...4] == ["'+1", "'-2+3", "'@SUM(A1)", "'\tx"])
        #expect(safeNotes[5].contains(#","hazy, low cloud","#))
        #expect(column(plain, note)[1...4] == ["+1", "-2+3", "@SUM(A1)", "\tx"])
    }

    @Test("A flagged GPS position is exported with its flag, and the sight is reduced from its DR with no GPS error")
    func flaggedPosition() throws {
        // Given a practice Sun sight off Brisbane with its DR there, and a GPS position 50′ south that the daemon flagged
        let tmp = TemporaryFolder()
        let db = try AppDatabase(path: tmp.store, createDirectory: false)
        let reading = SextantReading(hs: 0, indexError: 0, eyeHeight: 2.4, limb: .lower, celsius: 18, hectopascals: 1013)
        let truth = try Position(latitude: -27.5, longitude: 153.25)
        var s = try #require(Sight.practice(.sun, at: UTCTime(year: 2007, month: 4, day: 8, hour: 1)!, from: truth, reading: reading, dr: truth))
        s.position = try Position(latitude: -27.5 - 50.0 / 60, longitude: 153.25)
        s.positionFlag = "gps position jumped 50.0 nm, \"faster than the boat\""
        _ = try db.insert(s)
        // When it is exported
        var exported: [UInt8] = []
        _ = try SightCSV.export(db, SightQuery(oldestFirst: true)) { exported += $0 }
        // Then the GPS position is there with its flag (quoted, as CSV needs), the reduction is filled in, and the GPS error is empty
        let row = try #require(String(decoding: exported, as: UTF8.self).split(separator: "\r\n").dropFirst().first)
        #expect(row.contains("28° 20'.00 S,153° 15'.00 E,"))
        #expect(row.contains(#","gps position jumped 50.0 nm, ""faster than the boat""","#))
        #expect(row.hasSuffix(","))
        let fields = row.split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.suffix(5).dropLast().allSatisfy { !$0.isEmpty })
        #expect(SightCSV.header.firstIndex(of: "position_flag") == SightCSV.header.firstIndex(of: "fix_age_s")! + 1)
    }

}

@Suite("Sights on a chart (GPX and KML)")
struct ChartDataTests {
    @Test("On a chart a flagged GPS position is never the boat's: its sight is at its DR, else said to be at a flagged position, and the track leaves it out")
    func flaggedPositionOnTheChart() throws {
        // Given three sights a minute apart: one at a GPS fix, one whose GPS position was flagged but has a DR, one flagged without a DR
        let fix = try Position(latitude: -27.5, longitude: 153.25), lie = try Position(latitude: -28.5, longitude: 153.25)
        let dr = try Position(latitude: -27.5, longitude: 153.3)
        var sights = (0..<3).map { i in var s = sight(at: Int64(i) * 60); s.id = Int64(i + 1); s.position = i == 0 ? fix : lie; return s }
        sights[1].positionFlag = "gps position jumped 60.0 nm"
        sights[1].dr = dr
        sights[2].positionFlag = "gps position jumped 60.0 nm"
        // When they are charted
        let chart = ChartData(name: "test", sights: sights, fix: nil, places: [])
        // Then each point says where it stands, and the track is the one fix
        #expect(chart.points.map(\.position) == [fix, dr, lie])
        #expect(chart.points.map { $0.description.components(separatedBy: ", ").first! }
            == ["GPS \(fix.ddm)", "DR \(dr.ddm)", "flagged GPS (faster than the boat can) \(lie.ddm)"])
        #expect(chart.track.map(\.position) == [fix])
    }
}
