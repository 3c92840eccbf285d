import Foundation

/// The trajectory sample cache (`trajectory_cache`, created by `Migrations/0001`): flat `[Double]`
/// series stored as packed little-endian doubles under a `SampleCacheKey`. Thread-safe: every
/// call runs on the database connection's queue, and the hit/miss counters are locked.
///
/// ```swift
/// let cache = SampleCache(database: db)
/// if let values = try cache.get(key) { return values }
/// let values = engine.samples(...)          // x, y, z per sample, flattened
/// try cache.put(key, values: values)
/// ```
///
/// A stored payload that cannot be a series of doubles (length not a multiple of 8, not a blob)
/// counts as a miss and is deleted. SQLite errors are thrown: callers should log them and compute
/// the values, since the cache is only an optimisation.
public final class SampleCache: @unchecked Sendable {
    public static let tableName = "trajectory_cache"

    /// Hit, miss and discarded-row counts since this cache object was created (for /metrics).
    public struct Statistics: Sendable, Hashable {
        public var hits = 0
        public var misses = 0
        /// Rows deleted because their payload was malformed (also counted as misses).
        public var discarded = 0
    }

    public let database: Database

    private let lock = NSLock()
    private var counters = Statistics()

    // Compiled once, used only inside `database.perform` (the connection's queue).
    private var selectStatement: Statement?
    private var upsertStatement: Statement?

    private static let keyClause =
        "mission = ? AND vehicle = ? AND samples = ? AND frame = ? AND data_hash = ? AND engine_version = ?"

    public init(database: Database) {
        self.database = database
    }

    public var statistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return counters
    }

    /// The values stored under `key`, or nil (a miss).
    public func get(_ key: SampleCacheKey) throws -> [Double]? {
        enum Lookup { case absent, malformed, found([Double]) }
        let lookup: Lookup = try database.perform { db in
            let statement = try cached(\.selectStatement, db: db,
                sql: "SELECT payload FROM \(Self.tableName) WHERE \(Self.keyClause)")
            // Reset at once so the statement does not hold a read snapshot (which would pin the WAL).
            defer { try? statement.reset() }
            try statement.bind(key.arguments)
            guard try statement.step() else { return .absent }
            guard statement.columnType(at: 0) == .blob,
                  let values = statement.withBlob(at: 0, PackedDoubles.unpack) ?? nil
            else { return .malformed }
            return .found(values)
        }
        switch lookup {
        case .found(let values):
            record { $0.hits += 1 }
            return values
        case .absent:
            record { $0.misses += 1 }
            return nil
        case .malformed:
            // Only the malformed row: a valid one written meanwhile by another connection stays.
            try database.execute(
                "DELETE FROM \(Self.tableName) WHERE \(Self.keyClause) "
                    + "AND (typeof(payload) != 'blob' OR length(payload) % 8 != 0)",
                arguments: key.arguments
            )
            record {
                $0.misses += 1
                $0.discarded += 1
            }
            return nil
        }
    }

    /// Stores `values` under `key`, replacing any previous row.
    public func put(_ key: SampleCacheKey, values: [Double], now: Date = Date()) throws {
        let payload = PackedDoubles.pack(values)
        try database.perform { db in
            let statement = try cached(\.upsertStatement, db: db, sql: """
                INSERT OR REPLACE INTO \(Self.tableName)
                    (mission, vehicle, samples, frame, data_hash, engine_version, payload, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            defer { try? statement.reset() }
            try statement.bind(key.arguments + [.blob(payload), .text(UTCTimestamp.iso8601(now))])
            try statement.step()
        }
    }

    /// Deletes the row under `key`, if any.
    public func remove(_ key: SampleCacheKey) throws {
        try database.execute("DELETE FROM \(Self.tableName) WHERE \(Self.keyClause)", arguments: key.arguments)
    }

    /// Number of cached series.
    public func count() throws -> Int {
        Int(try database.query("SELECT count(*) FROM \(Self.tableName)").first?[0].int64 ?? 0)
    }

    /// Empties the cache (the counters are kept).
    public func removeAll() throws {
        try database.execute("DELETE FROM \(Self.tableName)")
    }

    /// The statement in `slot`, compiled on first use. Call inside `database.perform`.
    private func cached(
        _ slot: ReferenceWritableKeyPath<SampleCache, Statement?>, db: Database, sql: String
    ) throws -> Statement {
        if let statement = self[keyPath: slot] { return statement }
        let statement = try db.prepare(sql)
        self[keyPath: slot] = statement
        return statement
    }

    private func record(_ change: (inout Statistics) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&counters)
    }
}
