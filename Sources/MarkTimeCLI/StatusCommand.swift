import ArgumentParser
import MarkTimeCore
import MarkTimeDevices
import MarkTimeStore
import MarkTimeSystem

extension MarkTime {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the store, the daemon's clock and GPS fix, and the button.",
            discussion: """
                The daemon rewrites its live state every second in a file in the runtime folder (/run/marktime under \
                systemd) and names that file in the store, so this works without talking to it.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Option(help: "Output: table or json.")
        var format: Format = .table

        func run() async throws {
            let settings = try config.settings()
            let db = try store.openForReading()
            let published = try db.daemonStatus()
            let counts = try db.sightCounts()
            let (reading, now) = try sharedClock(settings, published)
            let age = published?.heartbeatAge(now: reading.instant)
            let fixAge = published?.fix?.age(at: reading.instant)
            let current = published?.fix.flatMap { $0.lost == nil ? $0 : nil }
            // Running is the daemon lock's answer, not the status file's.
            let holder = DaemonLock.holder(store: db.path)
            switch format {
            case .json:
                print(JSON.object([
                    ("store", .string(db.path)),
                    ("schema", .string(db.unknownMigrations.isEmpty ? "current" : "newer (read-only)")),
                    ("sights", .int(Int64(counts.current))),
                    ("archived", .int(Int64(counts.archived))),
                    ("utc", .string(now.utc.iso8601)),
                    ("source", .string(now.source.rawValue)),
                    ("uncertainty_s", .from(now.uncertainty)),
                    ("daemon_running", .bool(holder != .none)),
                    ("daemon_pid", .from((holder.pid ?? published?.pid).map(Int.init))),
                    ("daemon_heartbeat_age_s", .from(age)),
                    ("daemon_stopped", .from(published?.stopped)),
                    ("gpsd", .from(published?.gpsd)),
                    // gpsd's mode now: 1 or 0 once the fix is lost. No fix, no position: the
                    // last one is given apart, under a name that says so.
                    ("fix_mode", .from(published?.fix.map { $0.lost?.mode ?? $0.mode })),
                    ("fix_lost_s", .from(published?.fix?.lost?.age(at: reading.instant))),
                    ("lat", .from(current?.position.latitude)),
                    ("lon", .from(current?.position.longitude)),
                    ("position", .from(current?.position.ddm)),
                    ("last_fix_position", .from(published?.fix.flatMap { $0.lost == nil ? nil : $0.position.ddm })),
                    ("fix_age_s", .from(fixAge)),
                    ("position_flag", .from(current?.flag)),
                    ("button_device", .from(published?.buttonDevice)),
                    ("button", .from(published?.buttonState)),
                    ("sound", .from(published?.soundState)),
                    ("gps_set_aside", .from(published?.gpsSetAside)),
                    ("rtc", .from(published?.rtc)),
                    ("time_unknown", .from(now.source.unknownTimeSentence)),
                    ("chronometer", published?.chronometer.map { c in
                        JSON.object([
                            ("rate_s_per_day", .number(c.rate.gain)), ("scatter_s_per_day", .number(c.rate.scatter)),
                            ("learned_from", .string(c.rate.source.rawValue)), ("learned_over_s", .number(c.rate.span)),
                            // A rate from the rate book: its age where time is carried to, and
                            // whether it is past the book's 30 days (then time is carried within the drift bound).
                            ("from_rate_book", .bool(c.rate.fromBoot != nil)),
                            ("book_rate_age_days", .from(c.bookRateAge(now: reading.instant.nanoseconds, utc: now.utc)?.days)),
                            ("book_rate_expired", .bool(c.bookRateAge(now: reading.instant.nanoseconds, utc: now.utc)?.expired ?? false)),
                            ("carried_from", .from(c.carriedFrom?.source.rawValue)),
                            ("carried_since", .from(c.carriedFrom.map { UTCTime(nanosecondsSinceEpoch: $0.utcNanoseconds).iso8601 })),
                            ("carried_for_s", .from(c.carriedFrom.map { Double(reading.instant.nanoseconds - $0.monotonicNanoseconds) / 1e9 })),
                            ("sentence", .string(c.sentence(now: reading.instant.nanoseconds))),
                        ])
                    } ?? .null),
                ]).render())
            case .table:
                var lines: [(String, String)] = [
                    ("store", "\(db.path)\(db.unknownMigrations.isEmpty ? "" : " (newer schema: read-only)")"),
                    ("sights", "\(counts.current) current, \(counts.archived) archived"),
                    ("clock", "\(now.utc.sightFormat)  \(now.utc.iso8601)  \(now.source.rawValue) \(SightRendering.uncertainty(now.uncertainty))"),
                ]
                if let unknown = now.source.unknownTimeSentence { lines.append(("time", unknown)) }
                if let published {
                    lines.append(("daemon", SightRendering.daemonState(holder: holder, published: published, age: age, now: reading.instant)))
                    lines.append(("gpsd", published.gpsd))
                    if let fix = published.fix, let lost = fix.lost {
                        lines.append(("position", "no fix: \(lost.sentence(at: reading.instant)); last \(SightRendering.fixMode(fix.mode)) fix "
                                      + "\(fix.position.ddm), \(fixAge.map { SightRendering.fixed($0, 1) } ?? "?") s old"))
                    } else if let fix = published.fix {
                        let eph = fix.horizontalError.map { ", ±\(SightRendering.fixed($0, 0)) m" } ?? ""
                        lines.append(("position", "\(fix.position.ddm)  (\(SightRendering.fixMode(fix.mode)) fix\(eph), \(fixAge.map { SightRendering.fixed($0, 1) } ?? "?") s old)"))
                        if let flag = fix.flag { lines.append(("position flag", flag)) }
                        if let t = fix.time { lines.append(("gps time", "\(t.sightFormat)  \(t.iso8601)")) }
                    } else {
                        lines.append(("position", "no fix"))
                    }
                    lines.append(("button", [published.buttonDevice, published.buttonState].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")))
                    lines.append(("sound", published.soundState))
                    if let aside = published.gpsSetAside { lines.append(("gps set aside", aside)) }
                    if let c = published.chronometer, reading.instant.bootID == published.bootID {
                        lines.append(("chronometer", c.sentence(now: reading.instant.nanoseconds)))
                    }
                    if let rtc = published.rtc { lines.append(("rtc", rtc)) }
                } else if case .daemon(let pid) = holder {
                    lines.append(("daemon", "starting\(pid.map { ", pid \($0)" } ?? "")"))
                } else {
                    lines.append(("daemon", "has never run on this store (`marktime daemon` starts it)"))
                }
                let width = lines.map(\.0.count).max() ?? 0
                print(lines.map { "\($0.0.padding(to: width))  \($0.1)" }.joined(separator: "\n"))
            }
        }
    }
}
