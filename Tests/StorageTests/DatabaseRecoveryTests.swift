import CSQLite
import Foundation
import Logging
import Testing
@testable import Storage

@Suite("Database.open: corrupt files are moved aside and rebuilt")
struct DatabaseRecoveryTests {
    static let fixedNow = Date(timeIntervalSince1970: 1_795_305_600) // 2026-11-22T00:00:00Z

    /// Opens `path` with recovery and migrates with the repository's migrations.
    static func openAndMigrate(_ path: String, logger: Logger) throws -> (Database, OpenReport) {
        let (db, report) = try Database.open(path: path, logger: logger, now: fixedNow)
        try Migrator(directory: repositoryMigrations).migrate(db)
        return (db, report)
    }

    @Test("4 KiB of random bytes: moved to .corrupt-<stamp>, warned about, rebuilt and migrated")
    func randomBytes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try dir.write("cache.sqlite", bytes: garbage)

        let handler = CapturingLogHandler()
        let (db, report) = try Self.openAndMigrate(dir.path("cache.sqlite"), logger: .capturing(handler))
        defer { db.close() }

        let expected = dir.path("cache.sqlite.corrupt-20261122T000000Z")
        #expect(report.recovered)
        #expect(report.movedAsideTo == expected)
        #expect(report.reason?.isCorruption == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: expected)) == Data(garbage)) // untouched
        let warnings = handler.records.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.metadata["movedTo"]?.description == expected)

        // The new database works and has the schema.
        let cache = SampleCache(database: db)
        defer { cache.close() }
        let key = SampleCacheKey(mission: "m", vehicle: "v", samples: 1, frame: "f", dataHash: "h", engineVersion: "1")
        cache.put(key, values: [1, 2, 3])
        #expect(cache.waitForPendingWrites())
        #expect(try cache.count() == 1)
        #expect(try cache.get(key) == [1, 2, 3])
        #expect(try Migrator.appliedMigrations(in: db).map(\.version) == [1, 2, 3, 4])
    }

    @Test("a text file is not a database either")
    func textFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("cache.sqlite", String(repeating: "this is not a database\n", count: 100))
        let (db, report) = try Self.openAndMigrate(dir.path("cache.sqlite"), logger: .capturing(CapturingLogHandler()))
        defer { db.close() }
        #expect(report.recovered)
        #expect(report.reason?.primaryCode == SQLITE_NOTADB)
        #expect(try dir.files().contains("cache.sqlite.corrupt-20261122T000000Z"))
    }

    @Test("a damaged page inside a real database fails quick_check and is moved aside")
    func damagedPages() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute("PRAGMA journal_mode=DELETE") // everything in the main file
            try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT); CREATE INDEX t_s ON t(s)")
            try db.transaction { db in
                for i in 0..<2000 { try db.execute("INSERT INTO t VALUES (?, ?)", arguments: [.integer(Int64(i)), .text("row \(i) " + String(repeating: "x", count: 50))]) }
            }
            db.close()
        }
        // Overwrite pages 3… with garbage, leaving the header and schema page intact.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 16 * 4096)
        for i in (2 * 4096)..<(12 * 4096) { bytes[i] = UInt8(truncatingIfNeeded: i &* 7919) }
        try dir.write("cache.sqlite", bytes: bytes)

        let (db, report) = try Database.open(path: path, logger: .capturing(CapturingLogHandler()), now: Self.fixedNow)
        defer { db.close() }
        #expect(report.recovered)
        #expect(report.reason?.isCorruption == true)
        #expect(try db.query("SELECT count(*) FROM sqlite_master")[0][0] == .integer(0))
    }

    @Test("stale -wal and -shm files go aside with the main file; a second recovery in the same second gets -1")
    func sideFilesAndCollisions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for round in 0..<2 {
            try dir.write("cache.sqlite", "garbage \(round)")
            try dir.write("cache.sqlite-wal", "stale wal")
            try dir.write("cache.sqlite-shm", "stale shm")
            let (db, report) = try Database.open(path: dir.path("cache.sqlite"), logger: .capturing(CapturingLogHandler()), now: Self.fixedNow)
            db.close()
            let suffix = round == 0 ? "" : "-1"
            #expect(report.movedAsideTo == dir.path("cache.sqlite.corrupt-20261122T000000Z\(suffix)"))
        }
        let files = try dir.files()
        for name in [
            "cache.sqlite.corrupt-20261122T000000Z", "cache.sqlite.corrupt-20261122T000000Z-wal",
            "cache.sqlite.corrupt-20261122T000000Z-shm", "cache.sqlite.corrupt-20261122T000000Z-1",
            "cache.sqlite.corrupt-20261122T000000Z-1-wal", "cache.sqlite.corrupt-20261122T000000Z-1-shm",
        ] {
            #expect(files.contains(name), "\(name) in \(files)")
        }
    }

    @Test("an empty file is a valid new database: nothing moved, no warning")
    func emptyFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("cache.sqlite", bytes: [])
        let handler = CapturingLogHandler()
        let (db, report) = try Self.openAndMigrate(dir.path("cache.sqlite"), logger: .capturing(handler))
        defer { db.close() }
        #expect(!report.recovered)
        #expect(handler.records.isEmpty)
        #expect(try dir.files().allSatisfy { !$0.contains("corrupt") })
        #expect(try SampleCache(database: db).count() == 0)
    }

    @Test("a healthy database is opened as is")
    func healthy() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        do {
            let (db, _) = try Self.openAndMigrate(path, logger: .capturing(CapturingLogHandler()))
            try db.execute("CREATE TABLE keep(x); INSERT INTO keep VALUES (42)")
            db.close()
        }
        let (db, report) = try Database.open(path: path, logger: .capturing(CapturingLogHandler()))
        defer { db.close() }
        #expect(!report.recovered)
        #expect(try db.query("SELECT x FROM keep")[0][0] == .integer(42))
    }

    @Test("plain init does not move files: it throws SQLITE_NOTADB")
    func initDoesNotRecover() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("cache.sqlite", "not a database")
        let error = try #require(throws: StorageError.self) { try Database(path: dir.path("cache.sqlite")) }
        #expect(error.primaryCode == SQLITE_NOTADB)
        #expect(try dir.files() == ["cache.sqlite"])
    }

    @Test("UTC stamps")
    func stamps() {
        #expect(UTCTimestamp.compact(Self.fixedNow) == "20261122T000000Z")
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: 951_782_400 + 86_399.9)) == "2000-02-29T23:59:59Z")
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }
}

