/// A small JSON value for problem-detail extension members and log lines; serialised without
/// Foundation.
public enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case array([JSONValue])
    /// Ordered members.
    case object([(String, JSONValue)])
    case null

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.null, .null): return true
        default: return false
        }
    }

    /// Appends the compact JSON text of this value.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.isFinite {
                if d == d.rounded(), abs(d) < 1e15 { out.append(contentsOf: String(Int(d)).utf8) } else { out.append(contentsOf: "\(d)".utf8) }
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, v) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(m.0, into: &out)
                out.append(UInt8(ascii: ":"))
                m.1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a quoted JSON string, escaping quotes, backslashes and control characters.
    public static func writeString<S: StringProtocol>(_ s: S, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (log fields, ids, names) need no escaping: copy them in one go.
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { buffer in
            for b in buffer where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 0x7F { return false }
            out.append(contentsOf: buffer)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(b)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(b)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
