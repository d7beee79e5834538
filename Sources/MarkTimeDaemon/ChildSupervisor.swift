import Foundation
import MarkTimeCore
import ServiceLifecycle
import MarkTimeSystem
import Synchronization

/// A child process the daemon keeps running (the page, `marktimed web`): started with the daemon,
/// started again after a `Backoff` wait whenever it exits, and stopped with SIGTERM
/// (SIGKILL after `stopTimeout`) when the daemon stops. The child gets
/// `MARKTIME_SUPERVISOR` (the daemon's pid) so that it can ask to die with its parent.
struct ChildSupervisor: Service {
    let name: String
    let command: [String]
    /// Tells the core what happened to the child.
    let report: @Sendable (DaemonReport) -> Void
    var backoff = Backoff()
    var stopTimeout: Duration = .seconds(5)

    func run() async throws {
        var backoff = backoff
        while !Task.isShuttingDownGracefully {
            let started = ContinuousClock.now
            let status = await runOnce()
            if Task.isShuttingDownGracefully { break }
            let wait = backoff.next(after: ContinuousClock.now - started)
            report(.childExited(name: name, status: status, waitSeconds: wait.components.seconds))
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) } } catch { break }
        }
    }

    /// Runs the child until it exits (its status) or the daemon stops; `nil` when it could not start.
    func runOnce() async -> Int32? {
        var environment = ProcessInfo.processInfo.environment
        environment["MARKTIME_SUPERVISOR"] = "\(ProcessInfo.processInfo.processIdentifier)"
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(command, environment: environment)
        } catch {
            report(.failed(.startChild(name: name, command: command.joined(separator: " ")), error: "\(error)"))
            return nil
        }
        let (exits, exited) = AsyncStream.makeStream(of: Int32.self)
        let running = RunningFlag()
        Thread {
            let status = child.waitForExit()
            running.value.store(false, ordering: .releasing)
            exited.yield(status)
            exited.finish()
        }.start()
        let pid = child.pid
        report(.childStarted(name: name, pid: pid))
        return await withGracefulShutdownHandler {
            var status: Int32 = -1
            for await s in exits { status = s }
            return status
        } onGracefulShutdown: { [stopTimeout, report, name] in
            try? Signals.send(SIGTERM, to: pid)
            Task {
                try? await Task.sleep(for: stopTimeout)
                if running.value.load(ordering: .acquiring) {
                    report(.childKilled(name: name, pid: pid))
                    try? Signals.send(SIGKILL, to: pid)
                }
            }
        }
    }
}

/// Whether a child is still running, shared by its waiting thread and the shutdown handler.
private final class RunningFlag: Sendable {
    let value = Atomic<Bool>(true)
}
