/// One migration file, `Migrations/NNNN_name.sql`: four-digit version, a name of letters, digits,
/// `_` or `-`, and the SQL. The checksum is the SHA-256 of the file's exact bytes, so any edit
/// (even line endings) is detected.
///
/// ```swift
/// let m = try Migration(fileName: "0001_trajectory_cache.sql", contents: Array(sql.utf8))
/// m.version  // 1
/// m.name     // "trajectory_cache"
/// m.checksum // 64 hex digits
/// ```
///
/// The SQL runs inside the migrator's transaction, so it must not contain BEGIN/COMMIT.
public struct Migration: Sendable, Hashable {
    public let version: Int
    public let name: String
    public let fileName: String
    public let sql: String
    public let checksum: String

    public init(fileName: String, contents: [UInt8]) throws {
        let (version, name) = try Migration.parseFileName(fileName)
        // Decoding replaces invalid sequences, so a lossless round trip means valid UTF-8.
        let sql = String(decoding: contents, as: UTF8.self)
        guard sql.utf8.elementsEqual(contents) else {
            throw MigrationError.invalidContents(fileName: fileName, reason: "not valid UTF-8")
        }
        self.version = version
        self.name = name
        self.fileName = fileName
        self.sql = sql
        self.checksum = SHA256.hexDigest(contents)
    }

    /// Whether `fileName` is meant as a migration (ends in `.sql`, not hidden); such a file that
    /// does not parse is an error rather than silently skipped.
    public static func isCandidate(_ fileName: String) -> Bool {
        fileName.hasSuffix(".sql") && !fileName.hasPrefix(".")
    }

    /// `"0007_add_index.sql"` → `(7, "add_index")`.
    public static func parseFileName(_ fileName: String) throws -> (version: Int, name: String) {
        let bad = MigrationError.invalidFileName(fileName)
        guard fileName.hasSuffix(".sql") else { throw bad }
        let stem = fileName.utf8.dropLast(4)
        guard stem.count >= 6 else { throw bad }
        let digits = stem.prefix(4)
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              stem.dropFirst(4).first == UInt8(ascii: "_")
        else { throw bad }
        let nameBytes = stem.dropFirst(5)
        let allowed: (UInt8) -> Bool = { c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        }
        guard !nameBytes.isEmpty, nameBytes.allSatisfy(allowed) else { throw bad }
        let version = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard version >= 1 else { throw bad }
        return (version, String(decoding: nameBytes, as: UTF8.self))
    }
}

/// A row of `schema_migrations`.
public struct AppliedMigration: Sendable, Hashable {
    public let version: Int
    public let name: String
    public let checksum: String
    /// ISO 8601 UTC, `2026-11-22T00:00:00Z`.
    public let appliedAt: String

    public init(version: Int, name: String, checksum: String, appliedAt: String) {
        self.version = version
        self.name = name
        self.checksum = checksum
        self.appliedAt = appliedAt
    }
}

/// One line of `solarsystem migrate --list`: a migration on disk, applied or pending.
public struct MigrationStatus: Sendable, Hashable {
    public let version: Int
    public let name: String
    public let checksum: String
    /// When it was applied, or nil while pending.
    public let appliedAt: String?

    public var isApplied: Bool { appliedAt != nil }
    public var isPending: Bool { appliedAt == nil }
}

/// The pure decision: which of the (validated) files on disk still have to run, given what the
/// database has recorded. Refuses edited, renamed or vanished migrations.
///
/// ```swift
/// let plan = try MigrationPlan(available: migrations, applied: recorded)
/// plan.pending.map(\.fileName) // ["0002_add_index.sql"]
/// ```
public struct MigrationPlan: Sendable, Hashable {
    /// Every migration on disk, in version order, with its applied time if any.
    public let statuses: [MigrationStatus]
    /// The migrations to apply, in version order.
    public let pending: [Migration]

