import Foundation
import Testing

/// Output files (`export csv -o`, `day export -o`, `clock --svg`): `-` is standard output,
/// a FIFO or a device is written through, a symbolic link is followed, and only a regular
/// file is replaced.
@Suite("Output paths")
struct OutputPathTests {
    /// A store with one sight, and the CSV that `export csv` prints for it.
    func seeded() throws -> (CLI, String) {
        let cli = CLI()
        #expect(try cli.run(["mark", "--note", "seed"]).status == 0)
        let csv = try cli.run(["export", "csv"]).stdout
        #expect(csv.hasPrefix("id,"))
        return (cli, csv)
    }

    @Test("-o - writes the CSV to standard output")
    func dashIsStandardOutput() throws {
        let (cli, csv) = try seeded()
        let r = try cli.run(["export", "csv", "-o", "-"])
        #expect(r.status == 0)
        #expect(r.stdout == csv)
        #expect(r.stderr == "Wrote 1 sights to standard output.\n")
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/-"))
    }

    @Test("A file whose name is near the longest a name may have is written: its temporary name is cut to fit")
    func aNameOf253BytesIsWritten() throws {
        // Given a file name of 253 bytes, to which `.tmp` would add 4 past the 255 allowed
        let (cli, csv) = try seeded()
        let file = cli.folder + "/" + String(repeating: "n", count: 249) + ".csv"
        // When the export is written to it
        let r = try cli.run(["export", "csv", "-o", file])
        // Then it holds the CSV, and no temporary file is left beside it
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == csv)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder).filter { $0.hasSuffix(".tmp") } == [])
    }

    @Test("A FIFO is written through and stays a FIFO")
    func aFIFOIsWrittenThrough() throws {
        // Given a FIFO with a reader, its read end open before the export starts (a FIFO
        // that no program reads is refused, not waited on for ever)
        let (cli, csv) = try seeded()
        let fifo = cli.folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        // When the export is written to it
        let r = try cli.run(["export", "csv", "-o", fifo])
        // Then the reader gets the CSV (all of it is in the pipe once the export has ended),
        // and the FIFO is still there
        #expect(r.status == 0)
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        #expect(String(decoding: bytes, as: UTF8.self) == csv)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("A symbolic link is followed: its target gets the CSV and the link stays a link")
    func aSymlinkIsFollowed() throws {
        let (cli, csv) = try seeded()
        let target = cli.folder + "/target.csv", link = cli.folder + "/link.csv"
        try "old\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.csv")
        #expect(try cli.run(["export", "csv", "-o", link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.csv")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == csv)
    }

    @Test("A character device is written through, never replaced")
    func aDeviceIsWrittenThrough() throws {
        let (cli, _) = try seeded()
        #expect(try cli.run(["export", "csv", "-o", "/dev/null"]).status == 0)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(try cli.run(["clock", "--svg", "/dev/null"]).status == 0)
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("A regular file is replaced whole")
    func aRegularFileIsReplaced() throws {
        let (cli, csv) = try seeded()
        let out = cli.folder + "/out.csv"
        try String(repeating: "x", count: 10_000).write(toFile: out, atomically: true, encoding: .utf8)
        #expect(try cli.run(["export", "csv", "-o", out]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == csv)
    }
}
