import CMalloc

/// How the C allocator treats memory that the process has freed.
public enum Heap {
    /// What the daemon keeps: well above what it frees between two presses (a few hundred
    /// KiB), well below what a Pi can spare.
    public static let daemonKeeps = 8 << 20

    /// Keeps up to `bytes` of freed memory at the top of each heap instead of handing it
    /// back to the kernel (glibc's M_TRIM_THRESHOLD, for the main heap and every thread's
    /// arena). A page handed back costs a page fault on its next use; without this, the
    /// store writer's thread faulted ~60 pages back in on every press. False where the
    /// allocator refused or is not glibc's.
    @discardableResult
    public static func keepFreedMemory(upTo bytes: Int) -> Bool {
        bytes >= 0 && cmalloc_set_trim_threshold(bytes) == 1
    }

    /// What the page maps on its own: far above a page or a chunk of a body, far below a photo.
    public static let pageMapsOver = 1 << 20

    /// Maps each block of `bytes` or more on its own, handed back to the kernel when freed
    /// (glibc's M_MMAP_THRESHOLD, fixed). Left to itself, glibc raises the threshold to the
    /// largest block freed (up to 32 MiB), so after a few photos their 16 MB buffers stay in
    /// the heap: 12 photos at once left the page at 78 MiB instead of 40. False where the
    /// allocator refused or is not glibc's.
    @discardableResult
    public static func mapLargeBlocks(over bytes: Int) -> Bool {
        bytes >= 0 && cmalloc_set_mmap_threshold(bytes) == 1
    }

    /// How many blocks are now mapped on their own; nil where the allocator is not glibc's.
    /// A block at or above the threshold is still cut from a heap's free space when some
    /// fits it: only a block that found none is mapped.
    public static var mappedBlocks: Int? {
        let count = cmalloc_mapped_blocks()
        return count < 0 ? nil : count
    }
}
