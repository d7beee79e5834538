import CSystemClock
import Glibc

/// A child's tie to the process that supervises it.
public enum Parent {
    /// Asks for SIGTERM when the parent dies (PR_SET_PDEATHSIG). False when the parent
    /// is no longer `expected`: it died before the request, and the child should stop.
    public static func terminateWith(expected: pid_t) throws(SystemError) -> Bool {
        try systemCall("prctl PR_SET_PDEATHSIG") { csystemclock_term_with_parent() }
        return Kernel.parentProcessID() == expected
    }
}
