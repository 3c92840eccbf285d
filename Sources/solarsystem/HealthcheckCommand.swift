import ArgumentParser
import HTTPClient

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

    /// One GET on a fresh connection (`HTTPClient`, the client the tests use too); the status code
    /// of the answer. Only the status line and header fields are read, within 64 KiB.
    static func get(host: String, port: String, path: String, timeout: Double) -> Result<Int, Failure> {
        do {
            let client = try HTTPClient(host: host, port: Int(port) ?? 80, timeout: timeout, limits: .init(headBytes: 64 * 1024, bodyBytes: 0))
            defer { client.close() }
            try client.send(HTTPClient.requestHead(method: "GET", target: path, host: host, headers: ["User-Agent": "solarsystem-healthcheck"]))
            return .success(try client.readHead().status)
        } catch {
            return .failure(Failure(message: message(for: error, timeout: timeout)))
        }
    }

    /// The messages healthcheck has always printed, by what went wrong.
    static func message(for failure: HTTPClient.Failure, timeout: Double) -> String {
        switch failure.kind {
        case .resolve, .connect, .send, .receive: failure.description
        case .closed: "connection closed before an answer"
        case .timedOut: "no answer within \(timeout) s"
        case .malformed, .tooLarge: "not an HTTP answer"
        }
    }
}
