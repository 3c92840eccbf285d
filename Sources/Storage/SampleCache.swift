import Dispatch
import Foundation
import Logging
import Synchronization
import Zlib

/// The trajectory sample cache (`trajectory_cache`, `Migrations/0002`): flat `[Double]` series
/// stored as packed little-endian doubles under a `SampleCacheKey`, capped in bytes and evicted
/// least recently used first.
///
/// No call makes its caller wait on another connection's lock:
/// - `get` reads on its own connection (WAL lets it read while another connection or process
///   holds the write lock) with a short busy timeout; a read that still meets a lock answers nil,
///   counted as `busy`, so the caller computes the values.
/// - `put` only queues the row: a background writer (its own serial queue, the `database`
///   connection) stores queued rows in one transaction, records the reads' use times for the LRU
///   order and evicts down to the cap. A write that meets a lock is retried with backoff and then
///   dropped (`writesDropped`); so is a `put` beyond the queue's byte bound.
/// - `readiness` answers from the last background check (see `SampleCache+Readiness.swift`).
///
/// ```swift
/// let cache = SampleCache(database: db, configuration: .init(maxBytes: 256 << 20), logger: logger)
/// try cache.prune(dataHashes: ["apollo11": hash], engineVersion: "3")   // at start-up
/// if let values = try cache.get(key) { return values }
/// let values = engine.samples(...)          // x, y, z per sample, flattened
/// cache.put(key, values: values)            // returns at once
/// ```
///
/// A stored payload that cannot be a series of doubles (length not a multiple of 8, not a blob)
/// counts as a miss and is deleted. Other SQLite errors of a read are thrown: callers should log
/// them and compute the values, since the cache is only an optimisation.
public final class SampleCache: Sendable {
    public static let tableName = "trajectory_cache"
    /// The table of small bodies' integration chunks (migration 0004), the same columns.
    public static let smallBodyTableName = "small_body_chunks"
    /// The table this cache reads and writes (``tableName`` unless given).
    public let table: String

    /// Bytes counted for a row on top of its payload: its key in the row and in the primary-key
    /// index, the LRU index entry and the part-filled pages. Measured on 500 Cassini-sized rows
    /// (70–200 KB) under a 20 MiB cap: the file's used pages exceed the payloads by about 1 KiB
    /// per row.
    public static let rowOverheadBytes = 1024

    /// How the cache bounds itself and how long it waits.
    public struct Configuration: Sendable, Hashable {
        /// Cap on the stored bytes (payloads plus `rowOverheadBytes` per row); nil: no cap. The
        /// WAL beside the file is emptied whenever the writer falls idle and at `close`, so the
        /// files on disk stay within the cap plus a few pages; while batches are being written the
        /// WAL holds up to `maxBatchBytes` (or SQLite's 1000-page checkpoint interval) more.
        public var maxBytes: Int?
        /// Eviction goes down to this fraction of `maxBytes`, so that it does not run on every write.
        public var evictionTarget: Double
        /// How long any cache statement waits for a lock held by another connection.
        public var busyTimeout: Duration
        /// Tries a queued row gets before it is dropped, when the database stays locked.
        public var writeAttempts: Int
        /// Wait before the first retry of a locked write; doubled for each further one.
        public var retryDelay: Duration
        /// Bound on the payload bytes queued for the writer; a `put` beyond it is dropped.
        public var maxPendingBytes: Int
        /// Payload bytes the writer stores in one transaction (one row at least): bounds the WAL.
        public var maxBatchBytes: Int
        /// How long read times (the LRU order) wait in memory before a write carries them.
        public var touchDelay: Duration
        /// Period of the background write check behind `readiness`.
        public var readinessInterval: Duration

        public init(
            maxBytes: Int? = 256 << 20,
            evictionTarget: Double = 0.9,
            busyTimeout: Duration = .milliseconds(30),
            writeAttempts: Int = 3,
            retryDelay: Duration = .milliseconds(500),
            maxPendingBytes: Int = 32 << 20,
            maxBatchBytes: Int = 4 << 20,
            touchDelay: Duration = .seconds(1),
            readinessInterval: Duration = .seconds(5)
        ) {
            self.maxBytes = maxBytes
            self.evictionTarget = min(max(evictionTarget, 0), 1)
            self.busyTimeout = busyTimeout
            self.writeAttempts = max(writeAttempts, 1)
            self.retryDelay = retryDelay
            self.maxPendingBytes = maxPendingBytes
            self.maxBatchBytes = maxBatchBytes
            self.touchDelay = touchDelay
            self.readinessInterval = readinessInterval
        }
    }

