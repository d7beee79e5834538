// Instructions, counted by callgrind, of (a) a press through the whole daemon on a real
// store (key-down handed to the daemon until its stored tone is asked for, after the
// commit) and (b) a bare SQLite insert of the same row (the C API, a prepared statement,
// the store's pragmas), each into a store of marktime's schema with its WAL grown as the
// daemon grows it. Run by Tests/bench/press-instructions under valgrind; alone, it only
// presses. Prints the counts it made the dumps of. The top level is synchronous: valgrind
// 3.19 crashes in libdispatch's main-thread parking, which an async main uses.
import CCallgrind
import DaemonFakes
import Foundation
import GRDBSQLite
import Logging
import MarkTimeCore
import MarkTimeDaemon
import MarkTimeDevices
import MarkTimeStore
import MarkTimeSystem

/// Wakes the bench when a sight's tone is asked for, and counts nothing else.
final class ToneSignal: Beeper, @unchecked Sendable {
    let stored = DispatchSemaphore(value: 0)
    func play(_ tone: Tone) { if tone == .ok || tone == .warning { stored.signal() } }
    func stop() {}
}

let presses = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 100
let warmUp = 20
let folder = NSTemporaryDirectory() + "marktime-press-instructions-" + UUID().uuidString
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

// (a) The daemon, with its devices faked and no heartbeat while it is measured.
let store = try AppDatabase(path: folder + "/marktime.sqlite", createDirectory: false)
var options = MarkTimeDaemon.Options(settings: Settings(), buttonPath: "/dev/input/fake", gpsdAddress: "fake")
options.statusFile = folder + "/status.json"
options.heartbeat = .seconds(3600)
var logger = Logger(label: "bench")
logger.logLevel = .critical
let (clock, button, gps, tones) = (FakeClock(), FakeButton(), FakeGPS(), ToneSignal())
let daemon = try MarkTimeDaemon(options: options, store: store, logger: logger,
                                adapters: .init(clock: clock, button: button, gps: gps, beeper: tones))
let stopped = DispatchSemaphore(value: 0)
let running = Task(executorPreference: QueueExecutor()) {
    defer { stopped.signal() }
    try await daemon.run()
}
for _ in 0..<6000 where !(button.started && gps.started) { usleep(10_000) }
guard button.started && gps.started else { fatalError("the daemon did not start") }

/// One press a second on the fake clock, with gpsd's time and fix just before it (not counted).
func press(_ k: Int) {
    let t = clock.monotonic.withLock { $0 += second; return $0 }
    gps.send(.clock(ClockSample(source: .gps, monotonicNanoseconds: t - 100_000_000, utc: UTCTime(nanosecondsSinceEpoch: logDay + t - 100_000_000),
                                uncertainty: 0.5)))
    gps.send(.fix(Fix(position: try! Position(latitude: -27.3807, longitude: 153.3807), mode: 3, horizontalError: 5,
                      time: UTCTime(nanosecondsSinceEpoch: logDay + t - 100_000_000),
                      receivedAt: MonotonicInstant(bootID: clock.bootID, nanoseconds: t - 100_000_000))))
    let down = InputEvent(type: InputEvent.keyType, code: 28, value: 1, nanoseconds: t)
    if k >= 0 { ccallgrind_start() }
    button.send(.event(down))
    tones.stored.wait()
    if k >= 0 { ccallgrind_stop("press \(k)") }
    button.send(.event(InputEvent(type: InputEvent.keyType, code: 28, value: 0, nanoseconds: t + 80_000_000)))
}

for k in 0..<warmUp { press(-1 - k) }
for k in 0..<presses { press(k) }
running.cancel()
stopped.wait()

// (b) The same rows, bare, into a second store of the same schema, WAL grown the same way.
let barePath = folder + "/bare.sqlite"
do {
    let bare = try AppDatabase(path: barePath, createDirectory: false)
    _ = try bare.reserveWAL()
}

/// Fails loudly: a benchmark that measured nothing must not print a figure.
func check(_ code: Int32, _ what: String, _ db: OpaquePointer?) {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
        fatalError("\(what): \(String(cString: sqlite3_errmsg(db)))")
    }
}

var source: OpaquePointer?, target: OpaquePointer?
check(sqlite3_open_v2(folder + "/marktime.sqlite", &source, SQLITE_OPEN_READONLY, nil), "open the daemon's store", source)
check(sqlite3_open_v2(barePath, &target, SQLITE_OPEN_READWRITE, nil), "open the bare store", target)
for pragma in ["PRAGMA busy_timeout = 2000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL"] {
    check(sqlite3_exec(target, pragma, nil, nil, nil), pragma, target)
}

// Every column of each stored sight but its id, read as SQLite holds it.
var read: OpaquePointer?
check(sqlite3_prepare_v2(source, "SELECT * FROM sight ORDER BY id", -1, &read, nil), "select", source)
let columns = (0..<sqlite3_column_count(read)).map { String(cString: sqlite3_column_name(read, $0)) }.filter { $0 != "id" }
enum Value { case null, int(Int64), real(Double), text(String), blob([UInt8]) }
var rows: [[Value]] = []
while sqlite3_step(read) == SQLITE_ROW {
    rows.append((0..<sqlite3_column_count(read)).filter { String(cString: sqlite3_column_name(read, $0)) != "id" }.map { i in
        switch sqlite3_column_type(read, i) {
        case SQLITE_INTEGER: .int(sqlite3_column_int64(read, i))
        case SQLITE_FLOAT: .real(sqlite3_column_double(read, i))
        case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(read, i)))
        case SQLITE_BLOB: .blob(Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(read, i), count: Int(sqlite3_column_bytes(read, i)))))
        default: .null
        }
    })
}
sqlite3_finalize(read)
sqlite3_close(source)
guard rows.count == warmUp + presses else { fatalError("\(rows.count) sights stored, \(warmUp + presses) pressed") }

var insert: OpaquePointer?
let sql = "INSERT INTO sight (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
check(sqlite3_prepare_v2(target, sql, -1, &insert, nil), "prepare", target)
let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
for (k, row) in rows.enumerated() {
    let measured = k >= warmUp
    if measured { ccallgrind_start() }
    for (i, value) in row.enumerated() {
        let n = Int32(i + 1)
        switch value {
        case .null: sqlite3_bind_null(insert, n)
        case .int(let v): sqlite3_bind_int64(insert, n, v)
        case .real(let v): sqlite3_bind_double(insert, n, v)
        case .text(let v): sqlite3_bind_text(insert, n, v, -1, transient)
        case .blob(let v): sqlite3_bind_blob(insert, n, v, Int32(v.count), transient)
        }
    }
    check(sqlite3_step(insert), "insert", target)
    sqlite3_reset(insert)
    if measured { ccallgrind_stop("bare \(k - warmUp)") }
}
sqlite3_finalize(insert)
sqlite3_close(target)
print("pressed \(presses) times after \(warmUp) unmeasured; inserted the same \(presses) rows bare, \(columns.count) columns")
