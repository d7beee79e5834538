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
}
