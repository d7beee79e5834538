import Foundation
import GRDB
import MarkTimeCore
import MarkTimeSystem

extension AppDatabase {
    /// Replaces the daemon's status row. The daemon writes it when it starts and when it
    /// stops; while it runs, its live status is in `statusFile` (see `StatusFile`).
    public func publish(_ s: DaemonStatus, statusFile: String? = nil) throws(StoreError) {
        try write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO daemon_status (id, pid, boot_id, started_mono_ns, heartbeat_mono_ns,
                    clock_source, clock_mono_ns, clock_utc_ns, clock_uncertainty_s,
                    fix_mode, fix_lat, fix_lon, fix_eph_m, fix_time_ns, fix_mono_ns,
                    gpsd, button_device, button_state, sound_state, stopped, status_file)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [
                    s.pid, s.bootID, s.startedAt, s.heartbeat,
                    s.clock?.source.rawValue, s.clock?.monotonicNanoseconds, s.clock?.utc.nanosecondsSinceEpoch, s.clock?.uncertainty,
                    s.fix?.mode, s.fix?.position.latitude, s.fix?.position.longitude, s.fix?.horizontalError,
                    s.fix?.time?.nanosecondsSinceEpoch, s.fix?.receivedAt.nanoseconds,
                    s.gpsd, s.buttonDevice, s.buttonState, s.soundState, s.stopped, statusFile,
                ])
        }
    }

    /// The daemon's status: the live status file while the daemon that wrote the row
    /// runs, else the row itself (its last heartbeat tells how old it is).
    public func daemonStatus() throws(StoreError) -> DaemonStatus? {
        let found = try read { db -> (DaemonStatus, String?)? in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM daemon_status WHERE id = 1") else { return nil }
            return (Self.status(row), row["status_file"])
        }
        guard let (row, file) = found else { return nil }
        if !row.stopped, let file, let live = StatusFile(path: file).read(), live.pid == row.pid, live.bootID == row.bootID {
            return live
        }
        return row
    }

    /// Where the daemon that last started writes its live status, if it said.
    public func daemonStatusFile() throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT status_file FROM daemon_status WHERE id = 1") }
    }

    static func status(_ row: Row) -> DaemonStatus {
        let bootID: String = row["boot_id"]
        var status = DaemonStatus(pid: row["pid"], bootID: bootID, startedAt: row["started_mono_ns"], heartbeat: row["heartbeat_mono_ns"],
                                  gpsd: row["gpsd"] ?? "", buttonDevice: row["button_device"],
                                  buttonState: row["button_state"] ?? "", soundState: row["sound_state"] ?? "",
                                  stopped: row["stopped"])
        if let source = (row["clock_source"] as String?).flatMap(TimeSource.init), let mono: Int64 = row["clock_mono_ns"],
           let utc: Int64 = row["clock_utc_ns"] {
            status.clock = ClockSample(source: source, monotonicNanoseconds: mono, utc: UTCTime(nanosecondsSinceEpoch: utc),
                                       uncertainty: row["clock_uncertainty_s"])
        }
        if let mode: Int = row["fix_mode"], let lat: Double = row["fix_lat"], let lon: Double = row["fix_lon"],
           let mono: Int64 = row["fix_mono_ns"], let position = try? Position(latitude: lat, longitude: lon) {
            status.fix = Fix(position: position, mode: mode, horizontalError: row["fix_eph_m"],
                             time: (row["fix_time_ns"] as Int64?).map(UTCTime.init(nanosecondsSinceEpoch:)),
                             receivedAt: MonotonicInstant(bootID: bootID, nanoseconds: mono))
        }
        return status
    }
}

