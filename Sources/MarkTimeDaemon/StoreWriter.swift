import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeSystem
import Synchronization

/// The one thread that writes the store, in three lanes: sights (and the pending-presses
/// file) before everything; then the daemon's own work (the anchor watch, places, gaps, the
/// clock track); sharing's writes last, so that a burst of friends' messages never holds
/// up a press or the anchor alarm. Sharing's writes are batched (see `nextShare`).
/// Nothing that hands it work ever waits for it.
final class StoreWriter: Sendable {
    enum Job: Sendable {
        /// A sight, and when it was handed over (monotonic ns).
        case insert(Sight, queuedAt: Int64)
        case keepPending(Sight)
        case settlePending
        case acknowledgeAnchor
        case gap(InputGap)
        case track([ClockTrack.Entry])
        case rate(RateBookEntry)
        case backfill(ClockTrack)
        /// A reading from the keypad: a sight's Hs or body, or an undo.
        case reading(ReadingRequest)
        /// A voice memo for the sight pressed at `press` (stored before it: the sights' lane comes first).
        case memo(SightMemo, press: MonotonicInstant)
        case watch([GeoFix], now: Int64)
        /// A write of the share service (its outbox, a phone's report), after any sight;
        /// `durable` when its commit must be synced (see `ShareService.submit`).
        case share(ShareWrite, durable: Bool)
        /// What follows a batch of sharing's writes once it has committed (the state file,
        /// the outbox's pump): after a sight that waits, before the next batch.
        case afterShare(@Sendable () -> Void)

        /// 0: a sight's; 1: the daemon's own; 2: sharing's.
        var lane: Int {
            switch self {
            case .insert, .keepPending, .settlePending: 0
            case .share: 2
            default: 1
            }
        }
    }

    /// First in, first out, taking from the front in constant time.
    struct FIFO {
        private var items: [Job] = []
        private var head = 0
        var isEmpty: Bool { head == items.count }
        var first: Job? { isEmpty ? nil : items[head] }
        mutating func append(_ job: Job) { items.append(job) }
        mutating func removeFirst() -> Job {
            defer {
                head += 1
                if head == items.count { (items, head) = ([], 0) } else if head >= 1024, head * 2 >= items.count {
                    items.removeFirst(head)
                    head = 0
                }
            }
            return items[head]
        }
    }

    /// The lanes, and when sharing's lane may go on after a batch that left the lock no
    /// rest (monotonic ns).
    struct Queue {
        var lanes = [FIFO(), FIFO(), FIFO()]
        var stopping = false
        var shareRestUntil = Int64.min

        /// The next job at `now`, first lane first; sharing's lane waits out its rest (not
        /// once stopping). Without a job: when to look again, if sharing's lane rests.
        mutating func take(now: Int64) -> (job: Job?, wakeAt: Int64?) {
            for lane in lanes.indices where !lanes[lane].isEmpty {
                if lane == 2, !stopping, now < shareRestUntil { return (nil, shareRestUntil) }
                return (lanes[lane].removeFirst(), nil)
            }
            return (nil, nil)
        }
    }

    private let queue = Mutex(Queue())
    private let now: @Sendable () -> Int64
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private let started = Mutex(false)

    /// A writer whose jobs wait until `start`; `now` is the monotonic clock in ns.
    init(now: @escaping @Sendable () -> Int64 = { SystemClock.monotonicNow() }) { self.now = now }

    /// Leaves the store's write lock free for `nanoseconds` before sharing's next batch:
    /// another process's write (the CLI's `anchor drop`, polling every 100 ms at most)
    /// gets its turn between two batches of a backlog, instead of waiting them all out.
    func restShares(for nanoseconds: Int64) {
        let until = now() + nanoseconds
        queue.withLock { $0.shareRestUntil = until }
    }

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
        queue.withLock { q in q.lanes[job.lane].append(job) }
        wake.signal()
    }

    /// Finishes what is queued, then ends the thread (if it was started).
    func stop() {
        queue.withLock { $0.stopping = true }
        wake.signal()
        if started.withLock({ $0 }) { finished.wait() }
    }

    /// The next of sharing's writes that need no sync, to join the batch the writer has
    /// open: nil once a sight's or the daemon's own job is waiting (the batch commits and
    /// that goes first), when the next needs a synced commit, or when none is left.
    func nextShare() -> ShareWrite? {
        queue.withLock { q in
            guard q.lanes[0].isEmpty, q.lanes[1].isEmpty, case .share(let write, false)? = q.lanes[2].first else { return nil }
            _ = q.lanes[2].removeFirst()
            return write
        }
    }

    private func next() -> Job? {
        while true {
            let t = now()
            let (job, wakeAt, stopping) = queue.withLock { q -> (Job?, Int64?, Bool) in
                let (job, wakeAt) = q.take(now: t)
                return (job, wakeAt, q.stopping)
            }
            if let job { return job }
            if let wakeAt {
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(max(0, wakeAt - t))))
                continue
            }
            if stopping { return nil }
            wake.wait()
        }
    }
}
