// A press and the anchor alarm, idle and during a burst of friends' OwnTracks messages:
// the whole daemon on a real store (WAL, synchronous=FULL) with fakes for its devices and
// an MQTT transport that delivers the burst as fast as libmosquitto's thread would.
// Press: key-down handed to the daemon until its stored tone is asked for (after the commit).
// Alarm: the third fix outside the swing radius until the alarm tone is asked for.
// Prints figures; no target.
import DaemonFakes
import Foundation
import Logging
import MarkTimeCore
import MarkTimeDaemon
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeStore
import MarkTimeSystem
import Synchronization

/// Acknowledges every publish at once, and delivers a burst of friends' locations on request.
final class BurstTransport: ShareTransport, @unchecked Sendable {
    let sink = Mutex<(@Sendable (TransportEvent) -> Void)?>(nil)
    let mid = Atomic<Int32>(0)

    func start(_ events: @escaping @Sendable (TransportEvent) -> Void) throws(InputError) {
        sink.withLock { $0 = events }
        events(.connected)
    }

    func publish(topic: String, payload: [UInt8], retain: Bool) throws(InputError) -> Int32 {
        let m = mid.wrappingAdd(1, ordering: .relaxed).newValue
        let events = sink.withLock { $0 }
        DispatchQueue.global().async { events?(.acknowledged(m)) }
        return m
    }

    func stop() { sink.withLock { $0 = nil } }

    /// `count` locations from `phones` phones, handed over from a thread of their own.
    func burst(_ count: Int, phones: Int, firstTST: Int64) {
        guard let events = sink.withLock({ $0 }) else { return }
        Thread {
            for k in 0..<count {
                let json = #"{"_type":"location","lat":\#(-27.1 - Double(k % 7) / 100),"lon":153.0,"tst":\#(firstTST + Int64(k)),"acc":12}"#
                events(.message(topic: "owntracks/p\(k % phones)/phone", payload: Array(json.utf8)))
            }
        }.start()
    }
}

let burstSize = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 10_000
let rounds = 30
let transport = BurstTransport()
var logger = Logger(label: "bench")
logger.logLevel = .critical
let f = try DaemonOnFakes(share: transport, heartbeat: .milliseconds(100), logger: logger)
defer { f.remove() }
let (store, clock, button, gps, beeper) = (f.store, f.clock, f.button, f.gps, f.beeper)
// Realtime is now, so that the friends' tst pass the daemon's checks.
clock.realtimeOffset.withLock { $0 = Int64(Date().timeIntervalSince1970 * 1e9) - 100 * second }
for p in 0..<6 {
    _ = try store.addMember(name: "P\(p)", color: nil, isMe: false)
    try store.linkMember("P\(p)", topic: "owntracks/p\(p)/phone")
}
let daemon = f.daemon
let running = Task(executorPreference: QueueExecutor()) { try await daemon.run() }
guard try await waitFor(60, { button.started && gps.started }) else { fatalError("the daemon did not start") }

/// The fake clock moved on by `seconds`: its new monotonic time.
func advance(_ seconds: Double) -> Int64 {
    clock.monotonic.withLock { $0 += Int64(seconds * 1e9); return $0 }
}

/// The first of `tones` asked for after the `since`-th, with its time.
func waitForTone(_ tones: Set<Tone>, after since: Int) async throws -> Int64 {
    var at: Int64?
    guard try await waitFor(60, {
        at = beeper.timed.dropFirst(since).first { tones.contains($0.tone) }?.at
        return at != nil
    }), let at else { fatalError("no \(tones) tone: \(beeper.played), \((try? store.sights().count) ?? -1) sights") }
    return at
}

/// Key-down to the ok tone, ms.
func press() async throws -> Double {
    let before = beeper.timed.count
    // The key went down 50 ms before it is read, as a kernel event is.
    let t = advance(1) - 50_000_000
    let start = SystemClock.monotonicNow()
    button.send(.event(InputEvent(type: 1, code: 28, value: 1, nanoseconds: t)))
    // The stored tone: ok, or the warning of a sight without GPS time (this clock is not synchronised).
    let at = try await waitForTone([.ok, .warning], after: before)
    button.send(.event(InputEvent(type: 1, code: 28, value: 0, nanoseconds: advance(0.1) - 50_000_000)))
    return Double(at - start) / 1e6
}

