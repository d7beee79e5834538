import Foundation
import MarkTimeCore
import MarkTimePlaces
import MarkTimeSystem
import Synchronization

/// The one thread that writes the store. Sights (and the pending-presses file) go before
/// everything else; nothing that hands it work ever waits for it.
final class StoreWriter: Sendable {
    enum Job: Sendable {
        /// A sight, and when it was handed over (monotonic ns).
        case insert(Sight, queuedAt: Int64)
        case keepPending(Sight)
        case settlePending
        case acknowledgeAnchor
        case gap(InputGap)
        case track([ClockTrack.Entry])
        case backfill(ClockTrack)
        case watch([GeoFix], now: Int64)
        /// A write of the share service (its outbox, a phone's report), after any sight.
        case share(@Sendable () -> Void)

        var isUrgent: Bool {
            switch self {
            case .insert, .keepPending, .settlePending: true
            default: false
            }
        }
    }

    private struct Queue {
        var urgent: [Job] = []
        var other: [Job] = []
        var stopping = false
    }

    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private let started = Mutex(false)

    /// A writer whose jobs wait until `start`.
    init() {}

    /// Starts the thread; `perform` runs each job on it, those submitted before first.
    func start(perform: @escaping @Sendable (Job) -> Void) {
        started.withLock { $0 = true }
        let thread = Thread { [self] in
            // The bench finds the writer by this name.
            ThreadName.setCurrent("marktime-writer")
            while let job = self.next() { perform(job) }
            self.finished.signal()
        }
        thread.start()
    }

    func submit(_ job: Job) {
        queue.withLock { q in
            if job.isUrgent { q.urgent.append(job) } else { q.other.append(job) }
        }
        wake.signal()
    }

    /// Finishes what is queued, then ends the thread (if it was started).
    func stop() {
        queue.withLock { $0.stopping = true }
        wake.signal()
        if started.withLock({ $0 }) { finished.wait() }
    }

    private func next() -> Job? {
        while true {
            let (job, stopping) = queue.withLock { q -> (Job?, Bool) in
                if !q.urgent.isEmpty { return (q.urgent.removeFirst(), q.stopping) }
                if !q.other.isEmpty { return (q.other.removeFirst(), q.stopping) }
                return (nil, q.stopping)
            }
            if let job { return job }
            if stopping { return nil }
            wake.wait()
        }
    }
}
