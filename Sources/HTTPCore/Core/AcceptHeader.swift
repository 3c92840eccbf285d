/// The media ranges of a request's `Accept` fields (RFC 9110 §12.5.1), and the choice among the
/// representations a resource offers: the highest quality wins, the most specific matching range
/// gives a type its quality (`text/csv` before `text/*` before `*/*`), and ties go to the
/// server's order of preference.
///
/// ```swift
/// AcceptHeader(["text/csv;q=1, application/json;q=0.5"]).preferred(["application/json", "text/csv"]) // "text/csv"
/// ```
/// Malformed elements (no `/`, `*/csv`, a `q` outside 0…1) are ignored; a header with no valid
/// element is treated as absent (anything is acceptable).
public struct AcceptHeader: Sendable {
    /// One `type/subtype;params;q=…` element, lowercased (parameter values too: the media types
    /// this server offers have case-insensitive parameters only, like `charset`).
    public struct MediaRange: Sendable, Equatable {
        public var type: String
        public var subtype: String
        public var parameters: [String: String]
        public var quality: Double

        /// 3 for `type/subtype;param`, 2 for `type/subtype`, 1 for `type/*`, 0 for `*/*`.
        var specificity: Int {
            if type == "*" { return 0 }
            if subtype == "*" { return 1 }
            return parameters.isEmpty ? 2 : 3
        }

        func matches(_ offered: MediaRange) -> Bool {
            if type != "*", type != offered.type { return false }
            if subtype != "*", subtype != offered.subtype { return false }
            return parameters.allSatisfy { offered.parameters[$0.key] == $0.value }
        }

        /// Parses one element; nil when it is malformed.
        public init?(_ element: Substring) {
            var parts = Self.splitOutsideQuotes(element, on: ";").map { trimOWS($0) }
            guard let range = parts.first else { return nil }
            parts.removeFirst()
            let halves = range.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, Self.isToken(halves[0]), Self.isToken(halves[1]) else { return nil }
            type = asciiLowercased(halves[0])
            subtype = asciiLowercased(halves[1])
            if type == "*", subtype != "*" { return nil }
            parameters = [:]
            quality = 1
            for p in parts where !p.isEmpty {
                guard let eq = p.firstIndex(of: "=") else { return nil }
                let name = asciiLowercased(trimOWS(p[..<eq]))
                var value = trimOWS(p[p.index(after: eq)...])
                guard Self.isToken(Substring(name)) else { return nil }
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
                if name == "q" {
                    // qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ); what follows q are accept-extensions.
                    guard value.count <= 5, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                          let q = Double(value), (0...1).contains(q) else { return nil }
                    quality = q
                    break
                }
                parameters[name] = asciiLowercased(value)
            }
        }

        /// An offered media type (`text/csv; charset=utf-8`), quality 1.
        init(offered: String) {
            self = MediaRange(Substring(offered)) ?? MediaRange(type: "", subtype: "", parameters: [:], quality: 0)
        }

        private init(type: String, subtype: String, parameters: [String: String], quality: Double) {
            self.type = type
            self.subtype = subtype
            self.parameters = parameters
            self.quality = quality
        }

        private static func isToken(_ s: Substring) -> Bool {
            !s.isEmpty && s.utf8.allSatisfy { b in
                b > 0x20 && b < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(b)
            }
        }

        static func splitOutsideQuotes(_ s: Substring, on separator: Character) -> [Substring] {
            var out: [Substring] = []
            var start = s.startIndex, quoted = false, escaped = false
            for i in s.indices {
                let c = s[i]
                if escaped { escaped = false; continue }
                if quoted, c == "\\" { escaped = true; continue }
                if c == "\"" { quoted.toggle() }
                if !quoted, c == separator { out.append(s[start..<i]); start = s.index(after: i) }
            }
            out.append(s[start...])
            return out
        }
    }

    /// The valid elements, in the order sent; empty when the header is absent or has none.
    public let ranges: [MediaRange]

    /// The values of every `Accept` field (repeated fields are one comma-separated list).
    public init(_ fieldValues: [String]) {
        ranges = fieldValues.flatMap { value in
            MediaRange.splitOutsideQuotes(Substring(value), on: ",").compactMap { element -> MediaRange? in
                let e = trimOWS(element)
                return e.isEmpty ? nil : MediaRange(e)
            }
        }
    }

    /// The quality the client gives `mediaType` (`text/csv; charset=utf-8`): that of the most
    /// specific range matching it, 0 when none does, 1 when the header says nothing.
    public func quality(of mediaType: String) -> Double {
        if ranges.isEmpty { return 1 }
        let offered = MediaRange(offered: mediaType)
        var best: MediaRange?
        for r in ranges where r.matches(offered) {
            if best == nil || r.specificity > best!.specificity { best = r }
        }
        return best?.quality ?? 0
    }

    /// The offered media type with the highest non-zero quality, the first of `offered` (the
    /// server's preference) among equals; nil when none is acceptable.
    public func preferred(_ offered: [String]) -> String? {
        var choice: (type: String, q: Double)?
        for type in offered {
            let q = quality(of: type)
            if q > 0, q > (choice?.q ?? 0) { choice = (type, q) }
        }
        return choice?.type
    }
}
