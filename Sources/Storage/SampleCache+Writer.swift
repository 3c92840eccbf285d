import Dispatch
import Foundation
import Zlib

/// A row waiting for the writer.
struct PendingWrite: Sendable {
    enum Operation: Sendable {
        case store([UInt8])
        /// Delete the row if its payload is still malformed (a valid row written meanwhile by
        /// another connection stays).
        case removeIfMalformed
        /// Delete the row if its payload still has this checksum mismatch: stored checksum, as
        /// read (a row rewritten meanwhile, with another checksum, stays).
        case removeIfChecksum(Int64)
    }

    var operation: Operation
    /// `last_used` of the stored row, microseconds since 1970.
    var lastUsed: Int64
    var createdAt: Date
    /// Order of arrival: a newer `put` of the same key replaces this one, and the writer only
    /// forgets the version it stored.
    var sequence: UInt64
    var attempts = 0

    var payload: [UInt8]? {
        if case .store(let payload) = operation { return payload }
        return nil
    }

    var payloadCount: Int { payload?.count ?? 0 }
}

/// One transaction's worth of work, taken from the queue.
struct WriteBatch: Sendable {
    var items: [(key: SampleCacheKey, write: PendingWrite)]
    var touches: [SampleCacheKey: Int64]
}

/// What a committed batch left in the table.
struct CommittedBatch: Sendable {
    var rows: Int
    var bytes: Int
    var evicted: Int
}

enum BatchOutcome {
    case committed(CommittedBatch)
    case busy(StorageError)
    case failed(any Error)
}

/// Everything the request path and the writer share, behind `SampleCache.state`.
struct WriterState {
    var counters = SampleCache.Statistics()
    var pending: [SampleCacheKey: PendingWrite] = [:]
    var pendingBytes = 0
    /// Read times of hit rows, not yet written (bounded by `maxTouches`).
    var touches: [SampleCacheKey: Int64] = [:]
    var sequence: UInt64 = 0
    /// The start-up task and a batch being written.
    var activeTasks: Int
    /// When the queued drain runs, if one is queued.
    var drainAt: DispatchTime?
    /// While set, the database was locked and nothing is written before then.
    var retryAt: DispatchTime?
    /// The stored bytes exceed the cap with nothing queued (the cap was lowered): evict anyway.
    var needsEviction = false
    /// Something was written since the WAL was last truncated (see `checkpointIfIdle`).
    var checkpointDue = false
    var idleWaiters: [DispatchSemaphore] = []

    /// Read times kept for the writer; more hits before it runs are counted but not recorded.
    static let maxTouches = 4096

    init(activeTasks: Int) {
        self.activeTasks = activeTasks
    }

    var isIdle: Bool {
        pending.isEmpty && touches.isEmpty && activeTasks == 0 && retryAt == nil && !needsEviction && !checkpointDue
    }

    /// Nothing left to write: the WAL can be truncated.
    var isDoneWriting: Bool {
        pending.isEmpty && touches.isEmpty && activeTasks == 0 && retryAt == nil && !needsEviction
    }

    mutating func signalIfIdle() {
        guard isIdle, !idleWaiters.isEmpty else { return }
        for waiter in idleWaiters { waiter.signal() }
        idleWaiters.removeAll()
    }

    mutating func enqueue(_ key: SampleCacheKey, payload: [UInt8], lastUsed: Int64, createdAt: Date, maxPendingBytes: Int) -> Bool {
        let replaced = pending[key]?.payloadCount ?? 0
        guard pendingBytes - replaced + payload.count <= maxPendingBytes else {
            counters.writesDropped += 1
            return false
        }
        sequence += 1
        pending[key] = PendingWrite(operation: .store(payload), lastUsed: lastUsed, createdAt: createdAt, sequence: sequence)
        pendingBytes += payload.count - replaced
        touches[key] = nil
        return true
    }

    /// Counts a hit and keeps its time for the LRU order; true when the time was kept.
    mutating func recordHit(_ key: SampleCacheKey, at time: Int64) -> Bool {
        counters.hits += 1
        guard touches.count < Self.maxTouches || touches[key] != nil else { return false }
        touches[key] = max(touches[key] ?? time, time)
        return true
    }

