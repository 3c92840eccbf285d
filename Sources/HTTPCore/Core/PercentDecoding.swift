/// Splitting and percent-decoding of request targets (RFC 3986 §2.1).
enum RequestTarget {
    struct Decoded {
        var path: String
        var query: QueryParameters
    }

    /// Splits an origin-form, absolute-form (`http://host/p?q`) or asterisk-form target into
    /// its decoded path and query; throws a 400 for anything else or for bad encoding.
    static func decode(_ target: [UInt8], method: HTTPMethod) throws(HTTPParseError) -> Decoded {
        guard let first = target.first else { throw HTTPParseError(.badRequest, "empty request target") }
        var pathStart = 0
        if first == UInt8(ascii: "*") {
            guard target.count == 1, method == .options else { throw HTTPParseError(.badRequest, "asterisk-form target is only allowed for OPTIONS") }
            return Decoded(path: "*", query: QueryParameters())
        } else if first != UInt8(ascii: "/") {
            // absolute-form: scheme "://" authority [path-abempty] ["?" query]
            guard let schemeEnd = indexOfSequence(target, [0x3A, 0x2F, 0x2F]) else {
                throw HTTPParseError(.badRequest, "request target must be origin-form (/path) or absolute-form (http://host/path)")
            }
            let scheme = asciiLowercased(String(decoding: target[0..<schemeEnd], as: UTF8.self))
            guard scheme == "http" || scheme == "https" else { throw HTTPParseError(.badRequest, "unsupported URI scheme in request target") }
            let authorityStart = schemeEnd + 3
            var i = authorityStart
            while i < target.count, target[i] != UInt8(ascii: "/"), target[i] != UInt8(ascii: "?") { i += 1 }
            guard i > authorityStart else { throw HTTPParseError(.badRequest, "absolute-form target without a host") }
            let end = i
            if let problem = target.withUnsafeBufferPointer({ URIAuthority.problem(in: UnsafeBufferPointer(rebasing: $0[authorityStart..<end])) }) {
                throw HTTPParseError(.badRequest, "invalid authority in the request target: \(problem)")
            }
            pathStart = i
        }
        var queryStart = target.count
        if let q = target[pathStart...].firstIndex(of: UInt8(ascii: "?")) { queryStart = q }
        let rawPath = target[pathStart..<queryStart]
        var path: String
        if rawPath.isEmpty {
            path = "/"
        } else {
            // An encoded slash would be a segment boundary to one reader and part of a segment to
            // another (a proxy in front, this router): refused, as Apache and most proxies do.
            if Self.containsEncodedSlash(rawPath) {
                throw HTTPParseError(.badRequest, "an encoded slash (%2F) is not accepted in the request path: write / between segments, or nothing")
            }
            // Nearly every path has nothing to decode: its bytes become the string directly.
            let plain = !rawPath.contains(UInt8(ascii: "%"))
            guard let decoded = plain ? rawPath : percentDecode(rawPath, plusAsSpace: false)?[...] else {
                throw HTTPParseError(.badRequest, "malformed percent-encoding in the request path")
            }
            guard !decoded.contains(0) else { throw HTTPParseError(.badRequest, "NUL in the request path") }
            guard let s = String(validating: decoded, as: UTF8.self) else { throw HTTPParseError(.badRequest, "request path is not valid UTF-8") }
            path = s
        }
        if path.utf8.first != UInt8(ascii: "/") { path = "/" + path }
        var query = QueryParameters()
        if queryStart < target.count {
            do {
                query = try decodeQuery(target[(queryStart + 1)...])
            } catch {
                var e = error
                e.instance = path
                throw e
            }
        }
        return Decoded(path: path, query: query)
    }

    /// Whether a raw path holds `%2F` or `%2f`.
    static func containsEncodedSlash(_ raw: ArraySlice<UInt8>) -> Bool {
        var i = raw.startIndex
        while i + 2 < raw.endIndex {
            if raw[i] == UInt8(ascii: "%"), raw[i + 1] == UInt8(ascii: "2"), raw[i + 2] | 0x20 == UInt8(ascii: "f") { return true }
            i += 1
        }
        return false
    }

    /// `a=1&b=x%20y` → ordered decoded pairs; `+` is a space; malformed encoding is a 400 naming the parameter.
    static func decodeQuery(_ raw: ArraySlice<UInt8>) throws(HTTPParseError) -> QueryParameters {
        var pairs: [(name: String, value: String)] = []
        for piece in raw.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let eq = piece.firstIndex(of: UInt8(ascii: "="))
            let rawName = eq.map { piece[piece.startIndex..<$0] } ?? piece
            let rawValue = eq.map { piece[($0 + 1)...] } ?? piece[piece.endIndex...]
            guard let name = decodeComponent(rawName) else {
                throw HTTPParseError(.badRequest, "malformed percent-encoding in a query parameter name")
            }
            guard let value = decodeComponent(rawValue) else {
                throw HTTPParseError(.badRequest, "malformed percent-encoding in query parameter '\(name)'", parameter: name)
            }
            pairs.append((name: name, value: value))
        }
        return QueryParameters(pairs)
    }

    /// A query component (`+` is a space) as a string; nil for malformed encoding or UTF-8.
    /// Without `%` or `+` (nearly always) the bytes become the string with nothing in between.
    static func decodeComponent(_ raw: ArraySlice<UInt8>) -> String? {
        if !raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) { return String(validating: raw, as: UTF8.self) }
        guard let bytes = percentDecode(raw, plusAsSpace: true) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; nil when a `%` is not followed by two hex digits.
    static func percentDecode(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex, let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) else { return nil }
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(plusAsSpace && b == UInt8(ascii: "+") ? 0x20 : b)
                i += 1
            }
        }
        return out
    }

    @inline(__always)
    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    private static func indexOfSequence(_ hay: [UInt8], _ needle: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] {
            if Array(hay[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}