let drops = Atomic<Int>(0)
/// A new 60 m watch, then fixes 100 m off it every 20 ms: from the third (the one that
/// confirms the drag) to the alarm tone, ms.
func alarm() async throws -> Double {
    let drop = drops.wrappingAdd(1, ordering: .relaxed).newValue
    let anchor = try Position(latitude: -27.0 - Double(drop) / 100, longitude: 153.0)
    let off = try Position(latitude: anchor.latitude, longitude: anchor.longitude + 100 / (111_194.9 * cos(anchor.latitude * .pi / 180)))
    let realtime = { UTCTime(nanosecondsSinceEpoch: clock.realtimeOffset.withLock { $0 } + clock.monotonic.withLock { $0 }) }
    let stops = beeper.stops
    try store.dropAnchor(at: anchor, radius: 60, now: realtime())
    // The last round's alarm silenced by the new watch, from a fix at the anchor.
    if drop > 1 {
        guard try await waitFor(60, {
            gps.send(.fix(Fix(position: anchor, mode: 3, horizontalError: 4, time: realtime(),
                              receivedAt: MonotonicInstant(bootID: clock.bootID, nanoseconds: advance(1)))))
            return beeper.stops > stops
        }) else { fatalError("the alarm was not silenced by a new watch") }
    }
    let before = beeper.timed.count
    var confirmed: Int64 = 0
    for n in 1...1_000 {
        let t = advance(1)
        gps.send(.fix(Fix(position: off, mode: 3, horizontalError: 4, time: realtime(), receivedAt: MonotonicInstant(bootID: clock.bootID, nanoseconds: t))))
        if n == 3 { confirmed = SystemClock.monotonicNow() }
        if beeper.timed.dropFirst(before).contains(where: { $0.tone == .alarm }) { break }
        try await Task.sleep(for: .milliseconds(20))
    }
    return Double(try await waitForTone([.alarm], after: before) - confirmed) / 1e6
}

func applied() -> Int { ((try? store.shareStatus().seen) ?? []).reduce(0) { $0 + $1.messages } }

/// Runs `measure` `rounds` times idle, then as many times as fit in a burst (at most
/// `rounds`), then `rounds` times idle again: the idle figures bracket the burst's.
func compare(_ name: String, _ measure: () async throws -> Double) async throws -> (idle: [Double], burst: [Double], seconds: Double) {
    var idle: [Double] = []
    for _ in 0..<rounds { idle.append(try await measure()) }
    let start = applied()
    let began = SystemClock.monotonicNow()
    transport.burst(burstSize, phones: 6, firstTST: Int64(Date().timeIntervalSince1970) - 100_000 + Int64(start))
    var during: [Double] = []
    while during.count < rounds, applied() < start + burstSize { during.append(try await measure()) }
    guard try await waitFor(600, { applied() >= start + burstSize }) else { fatalError("the burst was not applied") }
    let seconds = Double(SystemClock.monotonicNow() - began) / 1e9
    for _ in 0..<rounds { idle.append(try await measure()) }
    return (idle, during, seconds)
}

func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func line(_ name: String, _ r: (idle: [Double], burst: [Double], seconds: Double)) {
    let f = { (x: Double) in String(format: "%.2f", x) }
    let (before, after) = (Array(r.idle.prefix(rounds)), Array(r.idle.dropFirst(rounds)))
    print("  \(name): idle median \(f(median(r.idle))) ms (max \(f(r.idle.max() ?? .nan)); \(f(median(before))) before the burst, \(f(median(after))) after), during the burst median \(f(median(r.burst))) ms "
          + "(max \(f(r.burst.max() ?? .nan)), \(r.burst.count) taken): \(String(format: "%.2f", median(r.burst) / median(r.idle))) × idle")
    print("    burst of \(burstSize) applied in \(String(format: "%.2f", r.seconds)) s: \(Int(Double(burstSize) / r.seconds)) messages/s")
}

print("share burst: \(burstSize) OwnTracks locations from 6 linked phones, daemon on fakes, real store; \(rounds) rounds each")
line("press → stored tone (commit)", try await compare("press", press))
line("third fix outside → anchor alarm", try await compare("alarm", alarm))
await daemon.shutdown()
try await running.value