    /// - Parameters:
    ///   - available: the files, as returned by `MigrationPlan.validate` (any order accepted).
    ///   - applied: the `schema_migrations` rows.
    public init(available: [Migration], applied: [AppliedMigration]) throws {
        let files = try MigrationPlan.validate(available)
        let byVersion = Dictionary(files.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        for record in applied.sorted(by: { $0.version < $1.version }) {
            guard let file = byVersion[record.version] else {
                throw MigrationError.missingFile(version: record.version, name: record.name)
            }
            guard file.checksum == record.checksum else {
                throw MigrationError.checksumMismatch(
                    fileName: file.fileName, version: record.version,
                    recorded: record.checksum, current: file.checksum
                )
            }
            guard file.name == record.name else {
                throw MigrationError.renamed(version: record.version, recordedName: record.name, fileName: file.fileName)
            }
        }
        let appliedAt = Dictionary(applied.map { ($0.version, $0.appliedAt) }, uniquingKeysWith: { first, _ in first })
        statuses = files.map {
            MigrationStatus(version: $0.version, name: $0.name, checksum: $0.checksum, appliedAt: appliedAt[$0.version])
        }
        pending = files.filter { appliedAt[$0.version] == nil }
    }

    /// Sorts by version and checks the numbering: 0001, 0002, … with no gap or duplicate.
    public static func validate(_ migrations: [Migration]) throws -> [Migration] {
        let sorted = migrations.sorted { ($0.version, $0.fileName) < ($1.version, $1.fileName) }
        var expected = 1
        var index = 0
        while index < sorted.count {
            let m = sorted[index]
            if index + 1 < sorted.count, sorted[index + 1].version == m.version {
                let same = sorted.filter { $0.version == m.version }.map(\.fileName)
                throw MigrationError.duplicateVersion(m.version, fileNames: same)
            }
            guard m.version == expected else {
                throw MigrationError.gap(expected: expected, found: m.fileName)
            }
            expected += 1
            index += 1
        }
        return sorted
    }
}

/// Why migrations were refused. The descriptions are meant for an operator reading a log.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    case directoryNotFound(path: String)
    case unreadableFile(path: String, reason: String)
    case invalidFileName(String)
    case invalidContents(fileName: String, reason: String)
    case duplicateVersion(Int, fileNames: [String])
    case gap(expected: Int, found: String)
    case checksumMismatch(fileName: String, version: Int, recorded: String, current: String)
    case renamed(version: Int, recordedName: String, fileName: String)
    case missingFile(version: Int, name: String)

    public var description: String {
        switch self {
        case .directoryNotFound(let path):
            return "migrations directory not found: \(path)"
        case .unreadableFile(let path, let reason):
            return "cannot read migration \(path): \(reason)"
        case .invalidFileName(let name):
            return "invalid migration file name \(name): expected NNNN_name.sql (four digits from 0001, then letters, digits, _ or -)"
        case .invalidContents(let name, let reason):
            return "invalid migration \(name): \(reason)"
        case .duplicateVersion(let version, let names):
            return "duplicate migration number \(Migration.fourDigits(version)): \(names.joined(separator: ", "))"
        case .gap(let expected, let found):
            return "migration numbers must be consecutive from 0001: expected \(Migration.fourDigits(expected)), found \(found)"
        case .checksumMismatch(let name, let version, let recorded, let current):
            return "migration \(name) (version \(version)) was edited after it was applied: "
                + "recorded checksum \(recorded), file checksum \(current). "
                + "Migrations must never be edited once released; restore the file and add a new migration instead."
        case .renamed(let version, let recordedName, let name):
            return "migration version \(version) was applied as \(recordedName) but the file is now \(name); "
                + "migrations must never be edited once released; restore the file and add a new migration instead."
        case .missingFile(let version, let name):
            return "migration \(Migration.fourDigits(version))_\(name).sql is recorded as applied but is missing on disk "
                + "(was it deleted, or is this database newer than this build?)"
        }
    }
}

extension Migration {
    static func fourDigits(_ version: Int) -> String {
        let digits = String(version)
        return digits.count >= 4 ? digits : String(repeating: "0", count: 4 - digits.count) + digits
    }
}
