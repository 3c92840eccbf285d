import Foundation

/// A fixed set of threads for `.offloaded` routes with a short bounded wait list. `trySubmit`
/// refuses work when every thread is busy and `queueLimit` jobs already wait (the caller answers
/// 503), so a slow renderer can never queue up unbounded work or stall a connection queue, while
/// a burst of a few requests (a page loading several images) is served rather than refused.
final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var busy = 0
    private var threads = 0
    private var idle = 0
    private var stopped = false
    let size: Int
    let queueLimit: Int
    let name: String

    init(size: Int, queueLimit: Int = 0, name: String) {
        self.size = max(1, size)
        self.queueLimit = max(0, queueLimit)
        self.name = name
    }

    /// Jobs running or waiting for a thread.
    var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return busy
    }

    /// Runs `job` on a worker thread, or queues it while fewer than `queueLimit` jobs wait;
    /// false when both are full.
    func trySubmit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, busy < size + queueLimit else { return false }
        busy += 1
        jobs.append(job)
        if idle == 0, threads < size {
            threads += 1
            let t = Thread { [self] in self.run() }
            t.name = "\(name)-\(threads)"
            t.stackSize = 4 << 20
            t.start()
        } else {
            condition.signal()
        }
        return true
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopped {
                idle += 1
                condition.wait()
                idle -= 1
            }
            if jobs.isEmpty, stopped {
                threads -= 1
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
            condition.lock()
            busy -= 1
            condition.unlock()
        }
    }

    /// Lets the threads exit once the queued jobs are done.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
