// libFuzzer targets for every parser that reads text or bytes from outside marktime.
// Built only by Tests/fuzz/run (MARKTIME_FUZZ=1 swift build --sanitize=fuzzer): libFuzzer
// supplies main. The target is chosen by MARKTIME_FUZZ_TARGET.
import Foundation
import MarkTimeConfig
import MarkTimeCore
import MarkTimeJournal
import MarkTimeShare
import MarkTimeStore
import MarkTimeTasks

/// Each target takes the input's bytes; a crash (a trap) is a finding, a thrown error is not.
let targets: [String: @Sendable ([UInt8]) -> Void] = [
    "position": { bytes in
        if let p = try? Position.parse(String(decoding: bytes, as: UTF8.self)) { _ = (p.ddm, p.latitude, p.longitude) }
    },
    "hs": { bytes in
        if let hs = try? SextantAngle.parse(String(decoding: bytes, as: UTF8.self)) { _ = SextantAngle.format(hs) }
    },
    "when": { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let parser = WhenParser(now: 1_795_000_000, zone: FixedZone("Brisbane", offset: ZoneOffset(seconds: 36_000, abbreviation: "AEST", isDST: false)))
        if let s = try? parser.parse(text, before: 1_795_086_400) { _ = try? UTCTime(validWholeSeconds: s).iso8601 }
    },
    "date": { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        if let (t, _) = UTCTime.parse(text) { _ = (t.iso8601, t.sightFormat, t.adding(nanoseconds: 86_400_000_000_000).iso8601) }
        _ = try? UTCTime.read(text, what: "--since")
        if let d = try? CivilDate.read(text, what: "--date") { _ = (d.weekday, d.adding(days: 1).description) }
        if let grid = MonthGrid(text) { _ = grid.lines(marked: [1], paint: { $0 }) }
        _ = LocalDateTime.minuteOfDay(text)
    },
    "config": { bytes in
        guard let settings = try? ConfigFile.settings(toml: String(decoding: bytes, as: UTF8.self), path: "fuzz.toml") else { return }
        for key in Settings.keys { _ = settings.value(key.name)?.description }
        _ = (try? settings.sound.volume, try? settings.homeZone, try? settings.gpsdAddress, try? settings.sight.maxFixAge,
             try? settings.button.debounceMilliseconds, try? settings.anchor.staleAfter, try? settings.button.device)
    },
    "image": { bytes in
        guard let info = ImageInfo(bytes) else { return }
        _ = (info.width, info.height, info.fileExtension, info.captured?.description, info.capturedSecond, info.capturedOffset)
    },
    "owntracks": { bytes in
        let now = UTCTime(wholeSeconds: 1_795_435_200)
        for topic in ["owntracks/a/b", "owntracks/a/b/event", "owntracks/a/b/info"] {
            if case .location(let fix)? = try? OwnTracks.read(topic: OwnTracks.Topic(topic)!, payload: bytes, now: now) {
                _ = (fix.position.ddm, fix.time.iso8601, fix.error)
            }
        }
        _ = OwnTracks.command(bytes)
        _ = OwnTracks.Topic(String(decoding: bytes, as: UTF8.self))
    },
    "status": { bytes in
        guard let status = StatusFile.decode(Data(bytes)) else { return }
        let now = MonotonicInstant(bootID: status.bootID, nanoseconds: 5_000_000_000_000)
        _ = status.heartbeatAge(now: now)
        _ = status.fix?.age(at: now)
        let system = ClockSample(source: .system, monotonicNanoseconds: now.nanoseconds, utc: UTCTime(nanosecondsSinceEpoch: 1_795_000_000_000_000_000),
                                 uncertainty: nil)
        _ = NowEstimate.estimate(system: system, at: now, published: status, maxSampleAge: 10)
    },
]

nonisolated(unsafe) var chosen: (@Sendable ([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if chosen == nil {
        let name = ProcessInfo.processInfo.environment["MARKTIME_FUZZ_TARGET"] ?? ""
        guard let target = targets[name] else {
            FileHandle.standardError.write(Data("set MARKTIME_FUZZ_TARGET to one of \(targets.keys.sorted().joined(separator: ", "))\n".utf8))
            exit(2)
        }
        chosen = target
    }
    chosen?(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
