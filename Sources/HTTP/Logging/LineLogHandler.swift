import Logging

/// How one log line is written: the only part `JSONLogHandler` and `TextLogHandler` differ in.
public protocol LogLineFormat: Sendable {
    /// The line for `event`, newline included, with `metadata` already merged (the handler's,
    /// the provider's, then the event's).
    static func line(_ event: LogEvent, label: String, metadata: Logger.Metadata) -> [UInt8]
}

/// A swift-log handler writing one line per event to a `LogOutput` in `Format`. Use it through
/// `JSONLogHandler` or `TextLogHandler`.
public struct LineLogHandler<Format: LogLineFormat>: LogHandler {
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
        output.write(line: Format.line(event, label: label, metadata: merged(event.metadata)))
    }

    /// The handler's metadata, the provider's, then the event's. Most lines (the access log) carry
    /// only the event's own: no merging then.
    func merged(_ event: Logger.Metadata?) -> Logger.Metadata {
        let provided = metadataProvider?.get()
        if metadata.isEmpty, provided?.isEmpty ?? true { return event ?? [:] }
        var merged = metadata
        if let provided { merged.merge(provided) { _, new in new } }
        if let event { merged.merge(event) { _, new in new } }
        return merged
    }
}
