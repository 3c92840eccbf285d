import Testing
@testable import Storage

/// The pure part of the migrator: file names, checksums, numbering and the plan, with values only.
@Suite("Migrations: parsing and planning without files")
struct MigrationTests {
    static func migration(_ fileName: String, _ sql: String = "SELECT 1;") throws -> Migration {
        try Migration(fileName: fileName, contents: Array(sql.utf8))
    }

    static func record(_ m: Migration, at: String = "2026-01-01T00:00:00Z") -> AppliedMigration {
        AppliedMigration(version: m.version, name: m.name, checksum: m.checksum, appliedAt: at)
    }

    @Test("file names", arguments: [
        ("0001_init.sql", 1, "init"),
        ("0042_add-index_2.sql", 42, "add-index_2"),
        ("9999_Last.sql", 9999, "Last"),
    ])
    func validNames(fileName: String, version: Int, name: String) throws {
        let parsed = try Migration.parseFileName(fileName)
        #expect(parsed.version == version)
        #expect(parsed.name == name)
    }

    @Test("bad file names", arguments: [
        "1_init.sql", "001_init.sql", "00001_init.sql", "0001init.sql", "0001_.sql", "0000_zero.sql",
        "0001_has space.sql", "0001_init.SQL", "abcd_init.sql", "0001_init.sql.bak", "0001_é.sql",
    ])
    func invalidNames(fileName: String) {
        #expect(throws: MigrationError.invalidFileName(fileName)) { try Migration.parseFileName(fileName) }
    }

    @Test("checksum is the SHA-256 of the exact bytes")
    func checksum() throws {
        let m = try Self.migration("0001_a.sql", "abc")
        #expect(m.checksum == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try Self.migration("0001_a.sql", "abc\r\n").checksum != (try Self.migration("0001_a.sql", "abc\n").checksum))
        #expect(throws: MigrationError.self) { try Migration(fileName: "0001_a.sql", contents: [0xFF, 0xFE]) }
    }

    @Test("ordering is by number, not by the order given")
    func order() throws {
        let files = try ["0003_c.sql", "0001_a.sql", "0002_b.sql"].map { try Self.migration($0) }
        #expect(try MigrationPlan.validate(files).map(\.version) == [1, 2, 3])
        let plan = try MigrationPlan(available: files, applied: [])
        #expect(plan.pending.map(\.fileName) == ["0001_a.sql", "0002_b.sql", "0003_c.sql"])
    }

    @Test("a gap is an error naming the expected number")
    func gap() throws {
        let files = try ["0001_a.sql", "0003_c.sql"].map { try Self.migration($0) }
        let error = try #require(throws: MigrationError.self) { try MigrationPlan.validate(files) }
        #expect(error == .gap(expected: 2, found: "0003_c.sql"))
        #expect(error.description.contains("expected 0002"))
        // Not starting at 0001 is a gap too.
        #expect(throws: MigrationError.gap(expected: 1, found: "0002_b.sql")) {
            try MigrationPlan.validate([Self.migration("0002_b.sql")])
        }
    }

    @Test("a duplicate number is an error naming both files")
    func duplicate() throws {
        let files = try ["0001_a.sql", "0002_b.sql", "0002_other.sql"].map { try Self.migration($0) }
        let error = try #require(throws: MigrationError.self) { try MigrationPlan.validate(files) }
        #expect(error == .duplicateVersion(2, fileNames: ["0002_b.sql", "0002_other.sql"]))
        #expect(error.description.contains("0002_b.sql, 0002_other.sql"))
    }

    @Test("applied migrations are not pending; statuses keep the applied time")
    func plan() throws {
        let a = try Self.migration("0001_a.sql"), b = try Self.migration("0002_b.sql")
        let plan = try MigrationPlan(available: [a, b], applied: [Self.record(a)])
        #expect(plan.pending == [b])
        #expect(plan.statuses.map(\.appliedAt) == ["2026-01-01T00:00:00Z", nil])
        #expect(plan.statuses[0].isApplied && plan.statuses[1].isPending)
        #expect(try MigrationPlan(available: [a, b], applied: [Self.record(a), Self.record(b)]).pending.isEmpty)
    }

    @Test("an edited migration is refused, naming the file, both checksums and the rule")
    func tampered() throws {
        let original = try Self.migration("0001_a.sql", "CREATE TABLE a(x);")
        let edited = try Self.migration("0001_a.sql", "CREATE TABLE a(x, y);")
        let error = try #require(throws: MigrationError.self) {
            try MigrationPlan(available: [edited], applied: [Self.record(original)])
        }
        let text = error.description
        #expect(text.contains("0001_a.sql"))
        #expect(text.contains(original.checksum))
        #expect(text.contains(edited.checksum))
        #expect(text.contains("must never be edited once released"))
        #expect(text.contains("add a new migration instead"))
    }

    @Test("a recorded migration missing on disk is an error")
    func missing() throws {
        let a = try Self.migration("0001_a.sql"), b = try Self.migration("0002_b.sql")
        let error = try #require(throws: MigrationError.self) {
            try MigrationPlan(available: [a], applied: [Self.record(a), Self.record(b)])
        }
        #expect(error == .missingFile(version: 2, name: "b"))
        #expect(error.description.contains("0002_b.sql"))
    }

    @Test("a renamed migration is refused")
    func renamed() throws {
        let a = try Self.migration("0001_a.sql", "X"), renamed = try Self.migration("0001_z.sql", "X")
        #expect(throws: MigrationError.renamed(version: 1, recordedName: "a", fileName: "0001_z.sql")) {
            try MigrationPlan(available: [renamed], applied: [Self.record(a)])
        }
    }
}
