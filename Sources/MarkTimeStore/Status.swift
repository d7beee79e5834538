import Foundation
import GRDB
import MarkTimeCore
import MarkTimeSystem

extension AppDatabase {
    /// Replaces the daemon's status row. The daemon writes it when it starts and when it
    /// stops; while it runs, its live status is in `statusFile` (see `StatusFile`).
    public func publish(_ s: DaemonStatus, statusFile: String? = nil) throws(StoreError) {
        var record = DaemonStatusRecord(s)
        record.statusFile = statusFile
        let row = record
        try write { db in try row.save(db) }
    }

    /// The daemon's status: the live status file while the daemon that wrote the row
    /// runs, else the row itself (its last heartbeat tells how old it is).
    public func daemonStatus() throws(StoreError) -> DaemonStatus? {
        let found = try read { db in try DaemonStatusRecord.fetchOne(db, key: 1) }
        guard let found else { return nil }
        let (row, file) = (found.status, found.statusFile)
        if !row.stopped, let file, let live = StatusFile(path: file).read(), live.pid == row.pid, live.bootID == row.bootID {
            return live
        }
        return row
    }

    /// Where the daemon that last started writes its live status, if it said.
    public func daemonStatusFile() throws(StoreError) -> String? {
        try read { db in try DaemonStatusRecord.fetchOne(db, key: 1)?.statusFile }
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
        return StatusFile(path: Files.runtimeFolder(environment).map { $0 + "/" + name } ?? storePath + "." + name)
    }

    /// Replaces the file with `status` (a new file renamed over the old one).
    public func write(_ status: DaemonStatus) throws {
        let data = try JSONEncoder().encode(DaemonStatusRecord(status))
        try SideFile.replace(path, with: Array(data))
    }

    public func read() -> DaemonStatus? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Self.decode(data)
    }

    /// The status a file's bytes hold; `nil` for anything that is not one.
    public static func decode(_ data: Data) -> DaemonStatus? {
        try? JSONDecoder().decode(DaemonStatusRecord.self, from: data).status
    }

    public func remove() { _ = try? SideFile.remove(path) }
}