    /// Counts since this cache object was created, and the stored size (for /metrics).
    public struct Statistics: Sendable, Hashable {
        public var hits = 0
        public var misses = 0
        /// Reads that met a lock past the busy timeout and answered nil (not counted as misses).
        public var busy = 0
        /// Rows deleted because their payload was malformed (also counted as misses).
        public var discarded = 0
        /// Rows whose payload failed its CRC-32 (damaged on disk): computed again, removed (also
        /// counted as misses).
        public var corrupt = 0
        /// Rows the writer stored.
        public var writes = 0
        /// Rows never stored: the database stayed locked, failed, the queue was full or the
        /// payload alone exceeded the cap.
        public var writesDropped = 0
        /// Rows evicted to keep under the cap.
        public var evictions = 0
        /// Stored bytes (payloads plus `rowOverheadBytes` per row) after the writer's last
        /// transaction.
        public var bytes = 0
        /// Stored rows after the writer's last transaction.
        public var rows = 0
        /// Payload bytes queued for the writer.
        public var pendingBytes = 0
    }

    /// The connection the writer, the readiness check, `prune` and `remove` use. Its busy timeout
    /// is set to `configuration.busyTimeout`; its owner closes it.
    public let database: Database
    public let configuration: Configuration

    /// The connection `get` and `count` use: a second one to the same file, or `database` itself
    /// for an in-memory database (which cannot have two).
    let reader: Database
    let logger: Logger?
    let state: Mutex<WriterState>
    let readinessState = Mutex(DatabaseReadiness())
    let writerQueue = DispatchQueue(label: "solarsystem.storage.sample-cache.writer", qos: .utility)
    let readinessTimer: Mutex<(any DispatchSourceTimer)?> = Mutex(nil)
    private let selectSlot = StatementSlot()

    static let keyClause =
        "mission = ? AND vehicle = ? AND samples = ? AND frame = ? AND data_hash = ? AND engine_version = ?"

    /// Sets `database`'s busy timeout, opens the read connection, and starts the writer (which
    /// first sums the stored bytes and evicts if they exceed the cap) and the readiness timer.
    /// Returns without waiting for either.
    public convenience init(database: Database, configuration: Configuration = Configuration(), table: String = SampleCache.tableName, logger: Logger? = nil) {
        var reader = database
        if !database.isInMemory {
            do {
                reader = try Database(path: database.path, busyTimeout: configuration.busyTimeout)
            } catch {
                logger?.warning("sample cache: no second connection for reads; reads share the writer's",
                                metadata: ["error": "\(error)", "path": "\(database.path)"])
            }
        }
        self.init(database: database, reader: reader, configuration: configuration, table: table, logger: logger)
    }

    /// `reader` is given: tests pass a connection to a rollback-journal file, where a writer's
    /// lock stops readers.
    init(database: Database, reader: Database, configuration: Configuration, table: String = SampleCache.tableName, logger: Logger? = nil) {
        self.table = table
        self.database = database
        self.reader = reader
        self.configuration = configuration
        self.logger = logger
        database.busyTimeout = configuration.busyTimeout
        // The start-up task counts as work until it has summed the stored bytes.
        state = Mutex(WriterState(activeTasks: 1))
        writerQueue.async { self.start() }
        startReadinessTimer()
    }

    deinit {
        readinessTimer.withLock { $0?.cancel() }
    }

    public var statistics: Statistics {
        state.withLock { s in
            var counters = s.counters
            counters.pendingBytes = s.pendingBytes
            return counters
        }
    }

    // MARK: - Reading

