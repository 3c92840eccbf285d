import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `solarsystem healthcheck`: exit 0 when the server answers `/healthz` with 2xx within the
/// timeout, 1 otherwise (for Docker's HEALTHCHECK, which has no curl). With no `--url` it asks
/// the address `serve` listens on, read from the same variables (`SOLARSYSTEM_HOST`,
/// `SOLARSYSTEM_PORT`), so a container started with another port stays healthy.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 if the server answers the URL with 2xx, 1 otherwise."
    )

    @Option(help: "http:// URL to GET (default: /healthz on the address serve uses: SOLARSYSTEM_HOST, loopback for 0.0.0.0 or ::, and SOLARSYSTEM_PORT, default 8080).")
    var url: String?
    @Option(help: "Seconds to wait for the answer.") var timeout: Double = 3

    func validate() throws {
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be in (0, 60] seconds") }
        _ = try target()
    }

    /// What to ask: `--url`, or `/healthz` on the address `serve` listens on.
    func target() throws -> (host: String, port: String, path: String, display: String) {
        if let url {
            let (host, port, path) = try Self.parse(url: url)
            return (host, port, path, url)
        }
        // A bad port is a usage error here (exit 64), not "unhealthy" (1).
        let port: Int
        do { port = try Setting.int(flag: nil, env: "SOLARSYSTEM_PORT", flagName: "--port", default: 8080, in: 1...65535) } catch let e as CLIError { throw ValidationError(e.description) }
        let host = Self.connectHost(forListenHost: Setting.string(flag: nil, env: "SOLARSYSTEM_HOST", default: "0.0.0.0"))
        let display = host.contains(":") ? "http://[\(host)]:\(port)/healthz" : "http://\(host):\(port)/healthz"
        return (host, String(port), "/healthz", display)
    }

    /// The address to connect to for a listening address: the wildcards mean this machine.
    static func connectHost(forListenHost host: String) -> String {
        switch host {
        case "0.0.0.0": "127.0.0.1"
        case "::", "[::]": "::1"
        default: host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        }
    }

    /// `http://host[:port][/path]` → parts; IPv6 hosts in brackets.
    static func parse(url: String) throws -> (host: String, port: String, path: String) {
        guard url.hasPrefix("http://") else { throw ValidationError("--url must start with http:// (got \(url))") }
        var rest = Substring(url.dropFirst(7))
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        rest = rest[slash...]
        var host = String(authority), port = "80"
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = String(after.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
        }
        guard !host.isEmpty, let p = Int(port), (1...65535).contains(p) else { throw ValidationError("--url \(url): needs a host and a port 1…65535") }
        return (host, port, rest.isEmpty ? "/" : String(rest))
    }

    func run() throws {
        let (host, port, path, url) = try target()
        switch Self.get(host: host, port: port, path: path, timeout: timeout) {
        case let .success(status) where (200..<300).contains(status):
            print("healthy: \(url) answered \(status)")
        case let .success(status):
            print("unhealthy: \(url) answered \(status)")
            throw ExitCode(1)
        case let .failure(reason):
            print("unhealthy: \(url): \(reason.message)")
            throw ExitCode(1)
        }
    }

    struct Failure: Error { let message: String }

    /// One GET over a plain socket; the status code of the answer.
    static func get(host: String, port: String, path: String, timeout: Double) -> Result<Int, Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, port, &hints, &list) == 0, let first = list else { return .failure(Failure(message: "cannot resolve \(host)")) }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return .failure(Failure(message: "socket: errno \(errno)")) }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return .failure(Failure(message: "cannot connect to \(host):\(port) (errno \(errno))"))
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\nUser-Agent: solarsystem-healthcheck\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            return .failure(Failure(message: "send failed (errno \(errno))"))
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        var got = 0
        while got < 12 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, $0.count - got, 0) }
            guard n > 0 else { return .failure(Failure(message: n == 0 ? "connection closed before an answer" : "no answer within \(timeout) s")) }
            got += n
        }
        let line = String(decoding: buffer[0..<got], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            return .failure(Failure(message: "not an HTTP answer"))
        }
        return .success(status)
    }
}
