import MarkTimeSystem

/// Runs a C call through `systemCall` (EINTR retried), as a `DeviceError` naming the call.
@discardableResult
func syscall<T: FixedWidthInteger>(_ what: @autoclosure () -> String, _ call: () -> T) throws(DeviceError) -> T {
    do { return try systemCall(what(), call) } catch { throw DeviceError(error) }
}

extension DeviceError {
    init(_ description: String, errno: Int32) {
        self.init(description)
        self.errno = errno
    }

    /// A failed system call, worded as it failed.
    public init(_ error: SystemError) {
        self.init(error.description, errno: error.errno.rawValue)
    }
}
