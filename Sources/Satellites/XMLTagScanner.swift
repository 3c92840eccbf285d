/// The tags of an XML document in order, in one pass: start tags (a self-closing one is
/// `.other`), end tags, and everything else that is markup (declarations, comments, processing
/// instructions, CDATA), with each tag's byte range and line. No entity is expanded and no
/// DTD is read; text between tags is the caller's, by range.
struct XMLTagScanner {
    enum Kind {
        case start(ArraySlice<UInt8>)
        case end(ArraySlice<UInt8>)
        case other
    }

    struct Tag {
        let kind: Kind
        /// Offset of its `<`, and just after its `>`.
        let start: Int
        let end: Int
        let line: Int
    }

    let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineCountedTo = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Markup that ends with its own terminator rather than the first `>`.
    private static let delimited: [([UInt8], [UInt8])] = [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>")].map { (Array($0.0.utf8), Array($0.1.utf8)) }

    /// The first occurrence of `byte` at or after `from`, or nil.
    private func find(_ byte: UInt8, from: Int) -> Int? {
        var i = from
        while i < bytes.count {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// The first occurrence of `needle` at or after `from`, or nil (needles are a few bytes).
    private func find(_ needle: [UInt8], from: Int) -> Int? {
        var i = from
        while let j = find(needle[0], from: i) {
            if j + needle.count <= bytes.count, bytes[j..<(j + needle.count)].elementsEqual(needle) { return j }
            i = j + 1
        }
        return nil
    }

    private mutating func lineAt(_ position: Int) -> Int {
        while lineCountedTo < position {
            if bytes[lineCountedTo] == 0x0A { line += 1 }
            lineCountedTo += 1
        }
        return line
    }

    mutating func next() -> Tag? {
        guard let lt = find(UInt8(ascii: "<"), from: offset) else {
            offset = bytes.count
            return nil
        }
        let line = lineAt(lt)
        // Comments, CDATA and processing instructions end with their own terminators.
        if lt + 1 < bytes.count, bytes[lt + 1] == UInt8(ascii: "!") || bytes[lt + 1] == UInt8(ascii: "?") {
            for (opening, closing) in Self.delimited where lt + opening.count <= bytes.count && bytes[lt..<(lt + opening.count)].elementsEqual(opening) {
                let close = find(closing, from: lt + opening.count).map { $0 + closing.count } ?? bytes.count
                offset = close
                return Tag(kind: .other, start: lt, end: close, line: line)
            }
        }
        guard let gt = find(UInt8(ascii: ">"), from: lt + 1) else {
            offset = bytes.count
            return nil
        }
        offset = gt + 1
        let inside = bytes[(lt + 1)..<gt]
        guard let first = inside.first else { return Tag(kind: .other, start: lt, end: gt + 1, line: line) }
        func name(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            s.prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != UInt8(ascii: "/") }
        }
        if first == UInt8(ascii: "/") { return Tag(kind: .end(name(inside.dropFirst())), start: lt, end: gt + 1, line: line) }
        if first == UInt8(ascii: "!") || inside.last == UInt8(ascii: "/") { return Tag(kind: .other, start: lt, end: gt + 1, line: line) }
        return Tag(kind: .start(name(inside)), start: lt, end: gt + 1, line: line)
    }
}
