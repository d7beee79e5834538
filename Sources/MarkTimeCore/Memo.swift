import Foundation

/// What the daemon's capture does with a press that may become a voice memo.
public enum MemoCommand: Hashable, Sendable {
    /// Capture from now on: the press at this instant may be held into a memo.
    case start(MonotonicInstant)
    /// The key came up before the hold: what was captured is thrown away.
    case discard
    /// Keep what was captured, at most `limit` seconds, with the sight of `press`.
    case keep(MemoKeep)
}

/// A memo to keep: whose press it follows, how long the key was held, and the limit.
public struct MemoKeep: Hashable, Sendable {
    public var press: MonotonicInstant
    /// Seconds from key-down to key-up.
    public var held: Double
    /// `memo.max_s`: the capture stops there, held or not.
    public var limit: Double

    public init(press: MonotonicInstant, held: Double, limit: Double) {
        (self.press, self.held, self.limit) = (press, held, limit)
    }

    /// The key was held beyond the limit: only the first `limit` seconds are kept.
    public var cut: Bool { held > limit }
}

/// A press held into a voice memo: the key-down of a sight starts a capture, its key-up
/// keeps it when the key was held at least `hold` seconds, else throws it away. Pure: it
/// sees the kernel's instants, never a clock.
public struct MemoHold: Hashable, Sendable {
    public let holdNanoseconds: Int64
    public let limit: Double
    /// The key held down and its sight's press, while a capture runs.
    public private(set) var down: Down?

    public struct Down: Hashable, Sendable {
        public var code: UInt16
        public var press: MonotonicInstant
        public init(code: UInt16, press: MonotonicInstant) { (self.code, self.press) = (code, press) }
    }

    public init(hold: Double, limit: Double) {
        holdNanoseconds = Int64((hold * 1e9).rounded())
        self.limit = limit
    }

    /// A sight's key-down: a capture starts for it. While another key's memo records, that
    /// one goes on (this press is a sight, and no memo); the same key down again (its key-up
    /// lost) starts afresh.
    public mutating func pressed(code: UInt16, at press: MonotonicInstant) -> [MemoCommand] {
        if let d = down, d.code != code { return [] }
        let before: [MemoCommand] = down == nil ? [] : [.discard]
        down = Down(code: code, press: press)
        return before + [.start(press)]
    }

    /// A key-up at `nanoseconds`: for the key that started the capture, keep or discard.
    public mutating func released(code: UInt16, at nanoseconds: Int64) -> MemoCommand? {
        guard let d = down, d.code == code else { return nil }
        down = nil
        let held = nanoseconds - d.press.nanoseconds
        guard held >= holdNanoseconds else { return .discard }
        return .keep(MemoKeep(press: d.press, held: Double(held) / 1e9, limit: limit))
    }

    /// The key's state was lost (the kernel's buffer overflowed): no capture is kept on a guess.
    public mutating func lost() -> MemoCommand? {
        guard down != nil else { return nil }
        down = nil
        return .discard
    }
}

/// A voice memo kept with a sight: the compressed audio and what it holds.
public struct SightMemo: Hashable, Sendable {
    public var sightID: Int64
    /// `flac`: lossless, so what was heard is what is kept.
    public var format: String
    public var sampleRate: Int
    /// Samples (mono).
    public var frames: Int
    /// The key was held beyond `memo.max_s`: the rest was not recorded.
    public var cut: Bool
    public var data: [UInt8]
    public var createdAt: UTCTime

    public init(sightID: Int64, format: String = "flac", sampleRate: Int, frames: Int, cut: Bool, data: [UInt8], createdAt: UTCTime) {
        (self.sightID, self.format, self.sampleRate, self.frames, self.cut, self.data, self.createdAt) =
            (sightID, format, sampleRate, frames, cut, data, createdAt)
    }

    /// Its length in seconds.
    public var seconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// `8.4 s, FLAC 16 kHz, 61 KB` (and `cut at the limit`).
    public var summary: String {
        let kb = max(1, Int((Double(data.count) / 1000).rounded()))
        let rate = sampleRate % 1000 == 0 ? "\(sampleRate / 1000) kHz" : "\(sampleRate) Hz"
        return String(format: "%.1f s", seconds) + ", \(format.uppercased()) \(rate), \(kb) KB" + (cut ? ", cut at the limit" : "")
    }
}

/// How a memo went, as the daemon's capture and writer report it.
public enum MemoOutcome: Hashable, Sendable {
    /// Kept with sight `sightID`.
    case kept(SightMemo)
    /// Nothing kept, and why (a capture device missing or busy, no sight to keep it with).
    case failed(String)
}

/// What a capture hands back for a memo to keep: its samples, or why there are none.
public enum MemoTake: Sendable {
    /// Mono S16 samples at `sampleRate`; `cut` when the limit ended the capture.
    case recorded(press: MonotonicInstant, samples: [Int16], sampleRate: Int, cut: Bool)
    /// Nothing to keep, and why (the device, an empty capture).
    case failed(String)
}

/// Records voice memos from a capture device (ALSA); `command` never blocks the caller,
/// and a kept memo reaches `start`'s handler from the recorder's own thread.
public protocol MemoRecorder: Sendable {
    func start(_ taken: @escaping @Sendable (MemoTake) -> Void)
    func command(_ command: MemoCommand)
    func stop()
}

/// What a memo's capture thread is asked, in the order asked: each press's capture is
/// numbered, and its end (keep or discard) is kept for that number, so a key-up followed at
/// once by the next press still ends the first capture as asked before the next starts.
public struct MemoAsks: Hashable, Sendable {
    /// The newest capture's number (0: none asked yet), and its press.
    public private(set) var generation = 0
    public private(set) var press: MonotonicInstant?
    private var ends: [Int: MemoCommand] = [:]

    /// What the capture numbered `n` does next.
    public enum Step: Hashable, Sendable {
        /// Go on recording.
        case record
        /// End as asked: keep or discard.
        case end(MemoCommand)
        /// A later press started its own with no end asked for this one: dropped.
        case superseded
    }

    public init() {}

    public mutating func ask(_ command: MemoCommand) {
        switch command {
        case .start(let p):
            generation += 1
            press = p
        case .discard, .keep:
            if generation > 0 { ends[generation] = command }
        }
    }

    /// The next step of capture `n`; an end is handed out once.
    public mutating func step(_ n: Int) -> Step {
        // Ends of captures before this one were for presses the thread never recorded.
        ends = ends.filter { $0.key >= n }
        if let end = ends.removeValue(forKey: n) { return .end(end) }
        return n == generation ? .record : .superseded
    }
}
