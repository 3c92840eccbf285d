/// The `uri-host [ ":" port ]` grammar shared by the `Host` field (RFC 9112 §3.2, RFC 9110 §7.2)
/// and the authority of an absolute-form target (RFC 9110 §4.2.1): a registered name, an IPv4
/// address or a bracketed IP literal, then an optional decimal port. Userinfo (`user@`), paths,
/// lists and whitespace are refused.
enum URIAuthority {
    /// Why `bytes` is not a valid non-empty `uri-host [ ":" port ]`, or nil when it is.
    static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let n = bytes.count
        var i = 0
        if n > 0, bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return "IP literal without its closing ']'" }
            guard isIPLiteral(bytes[1..<close]) else { return "malformed IP literal" }
            i = close + 1
            if i < n, bytes[i] != UInt8(ascii: ":") { return "characters after the IP literal" }
        } else {
            // reg-name (which also covers IPv4address): unreserved / pct-encoded / sub-delims.
            while i < n, bytes[i] != UInt8(ascii: ":") {
                let b = bytes[i]
                if b == UInt8(ascii: "%") {
                    guard i + 2 < n, RequestTarget.hexValue(bytes[i + 1]) != nil, RequestTarget.hexValue(bytes[i + 2]) != nil else {
                        return "malformed percent-encoding in the host"
                    }
                    i += 3
                    continue
                }
                guard isRegNameByte(b) else { return offence(b) }
                i += 1
            }
            if i == 0 { return "empty host" }
        }
        guard i < n else { return nil }
        // ":" port, where port = *DIGIT; a port must also fit TCP's 16 bits.
        i += 1
        var port = 0
        var digits = 0
        while i < n {
            guard isDigit(bytes[i]) else { return bytes[i] == UInt8(ascii: "/") ? "a path is not allowed" : "port is not a decimal number" }
            port = port * 10 + Int(bytes[i] - 0x30)
            digits += 1
            if digits > 5 || port > 65535 { return "port above 65535" }
            i += 1
        }
        return nil
    }

    /// reg-name bytes except ',': RFC 3986 allows it as a sub-delim, but a comma in a
    /// singleton field is read as a list by other recipients (two hosts, two answers).
    @inline(__always)
    private static func isRegNameByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default: return false
        }
    }

    private static func offence(_ b: UInt8) -> String {
        switch b {
        case UInt8(ascii: "@"): return "userinfo ('user@') is not allowed"
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return "a path, query or fragment is not allowed"
        case UInt8(ascii: ","): return "a list of hosts is not allowed"
        case 0x20, 0x09: return "whitespace is not allowed"
        default: return "byte not allowed in a host name"
        }
    }

    /// IP-literal contents (between the brackets): IPv6address or IPvFuture (RFC 3986 §3.2.2).
    static func isIPLiteral(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = s.first else { return false }
        if first == UInt8(ascii: "v") || first == UInt8(ascii: "V") {
            // "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            var i = s.startIndex + 1
            let hexStart = i
            while i < s.endIndex, RequestTarget.hexValue(s[i]) != nil { i += 1 }
            guard i > hexStart, i < s.endIndex, s[i] == UInt8(ascii: ".") else { return false }
            i += 1
            guard i < s.endIndex else { return false }
            return s[i...].allSatisfy { isRegNameByte($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ",") }
        }
        return isIPv6(s)
    }

    /// RFC 4291 §2.2 text forms: eight groups of 1–4 hex digits, one "::" standing for one or
    /// more zero groups, and an optional dotted IPv4 tail counting as two groups.
    static func isIPv6(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let colon = UInt8(ascii: ":")
        var i = s.startIndex
        let end = s.endIndex
        var groups = 0
        var compressed = false
        if i < end, s[i] == colon {
            guard i + 1 < end, s[i + 1] == colon else { return false }
            compressed = true
            i += 2
        }
        while i < end {
            var j = i
            while j < end, j - i < 5, RequestTarget.hexValue(s[j]) != nil { j += 1 }
            if j < end, s[j] == UInt8(ascii: ".") {
                guard isIPv4(s[i..<end]) else { return false }
                groups += 2
                break
            }
            guard j - i >= 1, j - i <= 4 else { return false }
            groups += 1
            i = j
            if i == end { break }
            guard s[i] == colon else { return false }
            i += 1
            guard i < end else { return false }  // a single trailing colon
            if s[i] == colon {
                guard !compressed else { return false }
                compressed = true
                i += 1
            }
        }
        return compressed ? groups <= 7 : groups == 8
    }

    /// dec-octet "." dec-octet "." dec-octet "." dec-octet, no leading zeros (RFC 3986 §3.2.2).
    static func isIPv4(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var octets = 0
        var i = s.startIndex
        while true {
            let start = i
            var value = 0
            while i < s.endIndex, isDigit(s[i]), i - start < 3 {
                value = value * 10 + Int(s[i] - 0x30)
                i += 1
            }
            let len = i - start
            guard len >= 1, value <= 255, len == 1 || s[start] != UInt8(ascii: "0") else { return false }
            octets += 1
            if octets == 4 { return i == s.endIndex }
            guard i < s.endIndex, s[i] == UInt8(ascii: ".") else { return false }
            i += 1
        }
    }
}