    /// The values stored under `key`, or nil: a miss, or a read that met a lock (`busy`). A row
    /// still queued for the writer is answered from memory.
    public func get(_ key: SampleCacheKey, now: Date = Date()) throws -> [Double]? {
        if let queued = state.withLock({ $0.pending[key]?.payload }) {
            // A queued payload is packed from doubles here, so it always unpacks.
            let values = PackedDoubles.unpack(queued)
            state.withLock { s in
                if values != nil { s.counters.hits += 1 } else { s.counters.misses += 1 }
            }
            return values
        }

        enum Lookup { case absent, malformed, corrupt(stored: Int64), found([Double]) }
        let lookup: Lookup
        do {
            lookup = try reader.perform { db in
                let statement = try selectSlot.statement(db,
                    sql: "SELECT payload, payload_crc32 FROM \(table) WHERE \(Self.keyClause)")
                // Reset at once so the statement does not hold a read snapshot (which would pin the WAL).
                defer { try? statement.reset() }
                try statement.bind(key.arguments)
                guard try statement.step() else { return .absent }
                guard statement.columnType(at: 0) == .blob else { return .malformed }
                // The bytes must be the ones stored: their CRC-32 is checked before they are read
                // as doubles (a damaged page would otherwise be served as immutable truth).
                let stored = statement.int64(at: 1)
                guard statement.withBlob(at: 0, { Int64(CRC32.update(0, $0)) }) == stored else { return .corrupt(stored: stored) }
                guard let values = statement.withBlob(at: 0, PackedDoubles.unpack) ?? nil else { return .malformed }
                return .found(values)
            }
        } catch let error as StorageError where error.isBusy {
            state.withLock { $0.counters.busy += 1 }
            return nil
        }

        switch lookup {
        case .found(let values):
            let touched = state.withLock { $0.recordHit(key, at: Self.microseconds(now)) }
            if touched { scheduleDrain(after: configuration.touchDelay) }
            return values
        case .absent:
            state.withLock { $0.counters.misses += 1 }
            return nil
        case .malformed:
            state.withLock { s in
                s.counters.misses += 1
                s.counters.discarded += 1
                s.enqueueMalformedRemoval(key)
            }
            scheduleDrain(after: .zero)
            return nil
        case .corrupt(let stored):
            state.withLock { s in
                s.counters.misses += 1
                s.counters.corrupt += 1
                s.enqueueCorruptRemoval(key, stored: stored)
            }
            logger?.warning("sample cache: a stored payload failed its checksum; it is computed again and the row removed", metadata: [
                "mission": "\(key.mission)", "vehicle": "\(key.vehicle)", "samples": .stringConvertible(key.samples), "frame": "\(key.frame)",
            ])
            scheduleDrain(after: .zero)
            return nil
        }
    }

    /// Number of stored rows (rows still queued are not counted).
    public func count() throws -> Int {
        Int(try reader.query("SELECT count(*) FROM \(table)").first?[0].int64 ?? 0)
    }

    // MARK: - Writing

    /// Queues `values` to be stored under `key` (replacing any previous row) and returns at once.
    /// False when the row is dropped instead: the queue holds `maxPendingBytes` already, or the
    /// row alone exceeds `maxBytes`.
    @discardableResult
    public func put(_ key: SampleCacheKey, values: [Double], now: Date = Date()) -> Bool {
        let payload = PackedDoubles.pack(values)
        let accepted = state.withLock { s -> Bool in
            if let cap = configuration.maxBytes, Self.storedBytes(payloadCount: payload.count) > cap {
                s.counters.writesDropped += 1
                return false
            }
            return s.enqueue(key, payload: payload, lastUsed: Self.microseconds(now), createdAt: now,
                             maxPendingBytes: configuration.maxPendingBytes)
        }
        if accepted { scheduleDrain(after: .zero) }
        return accepted
    }

    /// Deletes the row under `key`, if any, and forgets a queued one. Runs on the writer's queue
    /// and waits for it: for maintenance, not for the request path.
    public func remove(_ key: SampleCacheKey) throws {
        try writerQueue.sync {
            state.withLock { $0.discard { $0 == key } }
            try database.execute("DELETE FROM \(table) WHERE \(Self.keyClause)", arguments: key.arguments)
            try refreshTotals()
            truncateWAL()
        }
    }

    /// Empties the cache and its queue (the counters are kept). Waits like `remove`.
    public func removeAll() throws {
        try writerQueue.sync {
            state.withLock { $0.discard { _ in true } }
            try database.execute("DELETE FROM \(table)")
            try refreshTotals()
            truncateWAL()
        }
    }

    /// Stops the readiness checks, gives queued writes up to `timeout` to land, closes the read
    /// connection and empties the WAL (`database` stays open: its owner closes it). True when
    /// nothing was left queued.
    @discardableResult
    public func close(timeout: Duration = .seconds(2)) -> Bool {
        readinessTimer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        let drained = waitForPendingWrites(timeout: timeout)
        if reader !== database { reader.close() }
        // With the reader closed no snapshot holds the WAL's pages: this one truncates it.
        writerQueue.sync { truncateWAL() }
        return drained
    }

    // MARK: - Sizes and times

    /// What a row with a payload of `payloadCount` bytes counts against the cap.
    static func storedBytes(payloadCount: Int) -> Int { payloadCount + rowOverheadBytes }

    /// `last_used` units: microseconds since 1970.
    static func microseconds(_ date: Date) -> Int64 {
        let us = (date.timeIntervalSince1970 * 1e6).rounded(.down)
        return us.isFinite && abs(us) < 9e18 ? Int64(us) : 0
    }
}

/// A statement compiled on first use and kept. Only touched inside its connection's `perform`,
/// which serialises every use.
final class StatementSlot: @unchecked Sendable {
    private var compiled: Statement?

    func statement(_ db: Database, sql: String) throws -> Statement {
        if let compiled { return compiled }
        let statement = try db.prepare(sql)
        compiled = statement
        return statement
    }
}