/// The `daemon_status` row (id 1), and the live status file's JSON: GRDB and
/// `JSONEncoder` both read and write it by its coding keys, the column names.
struct DaemonStatusRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "daemon_status"

    var id: Int64 = 1
    var pid: Int32, bootID: String, startedMonoNs: Int64, heartbeatMonoNs: Int64, clockSource: TimeSource?, clockMonoNs: Int64?
    var clockUtcNs: Int64?, clockUncertaintyS: Double?, fixMode: Int?, fixLat: Double?, fixLon: Double?, fixEphM: Double?
    var fixTimeNs: Int64?, fixMonoNs: Int64?, fixLostMonoNs: Int64?, fixLostMode: Int?, gpsd: String?, buttonDevice: String?, buttonState: String?, soundState: String?
    var stopped: Bool
    /// Where the daemon writes this record while it runs (the row only).
    var statusFile: String?, anchor: AnchorLive?, chronometer: Chronometer?, gpsSetAside: String?, fixFlag: String?, rtc: String?
    var trustedFix: TrustedFix?

    /// The last fix the position check trusted, as a JSON column (v20).
    struct TrustedFix: Codable, Hashable {
        var lat: Double, lon: Double, mode: Int, ephM: Double?, timeNs: Int64?, monoNs: Int64

        enum CodingKeys: String, CodingKey {
            case lat, lon, mode, ephM = "eph_m", timeNs = "time_ns", monoNs = "mono_ns"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, pid, gpsd, stopped, anchor, chronometer, rtc, gpsSetAside = "gps_set_aside", trustedFix = "trusted_fix"
        case bootID = "boot_id", startedMonoNs = "started_mono_ns", heartbeatMonoNs = "heartbeat_mono_ns"
        case clockSource = "clock_source", clockMonoNs = "clock_mono_ns", clockUtcNs = "clock_utc_ns"
        case clockUncertaintyS = "clock_uncertainty_s", fixMode = "fix_mode", fixLat = "fix_lat", fixLon = "fix_lon"
        case fixEphM = "fix_eph_m", fixTimeNs = "fix_time_ns", fixMonoNs = "fix_mono_ns", buttonDevice = "button_device"
        case fixLostMonoNs = "fix_lost_mono_ns", fixLostMode = "fix_lost_mode", fixFlag = "fix_flag"
        case buttonState = "button_state", soundState = "sound_state", statusFile = "status_file"
    }

    init(_ s: DaemonStatus) {
        (pid, bootID, startedMonoNs, heartbeatMonoNs) = (s.pid, s.bootID, s.startedAt, s.heartbeat)
        (clockSource, clockMonoNs) = (s.clock?.source, s.clock?.monotonicNanoseconds)
        (clockUtcNs, clockUncertaintyS) = (s.clock?.utc.nanosecondsSinceEpoch, s.clock?.uncertainty)
        (fixMode, fixLat, fixLon, fixEphM) = (s.fix?.mode, s.fix?.position.latitude, s.fix?.position.longitude, s.fix?.horizontalError)
        (fixTimeNs, fixMonoNs) = (s.fix?.time?.nanosecondsSinceEpoch, s.fix?.receivedAt.nanoseconds)
        (fixLostMonoNs, fixLostMode, fixFlag) = (s.fix?.lost?.since.nanoseconds, s.fix?.lost?.mode, s.fix?.flag)
        (gpsd, buttonDevice, buttonState, soundState, stopped, anchor) = (s.gpsd, s.buttonDevice, s.buttonState, s.soundState, s.stopped, s.anchor)
        (chronometer, gpsSetAside, rtc) = (s.chronometer, s.gpsSetAside, s.rtc)
        trustedFix = s.trustedFix.map { f in
            TrustedFix(lat: f.position.latitude, lon: f.position.longitude, mode: f.mode, ephM: f.horizontalError, timeNs: f.time?.nanosecondsSinceEpoch,
                       monoNs: f.receivedAt.nanoseconds)
        }
    }

    var status: DaemonStatus {
        var s = DaemonStatus(pid: pid, bootID: bootID, startedAt: startedMonoNs, heartbeat: heartbeatMonoNs, gpsd: gpsd ?? "",
                             buttonDevice: buttonDevice, buttonState: buttonState ?? "", soundState: soundState ?? "", stopped: stopped)
        s.anchor = anchor
        (s.chronometer, s.gpsSetAside, s.rtc) = (chronometer, gpsSetAside, rtc)
        if let t = trustedFix, let position = try? Position(latitude: t.lat, longitude: t.lon) {
            s.trustedFix = Fix(position: position, mode: t.mode, horizontalError: t.ephM, time: t.timeNs.map(UTCTime.init(nanosecondsSinceEpoch:)),
                               receivedAt: MonotonicInstant(bootID: bootID, nanoseconds: t.monoNs))
        }
        if let clockSource, let clockMonoNs, let clockUtcNs {
            s.clock = ClockSample(source: clockSource, monotonicNanoseconds: clockMonoNs, utc: UTCTime(nanosecondsSinceEpoch: clockUtcNs),
                                  uncertainty: clockUncertaintyS)
        }
        if let fixMode, let fixLat, let fixLon, let fixMonoNs, let position = try? Position(latitude: fixLat, longitude: fixLon) {
            s.fix = Fix(position: position, mode: fixMode, horizontalError: fixEphM, time: fixTimeNs.map(UTCTime.init(nanosecondsSinceEpoch:)),
                        receivedAt: MonotonicInstant(bootID: bootID, nanoseconds: fixMonoNs))
            s.fix?.flag = fixFlag
            if let fixLostMonoNs {
                s.fix?.lost = FixLoss(since: MonotonicInstant(bootID: bootID, nanoseconds: fixLostMonoNs), mode: fixLostMode ?? 0)
            }
        }
        return s
    }
}
