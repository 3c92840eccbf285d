import Foundation

/// A fixed set of threads for `.offloaded` routes. `trySubmit` refuses work when every thread is
/// busy (the caller answers 503), so a slow renderer can never queue up unbounded work or stall
/// a connection queue.
final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var busy = 0
    private var threads = 0
    private var idle = 0
    private var stopped = false
    let size: Int
    let name: String

    init(size: Int, name: String) {
        self.size = max(1, size)
        self.name = name
    }

    /// Jobs running or waiting for a thread.
    var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return busy
    }

    /// Runs `job` on a worker thread unless all `size` workers are busy.
    func trySubmit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, busy < size else { return false }
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
