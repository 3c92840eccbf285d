import Dispatch
import Foundation

/// What the last background write check found: whether the cache's database took a write lock
/// (`BEGIN IMMEDIATE` and `ROLLBACK`, with the cache's short busy timeout) and when.
///
/// ```swift
/// let r = cache.readiness                    // never waits
/// if r.state == .ok, let age = r.age(), age < 15 { … }
/// ```
public struct DatabaseReadiness: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        /// No check has finished yet.
        case unknown
        /// The database took the write lock.
        case ok
        /// Another connection held the write lock past the busy timeout.
        case busy
        /// Any other failure (read-only file, full disk, closed connection), described.
        case failed(String)
    }

    public var state: State = .unknown
    /// When the last check finished.
    public var checkedAt: Date?
    /// When a check last found the database writable.
    public var lastSuccess: Date?
    /// What the writer's last batch met, if it failed (a full disk, a read-only file): the lock
    /// check succeeds on a full disk, so only a write shows it. Nil once a batch commits.
    public var lastWriteFailure: String?

    public init(state: State = .unknown, checkedAt: Date? = nil, lastSuccess: Date? = nil, lastWriteFailure: String? = nil) {
        self.state = state
        self.checkedAt = checkedAt
        self.lastSuccess = lastSuccess
        self.lastWriteFailure = lastWriteFailure
    }

    /// Seconds since the last check finished; nil before the first.
    public func age(now: Date = Date()) -> TimeInterval? {
        checkedAt.map { now.timeIntervalSince($0) }
    }
}

extension SampleCache {
    /// The last write check's result. Never waits: a timer on a utility queue refreshes it every
    /// `configuration.readinessInterval`, starting when the cache is created.
    public var readiness: DatabaseReadiness { readinessState.withLock { $0 } }

    /// Whether the last check found the database writable and is recent (at most three check
    /// periods old, so a check stuck behind a long write reads as not ready), and the writer's
    /// last batch did not fail. Never waits.
    public func isWritable(now: Date = Date()) -> Bool {
        let r = readiness
        guard r.state == .ok, r.lastWriteFailure == nil, let age = r.age(now: now) else { return false }
        return age <= max(3 * configuration.readinessInterval.seconds, 1)
    }

    /// Runs the write check now on the caller's thread (waiting up to the busy timeout, and for
    /// the writer connection if a batch is being written), records and returns it. The timer
    /// calls this; tests and start-up may too.
    @discardableResult
    public func checkReadiness(now: () -> Date = { Date() }) -> DatabaseReadiness {
        let state: DatabaseReadiness.State
        do {
            try database.checkWritable()
            state = .ok
        } catch let error as StorageError where error.isBusy {
            state = .busy
        } catch {
            state = .failed("\(error)")
        }
        let finished = now()
        return readinessState.withLock { r in
            r.state = state
            r.checkedAt = finished
            if state == .ok { r.lastSuccess = finished }
            return r
        }
    }

    /// Keeps what a batch met for `isWritable`: a failure until a later batch commits. A lock
    /// (busy) says nothing about the disk and is the lock check's to report.
    func recordWriteOutcome(_ outcome: BatchOutcome) {
        switch outcome {
        case .committed: readinessState.withLock { $0.lastWriteFailure = nil }
        case .failed(let error): readinessState.withLock { $0.lastWriteFailure = "\(error)" }
        case .busy: break
        }
    }

    func startReadinessTimer() {
        let period = max(configuration.readinessInterval.seconds, 0.01)
        readinessTimer.withLock { slot in
            let timer = DispatchSource.makeTimerSource(
                queue: DispatchQueue(label: "solarsystem.storage.sample-cache.readiness", qos: .utility))
            timer.schedule(deadline: .now(), repeating: period, leeway: .milliseconds(Int(period * 100)))
            timer.setEventHandler { [weak self] in self?.checkReadiness() }
            timer.resume()
            slot = timer
        }
    }
}