/// The daemon's live status as a small JSON file in the runtime folder, rewritten
/// atomically (write, rename) every heartbeat and never synced: it matters only while
/// the daemon runs, so it lives on tmpfs, not on the SD card.
public struct StatusFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The file for the store at `storePath`: in `$RUNTIME_DIRECTORY` (systemd's
    /// `RuntimeDirectory=`), else `$XDG_RUNTIME_DIR/marktime`, else `/run/marktime` when
    /// it can be made, else beside the store. The name carries a hash of the store's
    /// path, so two daemons on two stores never share one.
    public static func choose(storePath: String, environment: [String: String]) -> StatusFile {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in storePath.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let name = "status-\(String(hash, radix: 16)).json"
        var folders: [String] = []
        if let d = environment["RUNTIME_DIRECTORY"], !d.isEmpty { folders.append(String(d.split(separator: ":").first ?? "")) }
        if let d = environment["XDG_RUNTIME_DIR"], !d.isEmpty { folders.append(d + "/marktime") }
        folders.append("/run/marktime")
        for folder in folders {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if access(folder, W_OK) == 0 { return StatusFile(path: folder + "/" + name) }
        }
        return StatusFile(path: storePath + "." + name)
    }

    /// Replaces the file with `status` (a new file renamed over the old one).
    public func write(_ status: DaemonStatus) throws {
        let data = try JSONEncoder().encode(Record(status))
        try SideFile.replace(path, with: Array(data))
    }

    public func read() -> DaemonStatus? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Self.decode(data)
    }

    /// The status a file's bytes hold; `nil` for anything that is not one.
    public static func decode(_ data: Data) -> DaemonStatus? {
        try? JSONDecoder().decode(Record.self, from: data).status
    }

    public func remove() { unlink(path) }

    /// The file's fields.
    struct Record: Codable {
        var pid: Int32
        var boot_id: String
        var started_mono_ns: Int64
        var heartbeat_mono_ns: Int64
        var clock_source: String?
        var clock_mono_ns: Int64?
        var clock_utc_ns: Int64?
        var clock_uncertainty_s: Double?
        var fix_mode: Int?
        var fix_lat: Double?
        var fix_lon: Double?
        var fix_eph_m: Double?
        var fix_time_ns: Int64?
        var fix_mono_ns: Int64?
        var gpsd: String
        var button_device: String?
        var button_state: String
        var sound_state: String
        var stopped: Bool
        var anchor: AnchorLive?

        init(_ s: DaemonStatus) {
            anchor = s.anchor
            pid = s.pid
            boot_id = s.bootID
            started_mono_ns = s.startedAt
            heartbeat_mono_ns = s.heartbeat
            clock_source = s.clock?.source.rawValue
            clock_mono_ns = s.clock?.monotonicNanoseconds
            clock_utc_ns = s.clock?.utc.nanosecondsSinceEpoch
            clock_uncertainty_s = s.clock?.uncertainty
            fix_mode = s.fix?.mode
            fix_lat = s.fix?.position.latitude
            fix_lon = s.fix?.position.longitude
            fix_eph_m = s.fix?.horizontalError
            fix_time_ns = s.fix?.time?.nanosecondsSinceEpoch
            fix_mono_ns = s.fix?.receivedAt.nanoseconds
            gpsd = s.gpsd
            button_device = s.buttonDevice
            button_state = s.buttonState
            sound_state = s.soundState
            stopped = s.stopped
        }

        var status: DaemonStatus {
            var s = DaemonStatus(pid: pid, bootID: boot_id, startedAt: started_mono_ns, heartbeat: heartbeat_mono_ns, gpsd: gpsd,
                                 buttonDevice: button_device, buttonState: button_state, soundState: sound_state, stopped: stopped)
            s.anchor = anchor
            if let source = clock_source.flatMap(TimeSource.init), let mono = clock_mono_ns, let utc = clock_utc_ns {
                s.clock = ClockSample(source: source, monotonicNanoseconds: mono, utc: UTCTime(nanosecondsSinceEpoch: utc),
                                      uncertainty: clock_uncertainty_s)
            }
            if let mode = fix_mode, let lat = fix_lat, let lon = fix_lon, let mono = fix_mono_ns,
               let position = try? Position(latitude: lat, longitude: lon) {
                s.fix = Fix(position: position, mode: mode, horizontalError: fix_eph_m,
                            time: fix_time_ns.map(UTCTime.init(nanosecondsSinceEpoch:)),
                            receivedAt: MonotonicInstant(bootID: boot_id, nanoseconds: mono))
            }
            return s
        }
    }
}
