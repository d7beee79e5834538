import Foundation

/// Runs a blocking wait for the daemon's answer (a time signal's minutes, a MARK's few
/// seconds) on a thread of its own: Swift's concurrency pool and NIO's blocking pool have
/// one thread per core, and the other pages' work must not queue behind the wait.
func onThreadOfItsOwn<T: Sendable>(named name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.name = name
        thread.start()
    }
}
