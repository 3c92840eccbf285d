import HTTPCore
import Logging

/// A swift-log handler writing one JSON object per line:
/// `{"ts":"2026-11-22T10:00:00.123Z","level":"info","logger":"http","message":"request","status":200,…}`.
/// Metadata is merged into the object; integers, doubles and booleans given as
/// `.stringConvertible` stay JSON numbers and booleans.
///
/// ```swift
/// LoggingSystem.bootstrap { JSONLogHandler(label: $0, level: .info) }
/// ```
public typealias JSONLogHandler = LineLogHandler<JSONLineFormat>

/// `JSONLogHandler`'s lines: one JSON object, `ts`, `level`, `logger`, `message`, then the
/// metadata's members, keys sorted.
public enum JSONLineFormat: LogLineFormat {
    public static func line(_ event: LogEvent, label: String, metadata: Logger.Metadata) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(320)
        out.append(contentsOf: "{\"ts\":\"".utf8)
        HTTPDate.appendISO8601Now(to: &out)
        out.append(contentsOf: "\",\"level\":".utf8)
        JSONValue.writeString(event.level.rawValue, into: &out)
        out.append(contentsOf: ",\"logger\":".utf8)
        JSONValue.writeString(label, into: &out)
        out.append(contentsOf: ",\"message\":".utf8)
        JSONValue.writeString(event.message.description, into: &out)
        if let error = event.error {
            out.append(contentsOf: ",\"error\":".utf8)
            JSONValue.writeString(String(describing: error), into: &out)
        }
        writeMembers(metadata, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// The metadata as members, keys sorted (stable lines), reserved keys skipped.
    static func writeMembers(_ metadata: Logger.Metadata, into out: inout [UInt8]) {
        // Byte order of the UTF-8 keys: stable, and cheaper than String's Unicode ordering.
        for (key, value) in metadata.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            switch key {
            case "ts", "level", "logger", "message": continue
            default: break
            }
            out.append(UInt8(ascii: ","))
            JSONValue.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            write(value, into: &out)
        }
    }

    /// A metadata value as JSON (strings written straight, the rest through `jsonValue`).
    static func write(_ value: Logger.MetadataValue, into out: inout [UInt8]) {
        if case .string(let s) = value {
            JSONValue.writeString(s, into: &out)
        } else {
            jsonValue(value).write(into: &out)
        }
    }

    static func jsonValue(_ v: Logger.MetadataValue) -> JSONValue {
        switch v {
        case .string(let s): return .string(s)
        case .stringConvertible(let c):
            switch c {
            case let i as Int: return .int(i)
            case let i as Int64: return .int(Int(i))
            case let i as UInt64: return i <= UInt64(Int.max) ? .int(Int(i)) : .string(String(i))
            case let d as Double: return d.isFinite ? .double(d) : .string(String(d))
            case let b as Bool: return .bool(b)
            default: return .string(c.description)
            }
        case .array(let items): return .array(items.map(jsonValue))
        case .dictionary(let d): return .object(d.sorted { $0.key < $1.key }.map { ($0.key, jsonValue($0.value)) })
        }
    }
}
