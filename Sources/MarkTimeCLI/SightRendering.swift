import Foundation
import MarkTimeCore
import MarkTimeStore
import MarkTimeExport
import MarkTimeSystem

/// How sights read on a terminal, in JSON and in CSV.
enum SightRendering {
    /// `±12 µs`, `±3 ms`, `±0.50 s`, or `unknown`.
    static func uncertainty(_ seconds: Double?) -> String { UTCEstimate.text(uncertainty: seconds) }

    /// The shortest decimal that reads back as the same number.
    static func number(_ value: Double?) -> String {
        guard let v = value else { return "" }
        return Position.plain(v)
    }

    static func fixed(_ value: Double?, _ places: Int) -> String {
        value.map { FixedDecimal.string($0, places: places) } ?? ""
    }

    static func fixMode(_ mode: Int?) -> String { mode.map { "\($0)D" } ?? "" }

    // MARK: Table

    /// Newest first, as listed; `gaps` are shown between the sights around them.
    static func table(_ sights: [Sight], gaps: [InputGap] = []) -> String {
        var table = TextTable(header: ["ID", "TIME (UTC)", "DATE", "SOURCE", "±", "POSITION", "BODY", "LIMB", "HS"])
        var gaps = gaps.filter { $0.to != nil }.sorted { $0.to! > $1.to! }
        func gapRow(_ g: InputGap) -> [String] {
            ["--", g.to!.sightFormat, g.to!.isoDate, "GAP", "",
             "input dropped\(g.from.map { " since \($0.sightFormat)" } ?? ""): presses may be lost", "", "", ""]
        }
        for s in sights {
            while let g = gaps.first, g.to! >= s.estimate.utc {
                table.rows.append(gapRow(g))
                gaps.removeFirst()
            }
            table.rows.append([
                String(s.id ?? 0), s.estimate.utc.sightFormat, s.estimate.utc.isoDate, s.estimate.source.rawValue,
                uncertainty(s.estimate.uncertainty), s.positionSummary, s.body ?? "", s.limb?.rawValue ?? "",
                s.hs.map(SextantAngle.format) ?? "",
            ])
        }
        table.rows += gaps.map(gapRow)
        return table.render()
    }

    static func detail(_ s: Sight, archived: Bool = false, memo: SightMemo? = nil) -> String {
        var lines: [(String, String)] = [
            ("sight", "\(s.id ?? 0)\(archived ? " (archived: `marktime sights restore` brings it back)" : "")"),
            ("time", "\(s.estimate.utc.sightFormat)  \(s.estimate.utc.iso8601)"),
            ("source", "\(s.estimate.source.rawValue), uncertainty \(uncertainty(s.estimate.uncertainty))"),
            ("marked by", s.trigger?.rawValue ?? "not recorded"),
        ]
        if let p = s.estimate.provenance {
            lines.append(("stamped from", provenance(p)))
        }
        if let o = s.original, let at = s.correctedAt {
            lines.append(("first stamp", "\(o.utc.iso8601) \(o.source.rawValue) \(uncertainty(o.uncertainty)), corrected \(at.iso8601)"))
        }
        if let p = s.position {
            lines.append(("position", "\(p.ddm)  (\(fixMode(s.fixMode)) fix, \(fixed(s.fixAge, 1)) s old)"))
            if let flag = s.positionFlag { lines.append(("position flag", Text.escaped(flag))) }
        } else {
            lines.append(("position", "no GPS fix"))
        }
        let optional: [(String, String?)] = [
            ("body", s.body.map(Text.escaped)), ("limb", s.limb?.rawValue), ("Hs", s.hs.map(SextantAngle.format)),
            ("index error", s.indexError.map { "\(number($0))'" }), ("height of eye", s.eyeHeight.map { "\(number($0)) m" }),
            ("temperature", s.temperature.map { "\(number($0)) °C" }), ("pressure", s.pressure.map { "\(number($0)) hPa" }),
            ("DR", s.dr?.ddm), ("note", s.note.map(Text.escaped)),
        ]
        lines += optional.compactMap { name, value in value.map { (name, $0) } }
        if let memo, let id = s.id {
            lines.append(("voice memo", "\(memo.summary): `marktime sight memo \(id)` saves it as a FLAC file"))
        }
        lines.append(("raw instant", "boot \(s.instant.bootID) monotonic \(s.instant.nanoseconds) ns"))
        lines.append(("created", s.createdAt.iso8601))
        if let e = s.editedAt { lines.append(("edited", e.iso8601)) }
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { "\($0.0.padding(to: width))  \($0.1)" }.joined(separator: "\n")
    }

    /// `interpolated between gps samples 12.000 s before (±0.5 s) and 48.000 s after (±0.5 s)`.
    static func provenance(_ p: StampProvenance) -> String {
        let samples = p.samples.map { x in
            let when = x.distance >= 0 ? "\(fixed(x.distance, 3)) s before" : "\(fixed(-x.distance, 3)) s after"
            return "\(x.source.rawValue) sample \(when) (\(uncertainty(x.uncertainty)))"
        }
        let phone = p.phoneRoundTrip.map { "; the phone's clock sync round trip \(fixed($0 * 1000, 3)) ms (±\(fixed($0 * 500, 3)) ms)" } ?? ""
        if p.method == .carried, let r = p.rate, let x = p.samples.first {
            return "carried \(Chronometer.duration(x.distance)) from a \(x.source.rawValue) sample (\(uncertainty(x.uncertainty))) at \(r.text) "
                + "from the rate book (learned over \(Chronometer.duration(r.span)) of \(r.source.rawValue))"
        }
        return "\(p.method == .interpolated ? "interpolated between" : "carried from") \(samples.joined(separator: " and "))" + phone
    }

