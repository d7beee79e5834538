import Foundation
import GRDB
import MarkTimeCore
import MarkTimeSky

/// Sights as CSV for sight reduction: RFC 4180, one header row, CRLF line ends, oldest
/// first. Angles are decimal degrees; the GPS position is repeated in DDM. The last five
/// columns are the sight's reduction (`ReducedSight`), empty when it lacks what that needs.
///
/// It writes bytes straight from the store's columns: 100,000 sights must export about
/// as fast as `sqlite3 -csv` reads them (CSV.swift and `String(format:)` took 10.7 s for
/// that; see the README's Benchmarks). A field is quoted when it holds a quote, a
/// comma, CR or LF, and its quotes are doubled, as CSV.swift's writer does.
public enum SightCSV {
    public static let header = [
        "id", "utc_date", "utc_time", "utc", "source", "uncertainty_s", "body", "limb", "hs_deg", "ie_arcmin",
        "eye_height_m", "temperature_c", "pressure_hpa", "dr_lat", "dr_lon", "gps_lat", "gps_lon",
        "gps_lat_ddm", "gps_lon_ddm", "fix_mode", "fix_age_s", "note",
        "ho_deg", "hc_deg", "zn_deg", "intercept_nm", "gps_error_arcmin",
    ]

    /// One row's values, as stored.
    public struct Row: Sendable {
        var id: Int64
        var utc: Int64
        var source: String
        var uncertainty, hs, indexError, eyeHeight, temperature, pressure, drLat, drLon, lat, lon, fixAge: Double?
        var body, limb, note: String?
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
            note = s.note
        }

        init(_ row: GRDB.Row) {
            id = row[0]
            utc = row[1]
            source = row[2]
            uncertainty = row[3]
            body = row[4]
            limb = row[5]
            hs = row[6]
            indexError = row[7]
            eyeHeight = row[8]
            temperature = row[9]
            pressure = row[10]
            drLat = row[11]
            drLon = row[12]
            lat = row[13]
            lon = row[14]
            fixMode = row[15]
            fixAge = row[16]
            note = row[17]
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
            return s
        }

        /// The reduction, when the sight has what it needs.
        var reduced: ReducedSight? {
            guard body != nil, hs != nil, eyeHeight != nil else { return nil }
            return try? ReducedSight(sight)
        }

        static let columns = "id, utc_ns, source, uncertainty_s, body, limb, hs_deg, ie_arcmin, eye_height_m, temperature_c, "
            + "pressure_hpa, dr_lat, dr_lon, gps_lat, gps_lon, fix_mode, fix_age_s, note"
    }

    /// The CSV of `sights`, header included.
    public static func render(_ sights: [Sight]) -> String {
        var out = Writer { _ in }
        out.header()
        for s in sights { out.row(Row(s)) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Streams the current sights that `query` selects to `sink`, in chunks; returns how many.
    public static func export(_ db: AppDatabase, _ query: SightQuery, to sink: @escaping ([UInt8]) throws -> Void) throws(StoreError) -> Int {
        try query.check()
        var sql = "SELECT \(Row.columns) FROM sight WHERE archived_at_ns IS NULL"
        var arguments: StatementArguments = []
        if let since = query.since { sql += " AND utc_ns >= ?"; arguments += [since.nanosecondsSinceEpoch] }
        if let until = query.until { sql += " AND utc_ns < ?"; arguments += [until.nanosecondsSinceEpoch] }
        sql += " ORDER BY utc_ns ASC, id ASC"
        let q = sql, a = arguments
        return try db.read { database in
            var out = Writer(sink)
            out.header()
            var count = 0
            let rows = try GRDB.Row.fetchCursor(database, sql: q, arguments: a)
            while let row = try rows.next() {
                out.row(Row(row))
                count += 1
                if out.bytes.count >= 1 << 16 { try out.flush() }
            }
            try out.flush()
            return count
        }
    }

    /// Appends CSV fields as UTF-8 bytes.
    struct Writer {
        var bytes: [UInt8] = []
        let sink: ([UInt8]) throws -> Void

        init(_ sink: @escaping ([UInt8]) throws -> Void) {
            self.sink = sink
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
            for v in [r.hs, r.indexError, r.eyeHeight, r.temperature, r.pressure, r.drLat, r.drLon, r.lat, r.lon] {
                comma()
                number(v)
            }
            comma()
            if let lat = r.lat, let lon = r.lon {
                ddm(lat, positive: "N", negative: "S")
                comma()
                ddm(lon, positive: "E", negative: "W")
            } else {
                comma()
            }
            comma()
            if let m = r.fixMode { int(m) }
            comma()
            if let age = r.fixAge { fixed(age, 3) }
            comma()
            text(r.note)
            let reduced = r.reduced
            for (v, places) in [(reduced?.ho, 5), (reduced?.computed.altitude, 5), (reduced?.computed.azimuth, 2),
                                (reduced?.intercept, 2), (reduced?.gpsError, 2)] {
                comma()
                if let v { fixed(v, places) }
            }
            bytes += [13, 10]
        }

        mutating func comma() { bytes.append(UInt8(ascii: ",")) }

        mutating func int(_ v: Int64) { bytes += String(v).utf8 }

        mutating func digits(_ v: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var v = v
            if v >= divisor * 10 { bytes += String(v / (divisor * 10)).utf8; v %= divisor * 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(v / divisor % 10))
                divisor /= 10
            }
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

        /// `places` decimals, rounded as printf's `%.Nf` does (snprintf, no Foundation).
        mutating func fixed(_ v: Double, _ places: Int) {
            var buffer = [CChar](repeating: 0, count: 64)
            let n = withVaList([places, v]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
            bytes += buffer[0..<Int(max(0, min(n, 63)))].map { UInt8(bitPattern: $0) }
        }

        /// Degrees and decimal minutes to the hundredth, as `Position.ddm` writes them.
        mutating func ddm(_ value: Double, positive: Character, negative: Character) {
            let hundredths = Int((abs(value) * 6000).rounded())
            let degrees = hundredths / 6000, minutes = hundredths % 6000
            int(Int64(degrees))
            bytes += "° ".utf8
            digits(minutes / 100, 2)
            bytes += "'.".utf8
            digits(minutes % 100, 2)
            bytes.append(UInt8(ascii: " "))
            bytes += String(value < 0 && hundredths != 0 ? negative : positive).utf8
        }

        /// A text field, quoted when it must be.
        mutating func text(_ value: String?) {
            guard let value else { return }
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
