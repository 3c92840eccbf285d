/// A one-pass reader of the JSON OMM files are: an array of flat objects whose values are
/// strings, numbers, booleans or null. It keeps, of each object, the keywords ``OMMParser``
/// uses, as text (a number as written, so no precision is lost and Space-Track's numbers as
/// strings read the same); nested values are skipped (bounded depth) and make the record a
/// problem. Foundation's `JSONDecoder` builds every object of a 32 MiB file as dictionaries
/// first; this keeps one record at a time.
struct JSONScanner {
    struct Failure: Error {
        let offset: Int
        let reason: String
    }

    /// One object's kept keywords, or why it is not a record.
    struct Record {
        var fields: [String: String] = [:]
        var failure: String?
    }

    /// Nesting beyond this is refused (no stack to exhaust).
    static let maxDepth = 64

    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is allowed before the value.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    var atEnd: Bool { offset >= bytes.count }
    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }
    mutating func advance() { offset += 1 }

    mutating func skipSpace() {
        while offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x0A || bytes[offset] == 0x0D || bytes[offset] == 0x09 { offset += 1 }
    }

    mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek == byte else { throw Failure(offset: offset, reason: "expected \"\(Character(UnicodeScalar(byte)))\"") }
        offset += 1
    }

    /// An object whose values are scalars; the kept keywords' values as text.
    mutating func flatObject() throws(Failure) -> Record {
        var record = Record()
        try expect(UInt8(ascii: "{"))
        skipSpace()
        if peek == UInt8(ascii: "}") { advance(); return record }
        while true {
            skipSpace()
            let key = try keptKey()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            switch peek {
            case UInt8(ascii: "\""):
                let value = try stringBytes(limit: key == nil ? 0 : OMMParser.maxValueBytes)
                if let key {
                    record.fields[key] = value.map { String(decoding: $0, as: UTF8.self) } ?? String(repeating: "?", count: OMMParser.maxValueBytes + 1)
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                try skipValue()
                if let key { record.failure = record.failure ?? "\(key) is not a number or a string" }
            default:
                let start = offset
                try skipScalar()
                if let key {
                    let text = bytes[start..<offset]
                    if !text.elementsEqual("null".utf8) { record.fields[key] = String(decoding: text, as: UTF8.self) }
                }
            }
            skipSpace()
            if peek == UInt8(ascii: ",") { advance(); continue }
            try expect(UInt8(ascii: "}"))
            return record
        }
    }

    /// A key: the name of the OMM keyword it is when ``OMMParser`` keeps it, else nil. Keys are
    /// compared in place (no copy, no hashing); a key with escapes is decoded first.
    mutating func keptKey() throws(Failure) -> String? {
        guard peek == UInt8(ascii: "\"") else { throw Failure(offset: offset, reason: "expected a key") }
        var end = offset + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let key = bytes[(offset + 1)..<end]
            offset = end + 1
            return OMMParser.keptKeys.first { $0.bytes.count == key.count && $0.bytes.elementsEqual(key) }?.name
        }
        guard let decoded = try stringBytes(limit: 256) else { return nil }
        return OMMParser.keptKeys.first { $0.bytes == decoded }?.name
    }

    /// A string's bytes, escapes decoded; nil (the string skipped) when longer than `limit`.
    mutating func stringBytes(limit: Int) throws(Failure) -> [UInt8]? {
        try expect(UInt8(ascii: "\""))
        var out: [UInt8] = []
        var tooLong = false
        while offset < bytes.count {
            let b = bytes[offset]
            offset += 1
            switch b {
            case UInt8(ascii: "\""):
                return tooLong ? nil : out
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { break }
                let e = bytes[offset]
                offset += 1
                var decoded: [UInt8]
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = [e]
                case UInt8(ascii: "b"): decoded = [0x08]
                case UInt8(ascii: "f"): decoded = [0x0C]
                case UInt8(ascii: "n"): decoded = [0x0A]
                case UInt8(ascii: "r"): decoded = [0x0D]
                case UInt8(ascii: "t"): decoded = [0x09]
                case UInt8(ascii: "u"):
                    guard offset + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16) else {
                        throw Failure(offset: offset, reason: "a \\u escape without four hex digits")
                    }
                    offset += 4
                    // Surrogates (characters beyond U+FFFF) are not in element sets: U+FFFD.
                    decoded = Array(String(Character(UnicodeScalar(code) ?? "\u{FFFD}")).utf8)
                default:
                    throw Failure(offset: offset - 1, reason: "an unknown escape")
                }
                if !tooLong { out += decoded }
            default:
                guard b >= 0x20 else { throw Failure(offset: offset - 1, reason: "a control character in a string") }
                if !tooLong { out.append(b) }
            }
            if out.count > limit { tooLong = true; out = [] }
        }
        throw Failure(offset: offset, reason: "a string without its closing quote")
    }

    /// A number, `true`, `false` or `null`.
    mutating func skipScalar() throws(Failure) {
        let start = offset
        while offset < bytes.count {
            let b = bytes[offset]
            let isScalarByte = (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "E")
            guard isScalarByte else { break }
            offset += 1
        }
        guard offset > start, offset - start <= 64 else { throw Failure(offset: start, reason: "expected a value") }
    }

    /// Any value, nested ones included (to `maxDepth`).
    mutating func skipValue(depth: Int = 0) throws(Failure) {
        guard depth < Self.maxDepth else { throw Failure(offset: offset, reason: "nesting deeper than \(Self.maxDepth)") }
        skipSpace()
        switch peek {
        case UInt8(ascii: "\""):
            _ = try stringBytes(limit: 0)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = peek == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = close == UInt8(ascii: "}")
            advance()
            skipSpace()
            if peek == close { advance(); return }
            while true {
                skipSpace()
                if isObject {
                    _ = try stringBytes(limit: 0)
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                }
                try skipValue(depth: depth + 1)
                skipSpace()
                if peek == UInt8(ascii: ",") { advance(); continue }
                try expect(close)
                return
            }
        default:
            try skipScalar()
        }
    }
}
