import CSQLite
import Foundation
import Logging

/// What `Database.open(path:logger:)` found: `movedAsideTo` is set when the file at `path` was
/// corrupt or not a database and a fresh one was created in its place.
public struct OpenReport: Sendable, Hashable {
    /// The database path.
    public let path: String
    /// Where the unreadable file went (`<path>.corrupt-20261122T000000Z`), or nil.
    public let movedAsideTo: String?
    /// The error that condemned the old file, or nil.
    public let reason: StorageError?

    public init(path: String, movedAsideTo: String? = nil, reason: StorageError? = nil) {
        self.path = path
        self.movedAsideTo = movedAsideTo
        self.reason = reason
    }

    /// Whether the old file was replaced by an empty database (run the migrations next).
    public var recovered: Bool { movedAsideTo != nil }
}

extension Database {
    /// Opens the database at `path` for start-up. The cache holds only what can be computed again, so a file that is not a database or fails `PRAGMA quick_check` is moved aside with
    /// its `-wal`, `-shm` and `-journal` files to `<path>.corrupt-<yyyyMMddTHHmmssZ>` and a fresh,
    /// empty database is created; a warning is logged and the report says so. Other failures
    /// (permissions, a full disk) are thrown: moving a file aside would not fix them.
    ///
    /// ```swift
    /// let (db, report) = try Database.open(path: config.databasePath, logger: logger)
    /// if report.recovered { logger.notice("cache rebuilt") }
    /// try Migrator(directory: migrationsURL).migrate(db, logger: logger)
    /// ```
    public static func open(
        path: String,
        logger: Logger,
        busyTimeout: Duration = Database.defaultBusyTimeout,
        now: Date = Date()
    ) throws -> (database: Database, report: OpenReport) {
        let reason: StorageError
        if let headerProblem = headerProblem(path: path) {
            // Decided before SQLite opens the file: closing a connection on it would delete a
            // -wal/-shm pair we want to keep next to the moved file.
            reason = headerProblem
        } else {
            do {
                let db = try Database(path: path, busyTimeout: busyTimeout)
                do {
                    try db.checkIntegrity()
                    return (db, OpenReport(path: path))
                } catch let error as StorageError where error.isCorruption && !db.isInMemory {
                    db.close()
                    reason = error
                }
            } catch let error as StorageError where error.isCorruption {
                reason = error
            }
        }

        let destination = try moveAside(path: path, stamp: UTCTimestamp.compact(now))
        logger.warning(
            "database file unreadable; moved aside and recreated",
            metadata: [
                "path": "\(path)",
                "movedTo": "\(destination)",
                "error": "\(reason)",
            ]
        )
        let db = try Database(path: path, busyTimeout: busyTimeout)
        return (db, OpenReport(path: path, movedAsideTo: destination, reason: reason))
    }

    /// Reads the schema and runs `PRAGMA quick_check`; throws `SQLITE_CORRUPT` (or SQLite's own
    /// `SQLITE_NOTADB`/`SQLITE_CORRUPT`) when the file is damaged. O(database size).
    public func checkIntegrity() throws {
        try perform { db in
            _ = try db.query("SELECT count(*) FROM sqlite_master")
            let rows = try db.query("PRAGMA quick_check(5)")
            let findings = rows.compactMap { $0[0].string }
            guard findings == ["ok"] else {
                throw StorageError(
                    code: SQLITE_CORRUPT,
                    message: "quick_check: " + findings.joined(separator: "; "),
                    sql: "PRAGMA quick_check(5)",
                    path: path
                )
            }
        }
    }

    /// `SQLITE_NOTADB` when `path` is a non-empty file that does not start with SQLite's 16-byte
    /// magic string; nil when it does, is empty (a valid new database) or cannot be read here
    /// (SQLite will report that itself).
    static func headerProblem(path: String) -> StorageError? {
        guard path != ":memory:", !path.isEmpty else { return nil }
        // A FIFO, a device or a directory in the database's place: never opened (a FIFO would
        // block the open for good); moved aside like any file that is not a database.
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            return StorageError(code: SQLITE_NOTADB, message: "not a regular file", path: path)
        }
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 16), !header.isEmpty else { return nil }
        guard Array(header) != Array("SQLite format 3\u{0}".utf8) else { return nil }
        return StorageError(code: SQLITE_NOTADB, message: "file is not a database (no SQLite header)", path: path)
    }

    /// Renames `path` and its side files to `<path>.corrupt-<stamp>[-n]`; returns the new path of
    /// the main file.
    static func moveAside(path: String, stamp: String) throws -> String {
        let fm = FileManager.default
        let base = "\(path).corrupt-\(stamp)"
        var destination = base
        var n = 1
        while fm.fileExists(atPath: destination) {
            destination = "\(base)-\(n)"
            n += 1
        }
        do {
            // Side files first: a stale -wal or -journal next to a new database must not be replayed.
            for suffix in ["-wal", "-shm", "-journal"] where fm.fileExists(atPath: path + suffix) {
                try fm.moveItem(atPath: path + suffix, toPath: destination + suffix)
            }
            if fm.fileExists(atPath: path) {
                try fm.moveItem(atPath: path, toPath: destination)
            }
        } catch {
            throw StorageError(code: SQLITE_CANTOPEN, message: "cannot move corrupt database aside: \(error)", path: path)
        }
        return destination
    }
}

extension Database {
    /// Whether the database takes writes now: a write lock is taken (`BEGIN IMMEDIATE`) and
    /// released at once. For readiness probes; false on any error (read-only file, full disk,
    /// a lock held past the busy timeout, a closed connection). Waits up to `busyTimeout`.
    public func isWritable() -> Bool {
        (try? checkWritable()) != nil
    }

    /// `isWritable()` that says why not: throws the `StorageError` of the failed
    /// `BEGIN IMMEDIATE` (`isBusy` when another connection holds the write lock).
    public func checkWritable() throws {
        try perform { db in
            try db.execute("BEGIN IMMEDIATE")
            try db.execute("ROLLBACK")
        }
    }
}
