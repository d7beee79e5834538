/// The log that the kernel's `dm-log-writes` target keeps of a block device: every write,
/// flush, FUA write, discard and mark, in the order they reached the disk's media
/// (`Documentation/admin-guide/device-mapper/log-writes.rst`, `drivers/md/dm-log-writes.c`).
///
/// On the log device: a super block in sector 0 (magic, version, entry count, sector
/// size, little-endian), then for each entry one header sector (sector, sector count,
/// flags, data length; a mark's text follows the header) and, except for discards and
/// marks, the sectors written. Writes are logged when they are known to be on the media:
/// plain writes just before the flush that made them durable, FUA writes when they
/// complete. So the state after entry `i` is what a crash at that moment leaves, when
/// `i` is a flush or FUA entry.
public struct WriteLog: Sendable {
    /// One logged request.
    public struct Entry: Sendable, Equatable {
        /// Its place in the log, from 0.
        public var index: Int
        /// Where it wrote on the device, in the log's sectors.
        public var sector: UInt64
        /// How many sectors it wrote (0 for a flush or a mark).
        public var sectors: UInt64
        public var flags: Flags
        /// A mark's text.
        public var mark: String?
        /// Where its data starts in the log, in bytes.
        public var dataOffset: UInt64

        public init(index: Int, sector: UInt64, sectors: UInt64, flags: Flags, mark: String?, dataOffset: UInt64) {
            (self.index, self.sector, self.sectors, self.flags, self.mark, self.dataOffset) = (index, sector, sectors, flags, mark, dataOffset)
        }

        /// A flush, or a write that bypassed the cache: a point a crash can leave.
        public var isDurabilityPoint: Bool { flags.contains(.flush) || flags.contains(.fua) }
        /// A write whose data the replay applies.
        public var writesData: Bool { sectors > 0 && !flags.contains(.mark) }
    }

    /// An entry's flags, as the kernel logs them.
    public struct Flags: OptionSet, Sendable, Equatable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        public static let flush = Flags(rawValue: 1 << 0)
        public static let fua = Flags(rawValue: 1 << 1)
        public static let discard = Flags(rawValue: 1 << 2)
        public static let mark = Flags(rawValue: 1 << 3)
        public static let metadata = Flags(rawValue: 1 << 4)
    }

    /// Why a log cannot be read.
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    public static let magic: UInt64 = 0x6a73_6677_7368_72
    public static let version: UInt64 = 1

    public let sectorSize: Int
    public let entries: [Entry]

    /// Reads the log through `read(offset, count)`, which returns `count` bytes of the log
    /// device from byte `offset`.
    public init(read: (UInt64, Int) throws -> [UInt8]) throws {
        let superBlock = try read(0, 28)
        guard superBlock.count == 28, Self.le64(superBlock, 0) == Self.magic else {
            throw Malformed(description: "no dm-log-writes super block (magic 0x\(String(Self.magic, radix: 16))) in sector 0")
        }
        guard Self.le64(superBlock, 8) == Self.version else {
            throw Malformed(description: "log version \(Self.le64(superBlock, 8)), not \(Self.version)")
        }
        let count = Self.le64(superBlock, 16)
        let size = Int(Self.le32(superBlock, 24))
        guard [512, 1024, 2048, 4096].contains(size) else { throw Malformed(description: "sector size \(size)") }
        sectorSize = size
        var entries: [Entry] = []
        var offset = UInt64(size)
        for index in 0..<Int(count) {
            let header = try read(offset, size)
            guard header.count == size else { throw Malformed(description: "entry \(index) is cut short at byte \(offset)") }
            let flags = Flags(rawValue: Self.le64(header, 16))
            let dataLength = Int(Self.le64(header, 24))
            var entry = Entry(index: index, sector: Self.le64(header, 0), sectors: Self.le64(header, 8), flags: flags, mark: nil,
                              dataOffset: offset + UInt64(size))
            if flags.contains(.mark) {
                guard dataLength <= size - 32 else { throw Malformed(description: "mark \(index) is \(dataLength) bytes long") }
                entry.mark = String(decoding: header[32..<(32 + dataLength)], as: UTF8.self)
                entry.sectors = 0
            } else if dataLength > 0 {
                throw Malformed(description: "entry \(index) carries \(dataLength) bytes of its own data, which only marks do")
            }
            offset += UInt64(size)
            if !flags.contains(.discard) { offset += entry.sectors * UInt64(size) }
            entries.append(entry)
        }
        self.entries = entries
    }

    /// One state a crash can leave, as the replay builds it.
    public struct CrashState: Sendable, Equatable {
        /// Every entry up to this index is on the device (a flush or FUA entry; -1: none).
        public var through: Int
        /// Writes after it that are on the device too: a part of what the next flush
        /// would have made durable (empty at a flush point).
        public var torn: [Int]
        /// The marks made before the next durability point. A mark made after a sync had
        /// returned means that the sync's flush is logged before it, so at or before
        /// `through`: what the mark stands for must be in this state.
        public var marks: [String]

        public init(through: Int, torn: [Int], marks: [String]) {
            (self.through, self.torn, self.marks) = (through, torn, marks)
        }
    }

    /// Indices of the flush and FUA entries.
    public var durabilityPoints: [Int] { entries.filter(\.isDurabilityPoint).map(\.index) }

    /// The state at every flush and FUA entry, in log order, and after each a torn state
    /// (a random part of the writes before the next point) when `tornEvery` is a positive
    /// `n`, for every `n`th point; `random` picks the parts.
    public func crashStates(tornEvery: Int, random: inout some RandomNumberGenerator) -> [CrashState] {
        let points = durabilityPoints
        var states: [CrashState] = []
        var marks: [String] = []
        var nextMark = 0
        let allMarks = entries.compactMap { e in e.mark.map { (e.index, $0) } }
        for (k, point) in points.enumerated() {
            let next = k + 1 < points.count ? points[k + 1] : entries.count
            while nextMark < allMarks.count, allMarks[nextMark].0 < next {
                marks.append(allMarks[nextMark].1)
                nextMark += 1
            }
            states.append(CrashState(through: point, torn: [], marks: marks))
            guard tornEvery > 0, k % tornEvery == 0 else { continue }
            let between = entries[(point + 1)..<next].filter(\.writesData).map(\.index)
            guard !between.isEmpty else { continue }
            var part = between.filter { _ in Bool.random(using: &random) }
            if part.isEmpty || part.count == between.count { part = [between[Int.random(in: 0..<between.count, using: &random)]] }
            states.append(CrashState(through: point, torn: part, marks: marks))
        }
        return states
    }

    static func le64(_ b: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) }
    }

    static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }
    }
}

/// A small seeded generator (SplitMix64), so a sampled run can be repeated.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
