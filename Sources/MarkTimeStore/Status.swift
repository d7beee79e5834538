import GRDB
import MarkTimeCore

extension AppDatabase {
    /// Replaces the daemon's status row.
    public func publish(_ s: DaemonStatus) throws(StoreError) {
        try write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO daemon_status (id, pid, boot_id, started_mono_ns, heartbeat_mono_ns,
                    clock_source, clock_mono_ns, clock_utc_ns, clock_uncertainty_s,
                    fix_mode, fix_lat, fix_lon, fix_eph_m, fix_time_ns, fix_mono_ns,
                    gpsd, button_device, button_state, sound_state, stopped)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [
                    s.pid, s.bootID, s.startedAt, s.heartbeat,
                    s.clock?.source.rawValue, s.clock?.monotonicNanoseconds, s.clock?.utc.nanosecondsSinceEpoch, s.clock?.uncertainty,
                    s.fix?.mode, s.fix?.position.latitude, s.fix?.position.longitude, s.fix?.horizontalError,
                    s.fix?.time?.nanosecondsSinceEpoch, s.fix?.receivedAt.nanoseconds,
                    s.gpsd, s.buttonDevice, s.buttonState, s.soundState, s.stopped,
                ])
        }
    }

    /// The daemon's last published status, if a daemon ever ran on this store.
    public func daemonStatus() throws(StoreError) -> DaemonStatus? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM daemon_status WHERE id = 1") else { return nil }
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
}
