/// One raw input event as the kernel stamped it (CLOCK_MONOTONIC).
public struct InputEvent: Hashable, Sendable {
    /// EV_KEY is 1, EV_SYN is 0.
    public var type: UInt16
    public var code: UInt16
    /// For keys: 1 down, 0 up, 2 autorepeat.
    public var value: Int32
    public var nanoseconds: Int64

    public init(type: UInt16, code: UInt16, value: Int32, nanoseconds: Int64) {
        self.type = type
        self.code = code
        self.value = value
        self.nanoseconds = nanoseconds
    }

    public static let keyType: UInt16 = 1
}

/// Turns raw input events into sight instants: key-downs only, debounced.
///
/// A key-down within `debounce` of the previous accepted one is a bounce and
/// is dropped, so the first edge keeps its time. The known driver delay
/// `latencyCompensation` is subtracted from each accepted instant.
public struct ButtonFilter: Sendable {
    public enum Action: Hashable, Sendable {
        /// Record a sight at this monotonic instant (nanoseconds).
        case mark(Int64)
        case ignore(Reason)
    }

    public enum Reason: Hashable, Sendable {
        case notAKey, keyUp, autorepeat, bounce
    }

    public let debounceNanoseconds: Int64
    public let latencyCompensationNanoseconds: Int64
    private var lastAccepted: Int64?

    public init(debounceMilliseconds: Int, latencyCompensationMilliseconds: Int = 0) {
        debounceNanoseconds = Int64(debounceMilliseconds) * 1_000_000
        latencyCompensationNanoseconds = Int64(latencyCompensationMilliseconds) * 1_000_000
    }

    public mutating func handle(_ event: InputEvent) -> Action {
        guard event.type == InputEvent.keyType else { return .ignore(.notAKey) }
        switch event.value {
        case 0: return .ignore(.keyUp)
        case 2: return .ignore(.autorepeat)
        default: break
        }
        if let last = lastAccepted, event.nanoseconds - last < debounceNanoseconds {
            return .ignore(.bounce)
        }
        lastAccepted = event.nanoseconds
        return .mark(event.nanoseconds - latencyCompensationNanoseconds)
    }

    /// After a re-open or SYN_DROPPED resync the next key-down starts fresh.
    public mutating func reset() { lastAccepted = nil }
}
