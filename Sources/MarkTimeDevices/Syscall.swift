import Glibc

/// Runs a C call that returns -1 and sets errno on failure, retrying on EINTR.
/// `what` names the call for the error.
@discardableResult
func syscall<T: BinaryInteger>(_ what: @autoclosure () -> String, _ call: () -> T) throws(DeviceError) -> T {
    while true {
        let rc = call()
        if rc != -1 { return rc }
        let e = errno
        if e == EINTR { continue }
        throw DeviceError("\(what()): \(String(cString: strerror(e)))", errno: e)
    }
}

extension DeviceError {
    init(_ description: String, errno: Int32) {
        self.init(description)
        self.errno = errno
    }
}
