import Foundation
import Testing
@testable import Storage

@Suite("Migrator: applying a directory of migrations to a database")
struct MigratorTests {
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_305_600) }

    @Test("migrations apply once, in number order, and are recorded")
    func applyOnce() throws {
        let dir = try TemporaryDirectory("migrations")
        defer { dir.remove() }
        // 0002 depends on 0001 and the directory listing order must not matter.
        try dir.write("0002_add_column.sql", "ALTER TABLE t ADD COLUMN y TEXT;\nINSERT INTO t VALUES (1, 'two');")
        try dir.write("0001_create.sql", "CREATE TABLE t(x INTEGER);")
        try dir.write("README.md", "not a migration")

        let db = try Database(path: dir.path("db/cache.sqlite"))
        defer { db.close() }
        let migrator = try Migrator(directory: dir.url)
        #expect(try migrator.list(db).allSatisfy(\.isPending))

        let applied = try migrator.migrate(db, now: Self.clock)
        #expect(applied.map(\.fileName) == ["0001_create.sql", "0002_add_column.sql"])
        let rows = try db.query("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
        #expect(rows.map { $0[0] } == [1, 2])
        #expect(rows.map { $0[1] } == ["create", "add_column"])
        #expect(rows[0][2].string == migrator.migrations[0].checksum)
        #expect(rows[0][3] == "2026-11-22T00:00:00Z")

        #expect(try migrator.migrate(db, now: Self.clock).isEmpty) // second run: nothing
        #expect(try Migrator(directory: dir.url).migrate(db).isEmpty)
        #expect(try db.query("SELECT count(*) FROM t")[0][0] == .integer(1))

        let list = try migrator.list(db)
        #expect(list.map(\.version) == [1, 2])
        #expect(list.allSatisfy { $0.appliedAt == "2026-11-22T00:00:00Z" })

        // A new file later is the only one applied.
        try dir.write("0003_index.sql", "CREATE INDEX t_x ON t(x);")
        let next = try Migrator(directory: dir.url)
        #expect(try next.list(db).map(\.isPending) == [false, false, true])
        #expect(try next.migrate(db).map(\.version) == [3])
    }

    @Test("a tampered migration is refused with the release rule, and nothing runs")
    func tampered() throws {
        let dir = try TemporaryDirectory("migrations")
        defer { dir.remove() }
        try dir.write("0001_create.sql", "CREATE TABLE t(x INTEGER);")
        let db = try Database(path: dir.path("cache.sqlite"))
        defer { db.close() }
        try Migrator(directory: dir.url).migrate(db)
        let recorded = try Migrator.appliedMigrations(in: db)[0].checksum

        try dir.write("0001_create.sql", "CREATE TABLE t(x INTEGER, y TEXT);")
        try dir.write("0002_more.sql", "CREATE TABLE u(z);")
        let edited = try Migrator(directory: dir.url)
        let error = try #require(throws: MigrationError.self) { try edited.migrate(db) }
        let text = "\(error)"
        #expect(text.contains("0001_create.sql"))
        #expect(text.contains(recorded))
        #expect(text.contains(edited.migrations[0].checksum))
        #expect(text.contains("must never be edited once released"))
        #expect(throws: MigrationError.self) { try edited.list(db) }
        // 0002 was not applied either.
        #expect(try db.query("SELECT count(*) FROM sqlite_master WHERE name = 'u'")[0][0] == .integer(0))
    }

    @Test("a recorded migration whose file is gone is an error")
    func missingFile() throws {
        let dir = try TemporaryDirectory("migrations")
        defer { dir.remove() }
        try dir.write("0001_create.sql", "CREATE TABLE t(x);")
        try dir.write("0002_more.sql", "CREATE TABLE u(x);")
        let db = try Database(path: dir.path("cache.sqlite"))
        defer { db.close() }
        try Migrator(directory: dir.url).migrate(db)
        try FileManager.default.removeItem(atPath: dir.path("0002_more.sql"))
        #expect(throws: MigrationError.missingFile(version: 2, name: "more")) { try Migrator(directory: dir.url).migrate(db) }
    }

    @Test("gaps, duplicates and bad names in a directory are errors before anything runs")
    func badDirectories() throws {
        let dir = try TemporaryDirectory("migrations")
        defer { dir.remove() }
        try dir.write("0001_a.sql", "CREATE TABLE a(x);")
        try dir.write("0003_c.sql", "CREATE TABLE c(x);")
        #expect(throws: MigrationError.gap(expected: 2, found: "0003_c.sql")) { try Migrator(directory: dir.url) }

        try dir.write("0002_b.sql", "CREATE TABLE b(x);")
        try dir.write("0002_b2.sql", "CREATE TABLE b2(x);")
        #expect(throws: MigrationError.duplicateVersion(2, fileNames: ["0002_b.sql", "0002_b2.sql"])) {
            try Migrator(directory: dir.url)
        }

        try FileManager.default.removeItem(atPath: dir.path("0002_b2.sql"))
        try dir.write("4_d.sql", "")
        #expect(throws: MigrationError.invalidFileName("4_d.sql")) { try Migrator(directory: dir.url) }

        #expect(throws: MigrationError.directoryNotFound(path: dir.path("nope"))) {
            try Migrator(directory: dir.url.appendingPathComponent("nope"))
        }
    }

    @Test("a failing migration rolls back alone; earlier ones stay applied")
    func failingMigration() throws {
        let a = try Migration(fileName: "0001_a.sql", contents: Array("CREATE TABLE a(x);".utf8))
        let b = try Migration(fileName: "0002_b.sql", contents: Array("CREATE TABLE b(x); INSERT INTO nowhere VALUES (1);".utf8))
        let db = try Database(path: ":memory:")
        #expect(throws: StorageError.self) { try Migrator(migrations: [b, a]).migrate(db) }
        #expect(try Migrator.appliedMigrations(in: db).map(\.version) == [1])
        #expect(try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { $0[0] } == ["a", "schema_migrations"])
    }

    @Test("list on a fresh database creates nothing")
    func listIsReadOnly() throws {
        let db = try Database(path: ":memory:")
        let migrator = try Migrator(directory: repositoryMigrations)
        #expect(try migrator.list(db).map(\.isPending) == [true, true, true, true])
        #expect(try db.query("SELECT count(*) FROM sqlite_master")[0][0] == .integer(0))
    }

    @Test("the repository's Migrations/ directory is valid and creates trajectory_cache and small_body_chunks with their LRU indexes",
          arguments: ["trajectory_cache", "small_body_chunks"])
    func repositoryMigrationsApply(_ table: String) throws {
        let migrator = try Migrator(directory: repositoryMigrations)
        #expect(migrator.migrations.map(\.fileName) == ["0001_trajectory_cache.sql", "0002_sample_cache_lru.sql", "0003_payload_checksum.sql", "0004_small_body_chunks.sql"])
        let db = try Database(path: ":memory:")
        try migrator.migrate(db)
        let columns = try db.query("SELECT name, pk FROM pragma_table_info('\(table)') ORDER BY cid")
        #expect(columns.map { $0[0].string ?? "" } == [
            "mission", "vehicle", "samples", "frame", "data_hash", "engine_version", "bytes", "last_used", "created_at", "payload_crc32", "payload",
        ])
        #expect(columns.map { $0[1].int64 ?? -1 } == [1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0])
        // The stored-size sum and the eviction scan read the index, not the rows and their payloads.
        let plans = try ["SELECT count(*), total(bytes) FROM \(table)",
                         "SELECT rowid, bytes FROM \(table) ORDER BY last_used"].map { sql in
            try db.query("EXPLAIN QUERY PLAN " + sql).compactMap { $0["detail"]?.string }.joined(separator: "; ")
        }
        for plan in plans { #expect(plan.contains("COVERING INDEX \(table)_lru"), "\(plan)") }
    }
}
