/// An incremental, pure HTTP/1.1 request parser (RFC 9112). It never sees a file descriptor:
/// feed it bytes in any split with `append`, then call `next()` until it says `.needMore`.
///
/// It is deliberately strict where leniency enables request smuggling or misrouting (RFC 9112,
/// docs/http.md "Conformance"): the request line is checked byte by byte as it arrives, CRLF
/// line endings only, no obs-fold, no bare CR or NUL, no whitespace in field names, exactly one
/// valid `Host`, one plain `Content-Length` and no `Transfer-Encoding` beside it, `chunked` last.
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

    // Where the request-line scan stands: its phase, and the method and target lengths once
    // known (offsets from `pos`, the line's first byte, so compaction does not disturb them).
    private var linePhase = LinePhase.start
    private var methodLength = 0
    private var targetLength = 0

    private enum LinePhase { case start, emptyLineCR, method, target, version, lineCR }

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
                guard try scanRequestLine() else { return .needMore }
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
                // RFC 9110 §6.5.1: framing, routing and connection fields are never taken from
                // a trailer; they are dropped so nothing downstream can mistake them for headers.
                if !isForbiddenTrailer(field.name) { trailers.add(name: field.name, value: field.value) }
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
    private enum LineKind { case header, chunkSize, trailer }

    /// The error for a line over its limit (built only when needed: this is the hot path).
    private func tooLong(_ kind: LineKind) -> HTTPParseError {
        switch kind {
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

    /// Longest method accepted, with room to spare: the longest method RFC 7237 registers
    /// (`UPDATEREDIRECTREF`) has 17 bytes. A longer one is refused as its 33rd byte arrives.
    static let maxMethodBytes = 32

    private enum LineScan {
        case needMore, complete
        case failed(HTTPParseError)
    }

    /// Checks the request line (RFC 9112 §3: `method SP request-target SP HTTP-version CRLF`)
    /// byte by byte as it arrives, resuming where the last call stopped, so garbage (a TLS
    /// ClientHello, a binary protocol) is refused at its first impossible byte rather than when
    /// a line end or the header timeout finally comes. The verdict on each byte depends only on
    /// the bytes before it, so any split of the input gives the same answer. True when a whole
    /// line has been read; method, target and version are then set.
    private mutating func scanRequestLine() throws(HTTPParseError) -> Bool {
        var phase = linePhase
        var start = pos
        var i = max(scanFrom, pos)
        var empties = emptyLines
        var methodLen = methodLength
        var targetLen = targetLength
        let maxLine = limits.maxRequestLineBytes
        let outcome: LineScan = requestLineBytes.withUnsafeBufferPointer { classes in
            buf.withUnsafeBufferPointer { p in
                let end = p.count
                while i < end {
                    switch phase {
                    case .start:
                        let b = p[i]
                        if b == CR {
                            phase = .emptyLineCR
                            i += 1
                        } else if classes[Int(b)] & tokenByte != 0 {
                            phase = .method
                        } else {
                            return .failed(HTTPParser.cannotStartRequest(b))
                        }
                    case .emptyLineCR:
                        // RFC 9112 §2.2: a few empty lines before the request line are ignored.
                        guard p[i] == LF else { return .failed(HTTPParseError(.badRequest, "bare CR before the request line")) }
                        i += 1
                        empties += 1
                        if empties > 4 { return .failed(HTTPParseError(.badRequest, "too many empty lines before the request line")) }
                        start = i
                        phase = .start
                    case .method:
                        let stop = min(end, start + HTTPParser.maxMethodBytes)
                        while i < stop, classes[Int(p[i])] & tokenByte != 0 { i += 1 }
                        guard i < end else { continue }
                        let b = p[i]
                        if b == SP {
                            methodLen = i - start
                            i += 1
                            phase = .target
                        } else if classes[Int(b)] & tokenByte != 0 {
                            return .failed(HTTPParseError(.badRequest, "method longer than \(HTTPParser.maxMethodBytes) bytes"))
                        } else {
                            return .failed(HTTPParser.badByte(b, in: "the method", allowed: "a token"))
                        }
                    case .target:
                        let targetStart = start + methodLen + 1
                        // The last index a target byte may take and still leave room for " HTTP/x.y".
                        let lastTargetIndex = start + maxLine - 10
                        let stop = min(end, lastTargetIndex + 1)
                        while i < stop, classes[Int(p[i])] & targetByte != 0 { i += 1 }
                        guard i < end else { continue }
                        let b = p[i]
                        if b == SP {
                            guard i > targetStart else { return .failed(HTTPParseError(.badRequest, "empty request target (or two spaces after the method)")) }
                            targetLen = i - targetStart
                            i += 1
                            phase = .version
                        } else if classes[Int(b)] & targetByte != 0 {
                            return .failed(HTTPParseError(.uriTooLong, "request line longer than \(maxLine) bytes"))
                        } else if b == CR {
                            return .failed(HTTPParseError(.badRequest, "request line without an HTTP version (HTTP/0.9 is not supported)"))
                        } else if b == UInt8(ascii: "#") {
                            return .failed(HTTPParseError(.badRequest, "request target holds a fragment ('#'), which is not sent in HTTP"))
                        } else {
                            return .failed(HTTPParser.badByte(b, in: "the request target", allowed: "RFC 3986 URI characters (percent-encode the rest)"))
                        }
                    case .version:
                        // HTTP-version = "HTTP" "/" DIGIT "." DIGIT, case-sensitive (RFC 9112 §2.3).
                        let b = p[i]
                        let fits: Bool
                        switch i - (start + methodLen + targetLen + 2) {
                        case 0: fits = b == UInt8(ascii: "H")
                        case 1, 2: fits = b == UInt8(ascii: "T")
                        case 3: fits = b == UInt8(ascii: "P")
                        case 4: fits = b == UInt8(ascii: "/")
                        case 5, 7: fits = isDigit(b)
                        case 6: fits = b == UInt8(ascii: ".")
                        default: fits = b == CR
                        }
                        guard fits else { return .failed(HTTPParseError(.badRequest, "malformed HTTP version (expected HTTP/<digit>.<digit>)")) }
                        if b == CR { phase = .lineCR }
                        i += 1
                    case .lineCR:
                        guard p[i] == LF else { return .failed(HTTPParseError(.badRequest, "bare CR in the request line")) }
                        i += 1
                        return .complete
                    }
                }
                return .needMore
            }
        }
        switch outcome {
        case .failed(let error):
            throw error
        case .needMore:
            linePhase = phase
            pos = start
            scanFrom = i
            emptyLines = empties
            methodLength = methodLen
            targetLength = targetLen
            return false
        case .complete:
            linePhase = .start
            pos = i
            scanFrom = i
            emptyLines = empties
            let targetStart = start + methodLen + 1
            let versionStart = targetStart + targetLen + 1
            method = HTTPMethod(String(decoding: buf[start..<(start + methodLen)], as: UTF8.self))
            target = Array(buf[targetStart..<(targetStart + targetLen)])
            let major = buf[versionStart + 5] - 0x30
            let minor = buf[versionStart + 7] - 0x30
            // RFC 9110 §2.5: a higher minor version of a major version we speak is treated as
            // the highest minor we implement; another major version is a 505.
            guard major == 1 else { throw HTTPParseError(.httpVersionNotSupported, "HTTP/\(major).\(minor) is not supported (only HTTP/1.0 and HTTP/1.1)") }
            version = minor == 0 ? .http1_0 : .http1_1
            return true
        }
    }

    /// The error for a first byte that no method starts with.
    private static func cannotStartRequest(_ b: UInt8) -> HTTPParseError {
        switch b {
        case LF: return HTTPParseError(.badRequest, "line ends in a bare LF (CRLF required)")
        case SP, HTAB: return HTTPParseError(.badRequest, "whitespace before the request line")
        case 0x16: return HTTPParseError(.badRequest, "this looks like a TLS handshake; this port speaks plain HTTP/1.1")
        default: return badByte(b, in: "a request line's first byte", allowed: "a method token")
        }
    }

    private static func badByte(_ b: UInt8, in place: String, allowed: String) -> HTTPParseError {
        let hex = (b < 0x10 ? "0x0" : "0x") + String(b, radix: 16, uppercase: true)
        let shown = b > 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))' (\(hex))" : "byte \(hex)"
        return HTTPParseError(.badRequest, "\(shown) is not allowed in \(place); expected \(allowed)")
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

    /// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1). Extensions are checked against their grammar
    /// and then ignored.
    private func parseChunkSize(_ line: Range<Int>) throws(HTTPParseError) -> Int {
        var i = line.lowerBound
        var size = 0
        var digits = 0
        while i < line.upperBound, let h = RequestTarget.hexValue(buf[i]) {
            // A size that does not fit in an Int is malformed framing, not a large body.
            if size > Int.max >> 4 { throw HTTPParseError(.badRequest, "chunk size too large to represent") }
            size = size << 4 | Int(h)
            digits += 1
            i += 1
        }
        guard digits > 0 else { throw HTTPParseError(.badRequest, "malformed chunk size (expected hex digits)") }
        try checkChunkExtensions(i..<line.upperBound)
        return size
    }

    /// chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] ), ext-name = token,
    /// ext-val = token / quoted-string (RFC 9112 §7.1.1). A lenient reading here is a smuggling
    /// vector: a proxy that ends the extension elsewhere sees different chunk boundaries.
    private func checkChunkExtensions(_ range: Range<Int>) throws(HTTPParseError) {
        func skipBWS(_ j: Int) -> Int {
            var j = j
            while j < range.upperBound, buf[j] == SP || buf[j] == HTAB { j += 1 }
            return j
        }
        func token(from j: Int) -> Int {
            var j = j
            while j < range.upperBound, isTokenChar(buf[j]) { j += 1 }
            return j
        }
        func malformed(_ why: String) -> HTTPParseError { HTTPParseError(.badRequest, "malformed chunk extension: \(why)") }
        var i = range.lowerBound
        while i < range.upperBound {
            i = skipBWS(i)
            guard i < range.upperBound else { throw malformed("whitespace after the chunk size") }
            guard buf[i] == UInt8(ascii: ";") else { throw malformed("expected ';' after the chunk size") }
            i = skipBWS(i + 1)
            let nameEnd = token(from: i)
            guard nameEnd > i else { throw malformed("';' without an extension name") }
            i = nameEnd
            let eq = skipBWS(i)
            guard eq < range.upperBound, buf[eq] == UInt8(ascii: "=") else { continue }
            i = skipBWS(eq + 1)
            guard i < range.upperBound else { throw malformed("'=' without a value") }
            if buf[i] == UInt8(ascii: "\"") {
                i += 1
                var closed = false
                while i < range.upperBound {
                    let b = buf[i]
                    if b == UInt8(ascii: "\"") {
                        closed = true
                        i += 1
                        break
                    }
                    if b == UInt8(ascii: "\\") {
                        // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
                        guard i + 1 < range.upperBound, isFieldVisibleOrSpace(buf[i + 1]) else { throw malformed("bad escape in a quoted value") }
                        i += 2
                        continue
                    }
                    guard isFieldVisibleOrSpace(b) else { throw malformed("control character in a quoted value") }
                    i += 1
                }
                guard closed else { throw malformed("unterminated quoted value") }
            } else {
                let valueEnd = token(from: i)
                guard valueEnd > i else { throw malformed("a value that is neither a token nor a quoted string") }
                i = valueEnd
            }
        }
    }

    /// Validates the complete head and chooses the body framing (RFC 9112 §6).
    private mutating func finishHead() throws(HTTPParseError) {
        try checkHost()
        decoded = try RequestTarget.decode(target, method: method)

        let te = headers.values(for: "transfer-encoding")
        let cl = headers.values(for: "content-length")
        var chunked = false
        var length = 0
        if !te.isEmpty {
            if !cl.isEmpty { throw HTTPParseError(.badRequest, "both Content-Length and Transfer-Encoding present") }
            if version == .http1_0 { throw HTTPParseError(.badRequest, "Transfer-Encoding in an HTTP/1.0 request") }
            let codings = headers.tokens(for: "transfer-encoding")
            guard let last = codings.last else { throw HTTPParseError(.badRequest, "empty Transfer-Encoding") }
            // RFC 9112 §6.3: without chunked as the final coding the body length cannot be
            // determined, whatever the other codings are: 400 and close.
            guard last == "chunked" else {
                throw HTTPParseError(.badRequest, "chunked is not the final transfer coding, so the body length cannot be determined")
            }
            if codings.count > 1 {
                if codings.dropLast().contains("chunked") { throw HTTPParseError(.badRequest, "chunked applied more than once") }
                let other = codings[0]
                throw HTTPParseError(.notImplemented, "transfer coding '\(other.count > 40 ? String(other.prefix(40)) + "…" : other)' is not supported (only chunked)")
            }
            chunked = true
        } else if !cl.isEmpty {
            // RFC 9110 §8.6 lets a recipient fold a list of identical values or reject it; this
            // parser rejects, so no intermediary's reading of the list can differ from ours.
            guard cl.count == 1 else { throw HTTPParseError(.badRequest, "more than one Content-Length field") }
            let value = cl[0].utf8
            guard !value.isEmpty, value.allSatisfy(isDigit) else {
                throw HTTPParseError(.badRequest, value.contains(UInt8(ascii: ",")) ? "Content-Length holds a list; send one value" : "invalid Content-Length (expected decimal digits)")
            }
            for d in value {
                let (shifted, o1) = length.multipliedReportingOverflow(by: 10)
                let (sum, o2) = shifted.addingReportingOverflow(Int(d - 0x30))
                if o1 || o2 { throw HTTPParseError(.badRequest, "Content-Length too large to represent") }
                length = sum
            }
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

    /// RFC 9112 §3.2: exactly one Host in HTTP/1.1 (at most one in HTTP/1.0) and a valid
    /// `uri-host [ ":" port ]` value. With an absolute-form target the Host value is ignored
    /// (§3.2.2; `HTTPRequest.authority` comes from the target), so there it may be empty, but
    /// a malformed one is still refused.
    private func checkHost() throws(HTTPParseError) {
        let hosts = headers.values(for: "host")
        if hosts.count > 1 { throw HTTPParseError(.badRequest, "more than one Host header") }
        guard var value = hosts.first else {
            if version == .http1_1 { throw HTTPParseError(.badRequest, "HTTP/1.1 request without a Host header") }
            return
        }
        if value.isEmpty, let first = target.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "*") { return }
        if let problem = value.withUTF8({ URIAuthority.problem(in: $0) }) {
            throw HTTPParseError(.badRequest, "invalid Host header: \(problem)")
        }
    }

    /// Fields that must not come from a trailer (RFC 9110 §6.5.1): framing, routing and
    /// connection control.
    private func isForbiddenTrailer(_ name: String) -> Bool {
        for f in forbiddenTrailerFields where asciiCaseInsensitiveEquals(f, name) { return true }
        return false
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

private let forbiddenTrailerFields = ["content-length", "transfer-encoding", "trailer", "host", "connection", "keep-alive", "te", "upgrade"]

@inline(__always)
func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

/// HTAB, SP, VCHAR or obs-text: what a quoted string may hold (RFC 9110 §5.6.4).
@inline(__always)
func isFieldVisibleOrSpace(_ b: UInt8) -> Bool { b == HTAB || (b >= 0x20 && b != 0x7F) }

/// RFC 9110 tchar.
@inline(__always)
package func isTokenChar(_ b: UInt8) -> Bool {
    switch b {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
         UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
         UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        return true
    default: return false
    }
}

private let tokenByte: UInt8 = 1
private let targetByte: UInt8 = 2

/// Byte classes for the request-line scan: RFC 9110 `tchar` (method), and the bytes that may
/// appear somewhere in a request-target (RFC 3986: unreserved, sub-delims, ":", "@", "/", "?",
/// "%", and "[" "]" for IP literals in absolute-form). Not a fragment's "#", not SP, controls,
/// non-ASCII, or `"` `<` `>` `\` `^` `` ` `` `{` `|` `}`, which a client must percent-encode.
private let requestLineBytes: [UInt8] = (0...255).map { (v: Int) -> UInt8 in
    let b = UInt8(v)
    var classes: UInt8 = isTokenChar(b) ? tokenByte : 0
    switch b {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A,
         UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
         UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
         UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
         UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "%"),
         UInt8(ascii: "["), UInt8(ascii: "]"):
        classes |= targetByte
    default: break
    }
    return classes
}
