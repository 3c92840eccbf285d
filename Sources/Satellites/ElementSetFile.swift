import Ephemeris

/// The element sets of one file — CelesTrak's 2- or 3-line TLE text, OMM JSON (`FORMAT=json`) or
/// OMM XML (`FORMAT=xml`), told apart by the first character — with every record that could not
/// be read, by line (or JSON record) and reason. One bad record never hides the good ones.
///
/// Limits (a file is the operator's, but a mistake must not take the memory): at most
/// ``maxBytes`` of text and ``maxSets`` records; past either, the rest is reported, not read.
public struct ElementSetFile: Sendable {
    /// One set and where it starts in the file (1-based line; nil for JSON records).
    public struct Entry: Sendable {
        public var elements: ElementSet
        public var line: Int?
        public var record: Int?
    }

    public enum Format: String, Sendable { case tle, ommJSON = "omm-json", ommXML = "omm-xml" }

    public var format: Format
    public var entries: [Entry]
    public var problems: [ElementSetError]

    /// 32 MiB: CelesTrak's whole active catalogue is about 2 MB as TLE and 6 MB as OMM JSON.
    public static let maxBytes = 32 << 20
    /// 100,000 sets: four times the catalogued objects in orbit.
    public static let maxSets = 100_000
    /// The longest name read (bytes): a TLE name line's 80 columns, for OMM's `OBJECT_NAME` too
    /// (a TLE name has 24).
    public static let maxNameLength = 80
    /// The years an element set's epoch may lie in: from Sputnik's to the end of the century
    /// (a later or earlier one is a typo, and SGP4 far from its epoch means nothing).
    public static let epochYears = 1957...2100

    /// Reads `bytes`; throws only when the file as a whole is unusable (too large, not text, not
    /// JSON at all) — bad records are listed in ``problems``. `interrupt` is asked every few
    /// hundred records (a reload stops when the server does).
    public init(bytes: [UInt8], interrupt: Interrupt = .never) throws(ElementSetError) {
        guard bytes.count <= Self.maxBytes else {
            throw ElementSetError(reason: "the file is \(bytes.count) bytes; at most \(Self.maxBytes) are read")
        }
        guard Self.isUTF8(bytes) else {
            throw ElementSetError(reason: "the file is not UTF-8 text")
        }
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        switch first {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            format = .ommJSON
            (entries, problems) = try OMMParser.parseJSON(bytes, interrupt: interrupt)
        case UInt8(ascii: "<"):
            format = .ommXML
            (entries, problems) = OMMParser.parseXML(bytes, interrupt: interrupt)
        default:
            format = .tle
            (entries, problems) = Self.parseTLE(bytes, interrupt: interrupt)
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (checked in place, without a copy).
    static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Whether the file's last record is cut short: a writer that has not finished (a TLE file
    /// whose last line is not a whole line 2, JSON or XML that does not close). A reload waits for
    /// such a file to change or to hold still for long.
    public static func looksUnfinished(_ bytes: [UInt8]) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { return false }
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        var trimmed = end
        while trimmed > 0, bytes[trimmed - 1] == 0x0A || bytes[trimmed - 1] == 0x0D || bytes[trimmed - 1] == 0x20 || bytes[trimmed - 1] == 0x09 { trimmed -= 1 }
        guard trimmed > 0 else { return false }
        switch first {
        case UInt8(ascii: "["): return bytes[trimmed - 1] != UInt8(ascii: "]")
        case UInt8(ascii: "{"): return bytes[trimmed - 1] != UInt8(ascii: "}")
        case UInt8(ascii: "<"): return bytes[trimmed - 1] != UInt8(ascii: ">")
        default:
            // The last non-blank line: anything but a whole line 2 (or a comment) means the last
            // set is not all there.
            var lineStart = trimmed
            while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
            if bytes[lineStart] == UInt8(ascii: "#") { return false }
            return !(bytes[lineStart] == UInt8(ascii: "2") && trimmed - lineStart >= TLEParser.lineLength)
        }
    }

    /// 2- and 3-line sets; blank lines and `#` comments are skipped; a name line may carry
    /// Space-Track's `0 ` prefix. Lines are read from the bytes one at a time.
    static func parseTLE(_ bytes: [UInt8], interrupt: Interrupt = .never) -> ([Entry], [ElementSetError]) {
        var entries: [Entry] = []
        var problems: [ElementSetError] = []
        var lines = LineReader(bytes)
        var name: (text: String, line: Int)?
        var pending: (text: Substring, number: Int)?
        func nextLine() -> (text: Substring, number: Int)? {
            if let p = pending { pending = nil; return p }
            return lines.next()
        }
        while let (raw, number) = nextLine() {
            let line = TLEParser.trimmedTrailing(raw)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if number % 1024 == 0, (try? interrupt.check()) == nil {
                problems.append(ElementSetError(line: number, reason: "reading stopped: the server is stopping"))
                break
            }
            guard entries.count < maxSets else {
                problems.append(ElementSetError(line: number, reason: "more than \(maxSets) element sets: the rest of the file is not read"))
                break
            }
            if line.hasPrefix("1 ") {
                let start = name?.line ?? number
                guard let second = lines.next() else {
                    problems.append(ElementSetError(line: number, satellite: name?.text, reason: "line 1 is not followed by a line 2"))
                    name = nil
                    continue
                }
                guard TLEParser.trimmedTrailing(second.text).hasPrefix("2 ") else {
                    problems.append(ElementSetError(line: number, satellite: name?.text, reason: "line 1 is not followed by a line 2"))
                    name = nil
                    pending = second
                    continue
                }
                do {
                    let set = try TLEParser.parse(line1: line, line2: second.text, name: name?.text, line1Number: number)
                    entries.append(Entry(elements: set, line: start, record: nil))
                } catch {
                    problems.append(error)
                }
                name = nil
                continue
            }
            if line.hasPrefix("2 ") {
                problems.append(ElementSetError(line: number, satellite: name?.text, reason: "line 2 without a line 1 before it"))
                name = nil
                continue
            }
            if let pending = name {
                problems.append(ElementSetError(line: pending.line, satellite: pending.text, reason: "a name line not followed by lines 1 and 2"))
            }
            var title = String(line)
            if title.hasPrefix("0 ") { title.removeFirst(2) }
            title = title.trimmingSpaces
            guard title.utf8.count <= maxNameLength else {
                problems.append(ElementSetError(line: number, reason: "a name line longer than \(maxNameLength) characters (a TLE name has 24)"))
                name = nil
                continue
            }
            name = (title, number)
        }
        if let pending = name {
            problems.append(ElementSetError(line: pending.line, satellite: pending.text, reason: "a name line not followed by lines 1 and 2"))
        }
        return (entries, problems)
    }
}

/// The lines of UTF-8 bytes, one at a time, split at `\n`, `\r\n` or a lone `\r`; each line a
/// short-lived string (a file's text is never copied whole).
struct LineReader {
    let bytes: [UInt8]
    private var offset = 0
    private var number = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> (text: Substring, number: Int)? {
        guard offset < bytes.count else { return nil }
        var end = offset
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        // A line longer than any element-set line is passed on cut short (its parser refuses it).
        let text = String(decoding: bytes[offset..<min(end, offset + 1024)], as: UTF8.self)[...]
        number += 1
        if end < bytes.count, bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { end += 1 }
        offset = end + 1
        return (text, number)
    }
}
