/// Serialises response heads and chunk framing straight into a connection's output buffer.
enum ResponseWriter {
    static let crlf: [UInt8] = [0x0D, 0x0A]
    static let continue100: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
    static let heartbeat: [UInt8] = Array(": heartbeat\n\n".utf8)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Headers the server owns: framing and connection management are computed, not copied.
    @inline(__always)
    static func isServerOwned(_ name: String) -> Bool {
        let u = name.utf8
        switch u.count {
        case 4: return asciiCaseInsensitiveEquals(name, "date")
        case 6: return asciiCaseInsensitiveEquals(name, "server")
        case 10: return asciiCaseInsensitiveEquals(name, "connection") || asciiCaseInsensitiveEquals(name, "keep-alive")
        case 14: return asciiCaseInsensitiveEquals(name, "content-length")
        case 17: return asciiCaseInsensitiveEquals(name, "transfer-encoding")
        default: return false
        }
    }

    /// Appends `s`'s bytes when every one passes `isValid`; false (with a partial append the
    /// caller takes back) otherwise.
    @inline(__always)
    static func appendChecked(_ s: String, to out: inout [UInt8], isValid: (UInt8) -> Bool) -> Bool {
        let done: Bool? = s.utf8.withContiguousStorageIfAvailable { bytes in
            for b in bytes where !isValid(b) { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if let done { return done }
        for b in s.utf8 {
            guard isValid(b) else { return false }
            out.append(b)
        }
        return true
    }

    @inline(__always)
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }

    static func appendChunkHeader(_ size: Int, to out: inout [UInt8]) {
        var shift = 60
        while shift > 0, (size >> shift) & 0xF == 0 { shift -= 4 }
        while shift >= 0 {
            out.append(hexDigits[(size >> shift) & 0xF])
            shift -= 4
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// Status line, Date, Server, the response's own safe headers, X-Request-Id when missing.
    /// Framing and Connection headers are appended by the caller, then the blank line.
    /// `date` is the `Date` value (`HTTPDate`; an event loop passes its own copy, `EventLoop.httpDate`).
    static func appendHead(status: HTTPStatus, headers: HTTPHeaders, requestId: String, serverHeaderLine: [UInt8], date: [UInt8] = HTTPDate.now(),
                           to out: inout [UInt8]) {
        appendStatusLine(status, serverHeaderLine: serverHeaderLine, date: date, to: &out)
        if !appendFields(headers, to: &out, writingRequestId: true) { appendRequestId(requestId, to: &out) }
    }

    /// `HTTP/1.1 <status>`, `Date` and `Server`: what opens every response head.
    static func appendStatusLine(_ status: HTTPStatus, serverHeaderLine: [UInt8], date: [UInt8], to out: inout [UInt8]) {
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status.code, to: &out)
        out.append(0x20)
        out.append(contentsOf: status.reasonPhrase.utf8)
        out.append(contentsOf: "\r\nDate: ".utf8)
        out.append(contentsOf: date)
        out.append(contentsOf: crlf)
        out.append(contentsOf: serverHeaderLine)
    }

    /// The response's own header lines, less the server-owned ones and any that would break the
    /// head (a name that is not a token, a value with CR, LF or NUL). `X-Request-Id` is written
    /// when `writingRequestId` (and skipped otherwise: a replayed answer writes its own).
    /// Returns whether an `X-Request-Id` line was written.
    static func appendFields(_ headers: HTTPHeaders, to out: inout [UInt8], writingRequestId: Bool) -> Bool {
        var hasRequestId = false
        for field in headers {
            if isServerOwned(field.name) { continue }
            let isRequestId = field.name.utf8.count == 12 && asciiCaseInsensitiveEquals(field.name, "x-request-id")
            if isRequestId && !writingRequestId { continue }
            // Copied and checked in one pass; a field that fails the check is taken back out.
            let mark = out.count
            guard appendChecked(field.name, to: &out, isValid: isTokenChar), !field.name.isEmpty else {
                out.removeSubrange(mark...)
                continue
            }
            out.append(0x3A)
            out.append(0x20)
            guard appendChecked(field.value, to: &out, isValid: { $0 != 0x0D && $0 != 0x0A && $0 != 0 }) else {
                out.removeSubrange(mark...)
                continue
            }
            out.append(contentsOf: crlf)
            if isRequestId { hasRequestId = true }
        }
        return hasRequestId
    }

    static func appendContentLength(_ n: Int, to out: inout [UInt8]) {
        out.append(contentsOf: "Content-Length: ".utf8)
        appendDecimal(n, to: &out)
        out.append(contentsOf: crlf)
    }

    static func appendRequestId(_ requestId: String, to out: inout [UInt8]) {
        out.append(contentsOf: "X-Request-Id: ".utf8)
        out.append(contentsOf: requestId.utf8)
        out.append(contentsOf: crlf)
    }

    /// `Connection` as the exchange needs it: `close` on the last response, `keep-alive` for an
    /// HTTP/1.0 client that asked to keep the connection.
    static func appendConnection(keepAlive: Bool, http10: Bool, to out: inout [UInt8]) {
        if !keepAlive {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if http10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
    }

    /// A complete `Connection: close` problem response, for errors the server answers on its own
    /// (parse errors, timeouts, shedding).
    static func standalone(problem: ProblemDetails, serverHeaderLine: [UInt8], retryAfter: Int, requestId: String = RequestID.generate()) -> [UInt8] {
        var response = HTTPResponse.problem(problem)
        if problem.status.code == 503 { response.headers.replaceOrAdd(name: "Retry-After", value: String(retryAfter)) }
        var out: [UInt8] = []
        out.reserveCapacity(512)
        appendHead(status: response.status, headers: response.headers, requestId: requestId, serverHeaderLine: serverHeaderLine, to: &out)
        let body = response.bodyBytes
        appendContentLength(body.count, to: &out)
        out.append(contentsOf: "Connection: close\r\n\r\n".utf8)
        out.append(contentsOf: body)
        return out
    }
}
