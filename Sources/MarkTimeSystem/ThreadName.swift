import CSystemClock

/// A name for one of the process's own threads, as `ps -T` and `/proc/PID/task/*/comm`
/// show it. Foundation's `Thread.name` does not reach the kernel on Linux when it is set
/// before the thread starts, so a thread names itself from inside.
public enum ThreadName {
    /// The kernel's limit, in bytes.
    public static let maxLength = 15

    /// Names the calling thread. False when refused: a name over `maxLength` bytes is
    /// (ERANGE), and the thread keeps its old name.
    @discardableResult
    public static func setCurrent(_ name: String) -> Bool {
        csystemclock_name_thread(name) == 0
    }
}
