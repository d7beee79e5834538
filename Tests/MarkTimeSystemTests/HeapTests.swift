import Glibc
import MarkTimeSystem
import Testing

@Suite("the C allocator's freed memory")
struct HeapTests {
    /// Minor page faults while `measured` runs after `setUp`, in a forked child: there no
    /// other thread shares the heap, and no other test changes its settings (the daemon's
    /// tests, in this process, set their own). The child's heaps are the test process's, as
    /// it left them: it first hands their free memory back, so that no large free space at
    /// a heap's top serves or keeps what is measured. Both call only C (and `Heap`'s C
    /// calls); a `setUp` that fails exits the child with 3.
    static func faultsInAChild(setUp: () -> Void, measured: () -> Void) throws -> Int {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            Heap.handBackFreedMemory()
            setUp()
            var usage = rusage()
            getrusage(0, &usage)  // RUSAGE_SELF
            let before = usage.ru_minflt
            measured()
            getrusage(0, &usage)  // RUSAGE_SELF
            var faults = usage.ru_minflt - before
            _ = write(pipeEnds[1], &faults, MemoryLayout<Int>.size)
            _exit(0)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        var faults = -1, status: Int32 = 0
        let got = read(pipeEnds[0], &faults, MemoryLayout<Int>.size)
        waitpid(child, &status, 0)
        try #require(got == MemoryLayout<Int>.size, "the child counted nothing (wait status \(status))")
        return faults
    }

    /// Minor page faults while 2 MiB is allocated and written in 2 KiB blocks that were
    /// allocated, written and freed just before. A filler first takes up the heap's holes,
    /// so that the blocks come from its top; they are freed newest first, so that each
    /// merges into it, and are big enough to bypass glibc's per-thread cache. The heap keeps
    /// up to `keep` bytes of freed memory.
    static func refaultsAfterFreeing(keeping keep: Int) throws -> Int {
        let count = 1024, fillers = 4096, size = 2048
        let blocks = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: fillers + count)
        defer { blocks.deallocate() }
        return try faultsInAChild(setUp: {
            guard Heap.keepFreedMemory(upTo: keep) else { _exit(3) }
            var i = 0
            while i < fillers + count { blocks[i] = malloc(size); memset(blocks[i]!, 1, size); i += 1 }
            while i > fillers { i -= 1; free(blocks[i]) }
        }, measured: {
            var i = fillers
            while i < fillers + count { blocks[i] = malloc(size); memset(blocks[i]!, 1, size); i += 1 }
        })
    }

    @Test(.timeLimit(.minutes(1)))
    func freedMemoryKeptIsNotFaultedBackIn() throws {
        // Given glibc hands freed memory back to the kernel at once
        // When 2 MiB (512 pages) is freed and allocated again
        let trimmed = try Self.refaultsAfterFreeing(keeping: 0)
        // Then most of its pages fault back in
        #expect(trimmed >= 256)

        // Given the daemon's setting
        // When the same is done again
        let kept = try Self.refaultsAfterFreeing(keeping: Heap.daemonKeeps)
        // Then no page faults back in
        #expect(kept == 0)
    }

    @Test func aNegativeSizeIsRefused() {
        #expect(!Heap.keepFreedMemory(upTo: -1))
    }

    /// Minor page faults while 2 MiB is allocated and written again after the same was
    /// allocated, written and freed, in a heap that keeps up to 8 MiB of freed memory and
    /// maps blocks of `mapOver` bytes or more on their own. Where the block should be mapped,
    /// any free space the test process left in the heap that would hold it is taken up first
    /// (held, never freed), until a block is mapped; 64 tries that map none exit with 4.
    static func refaultsOfALargeBlock(mapOver: Int) throws -> Int {
        let size = 2 << 20, tries = 64
        let held = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: tries)
        defer { held.deallocate() }
        return try faultsInAChild(setUp: {
            guard Heap.keepFreedMemory(upTo: Heap.daemonKeeps), Heap.mapLargeBlocks(over: mapOver) else { _exit(3) }
            let mappedBefore = Heap.mappedBlocks
            var block = malloc(size)
            if mapOver <= size {
                var i = 0
                while Heap.mappedBlocks == mappedBefore {
                    guard i < tries else { _exit(4) }
                    held[i] = block
                    i += 1
                    block = malloc(size)
                }
            }
            memset(block!, 1, size)
            free(block)
        }, measured: {
            memset(malloc(size)!, 1, size)
        })
    }

    @Test(.timeLimit(.minutes(1)))
    func aLargeBlockMappedOnItsOwnGoesBackToTheKernelWhenFreed() throws {
        // Given a heap that keeps up to 8 MiB of what is freed, and maps blocks of 4 MiB or more
        // When a 2 MiB block is freed, then allocated and written again
        let kept = try Self.refaultsOfALargeBlock(mapOver: 4 << 20)
        // Then it was kept in the heap: no page faults back in
        #expect(kept == 0)

        // Given blocks of 1 MiB or more mapped on their own (the page's setting)
        // When the same is done
        let returned = try Self.refaultsOfALargeBlock(mapOver: Heap.pageMapsOver)
        // Then the block went back to the kernel when freed: its 512 pages fault in again
        #expect(returned >= 256)
    }

    @Test func aNegativeThresholdIsRefused() {
        #expect(!Heap.mapLargeBlocks(over: -1))
    }
}
