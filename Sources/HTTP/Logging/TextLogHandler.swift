import HTTPCore
import Logging

/// A readable swift-log handler: `2026-11-22T10:00:00.123Z info http: request method=GET status=200 …`.
public typealias TextLogHandler = LineLogHandler<TextLineFormat>

/// `TextLogHandler`'s lines: time, level, label, message, then `key=value` sorted by key.
public enum TextLineFormat: LogLineFormat {
    public static func line(_ event: LogEvent, label: String, metadata: Logger.Metadata) -> [UInt8] {
        var line = "\(HTTPDate.iso8601Now()) \(event.level.rawValue) \(label): \(event.message)"
        if let error = event.error { line += " error=\(error)" }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let text = "\(value)"
            line += " \(key)=" + (text.contains(" ") || text.isEmpty ? "\"\(text)\"" : text)
        }
        line += "\n"
        return Array(line.utf8)
    }
}
