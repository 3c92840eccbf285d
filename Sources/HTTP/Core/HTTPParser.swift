/// An incremental, pure HTTP/1.1 request parser (RFC 9112). It never sees a file descriptor:
/// feed it bytes in any split with `append`, then call `next()` until it says `.needMore`.
///
/// It is deliberately strict where leniency enables request smuggling: CRLF line endings only,
/// no obs-fold, no bare CR or NUL, no whitespace in field names, `Content-Length` with
/// `Transfer-Encoding` rejected, differing lengths rejected, only the `chunked` coding.
///
/// ```swift
/// var parser = HTTPParser()
/// parser.append(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
/// if case .request(let r) = parser.next() { print(r.path) }
/// ```
public struct HTTPParser: Sendable {
    public let limits: HTTPParserLimits

    private var buf: [UInt8] = []
    /// First unconsumed byte of `buf`.
    private var pos = 0
    /// Where to resume looking for LF, so byte-at-a-time input stays linear.
    private var scanFrom = 0
    private var state: State = .requestLine
    private var failure: HTTPParseError?

    // The request being assembled.
    private var method = HTTPMethod.get
    private var target: [UInt8] = []
    private var version = HTTPVersion.http1_1
    private var headers = HTTPHeaders()
    private var trailers = HTTPHeaders()
    private var headerBytes = 0
    private var headerCount = 0
    private var body: [UInt8] = []
    private var decoded = RequestTarget.Decoded(path: "/", query: QueryParameters())
    private var emptyLines = 0
    private var wantsContinue = false

    private enum State: Equatable {
        case requestLine, headers
        case fixedBody(Int)
        case chunkSize, chunkData(Int), chunkDataEnd, trailers
    }

    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Bytes received but not yet consumed by a completed request.
    public var bufferedByteCount: Int { buf.count - pos }

    /// True while the head (request line and headers) of a request is partly received: the
    /// window the header-read timeout guards.
    public var isReceivingHead: Bool {
        switch state {
        case .requestLine: return buf.count > pos || emptyLines > 0
        case .headers: return true
        default: return false
        }
    }

