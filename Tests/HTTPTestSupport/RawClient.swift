import Foundation
import HTTPClient
import HTTPCore

/// A failure of a test's own making (no listening line, no executable, …).
public struct ClientError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// The tests talk to servers with the same client `solarsystem healthcheck` uses
/// (`HTTP.HTTPClient`); these names and defaults are the tests' shorthand for it.
public typealias RawClient = HTTPClient
public typealias RawResponse = HTTPClient.Response

extension HTTPClient {
    /// A connection to `port` on loopback (or `host`), each receive waiting at most
    /// `receiveTimeout` seconds so a broken server fails a test instead of hanging it.
    public convenience init(port: Int, host: String = "127.0.0.1", receiveTimeout: Double = 10, receiveBufferSize: Int32? = nil) throws {
        try self.init(host: host, port: port, timeout: receiveTimeout, receiveBufferSize: receiveBufferSize)
    }

    /// One GET on a fresh connection to `port` (loopback), closed after the response. The request
    /// carries `Host: test` and no `Connection` header, as a browser's first request would.
    public static func get(port: Int, _ target: String, headers: [String: String] = [:], receiveTimeout: Double = 10) throws -> Response {
        let c = try HTTPClient(port: port, receiveTimeout: receiveTimeout)
        defer { c.close() }
        var fields = HTTPHeaders(["Host": "test"].map { (name: $0.key, value: $0.value) })
        for (k, v) in headers { fields.add(name: k, value: v) }
        try c.send(requestHead(method: "GET", target: target, host: "test", headers: fields, closing: false))
        return try c.readResponse()
    }
}

extension HTTPClient.Response {
    /// The body decoded as a JSON object.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}
