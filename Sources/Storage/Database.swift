import CSQLite
import Dispatch
import Foundation
import Synchronization

/// One SQLite connection. Opened with `SQLITE_OPEN_NOMUTEX` (SQLite's own mutexes off): the
/// connection owns one serial `DispatchQueue` and every call (including `Statement` calls and
/// finalisation) runs on it, which is what makes the class `Sendable`. Calls made from inside
/// `perform` or `transaction` are already on the queue and run directly.
///
/// Files are opened in WAL mode with `synchronous=NORMAL`, `foreign_keys=ON` and a busy timeout,
/// so several connections (or processes) can read while one writes.
///
/// ```swift
/// let db = try Database(path: "/var/lib/solarsystem/cache.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS t(k TEXT PRIMARY KEY, v REAL)")
/// try db.transaction { db in
///     try db.execute("INSERT OR REPLACE INTO t VALUES (?, ?)", arguments: ["pi", 3.14159])
/// }
/// let v = try db.query("SELECT v FROM t WHERE k = ?", arguments: ["pi"]).first?[0].double
/// db.close()
/// ```
///
/// Use `Database.open(path:logger:)` at start-up instead of `init` to move a corrupt file aside
/// and start afresh (see `Database+Recovery.swift`).
public final class Database: @unchecked Sendable {
    /// The path given at open (`:memory:` for an in-memory database).
    public let path: String

    // Only touched on `queue`.
    private var handle: OpaquePointer?
    private var currentBusyTimeout: Duration
    private var savepointCounter = 0

    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<Bool>()
    /// The thread running a block on `queue` (0: none). `queueKey` answers only for the queue
    /// the caller is on: a call nested in this connection's block through another queue's `sync`
    /// sees that queue, would wait for its own queue and never return. The thread tells it apart.
    private let queueThread = Atomic<UInt>(0)

    /// The default busy timeout.
    public static let defaultBusyTimeout: Duration = .seconds(5)

    /// Opens (creating it and its parent directory if needed) the database at `path` and applies
    /// the connection pragmas. Throws `StorageError` for anything SQLite refuses, including a
    /// file that is not a database (`isCorruption`); this initialiser never moves files.
    public convenience init(path: String, busyTimeout: Duration = Database.defaultBusyTimeout) throws {
        try self.init(path: path, busyTimeout: busyTimeout, writeAheadLog: true)
    }

    /// `writeAheadLog: false` keeps SQLite's rollback journal, where a writer's lock also stops
    /// readers: only tests use it, to make a read meet a lock.
    init(path: String, busyTimeout: Duration, writeAheadLog: Bool) throws {
        self.path = path
        self.currentBusyTimeout = busyTimeout
        self.queue = DispatchQueue(label: "solarsystem.storage.connection")
        queue.setSpecific(key: queueKey, value: true)

        if !isInMemory {
            let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw StorageError(code: SQLITE_CANTOPEN, message: "cannot create directory \(parent.path): \(error)", path: path)
            }
        }

        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        guard rc == SQLITE_OK, let opened else {
            // SQLite may hand back a handle even on failure; it carries the message and must be closed.
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(opened)
            throw StorageError(code: rc, message: message, path: path)
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, Self.milliseconds(busyTimeout))

