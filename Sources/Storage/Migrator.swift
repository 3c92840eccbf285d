import Foundation
import Logging

/// Applies the migrations of a directory in version order, each in its own transaction, and
/// records them in `schema_migrations(version, name, checksum, applied_at)`. Refuses to run when
/// an applied migration's file changed or vanished, or the numbering has a gap or duplicate.
///
/// ```swift
/// let migrator = try Migrator(directory: URL(fileURLWithPath: "Migrations"))
/// let applied = try migrator.migrate(db, logger: logger)   // [] when up to date
/// for s in try migrator.list(db) { print(s.version, s.name, s.appliedAt ?? "pending") }
/// ```
///
/// The file reading is only in `init(directory:)`; `init(migrations:)` takes values, and the
/// decisions live in `MigrationPlan`, so both can be tested without files.
public struct Migrator: Sendable {
    /// The migrations, validated and in version order.
    public let migrations: [Migration]

    public static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    INTEGER PRIMARY KEY,
            name       TEXT NOT NULL,
            checksum   TEXT NOT NULL,
            applied_at TEXT NOT NULL
        )
        """

    public init(migrations: [Migration]) throws {
        self.migrations = try MigrationPlan.validate(migrations)
    }

    /// Reads every `*.sql` file in `directory` (other files, such as a README, are ignored).
    public init(directory: URL) throws {
        try self.init(migrations: Migrator.readMigrations(in: directory))
    }

    /// The `*.sql` files of `directory`, parsed (not yet validated as a sequence).
    public static func readMigrations(in directory: URL) throws -> [Migration] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MigrationError.directoryNotFound(path: directory.path)
        }
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigrationError.unreadableFile(path: directory.path, reason: "\(error)")
        }
        return try names.filter(Migration.isCandidate).sorted().map { name in
            let url = directory.appendingPathComponent(name)
            let bytes: [UInt8]
            do {
                bytes = [UInt8](try Data(contentsOf: url))
            } catch {
                throw MigrationError.unreadableFile(path: url.path, reason: "\(error)")
            }
            return try Migration(fileName: name, contents: bytes)
        }
    }

    /// The `schema_migrations` rows (none when the table does not exist yet; nothing is created).
    public static func appliedMigrations(in db: Database) throws -> [AppliedMigration] {
        try db.perform { db in
            let exists = try db.query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
            )
            guard !exists.isEmpty else { return [] }
            return try db.query("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
                .map {
                    AppliedMigration(
                        version: Int($0[0].int64 ?? 0), name: $0[1].string ?? "",
                        checksum: $0[2].string ?? "", appliedAt: $0[3].string ?? ""
                    )
                }
        }
    }

    /// What `migrate` would do, without changing anything.
    public func plan(for db: Database) throws -> MigrationPlan {
        try MigrationPlan(available: migrations, applied: Migrator.appliedMigrations(in: db))
    }

    /// Applied and pending migrations, in version order.
    public func list(_ db: Database) throws -> [MigrationStatus] {
        try plan(for: db).statuses
    }

    /// Applies every pending migration, each in a `BEGIN IMMEDIATE` transaction together with its
    /// `schema_migrations` row, and returns those applied (empty when up to date). A migration
    /// that fails rolls back alone; earlier ones stay applied. Safe against a second process
    /// migrating at the same time: each version is re-checked inside its transaction.
    @discardableResult
    public func migrate(_ db: Database, logger: Logger? = nil, now: @Sendable () -> Date = { Date() }) throws -> [Migration] {
        try db.execute(Migrator.createTableSQL)
        let plan = try plan(for: db)
        var applied: [Migration] = []
        for migration in plan.pending {
            let didApply = try db.transaction { db -> Bool in
                let existing = try db.query(
                    "SELECT checksum FROM schema_migrations WHERE version = ?",
                    arguments: [.integer(Int64(migration.version))]
                )
                if let recorded = existing.first?[0].string {
                    guard recorded == migration.checksum else {
                        throw MigrationError.checksumMismatch(
                            fileName: migration.fileName, version: migration.version,
                            recorded: recorded, current: migration.checksum
                        )
                    }
                    return false // another process got there first
                }
                try db.execute(migration.sql)
                try db.execute(
                    "INSERT INTO schema_migrations(version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                    arguments: [
                        .integer(Int64(migration.version)), .text(migration.name),
                        .text(migration.checksum), .text(UTCTimestamp.iso8601(now())),
                    ]
                )
                return true
            }
            if didApply {
                applied.append(migration)
                logger?.info(
                    "applied migration",
                    metadata: ["file": "\(migration.fileName)", "checksum": "\(migration.checksum)"]
                )
            }
        }
        return applied
    }
}
