import Foundation
import MarkTimeCore
import MarkTimeSky
import MarkTimeStore

/// Sights as CSV for sight reduction: RFC 4180, one header row, CRLF line ends, oldest
/// first. Angles are decimal degrees; the GPS position is repeated in DDM, and
/// `position_flag` says why it is not a fix when the daemon flagged it (faster than the
/// boat can): such a sight is reduced from its DR only, and has no GPS error. The last five
/// columns are the sight's reduction (`ReducedSight`), empty when it lacks what that needs:
/// Ho and Hc to 0.00001°, Zn to 0.0001°, the intercept and GPS error to 0.01′, so that no
/// column rounds by more than 0.01′ what a plot uses.
///
/// It writes bytes straight from the store's columns: 100,000 sights must export about
/// as fast as `sqlite3 -csv` reads them (CSV.swift and `String(format:)` took 10.7 s for
/// that; see the Benchmarks article in MarkTime.docc). A field is quoted when it holds a quote, a
/// comma, CR or LF, and its quotes are doubled, as CSV.swift's writer does.
public enum SightCSV {
    public static let header = [
        "id", "utc_date", "utc_time", "utc", "source", "uncertainty_s", "body", "limb", "hs_deg", "ie_arcmin",
        "eye_height_m", "temperature_c", "pressure_hpa", "dr_lat", "dr_lon", "gps_lat", "gps_lon",
        "gps_lat_ddm", "gps_lon_ddm", "fix_mode", "fix_age_s", "position_flag", "note",
        "ho_deg", "hc_deg", "zn_deg", "intercept_nm", "gps_error_arcmin",
    ]

    /// One row's values, as stored.
    public struct Row: Sendable {
        var id: Int64
        var utc: Int64
        var source: String
        var uncertainty, hs, indexError, eyeHeight, temperature, pressure, drLat, drLon, lat, lon, fixAge: Double?
        var body, limb, note, positionFlag: String?
        var fixMode: Int64?

        public init(_ s: Sight) {
            id = s.id ?? 0
            utc = s.estimate.utc.nanosecondsSinceEpoch
            source = s.estimate.source.rawValue
            uncertainty = s.estimate.uncertainty
            body = s.body
            limb = s.limb?.rawValue
            hs = s.hs
            indexError = s.indexError
            eyeHeight = s.eyeHeight
            temperature = s.temperature
            pressure = s.pressure
            drLat = s.dr?.latitude
            drLon = s.dr?.longitude
            lat = s.position?.latitude
            lon = s.position?.longitude
            fixMode = s.fixMode.map(Int64.init)
            fixAge = s.fixAge
            positionFlag = s.positionFlag
            note = s.note
        }

        init(_ r: SightExportRecord) {
            (id, utc, source, uncertainty, body, limb) = (r.id, r.utc, r.source, r.uncertainty, r.body, r.limb)
            (hs, indexError, eyeHeight, temperature, pressure) = (r.hs, r.indexError, r.eyeHeight, r.temperature, r.pressure)
            (drLat, drLon, lat, lon, fixMode, fixAge, note) = (r.drLat, r.drLon, r.lat, r.lon, r.fixMode, r.fixAge, r.note)
            positionFlag = r.positionFlag
        }

        /// The sight these fields describe, for its reduction.
        var sight: Sight {
            var s = Sight(id: id, instant: MonotonicInstant(bootID: "", nanoseconds: 0),
                          estimate: UTCEstimate(utc: UTCTime(nanosecondsSinceEpoch: utc), source: TimeSource(rawValue: source) ?? .unsynced,
                                                uncertainty: uncertainty),
                          createdAt: UTCTime(nanosecondsSinceEpoch: utc))
            s.body = body
            s.limb = limb.flatMap { Limb(rawValue: $0) }
            s.hs = hs
            s.indexError = indexError
            s.eyeHeight = eyeHeight
            s.temperature = temperature
            s.pressure = pressure
            if let drLat, let drLon { s.dr = try? Position(latitude: drLat, longitude: drLon) }
            if let lat, let lon { s.position = try? Position(latitude: lat, longitude: lon) }
            s.positionFlag = positionFlag
            return s
        }

        /// The reduction, when the sight has what it needs.
        var reduced: ReducedSight? {
            guard body != nil, hs != nil, eyeHeight != nil else { return nil }
            return try? ReducedSight(sight)
        }
    }

