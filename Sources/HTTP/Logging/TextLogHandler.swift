import Logging

/// A readable swift-log handler: `2026-11-22T10:00:00.123Z info http: request method=GET status=200 …`.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level
    public let label: String
    let output: LogOutput

    public init(label: String, level: Logger.Level = .info, output: LogOutput = .standardOutput, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.logLevel = level
        self.output = output
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let m = event.metadata { merged.merge(m) { _, new in new } }
        var line = "\(HTTPDate.iso8601Now()) \(event.level.rawValue) \(label): \(event.message)"
        if let error = event.error { line += " error=\(error)" }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            let text = "\(value)"
            line += " \(key)=" + (text.contains(" ") || text.isEmpty ? "\"\(text)\"" : text)
        }
        line += "\n"
        output.write(line: Array(line.utf8))
    }
}
