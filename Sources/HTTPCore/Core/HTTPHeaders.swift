/// An ordered list of header fields with case-insensitive lookup. Repeated fields survive in
/// the order they arrived (`values(for:)` returns them all).
///
/// ```swift
/// var h: HTTPHeaders = ["Content-Type": "application/json"]
/// h["content-type"] // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Field = (name: String, value: String)
    public private(set) var fields: [Field]

    public init() { fields = [] }
    public init(_ fields: [Field]) { self.fields = fields }
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        for f in fields where asciiCaseInsensitiveEquals(f.name, name) { return f.value }
        return nil
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        var out: [String] = []
        for f in fields where asciiCaseInsensitiveEquals(f.name, name) { out.append(f.value) }
        return out
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The comma-separated list elements of every `name` field, trimmed and lowercased
    /// (`Connection: keep-alive, Upgrade` → `["keep-alive", "upgrade"]`).
    public func tokens(for name: String) -> [String] {
        var out: [String] = []
        for f in fields where asciiCaseInsensitiveEquals(f.name, name) {
            for part in f.value.split(separator: ",") {
                let t = trimOWS(Substring(part))
                if !t.isEmpty { out.append(asciiLowercased(t)) }
            }
        }
        return out
    }

    /// Whether a comma-separated field holds `token` (case-insensitive).
    public func containsToken(_ token: String, in name: String) -> Bool {
        for f in fields where asciiCaseInsensitiveEquals(f.name, name) && listContains(f.value, token) {
            return true
        }
        return false
    }

    /// Whether the comma-separated list `value` holds `token` (ASCII case-insensitive, optional
    /// whitespace around items): a scan of the bytes, nothing allocated — it runs on every response.
    private func listContains(_ value: String, _ token: String) -> Bool {
        let v = value.utf8
        var start = v.startIndex
        while start < v.endIndex {
            let comma = v[start...].firstIndex(of: UInt8(ascii: ",")) ?? v.endIndex
            if asciiCaseInsensitiveEquals(trimOWS(value[start..<comma]), token) { return true }
            start = comma == v.endIndex ? comma : v.index(after: comma)
        }
        return false
    }

    public mutating func add(name: String, value: String) { fields.append((name: name, value: value)) }

    public mutating func add(contentsOf other: HTTPHeaders) { fields.append(contentsOf: other.fields) }

    /// Replaces the first `name` field's value (removing any others) or appends one.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let i = fields.firstIndex(where: { asciiCaseInsensitiveEquals($0.name, name) }) {
            fields[i].value = value
            var j = fields.count - 1
            while j > i {
                if asciiCaseInsensitiveEquals(fields[j].name, name) { fields.remove(at: j) }
                j -= 1
            }
        } else {
            fields.append((name: name, value: value))
        }
    }

    /// Removes every `name` field.
    public mutating func remove(name: String) {
        fields.removeAll { asciiCaseInsensitiveEquals($0.name, name) }
    }
}

/// ASCII case-insensitive equality without allocating.
@inlinable
package func asciiCaseInsensitiveEquals<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
    let au = a.utf8, bu = b.utf8
    guard au.count == bu.count else { return false }
    // Native strings (header names, nearly always): compared over their contiguous bytes.
    if let equal = au.withContiguousStorageIfAvailable({ x in
        bu.withContiguousStorageIfAvailable { y -> Bool in
            for i in 0..<x.count where x[i] != y[i] {
                let lx = (x[i] >= 0x41 && x[i] <= 0x5A) ? x[i] | 0x20 : x[i]
                let ly = (y[i] >= 0x41 && y[i] <= 0x5A) ? y[i] | 0x20 : y[i]
                if lx != ly { return false }
            }
            return true
        }
    }), let equal {
        return equal
    }
    var i = au.makeIterator(), j = bu.makeIterator()
    while let x = i.next(), let y = j.next() {
        if x != y {
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        }
    }
    return true
}

package func asciiLowercased<S: StringProtocol>(_ s: S) -> String {
    var bytes = Array(s.utf8)
    for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] |= 0x20 }
    return String(decoding: bytes, as: UTF8.self)
}

/// Trims optional whitespace (SP / HTAB) from both ends.
package func trimOWS(_ s: Substring) -> Substring {
    var s = s
    while let f = s.utf8.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
    while let l = s.utf8.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
    return s
}
