import ArgumentParser
import Foundation
import Logging
import Storage

/// Where the SQLite cache lives, how large it may grow and where its migrations are: `--db`
/// (default `./data/solarsystem.sqlite`, `:memory:` allowed), `--cache-max-mb` (default 256) and
/// `--migrations` (then `$SOLARSYSTEM_MIGRATIONS`, `./Migrations`, next to the executable,
/// `/usr/share/solarsystem/Migrations`).
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp("SQLite file for the sample cache; :memory: keeps nothing on disk (env SOLARSYSTEM_DB; default ./data/solarsystem.sqlite).", valueName: "path"))
    var db: String?

    @Option(name: .customLong("cache-max-mb"), help: ArgumentHelp("Cap on the SQLite sample cache in MiB; least recently used rows are evicted beyond it (env SOLARSYSTEM_CACHE_MAX_MB; default 256).", valueName: "MiB"))
    var cacheMaxMB: Int?

    @Option(name: .customLong("migrations"), help: ArgumentHelp("Directory holding NNNN_name.sql migrations (env SOLARSYSTEM_MIGRATIONS; default ./Migrations, then next to the executable, then /usr/share/solarsystem/Migrations).", valueName: "dir"))
    var migrations: String?

    /// The database path after the flag, the environment and the default.
    var path: String {
        get { Setting.string(flag: db, env: "SOLARSYSTEM_DB", default: "./data/solarsystem.sqlite") }
        set { db = newValue }
    }

    /// The database file's directory (nil for `:memory:`): writable where the server runs, so a
    /// scratch directory for the kernels' private copies under a read-only root filesystem.
    var scratchDirectory: String? {
        let p = path
        guard p != ":memory:", !p.isEmpty else { return nil }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        return slash == p.startIndex ? "/" : String(p[..<slash])
    }

    /// The sample cache's cap in bytes, after the flag, the environment and the default (256 MiB).
    func cacheMaxBytes() throws -> Int {
        try Setting.int(flag: cacheMaxMB, env: "SOLARSYSTEM_CACHE_MAX_MB", flagName: "--cache-max-mb", default: 256, in: 1...1_048_576) << 20
    }

    func validate() throws {
        _ = try cacheMaxBytes()
    }

    func migrationsDirectory() throws -> URL {
        var candidates: [(String, String)] = []
        if let migrations { candidates.append((migrations, "--migrations")) }
        if let env = Setting.env("SOLARSYSTEM_MIGRATIONS") { candidates.append((env, "SOLARSYSTEM_MIGRATIONS")) }
        candidates.append((FileManager.default.currentDirectoryPath + "/Migrations", "./Migrations"))
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append((exe.appendingPathComponent("Migrations").path, "next to the executable"))
        candidates.append(("/usr/share/solarsystem/Migrations", "/usr/share/solarsystem/Migrations"))
        var isDirectory: ObjCBool = false
        for (i, c) in candidates.enumerated() {
            if FileManager.default.fileExists(atPath: c.0, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: c.0, isDirectory: true)
            }
            if i == 0, migrations != nil || Setting.env("SOLARSYSTEM_MIGRATIONS") != nil { throw CLIError("\(c.1) \(c.0): not a directory") }
        }
        throw CLIError("no Migrations directory found; tried \(candidates.map { "\($0.0) (\($0.1))" }.joined(separator: ", "))")
    }

    /// Opens (recovering a corrupt file with a warning) and migrates the database.
    func openMigrated(logger: Logger) throws -> (Database, OpenReport, applied: [Migration]) {
        let migrator: Migrator
        do { migrator = try Migrator(directory: try migrationsDirectory()) } catch let e as CLIError { throw e } catch {
            throw CLIError("migrations: \(error)")
        }
        do {
            let (db, report) = try Database.open(path: path, logger: logger)
            let applied = try migrator.migrate(db, logger: logger)
            return (db, report, applied)
        } catch {
            throw CLIError("database \(path): \(error)")
        }
    }
}

/// `solarsystem migrate`: apply pending migrations (or `--list` them) and exit.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the SQLite migrations, or list applied and pending ones."
    )

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "List migrations with their state instead of applying them.")
    var list = false

    func run() throws {
        var logger = Logger(label: "migrate")
        logger.logLevel = .warning
        if list {
            let migrator: Migrator
            do { migrator = try Migrator(directory: try database.migrationsDirectory()) } catch let e as CLIError { throw e } catch {
                throw CLIError("migrations: \(error)")
            }
            let statuses: [MigrationStatus]
            do {
                let (db, _) = try Database.open(path: database.path, logger: logger)
                defer { db.close() }
                statuses = try migrator.list(db)
            } catch {
                throw CLIError("database \(database.path): \(error)")
            }
            for s in statuses {
                print("\(String(format: "%04d", s.version))  \(s.name)  \(s.checksum.prefix(12))  \(s.appliedAt.map { "applied \($0)" } ?? "pending")")
            }
            return
        }
        let (db, report, applied) = try database.openMigrated(logger: logger)
        defer { db.close() }
        if let moved = report.movedAsideTo { print("moved a corrupt file aside to \(moved)") }
        print(applied.isEmpty ? "nothing to apply; \(database.path) is up to date" : "applied \(applied.map(\.fileName).joined(separator: ", ")) to \(database.path)")
    }
}
