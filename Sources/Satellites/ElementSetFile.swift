#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// Reads `bytes`; throws only when the file as a whole is unusable (too large, not text, not
    /// JSON at all) — bad records are listed in ``problems``.
    public init(bytes: [UInt8]) throws(ElementSetError) {
        guard bytes.count <= Self.maxBytes else {
            throw ElementSetError(reason: "the file is \(bytes.count) bytes; at most \(Self.maxBytes) are read")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ElementSetError(reason: "the file is not UTF-8 text")
        }
        let first = text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        switch first {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            format = .ommJSON
            (entries, problems) = try OMMParser.parseJSON(Array(bytes))
        case UInt8(ascii: "<"):
            format = .ommXML
            (entries, problems) = OMMParser.parseXML(text)
        default:
            format = .tle
            (entries, problems) = Self.parseTLE(text)
        }
    }

    /// 2- and 3-line sets; blank lines and `#` comments are skipped; a name line may carry
    /// Space-Track's `0 ` prefix.
    static func parseTLE(_ text: String) -> ([Entry], [ElementSetError]) {
        var entries: [Entry] = []
        var problems: [ElementSetError] = []
        // "\r\n" is one Character in Swift: split on it as well as on "\n" and a lone "\r".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        var i = 0
        var name: (text: String, line: Int)?
        while i < lines.count {
            let line = TLEParser.trimmedTrailing(lines[i])
            let number = i + 1
            if line.isEmpty || line.hasPrefix("#") { i += 1; continue }
            guard entries.count < maxSets else {
                problems.append(ElementSetError(line: number, reason: "more than \(maxSets) element sets: the rest of the file is not read"))
                break
            }
            if line.hasPrefix("1 ") {
                let start = name?.line ?? number
                guard i + 1 < lines.count, TLEParser.trimmedTrailing(lines[i + 1]).hasPrefix("2 ") else {
                    problems.append(ElementSetError(line: number, satellite: name?.text, reason: "line 1 is not followed by a line 2"))
                    name = nil
                    i += 1
                    continue
                }
                do {
                    let set = try TLEParser.parse(line1: line, line2: lines[i + 1], name: name?.text, line1Number: number)
                    entries.append(Entry(elements: set, line: start, record: nil))
                } catch {
                    problems.append(error)
                }
                name = nil
                i += 2
                continue
            }
            if line.hasPrefix("2 ") {
                problems.append(ElementSetError(line: number, satellite: name?.text, reason: "line 2 without a line 1 before it"))
                name = nil
                i += 1
                continue
            }
            if let pending = name {
                problems.append(ElementSetError(line: pending.line, satellite: pending.text, reason: "a name line not followed by lines 1 and 2"))
            }
            var title = String(line)
            if title.hasPrefix("0 ") { title.removeFirst(2) }
            title = title.trimmingSpaces
            guard title.utf8.count <= 80 else {
                problems.append(ElementSetError(line: number, reason: "a name line longer than 80 characters (a TLE name has 24)"))
                name = nil
                i += 1
                continue
            }
            name = (title, number)
            i += 1
        }
        if let pending = name {
            problems.append(ElementSetError(line: pending.line, satellite: pending.text, reason: "a name line not followed by lines 1 and 2"))
        }
        return (entries, problems)
    }
}
