import CSystemClock
import Glibc
import SystemPackage

/// A child process started with posix_spawn(3): every signal at its default and unblocked,
/// descriptors above 2 closed. (Foundation's `Process.run()` is not used: on Linux it can
/// over-read `/proc/self/fd`'s entries and crash the parent, swift-corelibs-foundation #5472.)
public struct ChildProcess: Sendable {
    public let pid: pid_t

    /// Where one of the child's standard descriptors comes from.
    public enum Standard: Sendable {
        /// This process's own.
        case inherited
        /// A descriptor of this process, duplicated onto the child's.
        case descriptor(Int32)
        /// A file opened for the child (`open(2)` flags).
        case file(String, flags: Int32)
    }

    /// Starts `command` (an absolute path, then its arguments) with `environment`; with
    /// `newSession`, in a session of its own, so that a signal to `-pid` reaches what it starts.
    public static func spawn(_ command: [String], environment: [String: String],
                             input: Standard = .inherited, output: Standard = .inherited, error: Standard = .inherited,
                             newSession: Bool = false) throws(SystemError) -> ChildProcess {
        precondition(!command.isEmpty, "a command names its executable")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, standard) in [(Int32(0), input), (1, output), (2, error)] {
            switch standard {
            case .inherited: break
            case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, fd)
            case .file(let path, let flags): posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0o644)
            }
        }
        csystemclock_spawn_closefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let session = newSession ? Int32(csystemclock_spawn_setsid_flag()) : 0
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | session))
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        return ChildProcess(pid: try Kernel.spawn(command[0], &actions, &attributes, argv, envp))
    }

    /// Blocks until the child exits and reaps it: its exit code, or the number of the signal
    /// that ended it (-1 when it cannot be waited for).
    public func waitForExit() -> Int32 {
        guard let status = try? Kernel.wait(for: pid) else { return -1 }
        return Self.code(status)
    }

    /// The exit code in a wait status, or the number of the signal that ended the child.
    public static func code(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }
}