    /// The CSV of `sights`, header included.
    public static func render(_ sights: [Sight]) -> String {
        var out = Writer { _ in }
        out.header()
        for s in sights { out.row(Row(s)) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Streams the current sights that `query` selects to `sink`, in chunks; returns how many.
    ///
    /// Rows are read in batches on this thread; each batch is reduced and written on all the
    /// machine's cores while the next is read, and the batches reach `sink` in order.
    ///
    /// With `forSpreadsheets`, a text cell that a spreadsheet would run as a formula (one
    /// that starts with `=`, `+`, `-`, `@`, a tab or CR: a note such as `=HYPERLINK(…)`) gets
    /// a leading `'`, which spreadsheets show as text; numeric columns are never touched.
    public static func export(_ db: AppDatabase, _ query: SightQuery, forSpreadsheets: Bool = false,
                              to sink: @escaping ([UInt8]) throws -> Void) throws(StoreError) -> Int {
        do { try query.check() } catch { throw .refused(error.description) }
        var header = Writer(sink)
        header.header()
        let pipeline = Pipeline(parts: max(1, ProcessInfo.processInfo.activeProcessorCount), forSpreadsheets: forSpreadsheets)
        var batch: [Row] = []
        batch.reserveCapacity(Pipeline.batchSize)
        // The header goes out as the read starts, before any row.
        var started = false
        let start = { () throws in if !started { try header.flush(); started = true } }
        return try db.exportSights(query) { record in
            try start()
            batch.append(Row(record))
            if batch.count == Pipeline.batchSize {
                try pipeline.submit(batch, to: sink)
                batch.removeAll(keepingCapacity: true)
            }
        } finally: {
            try start()
            try pipeline.submit(batch, to: sink)
            try pipeline.finish(to: sink)
        }
    }

    /// Writes batches of rows on several threads, one batch in flight while the next is read.
    final class Pipeline {
        static let batchSize = 4096

        /// One batch's rows, split into parts, each written on its own thread into its own bytes.
        final class Batch: @unchecked Sendable {
            final class Part: @unchecked Sendable { var bytes: [UInt8] = [] }

            let rows: [Row]
            let parts: [Part]
            let forSpreadsheets: Bool
            let done = DispatchGroup()

            init(_ rows: [Row], parts: Int, forSpreadsheets: Bool) {
                self.rows = rows
                self.parts = (0..<parts).map { _ in Part() }
                self.forSpreadsheets = forSpreadsheets
            }

            func render(part: Int) {
                let size = (rows.count + parts.count - 1) / parts.count
                var out = Writer(forSpreadsheets: forSpreadsheets) { _ in }
                for i in min(rows.count, part * size)..<min(rows.count, (part + 1) * size) { out.row(rows[i]) }
                parts[part].bytes = out.bytes
            }
        }

        /// One serial queue per part: each gets its own thread, where the global queue's
        /// threads (one per core) would include the one reading the store.
        let queues: [DispatchQueue]
        let forSpreadsheets: Bool
        var inFlight: Batch?

        init(parts: Int, forSpreadsheets: Bool) {
            queues = (0..<parts).map { DispatchQueue(label: "marktime.export.\($0)") }
            self.forSpreadsheets = forSpreadsheets
        }

        /// Starts writing `rows`, after handing the batch before it to `sink`.
        func submit(_ rows: [Row], to sink: ([UInt8]) throws -> Void) throws {
            guard !rows.isEmpty else { return }
            let batch = Batch(rows, parts: rows.count < 256 ? 1 : queues.count, forSpreadsheets: forSpreadsheets)
            for part in 0..<batch.parts.count {
                queues[part].async(group: batch.done) { batch.render(part: part) }
            }
            try finish(to: sink)
            inFlight = batch
        }

        /// Waits for the batch in flight and hands its bytes to `sink`.
        func finish(to sink: ([UInt8]) throws -> Void) throws {
            guard let batch = inFlight else { return }
            inFlight = nil
            batch.done.wait()
            for part in batch.parts where !part.bytes.isEmpty { try sink(part.bytes) }
        }
    }

    /// Appends CSV fields as UTF-8 bytes.
    struct Writer {
        var bytes: [UInt8] = []
        let sink: ([UInt8]) throws -> Void
        /// Text that a spreadsheet would run as a formula gets a leading `'`.
        let forSpreadsheets: Bool

        init(forSpreadsheets: Bool = false, _ sink: @escaping ([UInt8]) throws -> Void) {
            self.sink = sink
            self.forSpreadsheets = forSpreadsheets
            bytes.reserveCapacity(1 << 17)
        }

        mutating func flush() throws {
            try sink(bytes)
            bytes.removeAll(keepingCapacity: true)
        }

        mutating func header() {
            for (i, name) in SightCSV.header.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += name.utf8
            }
            bytes += [13, 10]
        }

        mutating func row(_ r: Row) {
            int(r.id)
            comma()
            utcFields(r.utc)
            comma()
            text(r.source)
            comma()
            number(r.uncertainty)
            comma()
            text(r.body)
            comma()
            text(r.limb)
            comma(); number(r.hs)
            comma(); number(r.indexError)
            comma(); number(r.eyeHeight)
            comma(); number(r.temperature)
            comma(); number(r.pressure)
            comma(); number(r.drLat)
            comma(); number(r.drLon)
            comma(); number(r.lat)
            comma(); number(r.lon)
            comma()
            if let lat = r.lat, let lon = r.lon {
                ddm(lat, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
                comma()
                ddm(lon, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
            } else {
                comma()
            }
            comma()
            if let m = r.fixMode { int(m) }
            comma()
            if let age = r.fixAge { fixed(age, 3) }
            comma()
            text(r.positionFlag)
            comma()
            text(r.note)
            if let reduced = r.reduced {
                comma(); fixed(reduced.ho, 5)
                comma(); fixed(reduced.computed.altitude, 5)
                comma(); fixed(reduced.computed.azimuth, 4)
                comma(); fixed(reduced.intercept, 2)
                comma(); if let e = reduced.gpsError { fixed(e, 2) }
            } else {
                bytes += ",,,,,".utf8
            }
            bytes += [13, 10]
        }

        mutating func comma() { bytes.append(UInt8(ascii: ",")) }

        mutating func int(_ v: Int64) {
            if v < 0 { bytes.append(UInt8(ascii: "-")) }
            FixedDecimal.appendDigits(v.magnitude, minimumCount: 1, to: &bytes)
        }

        /// `v` zero-padded to `width` digits.
        mutating func digits(_ v: Int, _ width: Int) {
            if v < 0 { bytes.append(UInt8(ascii: "-")) }
            FixedDecimal.appendDigits(UInt64(v.magnitude), minimumCount: width, to: &bytes)
        }

        /// `utc_date,utc_time,utc`: `2026-11-21,13:01:46.654,2026-11-21T13:01:46.654Z`.
        mutating func utcFields(_ ns: Int64) {
            let f = UTCTime(nanosecondsSinceEpoch: ns).millisecondFields
            date(f)
            comma()
            time(f)
            comma()
            date(f)
            bytes.append(UInt8(ascii: "T"))
            time(f)
            bytes.append(UInt8(ascii: "Z"))
        }

        mutating func date(_ f: UTCTime.Fields) {
            digits(f.year, 4); bytes.append(UInt8(ascii: "-")); digits(f.month, 2); bytes.append(UInt8(ascii: "-")); digits(f.day, 2)
        }

        mutating func time(_ f: UTCTime.Fields) {
            digits(f.hour, 2); bytes.append(UInt8(ascii: ":")); digits(f.minute, 2); bytes.append(UInt8(ascii: ":"))
            digits(f.second, 2); bytes.append(UInt8(ascii: ".")); digits(f.millisecond, 3)
        }

        /// The shortest decimal that reads back as the same number; whole numbers without a point.
        mutating func number(_ value: Double?) {
            guard let v = value else { return }
            if v == v.rounded(), abs(v) < 1e15 { int(Int64(v)) } else { bytes += v.description.utf8 }
        }

        /// `places` decimals, rounded as printf's `%.Nf` does.
        mutating func fixed(_ v: Double, _ places: Int) { FixedDecimal.append(v, places: places, to: &bytes) }

        /// Degrees and decimal minutes to the hundredth, as `Position.ddm` writes them.
        mutating func ddm(_ value: Double, positive: UInt8, negative: UInt8) {
            let hundredths = Int((abs(value) * 6000).rounded())
            let degrees = hundredths / 6000, minutes = hundredths % 6000
            int(Int64(degrees))
            bytes += "° ".utf8
            digits(minutes / 100, 2)
            bytes += "'.".utf8
            digits(minutes % 100, 2)
            bytes.append(UInt8(ascii: " "))
            bytes.append(value < 0 && hundredths != 0 ? negative : positive)
        }

        /// A text field, quoted when it must be.
        mutating func text(_ value: String?) {
            guard var value else { return }
            // =, +, -, @, tab, CR: what a spreadsheet reads as the start of a formula.
            if forSpreadsheets, let first = value.utf8.first, [61, 43, 45, 64, 9, 13].contains(first) { value = "'" + value }
            let utf8 = value.utf8
            guard utf8.contains(where: { $0 == 34 || $0 == 44 || $0 == 13 || $0 == 10 }) else {
                bytes += utf8
                return
            }
            bytes.append(34)
            for b in utf8 {
                if b == 34 { bytes.append(34) }
                bytes.append(b)
            }
            bytes.append(34)
        }
    }
}
