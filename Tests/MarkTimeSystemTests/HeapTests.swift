import Foundation
import Glibc
import MarkTimeSystem
import Testing

/// The measurements HeapTests makes, each in a fresh copy of this test binary: a forked child
/// of the running suite inherits heaps in whatever state its hundreds of tests left them (a
/// free block that fits, a top already past the threshold), and twice that made a
/// measurement fail in full runs. A fresh process has only the test runner's own small heap.
enum HeapProbe: String, CaseIterable {
    /// 2 MiB freed and allocated again in 2 KiB blocks, with nothing kept, then with 8 MiB kept.
    case trimmed, kept
    /// A 2 MiB block freed and allocated again, with blocks of 4 MiB or more mapped on their
    /// own, then with blocks of 1 MiB or more (the page's setting).
    case largeKept, largeReturned

    static let variable = "MARKTIME_HEAP_PROBE"

    /// Minor page faults of this thread while `measured` runs after `setUp`.
    static func faults(setUp: () -> Void, measured: () -> Void) -> Int {
        setUp()
        var usage = rusage()
        getrusage(1, &usage)  // RUSAGE_THREAD
        let before = usage.ru_minflt
        measured()
        getrusage(1, &usage)
        return usage.ru_minflt - before
    }

    /// The blocks are freed newest first, so that each merges into the heap's top, and are
    /// big enough to bypass glibc's per-thread cache; a filler first takes up the heap's
    /// holes, so that the blocks come from its top.
    static func refaultsAfterFreeing(keeping keep: Int) -> Int? {
        guard Heap.keepFreedMemory(upTo: keep) else { return nil }
        let count = 1024, fillers = 4096, size = 2048
        let blocks = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: fillers + count)
        defer { blocks.deallocate() }
        return faults(setUp: {
            var i = 0
            while i < fillers + count { blocks[i] = malloc(size); memset(blocks[i]!, 1, size); i += 1 }
            while i > fillers { i -= 1; free(blocks[i]) }
        }, measured: {
            var i = fillers
            while i < fillers + count { blocks[i] = malloc(size); memset(blocks[i]!, 1, size); i += 1 }
        })
    }

    /// A block at or above the threshold is still cut from a heap's free space when some fits
    /// it: where the block should be mapped, any such space is taken up first (held), until
    /// one is mapped; nil when 64 tries map none.
    static func refaultsOfALargeBlock(mapOver: Int) -> Int? {
        let size = 2 << 20, tries = 64
        guard Heap.keepFreedMemory(upTo: Heap.daemonKeeps), Heap.mapLargeBlocks(over: mapOver) else { return nil }
        let held = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: tries)
        defer { held.deallocate() }
        let mappedBefore = Heap.mappedBlocks
        var block = malloc(size)
        if mapOver <= size {
            var i = 0
            while Heap.mappedBlocks == mappedBefore {
                guard i < tries else { return nil }
                held[i] = block
                i += 1
                block = malloc(size)
            }
        }
        return faults(setUp: {
            memset(block!, 1, size)
            free(block)
        }, measured: {
            memset(malloc(size)!, 1, size)
        })
    }

    /// Measures in this process.
    func measure() -> Int? {
        switch self {
        case .trimmed: Self.refaultsAfterFreeing(keeping: 0)
        case .kept: Self.refaultsAfterFreeing(keeping: Heap.daemonKeeps)
        case .largeKept: Self.refaultsOfALargeBlock(mapOver: 4 << 20)
        case .largeReturned: Self.refaultsOfALargeBlock(mapOver: Heap.pageMapsOver)
        }
    }

    /// Measures in a fresh copy of this test binary, which runs only `HeapProbeRun`.
    func measureInAFreshProcess() throws -> Int {
        let out = NSTemporaryDirectory() + "heap-probe-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "HeapProbeRun"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.variable: rawValue + " " + out]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        let text = try? String(contentsOfFile: out, encoding: .utf8)
        return try #require(text.flatMap { Int($0) }, "the probe \(rawValue) counted nothing (exit \(child.terminationStatus))")
    }
}

/// What a fresh process started by HeapTests runs: one probe, its count written to a file.
@Suite struct HeapProbeRun {
    static let asked = ProcessInfo.processInfo.environment[HeapProbe.variable]?.split(separator: " ").map(String.init)

    @Test(.enabled(if: asked != nil, "runs only in a process HeapTests starts"))
    func measure() throws {
        let asked = try #require(Self.asked)
        let probe = try #require(HeapProbe(rawValue: asked[0]))
        let faults = try #require(probe.measure(), "the allocator refused a setting, or mapped no block")
        try String(faults).write(toFile: asked[1], atomically: true, encoding: .utf8)
    }
}

@Suite("the C allocator's freed memory")
struct HeapTests {
    @Test(.timeLimit(.minutes(1)))
    func freedMemoryKeptIsNotFaultedBackIn() throws {
        // Given glibc hands freed memory back to the kernel at once
        // When 2 MiB (512 pages) is freed and allocated again
        let trimmed = try HeapProbe.trimmed.measureInAFreshProcess()
        // Then most of its pages fault back in
        #expect(trimmed >= 256)

        // Given the daemon's setting
        // When the same is done again
        let kept = try HeapProbe.kept.measureInAFreshProcess()
        // Then no page faults back in
        #expect(kept == 0)
    }

    @Test func aNegativeSizeIsRefused() {
        #expect(!Heap.keepFreedMemory(upTo: -1))
    }

    @Test(.timeLimit(.minutes(1)))
    func aLargeBlockMappedOnItsOwnGoesBackToTheKernelWhenFreed() throws {
        // Given a heap that keeps up to 8 MiB of what is freed, and maps blocks of 4 MiB or more
        // When a 2 MiB block is freed, then allocated and written again
        let kept = try HeapProbe.largeKept.measureInAFreshProcess()
        // Then it was kept in the heap: no page faults back in
        #expect(kept == 0)

        // Given blocks of 1 MiB or more mapped on their own (the page's setting)
        // When the same is done
        let returned = try HeapProbe.largeReturned.measureInAFreshProcess()
        // Then the block went back to the kernel when freed: its 512 pages fault in again
        #expect(returned >= 256)
    }

    @Test func aNegativeThresholdIsRefused() {
        #expect(!Heap.mapLargeBlocks(over: -1))
    }
}
