import MarkTimeSystem

/// Runs a call of MarkTimeSystem's `Kernel`, its failure as a `DeviceError` naming the call.
@discardableResult
func syscall<T>(_ call: () throws(SystemError) -> T) throws(DeviceError) -> T {
    do { return try call() } catch { throw DeviceError(error) }
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
