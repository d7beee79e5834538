/// Maps a phone's event times onto this machine's monotonic clock, from ping exchanges
/// over the phone page's live connection. As in NTP, the exchange with the shortest
/// round trip wins: its midpoint is known to within half that round trip. Pure.
public struct PhoneClockSync: Hashable, Sendable {
    /// One ping: sent at monotonic `sentAt`, answered with the phone's clock `phoneMillis`
    /// (ms since the epoch, by the phone), and the answer received at monotonic `receivedAt`.
    public struct Exchange: Hashable, Sendable {
        public var sentAt: Int64
        public var phoneMillis: Double
        public var receivedAt: Int64

        public init(sentAt: Int64, phoneMillis: Double, receivedAt: Int64) {
            self.sentAt = sentAt
            self.phoneMillis = phoneMillis
            self.receivedAt = receivedAt
        }

        public var roundTrip: Int64 { receivedAt - sentAt }
        /// The phone's clock minus the monotonic clock at the midpoint, in ms.
        public var offsetMillis: Double { phoneMillis - Double(sentAt + receivedAt) / 2e6 }
    }

    /// Exchanges kept: the phone's clock may be stepped, so old ones age out.
    public static let kept = 8
    /// How far before its arrival a MARK may be: more means the phone's clock moved.
    public static let maxMarkAgeNanoseconds: Int64 = 10_000_000_000
    /// The longest round trip an exchange may have: a ping answered a minute later tells nothing.
    public static let maxRoundTripNanoseconds: Int64 = 60_000_000_000

    public private(set) var recent: [Exchange] = []

    public init() {}

    public mutating func add(_ exchange: Exchange) {
        guard (0...Self.maxRoundTripNanoseconds).contains(exchange.roundTrip) else { return }
        recent.append(exchange)
        if recent.count > Self.kept { recent.removeFirst(recent.count - Self.kept) }
    }

    /// The exchange with the shortest round trip, once there is one.
    public var best: Exchange? { recent.min { $0.roundTrip < $1.roundTrip } }

    /// Forget every exchange (the phone's clock moved).
    public mutating func reset() { recent = [] }

    /// Why a MARK could not be placed on this machine's clock.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        case notSynced
        case outOfWindow(secondsBeforeArrival: Double)

        public var description: String {
            switch self {
            case .notSynced: "the phone's clock is not synced yet: wait for MARK to light up"
            case .outOfWindow(let s):
                "the phone's clock moved (the press would be \(Position.plain((s * 10).rounded() / 10)) s before it arrived): MARK again once synced"
            }
        }
    }

    /// The monotonic instant of a phone event at `phoneMillis` that arrived at `receivedAt`,
    /// and what the mapping adds to the clock's uncertainty (half the best round trip, in s).
    /// An instant after the arrival by less than that half is the arrival itself.
    public func instant(ofPhoneMillis phoneMillis: Double, receivedAt: Int64) throws(Refusal) -> (nanoseconds: Int64, uncertainty: Double) {
        guard let best else { throw .notSynced }
        let half = best.roundTrip / 2
        // In Double first: a phone's time of any size must be refused, never trap on conversion.
        let exact = ((phoneMillis - best.offsetMillis) * 1e6).rounded()
        let before = Double(receivedAt) - exact
        guard exact.isFinite, before >= -Double(half), before <= Double(Self.maxMarkAgeNanoseconds) else {
            throw .outOfWindow(secondsBeforeArrival: before / 1e9)
        }
        let mapped = Int64(exact)
        return (min(mapped, receivedAt), Double(half) / 1e9)
    }
}

extension UTCEstimate {
    /// The stamp of a phone's MARK at the instant the clock sync placed it: half the sync's
    /// best round trip (`roundTrip`, ns) added to the uncertainty, and the round trip named
    /// in the provenance. The daemon and the page's own fallback stamp it alike.
    public func phoneMark(roundTrip: Int64) -> UTCEstimate {
        var e = self
        e.uncertainty = e.uncertainty.map { $0 + Double(roundTrip / 2) / 1e9 }
        e.provenance?.phoneRoundTrip = Double(roundTrip) / 1e9
        return e
    }
}