        // On failure from here `deinit` closes the handle (the object is fully initialised).
        if !isInMemory, writeAheadLog {
            // journal_mode=WAL reads the header, so a non-database file fails here with SQLITE_NOTADB.
            try execute("PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit {
        // Statements hold a strong reference to their database, so none is alive here and nothing
        // else can be using the handle.
        if let handle { sqlite3_close_v2(handle) }
    }

    /// How long a call waits for another connection's lock before failing with `SQLITE_BUSY`.
    /// Setting it applies to the next call.
    ///
    /// ```swift
    /// db.busyTimeout = .milliseconds(30) // fail fast: the caller has something better to do
    /// ```
    public var busyTimeout: Duration {
        get { onQueue { currentBusyTimeout } }
        set {
            onQueue {
                currentBusyTimeout = newValue
                if let handle { sqlite3_busy_timeout(handle, Self.milliseconds(newValue)) }
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Whether this is an in-memory database (no file, no WAL, no recovery).
    public var isInMemory: Bool { path == ":memory:" || path.isEmpty }

    /// Whether `close()` has not been called yet.
    public var isOpen: Bool { onQueue { handle != nil } }

    /// Closes the connection. Idempotent. Later calls throw `SQLITE_MISUSE`; statements still alive
    /// become unusable and are finalised when they are released (`sqlite3_close_v2`).
    public func close() {
        onQueue {
            guard let h = handle else { return }
            handle = nil
            sqlite3_close_v2(h)
        }
    }

    // MARK: - Serial queue

    /// Runs `body` on the connection's queue (directly if already there). A call from inside the
    /// connection's own block by way of another queue's `sync` would deadlock: it stops with a
    /// precondition instead, as GRDB's `SerializedDatabase.sync` does ("not reentrant").
    @inline(__always)
    func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: queueKey) == true { return try body() }
        // Only a thread itself stores its id, so a relaxed load sees it if it is there.
        precondition(queueThread.load(ordering: .relaxed) != Self.currentThread,
                     "Database \(path): called from inside its own queue through another queue's sync; this would deadlock")
        return try queue.sync {
            queueThread.store(Self.currentThread, ordering: .relaxed)
            defer { queueThread.store(0, ordering: .relaxed) }
            return try body()
        }
    }

    /// The calling thread's id, for `queueThread`.
    private static var currentThread: UInt {
        UInt(pthread_self())
    }

    /// Runs `body` with exclusive use of the connection: no other thread's call on this
    /// `Database` interleaves with it. Use it to make a bind/step/read sequence on a shared
    /// `Statement` atomic.
    ///
    /// ```swift
    /// let n = try db.perform { db in try db.query("SELECT count(*) FROM t")[0][0].int64 ?? 0 }
    /// ```
    public func perform<T>(_ body: (Database) throws -> T) rethrows -> T {
        try onQueue { try body(self) }
    }

    /// The open handle, or `SQLITE_MISUSE` once closed. Call on the queue.
    func connection(sql: String? = nil) throws -> OpaquePointer {
        guard let handle else { throw StorageError.misuse("database is closed", sql: sql, path: path) }
        return handle
    }

    /// The error for a failed call, with `sqlite3_errmsg` read on the queue right after it.
    func error(_ rc: Int32, sql: String?) -> StorageError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return StorageError(code: rc, message: message, sql: sql, path: nil)
    }

    // MARK: - Statements

    /// Compiles one SQL statement. More than one statement in `sql` is an error (use `execute`).
    ///
    /// ```swift
    /// let s = try db.prepare("SELECT name FROM t WHERE id = ?")
    /// try s.bind(42, at: 1)
    /// while try s.step() { print(s.string(at: 0) ?? "-") }
    /// ```
    public func prepare(_ sql: String) throws -> Statement {
        try onQueue {
            let h = try connection(sql: sql)
            var statement: OpaquePointer?
            var extra: OpaquePointer?
            var tailRC = SQLITE_OK
            try sql.withCString { start in
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(h, start, -1, &statement, &tail)
                guard rc == SQLITE_OK else { throw error(rc, sql: sql) }
                // Only comments or whitespace may follow: compile the tail to find out.
                if let tail, tail.pointee != 0 {
                    tailRC = sqlite3_prepare_v2(h, tail, -1, &extra, nil)
                }
            }
            if extra != nil || tailRC != SQLITE_OK {
                sqlite3_finalize(extra)
                sqlite3_finalize(statement)
                throw StorageError.misuse("prepare() takes exactly one statement; use execute() for scripts", sql: sql)
            }
            guard let statement else {
                throw StorageError.misuse("no statement in SQL text", sql: sql)
            }
            return Statement(database: self, handle: statement, sql: sql)
        }
    }

    /// Runs every statement in `sql` in order, discarding result rows. `arguments` are bound in
    /// order across the statements' `?` parameters; too many or too few is an error.
    ///
    /// ```swift
    /// try db.execute("CREATE TABLE a(x); CREATE TABLE b(y)")
    /// try db.execute("INSERT INTO a VALUES (?)", arguments: [1])
    /// ```
    public func execute(_ sql: String, arguments: [DatabaseValue] = []) throws {
        try onQueue {
            let h = try connection(sql: sql)
            var remaining = arguments[...]
            try sql.withCString { start in
                var cursor: UnsafePointer<CChar>? = start
                while let current = cursor, current.pointee != 0 {
                    var raw: OpaquePointer?
                    var tail: UnsafePointer<CChar>?
                    let rc = sqlite3_prepare_v2(h, current, -1, &raw, &tail)
                    guard rc == SQLITE_OK else { throw error(rc, sql: String(cString: current)) }
                    cursor = tail
                    guard let raw else { continue } // whitespace or a comment
                    let statement = Statement(database: self, handle: raw, sql: String(cString: sqlite3_sql(raw)))
                    defer { statement.finalize() }
                    let wanted = statement.parameterCount
                    guard remaining.count >= wanted else {
                        throw StorageError.misuse("\(arguments.count) arguments for more parameters than that", sql: sql)
                    }
                    try statement.bind(Array(remaining.prefix(wanted)))
                    remaining = remaining.dropFirst(wanted)
                    while try statement.step() {}
                }
            }
            guard remaining.isEmpty else {
                throw StorageError.misuse("\(arguments.count) arguments for fewer parameters than that", sql: sql)
            }
        }
    }

    /// Runs one statement and copies every result row out.
    ///
    /// ```swift
    /// for row in try db.query("SELECT version, name FROM schema_migrations ORDER BY version") {
    ///     print(row[0].int64 ?? 0, row["name"]?.string ?? "")
    /// }
    /// ```
    public func query(_ sql: String, arguments: [DatabaseValue] = []) throws -> [Row] {
        try onQueue {
            let statement = try prepare(sql)
            defer { statement.finalize() }
            try statement.bind(arguments)
            let names = (0..<statement.columnCount).map { statement.columnName(at: $0) }
            var rows: [Row] = []
            while try statement.step() {
                rows.append(Row(columnNames: names, values: (0..<names.count).map { statement.value(at: $0) }))
            }
            return rows
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int { onQueue { handle.map { Int(sqlite3_changes($0)) } ?? 0 } }

    /// The rowid of the last INSERT on this connection.
    public var lastInsertRowID: Int64 { onQueue { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 } }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { onQueue { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false } }

    // MARK: - Transactions

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` (takes the write lock up front, so a
    /// writer waits for the busy timeout at the start instead of failing at commit), `COMMIT`,
    /// or `ROLLBACK` when `body` or the commit throws. The error is rethrown. Nested calls use a
    /// savepoint. The whole transaction holds the connection's queue.
    ///
    /// ```swift
    /// try db.transaction { db in
    ///     try db.execute("DELETE FROM t")
    ///     try db.execute("INSERT INTO t VALUES (?, ?)", arguments: ["e", 2.71828])
    /// }
    /// ```
    public func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try onQueue {
            let h = try connection()
            if sqlite3_get_autocommit(h) == 0 {
                savepointCounter += 1
                let name = "storage_sp\(savepointCounter)"
                try execute("SAVEPOINT \(name)")
                do {
                    let value = try body(self)
                    try execute("RELEASE \(name)")
                    return value
                } catch {
                    // Best effort: the original error is the one worth reporting.
                    _ = sqlite3_exec(h, "ROLLBACK TO \(name); RELEASE \(name)", nil, nil, nil)
                    throw error
                }
            }
            try execute("BEGIN IMMEDIATE")
            do {
                let value = try body(self)
                try execute("COMMIT")
                return value
            } catch {
                // SQLite may already have rolled back (e.g. SQLITE_FULL); only roll back if still open.
                if handle != nil, sqlite3_get_autocommit(h) == 0 {
                    _ = sqlite3_exec(h, "ROLLBACK", nil, nil, nil)
                }
                throw error
            }
        }
    }
}

extension Database {
    /// `isOpen` for callers already on the queue.
    var isOpenOnQueue: Bool { handle != nil }
}
