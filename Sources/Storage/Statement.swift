import CSQLite
import Foundation

/// A compiled SQL statement owned by one `Database`. Finalised exactly once: by `finalize()` or
/// in `deinit`, on the connection's queue. Parameters are 1-based (SQLite's convention), columns
/// 0-based. Every call runs on the connection's queue; wrap a bind/step/read sequence in
/// `Database.perform` when the statement is shared between threads.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO t(k, v, data) VALUES (?, ?, ?)")
/// try insert.bind("k1", at: 1)
/// try insert.bind(1.5, at: 2)
/// try insert.bind([0x01, 0x02] as [UInt8], at: 3)
/// _ = try insert.step()
/// try insert.reset()
/// ```
///
/// Column reads follow SQLite's conversions (`int64(at:)` of a text column parses it); use
/// `value(at:)` or `columnType(at:)` to see the stored type. Reads after the statement is
/// finalised or the database closed return NULL/0 rather than crashing.
public final class Statement: @unchecked Sendable {
    /// The SQL text as compiled.
    public let sql: String
    /// The connection that compiled it (kept alive as long as the statement is).
    public let database: Database

    // Only touched on the database's queue.
    private var handle: OpaquePointer?

    init(database: Database, handle: OpaquePointer, sql: String) {
        self.database = database
        self.handle = handle
        self.sql = sql
    }

    deinit {
        if let handle {
            database.onQueue { _ = sqlite3_finalize(handle) }
        }
    }

    /// Releases the compiled statement now. Idempotent; later calls throw `SQLITE_MISUSE`.
    public func finalize() {
        database.onQueue {
            guard let h = handle else { return }
            handle = nil
            sqlite3_finalize(h)
        }
    }

    /// The live handle, on the queue: fails once finalised or once the database is closed
    /// (a statement of a closed connection may only be finalised).
    private func live() throws -> OpaquePointer {
        guard let handle else { throw StorageError.misuse("statement is finalized", sql: sql) }
        _ = try database.connection(sql: sql)
        return handle
    }

    /// The handle for a column read, or nil when reads must answer NULL.
    private var readable: OpaquePointer? { database.isOpenOnQueue ? handle : nil }

    // MARK: - Execution

    /// Advances to the next row: `true` when a row is available, `false` when done.
    @discardableResult
    public func step() throws -> Bool {
        try database.onQueue {
            let h = try live()
            let rc = sqlite3_step(h)
            switch rc {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default:
                let failure = database.error(rc, sql: sql)
                sqlite3_reset(h)
                throw failure
            }
        }
    }

