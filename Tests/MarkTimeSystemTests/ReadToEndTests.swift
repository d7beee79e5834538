import MarkTimeSystem
import Testing

@Suite("Reading a /proc file to its end")
struct ReadToEndTests {
    @Test("A /proc file longer than one read comes whole: this process's maps, to its stack and beyond")
    func aProcFileComesWhole() throws {
        // Given this test process's memory map, which lists its many libraries (well over 4 KB)
        // When it is read to its end
        let bytes = try Files.readToEnd("/proc/self/maps")
        let text = String(decoding: bytes, as: UTF8.self)
        // Then it is longer than one page, holds the stack's line (near the end), and ends a line
        #expect(bytes.count > 4_096)
        #expect(text.contains("[stack]"))
        #expect(bytes.last == UInt8(ascii: "\n"))
    }

    @Test("A file that is not there is an error naming the open")
    func aMissingFileIsNamed() {
        #expect(throws: SystemError("open /proc/no-such-file", .noSuchFileOrDirectory)) { try Files.readToEnd("/proc/no-such-file") }
    }
}