    mutating func enqueueMalformedRemoval(_ key: SampleCacheKey) {
        enqueueRemoval(key, .removeIfMalformed)
    }

    /// The row under `key` failed its checksum (`stored` is the checksum it carries): delete it.
    mutating func enqueueCorruptRemoval(_ key: SampleCacheKey, stored: Int64) {
        enqueueRemoval(key, .removeIfChecksum(stored))
    }

    private mutating func enqueueRemoval(_ key: SampleCacheKey, _ operation: PendingWrite.Operation) {
        guard pending[key] == nil else { return }
        sequence += 1
        pending[key] = PendingWrite(operation: operation, lastUsed: 0, createdAt: Date(), sequence: sequence)
        touches[key] = nil
    }

    /// Forgets queued rows and read times whose key matches.
    mutating func discard(where matches: (SampleCacheKey) -> Bool) {
        for key in pending.keys where matches(key) { forget(key) }
        for key in touches.keys where matches(key) { touches[key] = nil }
        signalIfIdle()
    }

    private mutating func forget(_ key: SampleCacheKey) {
        guard let write = pending.removeValue(forKey: key) else { return }
        pendingBytes -= write.payloadCount
    }

    /// The oldest queued rows up to `maxBytes` of payload (one at least) and every read time;
    /// nil when there is nothing to do or a retry is not due yet.
    mutating func takeBatch(maxBytes: Int, now: DispatchTime) -> WriteBatch? {
        drainAt = nil
        if let retryAt {
            guard now >= retryAt else { return nil }
            self.retryAt = nil
        }
        guard !pending.isEmpty || !touches.isEmpty || needsEviction else {
            signalIfIdle()
            return nil
        }
        var items: [(key: SampleCacheKey, write: PendingWrite)] = []
        var bytes = 0
        for (key, write) in pending.sorted(by: { $0.value.sequence < $1.value.sequence }) {
            if !items.isEmpty, bytes + write.payloadCount > maxBytes { break }
            items.append((key, write))
            bytes += write.payloadCount
        }
        let batch = WriteBatch(items: items, touches: touches)
        touches = [:]
        needsEviction = false
        activeTasks += 1
        return batch
    }

    /// Settles a batch: forgets what was stored, counts tries and drops, and returns when to
    /// retry (nil: no retry needed) and how many rows were dropped.
    mutating func finish(
        _ batch: WriteBatch, _ outcome: BatchOutcome, configuration: SampleCache.Configuration, now: DispatchTime
    ) -> (retryAt: DispatchTime?, dropped: Int) {
        activeTasks -= 1
        defer { signalIfIdle() }
        // Only the versions this batch carried: a newer put of the same key stays queued.
        let current = batch.items.filter { pending[$0.key]?.sequence == $0.write.sequence }
        var dropped = 0
        switch outcome {
        case .committed(let result):
            checkpointDue = true
            for item in current { forget(item.key) }
            counters.writes += current.count { $0.write.payload != nil }
            counters.evictions += result.evicted
            counters.bytes = result.bytes
            counters.rows = result.rows
            return (nil, 0)
        case .busy:
            // Read times are hints: they are not retried.
            var tries = 0
            for item in current {
                pending[item.key]?.attempts += 1
                let attempts = pending[item.key]?.attempts ?? 0
                if attempts >= configuration.writeAttempts {
                    forget(item.key)
                    if item.write.payload != nil { dropped += 1 }
                } else {
                    tries = max(tries, attempts)
                }
            }
            counters.writesDropped += dropped
            guard tries > 0 else { return (nil, dropped) }
            // Backoff: retryDelay after the first try, doubled after each further one.
            let at = now + configuration.retryDelay.seconds * Double(1 << min(tries - 1, 4))
            retryAt = at
            return (at, dropped)
        case .failed:
            for item in current {
                forget(item.key)
                if item.write.payload != nil { dropped += 1 }
            }
            counters.writesDropped += dropped
            return (nil, dropped)
        }
    }
}

