import Foundation
import Logging
import Synchronization

/// A uniquely named directory under the system temporary directory, removed by `remove()`
/// (call it in a `defer`).
struct TemporaryDirectory {
    let url: URL

    init(_ label: String = "storage") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("solarsystem-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func write(_ name: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: url.appendingPathComponent(name))
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Collects log records so tests can assert a warning was logged.
final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let stored = Mutex<[Record]>([])

    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var records: [Record] { stored.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let record = Record(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:])
        stored.withLock { $0.append(record) }
    }
}

extension Logger {
    /// A logger writing into `handler`.
    static func capturing(_ handler: CapturingLogHandler) -> Logger {
        Logger(label: "storage-tests") { _ in handler }
    }
}

/// The repository's `Migrations/` directory.
let repositoryMigrations = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Migrations", isDirectory: true)