    /// Rewinds so the statement can run again; bindings are kept. A reset statement holds no
    /// read snapshot, so reset (or finalise) SELECTs once done with them.
    public func reset() throws {
        try database.onQueue {
            let h = try live()
            // sqlite3_reset repeats the last step's error, which `step` already reported.
            sqlite3_reset(h)
        }
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() throws {
        try database.onQueue { _ = sqlite3_clear_bindings(try live()) }
    }

    /// Number of `?`/`:name` parameters.
    public var parameterCount: Int {
        database.onQueue { handle.map { Int(sqlite3_bind_parameter_count($0)) } ?? 0 }
    }

    // MARK: - Binding

    /// Binds `values` to parameters 1…n. The count must match `parameterCount`.
    public func bind(_ values: [DatabaseValue]) throws {
        try database.onQueue {
            guard values.count == parameterCount else {
                throw StorageError.misuse("\(values.count) values for \(parameterCount) parameters", sql: sql)
            }
            for (i, value) in values.enumerated() { try bind(value, at: i + 1) }
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        try database.onQueue {
            let h = try live()
            guard let i = Int32(exactly: index) else {
                throw StorageError(code: SQLITE_RANGE, message: "parameter index \(index) out of range", sql: sql)
            }
            let rc: Int32
            switch value {
            case .null:
                rc = sqlite3_bind_null(h, i)
            case .integer(let v):
                rc = sqlite3_bind_int64(h, i, v)
            case .real(let v):
                rc = sqlite3_bind_double(h, i, v)
            case .text(var v):
                rc = v.withUTF8 { bytes in
                    // A nil pointer would bind NULL, so an empty string gets a real (empty) one.
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_text(h, i, "", 0, csqlite_transient())
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text64(h, i, $0, sqlite3_uint64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            case .blob(let v):
                rc = v.withUnsafeBytes { bytes in
                    // A nil pointer would bind NULL, so an empty blob is a zero-length zeroblob.
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(h, i, 0) }
                    return sqlite3_bind_blob64(h, i, base, sqlite3_uint64(bytes.count), csqlite_transient())
                }
            }
            guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
        }
    }

    /// Binds to a named parameter (`:key`, `@key` or `$key`, prefix included).
    public func bind(_ value: DatabaseValue, named name: String) throws {
        try database.onQueue {
            let index = sqlite3_bind_parameter_index(try live(), name)
            guard index > 0 else {
                throw StorageError(code: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
            }
            try bind(value, at: Int(index))
        }
    }

    public func bind(_ value: Int64?, at index: Int) throws { try bind(value.map(DatabaseValue.integer) ?? .null, at: index) }
    public func bind(_ value: Int?, at index: Int) throws { try bind(value.map { .integer(Int64($0)) } ?? .null, at: index) }
    public func bind(_ value: Double?, at index: Int) throws { try bind(value.map(DatabaseValue.real) ?? .null, at: index) }
    public func bind(_ value: String?, at index: Int) throws { try bind(value.map(DatabaseValue.text) ?? .null, at: index) }
    public func bind(_ value: [UInt8]?, at index: Int) throws { try bind(value.map(DatabaseValue.blob) ?? .null, at: index) }
    public func bind(_ value: Data?, at index: Int) throws { try bind(value.map { .blob([UInt8]($0)) } ?? .null, at: index) }
    public func bindNull(at index: Int) throws { try bind(DatabaseValue.null, at: index) }

    // MARK: - Columns

    /// Number of result columns.
    public var columnCount: Int {
        database.onQueue { handle.map { Int(sqlite3_column_count($0)) } ?? 0 }
    }

    /// The name of column `index` (its `AS` alias if any).
    public func columnName(at index: Int) -> String {
        database.onQueue {
            guard let h = handle, let i = Int32(exactly: index), let name = sqlite3_column_name(h, i) else { return "" }
            return String(cString: name)
        }
    }

    /// The storage class of column `index` in the current row.
    public func columnType(at index: Int) -> DatabaseValue.StorageClass {
        database.onQueue {
            guard let h = readable, let i = Int32(exactly: index) else { return .null }
            switch sqlite3_column_type(h, i) {
            case SQLITE_INTEGER: return .integer
            case SQLITE_FLOAT: return .real
            case SQLITE_TEXT: return .text
            case SQLITE_BLOB: return .blob
            default: return .null
            }
        }
    }

    public func isNull(at index: Int) -> Bool { columnType(at: index) == .null }

    public func int64(at index: Int) -> Int64 {
        database.onQueue {
            guard let h = readable, let i = Int32(exactly: index) else { return 0 }
            return sqlite3_column_int64(h, i)
        }
    }

    public func int(at index: Int) -> Int { Int(truncatingIfNeeded: int64(at: index)) }

    public func double(at index: Int) -> Double {
        database.onQueue {
            guard let h = readable, let i = Int32(exactly: index) else { return 0 }
            return sqlite3_column_double(h, i)
        }
    }

    /// The column as UTF-8 text, or nil when NULL.
    public func string(at index: Int) -> String? {
        database.onQueue {
            guard let h = readable, let i = Int32(exactly: index), sqlite3_column_type(h, i) != SQLITE_NULL,
                  let text = sqlite3_column_text(h, i)
            else { return nil }
            // column_text before column_bytes: the byte count is of the converted text.
            let count = Int(sqlite3_column_bytes(h, i))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }
    }

    /// The column as bytes, or nil when NULL. An empty blob is `[]`.
    public func blob(at index: Int) -> [UInt8]? {
        withBlob(at: index) { [UInt8]($0) }
    }

    public func data(at index: Int) -> Data? {
        withBlob(at: index) { Data($0) }
    }

    /// Calls `body` with the column's bytes in place (valid only inside `body`), or returns nil
    /// when the column is NULL. Avoids a copy for large payloads.
    public func withBlob<T>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        try database.onQueue {
            guard let h = readable, let i = Int32(exactly: index), sqlite3_column_type(h, i) != SQLITE_NULL else { return nil }
            let pointer = sqlite3_column_blob(h, i)
            let count = Int(sqlite3_column_bytes(h, i))
            // A zero-length blob comes back as a NULL pointer.
            return try body(UnsafeRawBufferPointer(start: count > 0 ? pointer : nil, count: count))
        }
    }

    /// The column in its stored type.
    public func value(at index: Int) -> DatabaseValue {
        database.onQueue {
            switch columnType(at: index) {
            case .null: .null
            case .integer: .integer(int64(at: index))
            case .real: .real(double(at: index))
            case .text: .text(string(at: index) ?? "")
            case .blob: .blob(blob(at: index) ?? [])
            }
        }
    }
}
