import CSQLite
import Foundation
import Testing
@testable import Storage

@Suite("Database: connection, statements, errors, transactions")
struct DatabaseTests {
    @Test("a file database gets WAL, synchronous=NORMAL, foreign keys and its parent directory")
    func pragmasAndDirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("nested/deeper/cache.sqlite")
        let db = try Database(path: path)
        defer { db.close() }
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try db.query("PRAGMA journal_mode")[0][0] == .text("wal"))
        #expect(try db.query("PRAGMA synchronous")[0][0] == .integer(1))
        #expect(try db.query("PRAGMA foreign_keys")[0][0] == .integer(1))
        #expect(try db.query("PRAGMA busy_timeout")[0][0] == .integer(5000))
    }

    @Test(":memory: works without WAL")
    func inMemory() throws {
        let db = try Database(path: ":memory:")
        #expect(db.isInMemory)
        #expect(try db.query("PRAGMA journal_mode")[0][0] == .text("memory"))
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
        #expect(try db.query("SELECT sum(x) FROM t")[0][0] == .integer(3))
    }

    @Test("bad SQL is a StorageError with SQLite's message and the SQL")
    func syntaxError() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: StorageError.self) { try db.execute("SELEC 1") }
        #expect(error.primaryCode == SQLITE_ERROR)
        #expect(error.message.contains("syntax error"))
        #expect(error.sql == "SELEC 1")
        #expect(error.description.contains("SQLITE_ERROR"))

        let prepareError = try #require(throws: StorageError.self) { try db.prepare("SELECT * FROM missing_table") }
        #expect(prepareError.message == "no such table: missing_table")
    }

    @Test("constraint failures carry the extended code")
    func constraint() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        try db.execute("INSERT INTO t VALUES (1, 'a')")
        let duplicate = try #require(throws: StorageError.self) { try db.execute("INSERT INTO t VALUES (1, 'b')") }
        #expect(duplicate.primaryCode == SQLITE_CONSTRAINT)
        #expect(duplicate.code == 1555) // SQLITE_CONSTRAINT_PRIMARYKEY
        let notNull = try #require(throws: StorageError.self) { try db.execute("INSERT INTO t VALUES (2, NULL)") }
        #expect(notNull.message.contains("NOT NULL"))
        // The connection is still usable afterwards.
        #expect(try db.query("SELECT count(*) FROM t")[0][0] == .integer(1))
    }

    @Test("every bind type reads back in its storage class")
    func bindAndRead() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(i INTEGER, r REAL, s TEXT, b BLOB, n)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        try insert.bind(Int64.min, at: 1)
        // Not -0.0: SQLite stores an integral REAL as an integer and loses the sign of zero,
        // which is why bit-exact doubles go into blobs (PackedDoubles).
        try insert.bind(-1.5 as Double, at: 2)
        try insert.bind("héllo\u{0}wörld 🚀", at: 3)
        try insert.bind([0, 1, 2, 255] as [UInt8], at: 4)
        try insert.bindNull(at: 5)
        #expect(try insert.step() == false)
        try insert.reset()
        try insert.bind([.integer(7), .real(.infinity), .text(""), .blob([]), .null])
        try insert.step()
        try insert.reset()
        try insert.bind(Data([9, 8]) as Data?, at: 4)
        try insert.bind(Int?.none, at: 1)
        try insert.step()
        insert.finalize()

        let select = try db.prepare("SELECT i, r, s, b, n FROM t ORDER BY rowid")
        #expect(select.columnCount == 5)
        #expect(select.columnName(at: 2) == "s")
        #expect(try select.step())
        #expect(select.int64(at: 0) == Int64.min)
        #expect(select.double(at: 1) == -1.5)
        #expect(select.string(at: 2) == "héllo\u{0}wörld 🚀") // embedded NUL survives
        #expect(select.blob(at: 3) == [0, 1, 2, 255])
        #expect(select.isNull(at: 4))
        #expect(select.string(at: 4) == nil)
        #expect(select.columnType(at: 0) == .integer)
        #expect(select.columnType(at: 1) == .real)
        #expect(select.columnType(at: 2) == .text)
        #expect(select.columnType(at: 3) == .blob)

        #expect(try select.step())
        #expect(select.value(at: 0) == .integer(7))
        #expect(select.value(at: 1) == .real(.infinity))
        #expect(select.value(at: 2) == .text("")) // empty text is not NULL
        #expect(select.value(at: 3) == .blob([])) // empty blob is not NULL
        #expect(select.value(at: 4) == .null)

        #expect(try select.step())
        #expect(select.value(at: 0) == .null)
        #expect(select.data(at: 3) == Data([9, 8]))
        #expect(try select.step() == false)
        // Out-of-range column reads answer NULL instead of crashing.
        #expect(select.value(at: 99) == .null)
    }

    @Test("named parameters and wrong parameter counts")
    func parameters() throws {
        let db = try Database(path: ":memory:")
        let s = try db.prepare("SELECT :a + :b")
        try s.bind(40, named: ":a")
        try s.bind(2, named: ":b")
        #expect(try s.step())
        #expect(s.int(at: 0) == 42)
        #expect(throws: StorageError.self) { try s.bind(1, named: ":zzz") }
        // Binding a stepped statement without reset is SQLite misuse, reported, not a crash.
        let busy = try #require(throws: StorageError.self) { try s.bind(1, named: ":a") }
        #expect(busy.primaryCode == SQLITE_MISUSE)
        try s.reset()
        let range = try #require(throws: StorageError.self) { try s.bind(DatabaseValue.integer(1), at: 3) }
        #expect(range.primaryCode == SQLITE_RANGE)
        #expect(throws: StorageError.self) { try s.bind([1]) }
        #expect(throws: StorageError.self) { try db.execute("SELECT ?", arguments: []) }
        #expect(throws: StorageError.self) { try db.execute("SELECT ?", arguments: [1, 2]) }
        // Arguments flow across the statements of a script.
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2])
        #expect(try db.query("SELECT group_concat(x) FROM t")[0][0] == .text("1,2"))
    }

    @Test("prepare takes exactly one statement; trailing comments are fine")
    func prepareOne() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: StorageError.self) { try db.prepare("SELECT 1; SELECT 2") }
        #expect(error.primaryCode == SQLITE_MISUSE)
        #expect(throws: StorageError.self) { try db.prepare("SELECT 1; garbage") }
        _ = try db.prepare("SELECT 1; -- trailing comment\n")
        #expect(throws: StorageError.self) { try db.prepare("   ") }
    }

    @Test("rows by index and by name")
    func rows() throws {
        let db = try Database(path: ":memory:")
        let rows = try db.query("SELECT 1 AS one, 'two' AS Two, NULL AS empty")
        #expect(rows.count == 1)
        #expect(rows[0]["ONE"] == .integer(1))
        #expect(rows[0]["two"]?.string == "two")
        #expect(rows[0]["EMPTY"] == .null)
        #expect(rows[0]["absent"] == nil)
        #expect(rows[0][7] == .null)
    }

    @Test("transactions commit, roll back on throw, and nest as savepoints")
    func transactions() throws {
        struct Boom: Error {}
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        let value = try db.transaction { db -> Int in
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(db.isInTransaction)
            return 5
        }
        #expect(value == 5)
        #expect(!db.isInTransaction)

        #expect(throws: Boom.self) {
            try db.transaction { db in
                try db.execute("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.query("SELECT count(*) FROM t")[0][0] == .integer(1))

        try db.transaction { db in
            try db.execute("INSERT INTO t VALUES (3)")
            #expect(throws: Boom.self) {
                try db.transaction { db in
                    try db.execute("INSERT INTO t VALUES (4)")
                    throw Boom()
                }
            }
            try db.transaction { db in try db.execute("INSERT INTO t VALUES (5)") }
        }
        #expect(try db.query("SELECT group_concat(x) FROM t")[0][0] == .text("1,3,5"))

        // A failing statement inside rolls the whole transaction back too.
        #expect(throws: StorageError.self) {
            try db.transaction { db in
                try db.execute("INSERT INTO t VALUES (6)")
                try db.execute("INSERT INTO nowhere VALUES (7)")
            }
        }
        #expect(try db.query("SELECT count(*) FROM t")[0][0] == .integer(3))
    }

    @Test("after close: calls throw SQLITE_MISUSE, statements read NULL, nothing crashes")
    func closed() throws {
        let db = try Database(path: ":memory:")
        let s = try db.prepare("SELECT 1")
        #expect(try s.step())
        db.close()
        db.close() // idempotent
        #expect(!db.isOpen)
        let error = try #require(throws: StorageError.self) { try db.execute("SELECT 1") }
        #expect(error.primaryCode == SQLITE_MISUSE)
        #expect(throws: StorageError.self) { try s.step() }
        #expect(s.value(at: 0) == .null)
        s.finalize()
        #expect(throws: StorageError.self) { try s.reset() }
    }

    @Test("the busy timeout can be shortened (SQLite reports the new one); a write lock held elsewhere fails, and checkWritable says busy")
    func busyTimeoutSetter() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Database(path: dir.path("cache.sqlite"))
        let other = try Database(path: dir.path("cache.sqlite"))
        defer {
            db.close()
            other.close()
        }
        // The setter reaches the connection: SQLite itself reports the new timeout, which is what
        // its busy handler waits (no clock here: how long a wait takes is the machine's business).
        #expect(try db.query("PRAGMA busy_timeout")[0][0] == .integer(5000))
        db.busyTimeout = .milliseconds(20)
        #expect(db.busyTimeout == .milliseconds(20))
        #expect(try db.query("PRAGMA busy_timeout")[0][0] == .integer(20))
        #expect(db.isWritable())
        try other.execute("BEGIN IMMEDIATE")
        let error = #expect(throws: StorageError.self) { try db.checkWritable() }
        #expect(error?.isBusy == true)
        #expect(!db.isWritable())
        try other.execute("ROLLBACK")
        #expect(db.isWritable())
    }

    @Test("an unopenable path is a StorageError naming the path")
    func unopenable() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // The "parent directory" is a regular file.
        try dir.write("file", "x")
        let error = try #require(throws: StorageError.self) { try Database(path: dir.path("file/db.sqlite")) }
        #expect(error.path == dir.path("file/db.sqlite"))
    }

    @Test("statements are finalised on release, on the connection's queue, from any thread")
    func finaliseFromOtherThreads() throws {
        let db = try Database(path: ":memory:")
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            do {
                let s = try db.prepare("SELECT ?")
                try s.bind(i, at: 1)
                _ = try s.step()
            } catch {
                Issue.record("\(error)")
            }
        }
        // The connection is intact after 200 cross-thread prepare/step/finalise cycles.
        #expect(try db.perform { db in try db.query("SELECT 1") }.count == 1)
    }

    @Test("re-entry on the connection's own queue runs directly; through another queue's sync it stops instead of deadlocking")
    func reentry() async throws {
        let db = try Database(path: ":memory:")
        // Nested calls on the queue itself: run at once.
        #expect(try db.perform { db in try db.perform { db in try db.query("SELECT 1") } }.count == 1)
        // Another queue's sync in between (first from outside the connection): fine.
        let other = DispatchQueue(label: "test.other")
        #expect(other.sync { db.isOpen })
        // From inside the connection's block, through that sync: the precondition, in a child process.
        await #expect(processExitsWith: .failure) {
            let db = try Database(path: ":memory:")
            let other = DispatchQueue(label: "test.other")
            _ = db.perform { db in other.sync { db.isOpen } }
        }
    }
}