    /// True while any part of a request has been received and not yet returned.
    public var isMidRequest: Bool { state != .requestLine || buf.count > pos || emptyLines > 0 }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfNeeded()
        buf.append(contentsOf: bytes)
    }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        compactIfNeeded()
        buf.append(contentsOf: bytes)
    }

    private mutating func compactIfNeeded() {
        if pos == buf.count {
            if pos > 0 {
                buf.removeAll(keepingCapacity: buf.capacity <= 64 * 1024)
                pos = 0
                scanFrom = 0
            }
        } else if pos > 16 * 1024, pos > buf.count / 2 {
            buf.removeSubrange(0..<pos)
            scanFrom -= pos
            pos = 0
        }
    }

    /// Advances over buffered input: a complete request, `.needMore`, `.continueExpected` or
    /// an error (after which the parser stays failed).
    public mutating func next() -> HTTPParserEvent {
        if let failure { return .error(failure) }
        do {
            return try step()
        } catch {
            failure = error
            return .error(error)
        }
    }

    // MARK: - state machine

    private mutating func step() throws(HTTPParseError) -> HTTPParserEvent {
        while true {
            switch state {
            case .requestLine:
                guard let line = try readLine(limit: limits.maxRequestLineBytes, kind: .requestLine) else {
                    return .needMore
                }
                if line.isEmpty {
                    // RFC 9112 §2.2: ignore a few empty lines before the request line.
                    emptyLines += 1
                    if emptyLines > 4 { throw HTTPParseError(.badRequest, "too many empty lines before the request line") }
                    continue
                }
                try parseRequestLine(line)
                state = .headers

            case .headers:
                let budget = limits.maxHeaderBytes - headerBytes
                guard let line = try readLine(limit: max(0, budget - 2), kind: .header) else {
                    return .needMore
                }
                headerBytes += line.count + 2
                if line.isEmpty {
                    try finishHead()
                    if state == .requestLine { return .request(makeRequest()) }
                    continue
                }
                headerCount += 1
                if headerCount > limits.maxHeaderCount {
                    throw HTTPParseError(.requestHeaderFieldsTooLarge, "more than \(limits.maxHeaderCount) header fields")
                }
                let field = try parseField(line)
                headers.add(name: field.name, value: field.value)

            case .fixedBody(let length):
                let available = buf.count - pos
                if available >= length {
                    body = Array(buf[pos..<(pos + length)])
                    pos += length
                    scanFrom = pos
                    return .request(makeRequest())
                }
                return needMoreOrContinue()

            case .chunkSize:
                guard let line = try readLine(limit: 1024, kind: .chunkSize) else {
                    return needMoreOrContinue()
                }
                let size = try parseChunkSize(line)
                if size == 0 {
                    state = .trailers
                } else {
                    if size > limits.maxBodyBytes - body.count {
                        throw HTTPParseError(.contentTooLarge, "chunked body larger than \(limits.maxBodyBytes) bytes")
                    }
                    state = .chunkData(size)
                }

            case .chunkData(let remaining):
                let available = buf.count - pos
                if available == 0 { return needMoreOrContinue() }
                let take = min(available, remaining)
                body.append(contentsOf: buf[pos..<(pos + take)])
                pos += take
                scanFrom = pos
                if take == remaining { state = .chunkDataEnd } else {
                    state = .chunkData(remaining - take)
                    return .needMore
                }

            case .chunkDataEnd:
                if buf.count - pos < 2 {
                    if buf.count - pos == 1, buf[pos] != CR { throw HTTPParseError(.badRequest, "chunk data not followed by CRLF") }
                    return .needMore
                }
                guard buf[pos] == CR, buf[pos + 1] == LF else { throw HTTPParseError(.badRequest, "chunk data not followed by CRLF") }
                pos += 2
                scanFrom = pos
                state = .chunkSize

            case .trailers:
                let budget = limits.maxHeaderBytes - headerBytes
                guard let line = try readLine(limit: max(0, budget - 2), kind: .trailer) else {
                    return .needMore
                }
                headerBytes += line.count + 2
                if line.isEmpty { return .request(makeRequest()) }
                headerCount += 1
                if headerCount > limits.maxHeaderCount {
                    throw HTTPParseError(.requestHeaderFieldsTooLarge, "more than \(limits.maxHeaderCount) header and trailer fields")
                }
                let field = try parseField(line)
                trailers.add(name: field.name, value: field.value)
            }
        }
    }

    private mutating func needMoreOrContinue() -> HTTPParserEvent {
        if wantsContinue {
            wantsContinue = false
            return .continueExpected
        }
        return .needMore
    }

    /// The next CRLF-terminated line (without the CRLF) as a range of `buf`, or nil when it
    /// has not fully arrived. A bare LF, or a CR not followed by LF, is a 400.
    private enum LineKind { case requestLine, header, chunkSize, trailer }

    /// The error for a line over its limit (built only when needed: this is the hot path).
    private func tooLong(_ kind: LineKind) -> HTTPParseError {
        switch kind {
        case .requestLine: return HTTPParseError(.uriTooLong, "request line longer than \(limits.maxRequestLineBytes) bytes")
        case .header: return HTTPParseError(.requestHeaderFieldsTooLarge, "header section larger than \(limits.maxHeaderBytes) bytes")
        case .chunkSize: return HTTPParseError(.badRequest, "chunk-size line too long")
        case .trailer: return HTTPParseError(.requestHeaderFieldsTooLarge, "header and trailer sections larger than \(limits.maxHeaderBytes) bytes")
        }
    }

    private mutating func readLine(limit: Int, kind: LineKind) throws(HTTPParseError) -> Range<Int>? {
        let start = pos
        let from = max(scanFrom, start)
        let found: Int? = buf.withUnsafeBufferPointer { p -> Int? in
            var i = from
            let end = p.count
            while i < end {
                if p[i] == LF { return i }
                i += 1
            }
            return nil
        }
        guard let lf = found else {
            // Allow one byte of slack for a CR that may precede the coming LF.
            if buf.count - start > limit + 1 { throw tooLong(kind) }
            scanFrom = buf.count
            return nil
        }
        // Same verdict whatever the split: too long is judged before how the line ends.
        if lf - start > limit + 1 { throw tooLong(kind) }
        guard lf > start, buf[lf - 1] == CR else { throw HTTPParseError(.badRequest, "line ends in a bare LF (CRLF required)") }
        let end = lf - 1
        if end - start > limit { throw tooLong(kind) }
        let hasCR: Bool = buf.withUnsafeBufferPointer { p in
            for i in start..<end where p[i] == CR { return true }
            return false
        }
        if hasCR { throw HTTPParseError(.badRequest, "bare CR in the request head") }
        pos = lf + 1
        scanFrom = pos
        return start..<end
    }

    private mutating func parseRequestLine(_ line: Range<Int>) throws(HTTPParseError) {
        guard let sp1 = buf[line].firstIndex(of: SP) else { throw HTTPParseError(.badRequest, "malformed request line") }
        guard let sp2 = buf[(sp1 + 1)..<line.upperBound].firstIndex(of: SP) else { throw HTTPParseError(.badRequest, "malformed request line") }
        let methodRange = line.lowerBound..<sp1
        let targetRange = (sp1 + 1)..<sp2
        let versionRange = (sp2 + 1)..<line.upperBound
        guard !methodRange.isEmpty, buf[methodRange].allSatisfy(isTokenChar) else {
            throw HTTPParseError(.badRequest, "malformed method in the request line")
        }
        guard !targetRange.isEmpty else { throw HTTPParseError(.badRequest, "empty request target") }
        for b in buf[targetRange] where b <= 0x20 || b >= 0x7F {
            throw HTTPParseError(.badRequest, "request target holds a control, space or non-ASCII byte")
        }
        method = HTTPMethod(String(decoding: buf[methodRange], as: UTF8.self))
        target = Array(buf[targetRange])
        version = try parseVersion(buf[versionRange])
    }

    private func parseVersion(_ v: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        let prefix: [UInt8] = [0x48, 0x54, 0x54, 0x50, 0x2F]  // "HTTP/"
        guard v.count >= 6, Array(v.prefix(5)) == prefix else { throw HTTPParseError(.badRequest, "malformed HTTP version") }
        let rest = v.dropFirst(5)
        guard rest.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }), let f = rest.first, isDigit(f) else {
            throw HTTPParseError(.badRequest, "malformed HTTP version")
        }
        if rest.count == 3, rest[rest.startIndex + 1] == UInt8(ascii: "."), isDigit(rest[rest.startIndex + 2]), f == UInt8(ascii: "1") {
            let minor = rest[rest.startIndex + 2] - 0x30
            if minor == 0 { return .http1_0 }
            if minor == 1 { return .http1_1 }
        }
        if rest.count > 3 || rest.filter({ $0 == UInt8(ascii: ".") }).count > 1 { throw HTTPParseError(.badRequest, "malformed HTTP version") }
        throw HTTPParseError(.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are supported")
    }

    private func parseField(_ line: Range<Int>) throws(HTTPParseError) -> HTTPHeaders.Field {
        let first = buf[line.lowerBound]
        if first == SP || first == HTAB { throw HTTPParseError(.badRequest, "obsolete line folding (obs-fold) is not accepted") }
        guard let colon = buf[line].firstIndex(of: UInt8(ascii: ":")) else { throw HTTPParseError(.badRequest, "header field without a colon") }
        let nameRange = line.lowerBound..<colon
        guard !nameRange.isEmpty else { throw HTTPParseError(.badRequest, "empty header field name") }
        for b in buf[nameRange] where !isTokenChar(b) {
            if b == SP || b == HTAB { throw HTTPParseError(.badRequest, "whitespace in a header field name") }
            if b == 0 { throw HTTPParseError(.badRequest, "NUL in a header field name") }
            throw HTTPParseError(.badRequest, "invalid character in a header field name")
        }
        var vs = colon + 1, ve = line.upperBound
        while vs < ve, buf[vs] == SP || buf[vs] == HTAB { vs += 1 }
        while ve > vs, buf[ve - 1] == SP || buf[ve - 1] == HTAB { ve -= 1 }
        for b in buf[vs..<ve] where (b < 0x20 && b != HTAB) || b == 0x7F {
            throw HTTPParseError(.badRequest, b == 0 ? "NUL in a header field value" : "control character in a header field value")
        }
        return (name: String(decoding: buf[nameRange], as: UTF8.self), value: String(decoding: buf[vs..<ve], as: UTF8.self))
    }

    private func parseChunkSize(_ line: Range<Int>) throws(HTTPParseError) -> Int {
        var i = line.lowerBound
        var size = 0
        var digits = 0
        while i < line.upperBound, let h = RequestTarget.hexValue(buf[i]) {
            digits += 1
            if digits > 15 { throw HTTPParseError(.contentTooLarge, "chunk size too large") }
            size = size << 4 | Int(h)
            i += 1
        }
        guard digits > 0 else { throw HTTPParseError(.badRequest, "malformed chunk size") }
        if i < line.upperBound {
            // chunk-ext: accepted and ignored, but it must start with ';' and hold no controls.
            guard buf[i] == UInt8(ascii: ";") else { throw HTTPParseError(.badRequest, "malformed chunk size") }
            for b in buf[i..<line.upperBound] where (b < 0x20 && b != HTAB) || b == 0x7F {
                throw HTTPParseError(.badRequest, "control character in a chunk extension")
            }
        }
        return size
    }

    /// Validates the complete head and chooses the body framing (RFC 9112 §6).
    private mutating func finishHead() throws(HTTPParseError) {
        let hosts = headers.values(for: "host")
        if hosts.count > 1 { throw HTTPParseError(.badRequest, "more than one Host header") }
        if version == .http1_1, hosts.isEmpty { throw HTTPParseError(.badRequest, "HTTP/1.1 request without a Host header") }

        decoded = try RequestTarget.decode(target, method: method)

        let te = headers.values(for: "transfer-encoding")
        let cl = headers.values(for: "content-length")
        var chunked = false
        var length = 0
        if !te.isEmpty {
            if !cl.isEmpty { throw HTTPParseError(.badRequest, "both Content-Length and Transfer-Encoding present") }
            if version == .http1_0 { throw HTTPParseError(.badRequest, "Transfer-Encoding in an HTTP/1.0 request") }
            let codings = headers.tokens(for: "transfer-encoding")
            guard !codings.isEmpty else { throw HTTPParseError(.badRequest, "empty Transfer-Encoding") }
            for c in codings where c != "chunked" {
                throw HTTPParseError(.notImplemented, "transfer coding '\(c.count > 40 ? String(c.prefix(40)) + "…" : c)' is not supported (only chunked)")
            }
            if codings.count > 1 { throw HTTPParseError(.badRequest, "chunked applied more than once") }
            chunked = true
        } else if !cl.isEmpty {
            var value: Int?
            for field in cl {
                for part in field.split(separator: ",", omittingEmptySubsequences: false) {
                    let t = trimOWS(Substring(part))
                    guard !t.isEmpty, t.utf8.count <= 18, t.utf8.allSatisfy(isDigit), let n = Int(t) else {
                        throw HTTPParseError(.badRequest, "invalid Content-Length")
                    }
                    if let v = value, v != n { throw HTTPParseError(.badRequest, "differing Content-Length values") }
                    value = n
                }
            }
            length = value ?? 0
            if length > limits.maxBodyBytes { throw HTTPParseError(.contentTooLarge, "body of \(length) bytes exceeds the limit of \(limits.maxBodyBytes) bytes") }
        }

        let hasBody = chunked || length > 0
        if let expect = headers["expect"] {
            guard asciiCaseInsensitiveEquals(expect, "100-continue") else {
                throw HTTPParseError(.expectationFailed, "only 'Expect: 100-continue' is supported")
            }
            wantsContinue = hasBody && version == .http1_1
        }
        if chunked {
            state = .chunkSize
        } else if length > 0 {
            state = .fixedBody(length)
        } else {
            state = .requestLine
        }
    }

    private mutating func makeRequest() -> HTTPRequest {
        let request = HTTPRequest(
            method: method, target: String(decoding: target, as: UTF8.self), path: decoded.path, query: decoded.query,
            version: version, headers: headers, body: body, trailers: trailers
        )
        state = .requestLine
        headers = HTTPHeaders()
        trailers = HTTPHeaders()
        body = []
        target = []
        headerBytes = 0
        headerCount = 0
        emptyLines = 0
        wantsContinue = false
        return request
    }
}

private let CR: UInt8 = 0x0D
private let LF: UInt8 = 0x0A
private let SP: UInt8 = 0x20
private let HTAB: UInt8 = 0x09

@inline(__always)
func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

/// RFC 9110 tchar.
@inline(__always)
func isTokenChar(_ b: UInt8) -> Bool {
    switch b {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
         UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
         UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        return true
    default: return false
    }
}
