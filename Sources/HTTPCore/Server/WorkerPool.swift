import Glibc
import Dispatch
import Foundation
import Synchronization

/// The bounded pool that runs everything an event loop must not: `.compute` and `.heavy` routes,
/// the offloaded half of planned routes, and the chunks of `.pull` bodies.
///
/// - A fixed set of threads, started lazily, each at a lower scheduling priority (nice +5 on
///   Linux) than the event loops, so a loop woken by a request preempts the number crunching.
/// - Three FIFO lanes. Compute jobs (new requests, usually short) go first, but when
///   continuations (the next chunks of a body already being sent) wait too, every fourth turn is
///   theirs: a burst of new requests is not stuck behind long downloads, and the downloads (whose
///   bytes are held until sent) still progress. Heavy jobs go last, and never more than
///   `heavyConcurrency` at once, so a slow picture cannot take every thread away from the cheap
///   work behind it.
/// - Bounded wait lists: `trySubmit` refuses (the caller answers 503 with `Retry-After`) when the
///   lane's wait list is full. Continuations are not refused: their number is bounded by the
///   connections sending bodies, each with at most one chunk job at a time.
final class WorkerPool: Sendable {
    enum Lane: Sendable {
        case compute
        case heavy
    }

    typealias Job = @Sendable () -> Void

    private struct State {
        var continuations = FIFOQueue<Job>()
        var compute = FIFOQueue<Job>()
        var heavy = FIFOQueue<Job>()
        var runningHeavy = 0
        /// Jobs admitted and not finished (running or waiting), continuations excluded.
        var admitted = 0
        var idle: [Int] = []
        var started = 0
        var stopped = false
        /// Compute jobs run since the last continuation: when both wait, a continuation gets every
        /// fourth turn, so new requests (usually short) are not stuck behind long downloads and
        /// the downloads still progress.
        var computeRun = 0

        mutating func next(heavyConcurrency: Int) -> (Job, isHeavy: Bool)? {
            if !continuations.isEmpty, computeRun >= 3 || compute.isEmpty, let job = continuations.popFirst() {
                computeRun = 0
                return (job, false)
            }
            if let job = compute.popFirst() {
                computeRun += 1
                return (job, false)
            }
            if runningHeavy < heavyConcurrency || stopped, let job = heavy.popFirst() {
                runningHeavy += 1
                return (job, true)
            }
            return nil
        }

        var hasRunnable: Bool { !continuations.isEmpty || !compute.isEmpty }
    }

    let size: Int
    let heavyConcurrency: Int
    let computeQueueLimit: Int
    let heavyQueueLimit: Int
    let name: String
    private let state = Mutex(State())
    private let wakeups: [DispatchSemaphore]

    /// - Parameters:
    ///   - size: threads.
    ///   - heavyConcurrency: heavy jobs running at once (default `size - 1`, at least 1).
    ///   - computeQueueLimit, heavyQueueLimit: jobs that may wait in each lane (no defaults here:
    ///     `HTTPServerConfiguration` holds them).
    init(size: Int, heavyConcurrency: Int? = nil, computeQueueLimit: Int, heavyQueueLimit: Int, name: String) {
        self.size = max(1, size)
        self.heavyConcurrency = max(1, min(self.size, heavyConcurrency ?? (self.size - 1)))
        self.computeQueueLimit = max(0, computeQueueLimit)
        self.heavyQueueLimit = max(0, heavyQueueLimit)
        self.name = name
        wakeups = (0..<self.size).map { _ in DispatchSemaphore(value: 0) }
    }

    /// Jobs admitted and not finished (running or waiting), continuations excluded.
    var inFlight: Int { state.withLock { $0.admitted } }

    /// Queues `job` in `lane`; false when that lane's wait list is full or the pool stopped.
    func trySubmit(_ lane: Lane, _ job: @escaping Job) -> Bool {
        let (admitted, wake) = state.withLock { s -> (Bool, Int?) in
            guard !s.stopped else { return (false, nil) }
            switch lane {
            case .compute:
                guard s.compute.count < computeQueueLimit + idleCapacity(s) else { return (false, nil) }
                s.compute.append(counted(job))
            case .heavy:
                guard s.heavy.count < heavyQueueLimit + max(0, heavyConcurrency - s.runningHeavy) else { return (false, nil) }
                s.heavy.append(counted(job))
            }
            s.admitted += 1
            return (true, takeIdle(&s))
        }
        if let wake { wakeups[wake].signal() }
        return admitted
    }

    /// Queues the next piece of an admitted response; never refused while the pool runs.
    func submitContinuation(_ job: @escaping Job) {
        let wake: Int? = state.withLock { s in
            s.continuations.append(job)
            return takeIdle(&s)
        }
        if let wake { wakeups[wake].signal() }
    }

    /// Lets the threads exit once the queued jobs are done.
    func stop() {
        let sleepers: [Int] = state.withLock { s in
            s.stopped = true
            defer { s.idle = [] }
            return s.idle
        }
        for i in sleepers { wakeups[i].signal() }
    }

    /// Threads that could start a job at once (idle or not yet started): jobs beyond the wait
    /// list are still accepted while a thread is free for them.
    private func idleCapacity(_ s: State) -> Int { s.idle.count + (size - s.started) }

    /// Wraps an admitted job so finishing it is counted.
    private func counted(_ job: @escaping Job) -> Job {
        { [self] in
            job()
            state.withLock { $0.admitted -= 1 }
        }
    }

    /// An idle thread to wake (or a new one to start) for newly runnable work. Call locked.
    private func takeIdle(_ s: inout State) -> Int? {
        let runnable = s.hasRunnable || (!s.heavy.isEmpty && s.runningHeavy < heavyConcurrency)
        guard runnable else { return nil }
        if let i = s.idle.popLast() { return i }
        if s.started < size {
            let index = s.started
            s.started += 1
            let thread = Thread { [self] in run(index) }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
        return nil
    }

    private func run(_ index: Int) {
        // On Linux the nice value is per thread; 0 names the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        while true {
            let next: (Job, isHeavy: Bool)? = state.withLock { s in
                if let j = s.next(heavyConcurrency: heavyConcurrency) { return j }
                if !s.stopped { s.idle.append(index) }
                return nil
            }
            guard let (job, isHeavy) = next else {
                if state.withLock({ $0.stopped && !$0.hasRunnable && $0.heavy.isEmpty }) { return }
                wakeups[index].wait()
                continue
            }
            job()
            if isHeavy {
                let wake: Int? = state.withLock { s in
                    s.runningHeavy -= 1
                    return takeIdle(&s)
                }
                if let wake { wakeups[wake].signal() }
            }
        }
    }
}