extension SampleCache {
    /// Waits until the writer has nothing queued, nothing in flight and no retry pending (rows
    /// that kept meeting a lock are dropped by then); read times are written at once rather than
    /// after `touchDelay`. True when idle within `timeout`. For tests, benchmarks and shutdown.
    @discardableResult
    public func waitForPendingWrites(timeout: Duration = .seconds(10)) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let idle = state.withLock { s -> Bool in
            if s.isIdle { return true }
            s.idleWaiters.append(semaphore)
            return false
        }
        if idle { return true }
        writerQueue.async { self.drain() }
        return semaphore.wait(timeout: .now() + timeout.seconds) == .success
    }

    /// Queues a drain of the writer after `delay` unless one is due sooner or a retry is waiting.
    func scheduleDrain(after delay: Duration) {
        let deadline = DispatchTime.now() + delay.seconds
        let schedule = state.withLock { s -> Bool in
            if s.retryAt != nil { return false }
            if let at = s.drainAt, at <= deadline { return false }
            s.drainAt = deadline
            return true
        }
        if schedule { writerQueue.asyncAfter(deadline: deadline) { self.drain() } }
    }

    /// Writes batches until the queue is empty or the database is locked. On the writer's queue.
    func drain() {
        while let batch = state.withLock({ $0.takeBatch(maxBytes: configuration.maxBatchBytes, now: .now()) }) {
            let outcome: BatchOutcome
            do {
                outcome = .committed(try write(batch))
            } catch let error as StorageError where error.isBusy {
                outcome = .busy(error)
            } catch {
                outcome = .failed(error)
            }
            // Before `finish`, which may wake `waitForPendingWrites`: a waiter then sees it.
            recordWriteOutcome(outcome)
            let (retryAt, dropped) = state.withLock { $0.finish(batch, outcome, configuration: configuration, now: .now()) }
            switch outcome {
            case .committed: break
            case .busy(let error):
                if dropped > 0 {
                    logger?.warning("sample cache: rows dropped, the database stayed locked",
                                    metadata: ["rows": "\(dropped)", "error": "\(error)"])
                }
            case .failed(let error):
                logger?.warning("sample cache: write failed; rows dropped",
                                metadata: ["rows": "\(dropped)", "error": "\(error)"])
            }
            if let retryAt {
                writerQueue.asyncAfter(deadline: retryAt) { self.drain() }
                return
            }
        }
        checkpointIfIdle()
    }

    /// Truncates the WAL once the writer has nothing left to do. `journal_size_limit` only trims
    /// it to its limit after a checkpoint, so without this the `-wal` file kept a batch's pages
    /// (4.8 MB beside a 20 MB cap), also after shutdown. Until the checkpoint has run the writer
    /// does not count as idle, so `waitForPendingWrites` returns after it. On the writer's queue.
    func checkpointIfIdle() {
        guard state.withLock({ $0.checkpointDue && $0.isDoneWriting }) else { return }
        truncateWAL()
        state.withLock { s in
            s.checkpointDue = false
            s.signalIfIdle()
        }
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`: copies the WAL into the database and empties it, unless
    /// a reader still needs its pages (then it stays for the next one). Never throws: the cache
    /// works without it. On the writer's queue.
    func truncateWAL() {
        guard !database.isInMemory else { return }
        do {
            let busy = try database.query("PRAGMA wal_checkpoint(TRUNCATE)").first?[0].int64 ?? 0
            if busy != 0 { logger?.debug("sample cache: the WAL is in use; truncated at the next checkpoint") }
        } catch {
            logger?.debug("sample cache: WAL checkpoint failed", metadata: ["error": "\(error)"])
        }
    }

    /// One transaction: read times, malformed-row removals, eviction down to the cap (making
    /// room for the incoming rows first, so their pages come from the freed ones), the rows.
    func write(_ batch: WriteBatch) throws -> CommittedBatch {
        try database.transaction { db in
            if !batch.touches.isEmpty {
                let touch = try db.prepare(
                    "UPDATE \(table) SET last_used = max(last_used, ?) WHERE \(Self.keyClause)")
                defer { touch.finalize() }
                for (key, time) in batch.touches {
                    try touch.bind([.integer(time)] + key.arguments)
                    try touch.step()
                    try touch.reset()
                }
            }
            for item in batch.items where item.write.payload == nil {
                switch item.write.operation {
                case .removeIfChecksum(let stored):
                    try db.execute("DELETE FROM \(table) WHERE \(Self.keyClause) AND payload_crc32 = ?",
                                   arguments: item.key.arguments + [.integer(stored)])
                default:
                    try db.execute(
                        "DELETE FROM \(table) WHERE \(Self.keyClause) "
                            + "AND (typeof(payload) != 'blob' OR length(payload) % 8 != 0)",
                        arguments: item.key.arguments)
                }
            }
            let stores = batch.items.compactMap { item in item.write.payload.map { (item.key, item.write, $0) } }
            let incoming = stores.reduce(0) { $0 + Self.storedBytes(payloadCount: $1.2.count) }
            let stored = try totals(db)
            var evicted = 0
            if let cap = configuration.maxBytes, stored.bytes + incoming > cap {
                let goal = Int(Double(cap) * configuration.evictionTarget)
                evicted = try evict(db, atLeast: stored.bytes + incoming - goal)
            }
            if !stores.isEmpty {
                let upsert = try db.prepare("""
                    INSERT OR REPLACE INTO \(table)
                        (mission, vehicle, samples, frame, data_hash, engine_version, bytes, last_used, created_at, payload_crc32, payload)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                defer { upsert.finalize() }
                for (key, write, payload) in stores {
                    try upsert.bind(key.arguments + [
                        .integer(Int64(Self.storedBytes(payloadCount: payload.count))), .integer(write.lastUsed),
                        .text(UTCTimestamp.iso8601(write.createdAt)), .integer(Int64(CRC32.checksum(payload))), .blob(payload),
                    ])
                    try upsert.step()
                    try upsert.reset()
                }
            }
            let after = try totals(db)
            return CommittedBatch(rows: after.rows, bytes: after.bytes, evicted: evicted)
        }
    }

    /// Deletes the least recently used rows until they add up to `atLeast` bytes (or none are
    /// left); returns how many. Reads only the LRU index.
    func evict(_ db: Database, atLeast excess: Int) throws -> Int {
        var victims: [Int64] = []
        var freed = 0
        let scan = try db.prepare("SELECT rowid, bytes FROM \(table) ORDER BY last_used")
        defer { scan.finalize() }
        while freed < excess, try scan.step() {
            victims.append(scan.int64(at: 0))
            freed += scan.int(at: 1)
        }
        try scan.reset()
        let delete = try db.prepare("DELETE FROM \(table) WHERE rowid = ?")
        defer { delete.finalize() }
        for rowid in victims {
            try delete.bind([.integer(rowid)])
            try delete.step()
            try delete.reset()
        }
        return victims.count
    }

    /// Rows and stored bytes, from the LRU index.
    func totals(_ db: Database) throws -> (rows: Int, bytes: Int) {
        let row = try db.query("SELECT count(*), total(bytes) FROM \(table)").first
        return (Int(row?[0].int64 ?? 0), Int(row?[1].double ?? 0))
    }

    /// Re-reads the totals into the statistics. On the writer's queue.
    func refreshTotals() throws {
        let stored = try totals(database)
        state.withLock { s in
            s.counters.rows = stored.rows
            s.counters.bytes = stored.bytes
        }
    }

    /// The writer's first task: bound the WAL, sum the stored bytes, evict if the cap was lowered.
    func start() {
        if !database.isInMemory {
            do {
                // Bounds the WAL while batches follow each other (it restarts after each
                // checkpoint); `checkpointIfIdle` empties it when they stop.
                try database.execute("PRAGMA journal_size_limit = \(max(configuration.maxBatchBytes, 4 << 20))")
            } catch {
                logger?.warning("sample cache: cannot limit the WAL size", metadata: ["error": "\(error)"])
            }
        }
        var overCap = false
        do {
            let stored = try totals(database)
            overCap = configuration.maxBytes.map { stored.bytes > $0 } ?? false
            state.withLock { s in
                s.counters.rows = stored.rows
                s.counters.bytes = stored.bytes
            }
        } catch {
            logger?.warning("sample cache: cannot read the stored size", metadata: ["error": "\(error)"])
        }
        state.withLock { s in
            s.activeTasks -= 1
            if overCap { s.needsEviction = true }
            // A WAL left by a process that did not close the file is truncated too.
            s.checkpointDue = !database.isInMemory
            s.signalIfIdle()
        }
        drain()
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch deadlines.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
