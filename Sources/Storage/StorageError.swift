import CSQLite

/// A failed SQLite call: the extended result code, SQLite's own message (`sqlite3_errmsg`) and
/// the SQL text or database path involved. Bound values are never included, so the error is safe
/// to log.
///
/// ```swift
/// do { try db.execute("SELEC 1") }
/// catch let error as StorageError { print(error) } // SQLITE_ERROR (1): near "SELEC": syntax error [SQL: SELEC 1]
/// ```
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CORRUPT_INDEX`, `SQLITE_BUSY_SNAPSHOT`, …).
    public let code: Int32
    /// SQLite's message for the failure, or ours for misuse of this wrapper.
    public let message: String
    /// The statement that failed, when there is one.
    public let sql: String?
    /// The database file, when the failure is about opening or recovering it.
    public let path: String?

    public init(code: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// The primary result code (`code & 0xFF`): compare with `SQLITE_CORRUPT`, `SQLITE_BUSY`, …
    public var primaryCode: Int32 { code & 0xFF }

    /// The file is not a database or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`): the cache can
    /// be moved aside and rebuilt.
    public var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// Another connection holds a lock longer than the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// The symbolic name of the primary code (`SQLITE_CONSTRAINT`), for logs.
    public var codeName: String {
        switch primaryCode {
        case SQLITE_ERROR: "SQLITE_ERROR"
        case SQLITE_INTERNAL: "SQLITE_INTERNAL"
        case SQLITE_PERM: "SQLITE_PERM"
        case SQLITE_ABORT: "SQLITE_ABORT"
        case SQLITE_BUSY: "SQLITE_BUSY"
        case SQLITE_LOCKED: "SQLITE_LOCKED"
        case SQLITE_NOMEM: "SQLITE_NOMEM"
        case SQLITE_READONLY: "SQLITE_READONLY"
        case SQLITE_INTERRUPT: "SQLITE_INTERRUPT"
        case SQLITE_IOERR: "SQLITE_IOERR"
        case SQLITE_CORRUPT: "SQLITE_CORRUPT"
        case SQLITE_NOTFOUND: "SQLITE_NOTFOUND"
        case SQLITE_FULL: "SQLITE_FULL"
        case SQLITE_CANTOPEN: "SQLITE_CANTOPEN"
        case SQLITE_PROTOCOL: "SQLITE_PROTOCOL"
        case SQLITE_SCHEMA: "SQLITE_SCHEMA"
        case SQLITE_TOOBIG: "SQLITE_TOOBIG"
        case SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT"
        case SQLITE_MISMATCH: "SQLITE_MISMATCH"
        case SQLITE_MISUSE: "SQLITE_MISUSE"
        case SQLITE_RANGE: "SQLITE_RANGE"
        case SQLITE_NOTADB: "SQLITE_NOTADB"
        default: "SQLite result \(primaryCode)"
        }
    }

    public var description: String {
        var text = "\(codeName) (\(code)): \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        if let path { text += " [path: \(path)]" }
        return text
    }
}

extension StorageError {
    /// Misuse of this wrapper (closed connection, finalised statement, several statements given
    /// to `prepare`), reported with SQLite's `SQLITE_MISUSE` code.
    static func misuse(_ message: String, sql: String? = nil, path: String? = nil) -> StorageError {
        StorageError(code: SQLITE_MISUSE, message: message, sql: sql, path: path)
    }
}
