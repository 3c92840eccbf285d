import Glibc

/// A socket call that failed, with its errno.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let code: Int32
    public var description: String { "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// The address a server bound.
public struct BoundAddress: Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

enum Socket {
    /// A non-blocking listening socket bound to host:port (`::` is dual-stack).
    static func listen(host: String, port: Int, backlog: Int32) throws -> (fd: Int32, address: BoundAddress) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &result)
        guard rc == 0, let first = result else {
            throw SocketError(operation: "resolve \(host): \(String(cString: gai_strerror(rc)))", code: EINVAL)
        }
        defer { freeaddrinfo(result) }
        var lastError = SocketError(operation: "bind", code: EADDRNOTAVAIL)
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let ai = info {
            info = ai.pointee.ai_next
            let fd = socket(ai.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 {
                lastError = SocketError(operation: "socket", code: errno)
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if ai.pointee.ai_family == AF_INET6 {
                var zero: Int32 = 0
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, socklen_t(MemoryLayout<Int32>.size))
            }
            if bind(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) != 0 {
                lastError = SocketError(operation: "bind \(host):\(port)", code: errno)
                close(fd)
                continue
            }
            if Glibc.listen(fd, backlog) != 0 {
                lastError = SocketError(operation: "listen", code: errno)
                close(fd)
                continue
            }
            var storage = sockaddr_storage()
            var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
            }
            let (boundHost, boundPort) = describe(&storage)
            return (fd, BoundAddress(host: boundHost, port: boundPort))
        }
        throw lastError
    }

    enum AcceptResult {
        case accepted(fd: Int32, peer: String)
        case wouldBlock
        case failed(Int32)
    }

    static func accept(_ listenFD: Int32) -> AcceptResult {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.accept(listenFD, $0, &len)
            }
        }
        if fd < 0 {
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK { return .wouldBlock }
            return .failed(e)
        }
        // accept4 is not visible through Glibc's module map; set the flags by hand.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let (host, port) = describe(&storage)
        return .accepted(fd: fd, peer: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
    }

    static func describe(_ storage: inout sockaddr_storage) -> (String, Int) {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin -> (String, Int) in
                    var addr = sin.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count))
                    return (cStringToString(buffer), Int(UInt16(bigEndian: sin.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 -> (String, Int) in
                    var addr = sin6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count))
                    var host = cStringToString(buffer)
                    if host.hasPrefix("::ffff:"), host.contains(".") { host = String(host.dropFirst(7)) }
                    return (host, Int(UInt16(bigEndian: sin6.pointee.sin6_port)))
                }
            }
        default:
            return ("unknown", 0)
        }
    }

    /// Writes what it can without blocking; returns bytes written, 0 on EAGAIN, -1 on error.
    @inline(__always)
    static func write(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
        while true {
            let n = send(fd, base, count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return n }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return 0 }
            return -1
        }
    }

    /// Gathers `iovecs` into one `sendmsg` without blocking; returns bytes written, 0 on EAGAIN,
    /// -1 on error.
    static func write(_ fd: Int32, _ iovecs: UnsafeMutableBufferPointer<iovec>) -> Int {
        var message = msghdr()
        message.msg_iov = iovecs.baseAddress
        message.msg_iovlen = numericCast(iovecs.count)
        while true {
            let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            if n >= 0 { return n }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return 0 }
            return -1
        }
    }

    /// Reads into `buffer`: bytes read, 0 at end of stream, -1 with `errno` set.
    @inline(__always)
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        Glibc.read(fd, buffer.baseAddress, buffer.count)
    }

    /// Half-closes: no more output (the peer reads end of stream), input still readable.
    static func shutdownOutput(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Ignores SIGPIPE process-wide (writes to closed sockets then fail with EPIPE instead).
    static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }
}

func cStringToString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
