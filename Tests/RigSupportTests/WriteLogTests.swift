import RigSupport
import Testing

/// A dm-log-writes log, laid out as the kernel writes it (512-byte sectors).
private struct LogBuilder {
    var entries: [[UInt8]] = []

    mutating func write(sector: UInt64, data: [UInt8], flags: UInt64 = 0) {
        entries.append(header(sector: sector, sectors: UInt64(data.count / 512), flags: flags) + data)
    }

    mutating func flush() { entries.append(header(sector: 0, sectors: 0, flags: 1)) }

    mutating func mark(_ text: String) {
        var h = header(sector: 0, sectors: 0, flags: 8, dataLength: UInt64(text.utf8.count))
        h.replaceSubrange(32..<(32 + text.utf8.count), with: Array(text.utf8))
        entries.append(h)
    }

    func header(sector: UInt64, sectors: UInt64, flags: UInt64, dataLength: UInt64 = 0) -> [UInt8] {
        le(sector) + le(sectors) + le(flags) + le(dataLength) + [UInt8](repeating: 0, count: 512 - 32)
    }

    var bytes: [UInt8] {
        var superBlock = le(WriteLog.magic) + le(1) + le(UInt64(entries.count)) + [0, 2, 0, 0]
        superBlock += [UInt8](repeating: 0, count: 512 - superBlock.count)
        return superBlock + entries.flatMap { $0 }
    }

    func le(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    func log() throws -> WriteLog {
        let all = bytes
        return try WriteLog { offset, count in Array(all[Int(offset)..<min(all.count, Int(offset) + count)]) }
    }
}

@Suite("dm-log-writes logs")
struct WriteLogTests {
    @Test("Given a log of a write, a flush, a mark and a FUA write, then each entry is read with its place, flags and data")
    func readsEntries() throws {
        // Given
        var b = LogBuilder()
        b.write(sector: 40, data: [UInt8](repeating: 7, count: 1024))
        b.flush()
        b.mark("s:123")
        b.write(sector: 8, data: [UInt8](repeating: 9, count: 512), flags: 2 | 16)
        // When
        let log = try b.log()
        // Then
        #expect(log.sectorSize == 512)
        #expect(log.entries == [
            .init(index: 0, sector: 40, sectors: 2, flags: [], mark: nil, dataOffset: 1024),
            .init(index: 1, sector: 0, sectors: 0, flags: .flush, mark: nil, dataOffset: 2560),
            .init(index: 2, sector: 0, sectors: 0, flags: .mark, mark: "s:123", dataOffset: 3072),
            .init(index: 3, sector: 8, sectors: 1, flags: [.fua, .metadata], mark: nil, dataOffset: 3584),
        ])
        #expect(log.durabilityPoints == [1, 3])
    }

    @Test("Given marks after each flush, then each point's state must hold the marks made before the next point")
    func marksBelongToTheNextPoint() throws {
        // Given
        var b = LogBuilder()
        b.write(sector: 0, data: [UInt8](repeating: 1, count: 512))
        b.flush()
        b.mark("a")
        b.write(sector: 1, data: [UInt8](repeating: 2, count: 512))
        b.flush()
        b.mark("b")
        var random = SeededRandom(seed: 1)
        // When
        let states = try b.log().crashStates(tornEvery: 0, random: &random)
        // Then
        #expect(states == [
            .init(through: 1, torn: [], marks: ["a"]),
            .init(through: 4, torn: [], marks: ["a", "b"]),
        ])
    }

    @Test("Given writes between two flushes, then the torn state keeps some of them and not all")
    func tornStateIsAPart() throws {
        // Given
        var b = LogBuilder()
        b.flush()
        for s in 0..<6 { b.write(sector: UInt64(s), data: [UInt8](repeating: UInt8(s), count: 512)) }
        b.flush()
        var random = SeededRandom(seed: 42)
        // When
        let states = try b.log().crashStates(tornEvery: 1, random: &random)
        // Then
        #expect(states.count == 3)
        #expect(states[1].through == 0)
        #expect(!states[1].torn.isEmpty && states[1].torn.count < 6)
        #expect(states[1].torn.allSatisfy { (1...6).contains($0) })
        #expect(states[2] == .init(through: 7, torn: [], marks: []))
    }

    @Test("Given a device that holds no log, then reading it names the missing super block")
    func refusesOtherData() {
        // Given
        let zeros = [UInt8](repeating: 0, count: 4096)
        // When / Then
        #expect(throws: WriteLog.Malformed.self) {
            try WriteLog { offset, count in Array(zeros[Int(offset)..<(Int(offset) + count)]) }
        }
    }
}
