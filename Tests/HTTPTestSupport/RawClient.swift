#if canImport(Glibc)
import Glibc
#endif
import Foundation

public struct ClientError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// A parsed response read off a raw socket.
public struct RawResponse {
    public var version: String
    public var status: Int
    public var reason: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public var chunked: Bool
    public var trailers: [(name: String, value: String)] = []
    /// The body framing bytes as they came off the wire (chunk sizes included), for SSE checks.
    public var rawBody: [UInt8] = []

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as a JSON object.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

/// A blocking TCP client over a raw socket, with a receive timeout so a broken server fails a
/// test instead of hanging it.
public final class RawClient {
    public let fd: Int32
    private var buffer: [UInt8] = []
    public private(set) var isClosed = false

    /// One GET on a fresh connection to `port` (loopback), closed after the response.
    public static func get(port: Int, _ target: String, headers: [String: String] = [:], receiveTimeout: Double = 10) throws -> RawResponse {
        let c = try RawClient(port: port, receiveTimeout: receiveTimeout)
        defer { c.close() }
        var text = "GET \(target) HTTP/1.1\r\nHost: test\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        text += "\r\n"
        try c.send(text)
        return try c.readResponse()
    }

    public init(port: Int, host: String = "127.0.0.1", receiveTimeout: Double = 10, receiveBufferSize: Int32? = nil) throws {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket: errno \(errno)") }
        if var size = receiveBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        setReceiveTimeout(receiveTimeout)
        var rc: Int32
        if family == AF_INET {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &addr.sin_addr)
            rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        } else {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &addr.sin6_addr)
            rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        }
        guard rc == 0 else {
            let e = errno
            Glibc.close(fd)
            throw ClientError(description: "connect to \(host):\(port): errno \(e)")
        }
    }

    deinit { if !isClosed { Glibc.close(fd) } }

    public func setReceiveTimeout(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { throw ClientError(description: "send: errno \(errno)") }
            offset += n
        }
    }

    /// Half-closes (FIN) the sending side.
    public func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

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

    /// Reads more bytes into the buffer; false on EOF/reset; throws on timeout.
    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        if n == 0 { return false }
        let e = errno
        if e == EAGAIN || e == EWOULDBLOCK { throw ClientError(description: "receive timed out") }
        if e == ECONNRESET { return false }
        throw ClientError(description: "recv: errno \(e)")
    }

    private func readLine() throws -> String {
        while true {
            if let i = buffer.firstIndex(of: 0x0A), i > 0, buffer[i - 1] == 0x0D {
                let line = String(decoding: buffer[0..<(i - 1)], as: UTF8.self)
                buffer.removeFirst(i + 1)
                return line
            }
            guard try fill() else { throw ClientError(description: "connection closed while reading a line (buffered: \(String(decoding: buffer, as: UTF8.self)))") }
        }
    }

    private func readExactly(_ n: Int) throws -> [UInt8] {
        while buffer.count < n {
            guard try fill() else { throw ClientError(description: "connection closed with \(buffer.count)/\(n) bytes") }
        }
        let out = Array(buffer[0..<n])
        buffer.removeFirst(n)
        return out
    }

    /// Reads the next response. `head: true` for responses to HEAD (no body whatever the headers).
    public func readResponse(head: Bool = false) throws -> RawResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2, let code = Int(parts[1]) else { throw ClientError(description: "bad status line: \(statusLine)") }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw ClientError(description: "bad header line: \(line)") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = RawResponse(version: parts[0], status: code, reason: parts.count > 2 ? parts[2] : "", headers: headers, body: [], chunked: false)
        if head || code == 204 || code == 304 || (100..<200).contains(code) { return response }
        if response.header("transfer-encoding")?.lowercased() == "chunked" {
            response.chunked = true
            while true {
                let sizeLine = try readLine()
                response.rawBody += Array((sizeLine + "\r\n").utf8)
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else { throw ClientError(description: "bad chunk size \(sizeLine)") }
                if size == 0 {
                    while true {
                        let t = try readLine()
                        if t.isEmpty { break }
                        if let c = t.firstIndex(of: ":") { response.trailers.append((String(t[..<c]), String(t[t.index(after: c)...]).trimmingCharacters(in: .whitespaces))) }
                    }
                    break
                }
                let data = try readExactly(size)
                response.body += data
                response.rawBody += data
                let crlf = try readExactly(2)
                guard crlf == [0x0D, 0x0A] else { throw ClientError(description: "chunk not followed by CRLF") }
                response.rawBody += crlf
            }
        } else if let cl = response.header("content-length"), let n = Int(cl) {
            response.body = try readExactly(n)
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Reads whatever arrives until `predicate` holds for the bytes so far (or EOF).
    public func readUntil(_ predicate: ([UInt8]) -> Bool) throws -> [UInt8] {
        while !predicate(buffer) {
            guard try fill() else { break }
        }
        return buffer
    }

    /// Takes `n` raw bytes off the stream.
    public func take(_ n: Int) throws -> [UInt8] { try readExactly(n) }

    /// Reads a raw line (for SSE chunk parsing by hand).
    public func line() throws -> String { try readLine() }

    /// True when the server closed the connection (EOF or reset) within `timeout` seconds,
    /// discarding anything else that arrives.
    public func waitForClose(timeout: Double = 10) -> Bool {
        setReceiveTimeout(timeout)
        while true {
            do {
                if try !fill() { return true }
                buffer.removeAll()
            } catch {
                return false
            }
        }
    }

    /// Bytes buffered but not consumed.
    public var pending: [UInt8] { buffer }
}