    static func json(_ p: StampProvenance?) -> JSON {
        guard let p else { return .null }
        return .object([
            ("method", .string(p.method.rawValue)),
            ("samples", .array(p.samples.map { x in
                .object([("source", .string(x.source.rawValue)), ("monotonic_ns", .int(x.monotonicNanoseconds)),
                         ("utc", .string(UTCTime(nanosecondsSinceEpoch: x.utcNanoseconds).iso8601)),
                         ("uncertainty_s", .from(x.uncertainty)), ("distance_s", .from(x.distance))])
            })),
        ] + (p.phoneRoundTrip.map { [("phone_round_trip_s", JSON.from($0))] } ?? [])
          + (p.rate.map { r in
              [("rate", JSON.object([("gain_s_per_day", .number(r.gain)), ("scatter_s_per_day", .number(r.scatter)),
                                     ("source", .string(r.source.rawValue)), ("span_s", .number(r.span))]))]
          } ?? []))
    }

    // MARK: JSON

    /// The sight as `json(_:)` has it, with its memo (`sight show`): null, or its length,
    /// rate, size, and whether the limit cut it.
    static func json(_ s: Sight, memo: SightMemo?) -> JSON {
        guard case .object(let pairs) = json(s) else { return json(s) }
        guard let m = memo else { return .object(pairs + [("memo", JSON.null)]) }
        let fields: [(String, JSON)] = [
            ("format", .string(m.format)), ("seconds", .number(m.seconds)), ("sample_rate", .int(Int64(m.sampleRate))),
            ("frames", .int(Int64(m.frames))), ("bytes", .int(Int64(m.data.count))), ("cut", .bool(m.cut)),
        ]
        return .object(pairs + [("memo", JSON.object(fields))])
    }

    static func json(_ s: Sight) -> JSON {
        .object([
            ("id", .from(s.id)),
            ("utc", .string(s.estimate.utc.iso8601)),
            ("source", .string(s.estimate.source.rawValue)),
            ("uncertainty_s", .from(s.estimate.uncertainty)),
            ("provenance", json(s.estimate.provenance)),
            ("lat", .from(s.position?.latitude)),
            ("lon", .from(s.position?.longitude)),
            ("lat_ddm", .from(s.position?.latitudeDDM)),
            ("lon_ddm", .from(s.position?.longitudeDDM)),
            ("fix_mode", .from(s.fixMode)),
            ("fix_age_s", .from(s.fixAge)),
            ("position_flag", .from(s.positionFlag)),
            ("trigger", .from(s.trigger?.rawValue)),
            ("body", .from(s.body)),
            ("limb", .from(s.limb?.rawValue)),
            ("hs", .from(s.hs)),
            ("ie_arcmin", .from(s.indexError)),
            ("eye_height_m", .from(s.eyeHeight)),
            ("temperature_c", .from(s.temperature)),
            ("pressure_hpa", .from(s.pressure)),
            ("dr_lat", .from(s.dr?.latitude)),
            ("dr_lon", .from(s.dr?.longitude)),
            ("note", .from(s.note)),
            ("boot_id", .string(s.instant.bootID)),
            ("monotonic_ns", .int(s.instant.nanoseconds)),
            ("original", s.original.map { o in
                .object([("utc", .string(o.utc.iso8601)), ("source", .string(o.source.rawValue)), ("uncertainty_s", .from(o.uncertainty))])
            } ?? .null),
            ("corrected_at", .from(s.correctedAt?.iso8601)),
            ("created_at", .string(s.createdAt.iso8601)),
            ("edited_at", .from(s.editedAt?.iso8601)),
        ])
    }

    // MARK: CSV

    static var csvHeader: [String] { SightCSV.header }

    /// RFC 4180: one header row, CRLF line ends (`SightCSV`).
    static func csv(_ sights: [Sight]) -> String { SightCSV.render(sights) }
}

extension SightRendering {
    /// The daemon line of `status`: whether it runs is the lock's answer; the heartbeat
    /// says whether it is well.
    static func daemonState(holder: DaemonLock.Holder, published: DaemonStatus, age: Double?, now: MonotonicInstant) -> String {
        switch holder {
        case .daemon(let pid):
            let pidText = ", pid \(pid ?? published.pid)"
            guard let age else { return "running, no heartbeat yet in this boot\(pidText)" }
            return age <= DaemonStatus.liveHeartbeatSeconds
                ? "running (heartbeat \(fixed(age, 1)) s ago)\(pidText)"
                : "running but silent: no heartbeat for \(fixed(age, 0)) s\(pidText); it is stopped (SIGSTOP) or stuck, or cannot write its status file (a full disk): `journalctl -u marktime` tells which"
        case .none:
            if published.stopped {
                return "stopped (\(age.map { "\(fixed($0, 0)) s ago" } ?? "in another boot")), pid \(published.pid)"
            }
            return "not running: it ended without stopping (last heartbeat \(age.map { "\(fixed($0, 0)) s ago" } ?? "in another boot")), pid \(published.pid); "
                + "`journalctl -u marktime` tells why"
        }
    }
}

extension DaemonLock.Holder {
    var pid: Int32? { if case .daemon(let pid) = self { pid } else { nil } }
}
