import Glibc
import HTTPCore

/// A minimal blocking HTTP/1.1 client on one TCP connection: what `solarsystem healthcheck` and
/// the end-to-end tests use to talk to a server. Every read waits at most `timeout` seconds, and a
/// response is refused past `limits` (a head, a body), so a broken or hostile server fails the
/// caller instead of hanging it or filling its memory.
///
/// ```swift
/// let response = try HTTPClient.get(host: "127.0.0.1", port: 8080, target: "/healthz", timeout: 3)
/// response.status   // 200
/// ```
///
/// It writes what it is given (`send`) and reads responses in order (`readHead`, `readResponse`),
/// so a test can pipeline, send malformed bytes or stop half-way; it does no redirects, no TLS,
/// no content decoding.
public final class HTTPClient {
    /// Bounds on what is read.
    public struct Limits: Sendable {
        /// Status line plus header fields (and a chunked body's trailers).
        public var headBytes: Int
        /// The body after framing is removed.
        public var bodyBytes: Int
        public init(headBytes: Int = 64 * 1024, bodyBytes: Int = 256 * 1024 * 1024) {
            self.headBytes = headBytes
            self.bodyBytes = bodyBytes
        }
    }

    /// Why a request got no (usable) answer.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public enum Kind: Sendable, Equatable {
            case resolve, connect, send, receive
            /// No byte within the timeout.
            case timedOut
            /// The server closed the connection before the response was complete.
            case closed
            /// The bytes are not an HTTP/1.x response.
            case malformed
            /// Past `Limits`.
            case tooLarge
        }

        public let kind: Kind
        public let description: String
        public init(_ kind: Kind, _ description: String) {
            self.kind = kind
            self.description = description
        }
    }

    /// A response's status line and header fields.
    public struct Head: Sendable {
        public var version: String
        public var status: Int
        public var reason: String
        public var headers: HTTPHeaders
    }

    /// A whole response.
    public struct Response: Sendable {
        public var version: String
        public var status: Int
        public var reason: String
        public var headers: HTTPHeaders
        public var body: [UInt8]
        public var chunked = false
        public var trailers = HTTPHeaders()
        /// The body as it came off the wire, chunk framing included (for checks of the framing).
        public var rawBody: [UInt8] = []

        /// The first value of a header field, any case.
        public func header(_ name: String) -> String? { headers[name] }
        /// Every value of a header field, in order.
        public func headerValues(_ name: String) -> [String] { headers.values(for: name) }
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    public let fd: Int32
    public let limits: Limits
    public private(set) var isClosed = false
    /// Bytes received but not yet consumed.
    public private(set) var pending: [UInt8] = []

    /// Connects to `host` (a name or an address literal, IPv6 without brackets) and `port`;
    /// `timeout` bounds the connect and then every send and receive.
    public init(host: String, port: Int, timeout: Double = 10, limits: Limits = Limits(), receiveBufferSize: Int32? = nil) throws(Failure) {
        self.limits = limits
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw Failure(.resolve, "cannot resolve \(host)") }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), first.pointee.ai_protocol)
        guard fd >= 0 else { throw Failure(.connect, "socket: errno \(errno)") }
        if var size = receiveBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        // On Linux SO_SNDTIMEO also bounds a blocking connect.
        Self.setTimeout(fd, SO_RCVTIMEO, timeout)
        Self.setTimeout(fd, SO_SNDTIMEO, timeout)
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let e = errno
            Glibc.close(fd)
            throw Failure(.connect, "cannot connect to \(host):\(port) (errno \(e))")
        }
        self.fd = fd
    }

    deinit { if !isClosed { Glibc.close(fd) } }

    /// One request on a fresh connection, closed after the response: `GET target` with a `Host`
    /// header, `Connection: close` and `headers`.
    public static func get(host: String, port: Int, target: String, headers: HTTPHeaders = HTTPHeaders(), timeout: Double = 10, limits: Limits = Limits()) throws(Failure) -> Response {
        let client = try HTTPClient(host: host, port: port, timeout: timeout, limits: limits)
        defer { client.close() }
        try client.send(requestHead(method: "GET", target: target, host: host, headers: headers))
        return try client.readResponse()
    }

    /// `METHOD target HTTP/1.1`, `Host` (unless `headers` has one), `Connection: close` when
    /// `closing` (unless `headers` has a `Connection`), then `headers`, as one request head.
    public static func requestHead(method: String, target: String, host: String, headers: HTTPHeaders = HTTPHeaders(), closing: Bool = true) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains("host") { text += "Host: \(host.contains(":") ? "[\(host)]" : host)\r\n" }
        if closing, !headers.contains("connection") { text += "Connection: close\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return text + "\r\n"
    }

    public func setReceiveTimeout(_ seconds: Double) { Self.setTimeout(fd, SO_RCVTIMEO, seconds) }

    private static func setTimeout(_ fd: Int32, _ option: Int32, _ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, option, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    public func send(_ text: String) throws(Failure) { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { throw Failure(.send, "send failed (errno \(errno))") }
            offset += n
        }
    }

    /// Half-closes (FIN) the sending side.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    public func close() {
        if !isClosed {
            isClosed = true
            Glibc.close(fd)
        }
    }

    /// Closes with RST (SO_LINGER 0): an abrupt disconnect.
    public func abort() {
        var l = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    /// Reads once more into `pending`: false at EOF or reset; throws on timeout.
    @discardableResult
    public func fill() throws(Failure) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            pending.append(contentsOf: chunk[0..<n])
            return true
        }
        if n == 0 { return false }
        let e = errno
        if e == EAGAIN || e == EWOULDBLOCK { throw Failure(.timedOut, "receive timed out") }
        if e == ECONNRESET { return false }
        throw Failure(.receive, "recv: errno \(e)")
    }

    /// The next CRLF-terminated line, without its CRLF; `budget` is what the line may still use.
    public func line(budget: Int = Int.max) throws(Failure) -> String {
        var from = 0
        while true {
            if let i = pending[from...].firstIndex(of: 0x0A) {
                guard i > 0, pending[i - 1] == 0x0D else {
                    from = i + 1
                    continue
                }
                guard i + 1 <= budget else { break }
                let line = String(decoding: pending[0..<(i - 1)], as: UTF8.self)
                pending.removeFirst(i + 1)
                return line
            }
            from = pending.count
            guard pending.count <= budget else { break }
            guard try fill() else { throw Failure(.closed, "connection closed while reading a line (buffered: \(String(decoding: pending, as: UTF8.self)))") }
        }
        throw Failure(.tooLarge, "response head over \(limits.headBytes) bytes")
    }

    /// Takes exactly `n` bytes off the stream.
    public func take(_ n: Int) throws(Failure) -> [UInt8] {
        while pending.count < n {
            guard try fill() else { throw Failure(.closed, "connection closed with \(pending.count)/\(n) bytes") }
        }
        let out = Array(pending[0..<n])
        pending.removeFirst(n)
        return out
    }

    /// Reads until `predicate` holds for the bytes received so far (or EOF); returns them, unconsumed.
    public func readUntil(_ predicate: ([UInt8]) -> Bool) throws(Failure) -> [UInt8] {
        while !predicate(pending) {
            guard try fill() else { break }
        }
        return pending
    }

    /// True when the server closed the connection (EOF or reset) within `timeout` seconds,
    /// discarding anything else that arrives.
    public func waitForClose(timeout: Double = 10) -> Bool {
        setReceiveTimeout(timeout)
        while true {
            do {
                if try !fill() { return true }
                pending.removeAll()
            } catch {
                return false
            }
        }
    }

    /// Header fields up to the empty line, within what is left of `budget`.
    private func fields(budget: inout Int) throws(Failure) -> HTTPHeaders {
        var headers = HTTPHeaders()
        while true {
            let line = try line(budget: budget)
            budget -= line.utf8.count + 2
            if line.isEmpty { return headers }
            guard let colon = line.firstIndex(of: ":") else { throw Failure(.malformed, "bad header line: \(line)") }
            headers.add(name: String(line[..<colon]), value: Self.trimmed(line[line.index(after: colon)...]))
        }
    }

    private static func trimmed(_ s: Substring) -> String {
        String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// The status line and header fields of the next response.
    public func readHead() throws(Failure) -> Head {
        var budget = limits.headBytes
        let statusLine = try line(budget: budget)
        budget -= statusLine.utf8.count + 2
        let parts = statusLine.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            throw Failure(.malformed, "bad status line: \(statusLine)")
        }
        return Head(version: parts[0], status: code, reason: parts.count > 2 ? parts[2] : "", headers: try fields(budget: &budget))
    }

    /// The next response. `head: true` for a response to HEAD (no body whatever the headers say).
    public func readResponse(head: Bool = false) throws(Failure) -> Response {
        let h = try readHead()
        var response = Response(version: h.version, status: h.status, reason: h.reason, headers: h.headers, body: [])
        if head || h.status == 204 || h.status == 304 || (100..<200).contains(h.status) { return response }
        if h.headers.containsToken("chunked", in: "transfer-encoding") {
            response.chunked = true
            while true {
                let sizeLine = try line(budget: 1024)
                response.rawBody += Array((sizeLine + "\r\n").utf8)
                guard let size = Int(sizeLine.split(separator: ";", omittingEmptySubsequences: false)[0].trimmingSpaces, radix: 16), size >= 0 else {
                    throw Failure(.malformed, "bad chunk size \(sizeLine)")
                }
                if size == 0 {
                    var budget = limits.headBytes
                    response.trailers = try fields(budget: &budget)
                    return response
                }
                guard size <= limits.bodyBytes - response.body.count else { throw tooLarge() }
                let data = try take(size)
                response.body += data
                response.rawBody += data
                let crlf = try take(2)
                guard crlf == [0x0D, 0x0A] else { throw Failure(.malformed, "chunk not followed by CRLF") }
                response.rawBody += crlf
            }
        } else if let length = h.headers["content-length"] {
            guard let n = Int(length), n >= 0 else { throw Failure(.malformed, "bad Content-Length \(length)") }
            guard n <= limits.bodyBytes else { throw tooLarge() }
            response.body = try take(n)
        } else {
            while try fill() {
                guard pending.count <= limits.bodyBytes else { throw tooLarge() }
            }
            response.body = pending
            pending = []
        }
        return response
    }

    private func tooLarge() -> Failure { Failure(.tooLarge, "response body over \(limits.bodyBytes) bytes") }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring { drop { $0 == " " || $0 == "\t" } }
}
