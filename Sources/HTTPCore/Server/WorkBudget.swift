import Glibc
import Synchronization

/// What one request may still spend on the worker pool: a CPU budget (the thread CPU time of
/// every job the request runs — its answer, then each chunk of a streamed body — added up) and
/// whether anyone still wants the answer (the connection sets ``cancel(_:)`` when its client
/// goes, the server when it stops).
///
/// Nothing preempts a job: long computations ask, between their steps, through
/// ``checkCurrent()`` (or an `Interrupt` that polls ``currentStopReason()``), and the answer
/// is a thrown problem that ends the job — 503 naming the limit when the budget is spent; the
/// same with 499 (nginx's "client closed request", for the access log only: nobody reads it)
/// when the client went away. While a job runs, its budget is `WorkBudget.current`, so code
/// deep in a handler can ask without the budget being passed down.
///
/// ```swift
/// for row in rows {
///     try WorkBudget.checkCurrent()   // 503 "…its CPU budget of 10 s…" once it is spent
///     …
/// }
/// ```
///
/// Reading the thread's CPU clock costs a system call, so ``check()`` reads it every
/// ``clockInterval``-th call; a check of a stopped request costs one atomic load.
public final class WorkBudget: @unchecked Sendable {
    // @unchecked: `spentNanos`, `sliceStartNanos`, `inSlice` and `checks` are touched only by the thread
    // running one of the request's jobs, and the request's jobs never overlap (one answer, then
    // one chunk job at a time); `stop` is atomic.

    public enum StopReason: UInt8, Sendable {
        case clientGone = 1
        case budgetSpent = 2
        case serverStopping = 3
    }

    /// CPU seconds the request may use; 0: no limit.
    public let cpuLimitSeconds: Double
    /// What a spent budget is called in the problem (the setting an operator would change).
    public let limitName: String
    private let limitNanos: UInt64
    private let stop = Atomic<UInt8>(0)
    private var spentNanos: UInt64 = 0
    private var sliceStartNanos: UInt64 = 0
    private var inSlice = false
    private var checks = 0

    /// Checks between two readings of the thread's CPU clock.
    static let clockInterval = 16

    @TaskLocal public static var current: WorkBudget?

    public init(cpuLimitSeconds: Double, limitName: String = "--request-cpu-limit") {
        self.cpuLimitSeconds = max(0, cpuLimitSeconds)
        self.limitName = limitName
        limitNanos = nanos(cpuLimitSeconds)
    }

    /// Why the request should stop, if it should.
    public var stopReason: StopReason? { StopReason(rawValue: stop.load(ordering: .relaxed)) }

    /// Asks the request's jobs to stop (the first reason given stays).
    public func cancel(_ reason: StopReason) {
        _ = stop.compareExchange(expected: 0, desired: reason.rawValue, ordering: .relaxed)
    }

    /// CPU seconds spent so far (while a job runs, up to its last clock reading).
    public var spentSeconds: Double { Double(spentNanos) / 1e9 }

    /// Runs `job` as one slice of the request: its CPU time is charged, and the budget is
    /// `current` meanwhile.
    func run<R>(_ job: () throws -> R) rethrows -> R {
        sliceStartNanos = threadCPUNanos()
        inSlice = true
        defer {
            spentNanos &+= threadCPUNanos() &- sliceStartNanos
            inSlice = false
        }
        return try WorkBudget.$current.withValue(self) { try job() }
    }

    /// Throws the problem that ends the request when it should stop.
    public func check() throws(ProblemDetails) {
        if let problem = stopProblem() { throw problem }
    }

    /// The problem that ends the request when it should stop, else nil.
    public func stopProblem() -> ProblemDetails? {
        if let reason = stopReason { return problem(reason) }
        guard limitNanos > 0, inSlice else { return nil }
        checks &+= 1
        guard checks % Self.clockInterval == 0 else { return nil }
        let now = threadCPUNanos()
        guard spentNanos &+ (now &- sliceStartNanos) > limitNanos else { return nil }
        cancel(.budgetSpent)
        return problem(.budgetSpent)
    }

    /// Charges the slice so far and tells whether the budget is spent (for a producer that
    /// wants to stop at a chunk boundary).
    var isSpent: Bool {
        guard limitNanos > 0 else { return false }
        if inSlice {
            let now = threadCPUNanos()
            spentNanos &+= now &- sliceStartNanos
            sliceStartNanos = now
        }
        if spentNanos > limitNanos { cancel(.budgetSpent) }
        return stopReason == .budgetSpent
    }

    private func problem(_ reason: StopReason) -> ProblemDetails {
        switch reason {
        case .budgetSpent:
            let limit = cpuLimitSeconds == cpuLimitSeconds.rounded() ? String(Int(cpuLimitSeconds)) : String(cpuLimitSeconds)
            return ProblemDetails(status: .serviceUnavailable, detail: "the request used its CPU budget of \(limit) s (\(limitName)) and was stopped; ask for less (a shorter span, fewer samples or bodies)")
                .with("limit", .string(limitName)).with("limitSeconds", .double(cpuLimitSeconds))
        case .clientGone:
            return ProblemDetails(status: .clientClosedRequest, detail: "the client closed the connection before the answer was ready")
        case .serverStopping:
            return ProblemDetails(status: .serviceUnavailable, detail: "the server is shutting down")
        }
    }

    /// Throws when the job running on this thread belongs to a request that should stop.
    public static func checkCurrent() throws(ProblemDetails) {
        try current?.check()
    }

    /// Why the job running on this thread should stop, or nil: what an `Interrupt` polls.
    public static func currentStopReason() -> (any Error)? {
        current?.stopProblem()
    }
}

/// CPU time of the calling thread, nanoseconds.
@inline(__always)
func threadCPUNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