@Suite("Copies moved aside count against the cache's cap")
struct MovedAsideTests {
    @Test("only the newest copy is kept, and only when it fits in what it may take; the rest are deleted")
    func pruneKeepsTheNewestThatFits() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let files: [(String, Int)] = [("cache.sqlite.corrupt-20260101T000000Z", 1_000), ("cache.sqlite.corrupt-20260102T000000Z", 2_000),
                                      ("cache.sqlite.corrupt-20260102T000000Z-wal", 500), ("cache.sqlite.corrupt-20260102T000000Z-1", 3_000),
                                      ("other.sqlite.corrupt-20260101T000000Z", 9_000)]
        for (name, bytes) in files { try Data(count: bytes).write(to: URL(fileURLWithPath: dir.path(name))) }
        #expect(Database.movedAside(path: path).map { ($0.path.split(separator: "/").last.map(String.init) ?? "", $0.bytes) }.map { "\($0.0):\($0.1)" }
                == ["cache.sqlite.corrupt-20260102T000000Z-1:3000", "cache.sqlite.corrupt-20260102T000000Z:2500", "cache.sqlite.corrupt-20260101T000000Z:1000"])
        #expect(Database.pruneMovedAside(path: path, keepAtMost: 10_000, logger: nil) == 3_000)
        #expect(Database.movedAside(path: path).count == 1)
        #expect(FileManager.default.fileExists(atPath: dir.path("other.sqlite.corrupt-20260101T000000Z")), "another database's copy stays")
        #expect(Database.pruneMovedAside(path: path, keepAtMost: 100, logger: nil) == 0)
        #expect(Database.movedAside(path: path).isEmpty)
    }

    @Test("a FIFO in the database's place is moved aside and a database made, without blocking")
    func fifoIsMovedAside() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        #expect(mkfifo(path, 0o600) == 0)
        let (db, report) = try Database.open(path: path, logger: Logger(label: "test"))
        defer { db.close() }
        #expect(report.recovered)
        #expect(report.reason?.message.contains("not a regular file") == true)
        try db.execute("CREATE TABLE t(x)")
    }
}
