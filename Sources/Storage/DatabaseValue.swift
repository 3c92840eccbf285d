import Foundation

/// One SQLite value in its storage class. Literals make argument lists short:
///
/// ```swift
/// try db.execute("INSERT INTO t(a, b, c) VALUES (?, ?, ?)", arguments: [1, "two", nil])
/// ```
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// SQLite's five storage classes (`sqlite3_column_type`).
    public enum StorageClass: Sendable, Hashable {
        case null, integer, real, text, blob
    }

    public var storageClass: StorageClass {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    public var isNull: Bool { self == .null }

    /// The integer, if this is one.
    public var int64: Int64? { if case .integer(let v) = self { v } else { nil } }
    /// The number as a `Double` (integers convert), if this is a number.
    public var double: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }
    /// The text, if this is text.
    public var string: String? { if case .text(let v) = self { v } else { nil } }
    /// The bytes, if this is a blob.
    public var blob: [UInt8]? { if case .blob(let v) = self { v } else { nil } }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): "'\(v)'"
        case .blob(let v): "<\(v.count) bytes>"
        }
    }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}

extension DatabaseValue {
    public init(_ value: Int) { self = .integer(Int64(value)) }
    public init(_ value: Int64) { self = .integer(value) }
    public init(_ value: Double) { self = .real(value) }
    public init(_ value: String) { self = .text(value) }
    public init(_ value: [UInt8]) { self = .blob(value) }
    public init(_ value: Data) { self = .blob([UInt8](value)) }
}

/// One result row, copied out of a statement: values by column index or name.
///
/// ```swift
/// let rows = try db.query("SELECT version, name FROM schema_migrations")
/// rows[0]["name"]?.string // "trajectory_cache"
/// ```
public struct Row: Sendable, Hashable {
    public let columnNames: [String]
    public let values: [DatabaseValue]

    public init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    public var count: Int { values.count }

    /// The value in column `index` (0-based); `.null` when out of range.
    public subscript(index: Int) -> DatabaseValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of the first column called `name` (case-insensitive, as SQL is), or nil.
    public subscript(name: String) -> DatabaseValue? {
        let lower = name.lowercased()
        guard let i = columnNames.firstIndex(where: { $0.lowercased() == lower }) else { return nil }
        return values[i]
    }
}
