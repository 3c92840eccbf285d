/// A parsed request: method, the raw request target, its percent-decoded path and query, the
/// version, the ordered headers, the (de-chunked) body and any chunked trailers.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target exactly as sent (`/v1/bodies/earth?x=1`, or an absolute-form URI).
    public var target: String
    /// The percent-decoded path (`/v1/bodies/earth`).
    public var path: String
    public var query: QueryParameters
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Trailer fields of a chunked body (empty otherwise).
    public var trailers: HTTPHeaders

    public init(
        method: HTTPMethod, target: String, path: String, query: QueryParameters = QueryParameters(),
        version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        trailers: HTTPHeaders = HTTPHeaders()
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
    }

    /// The authority (`host[:port]`) the request is addressed to: an absolute-form target's own,
    /// since the server must then ignore `Host` (RFC 9112 §3.2.2), otherwise the `Host` value
    /// (empty for an HTTP/1.0 request without one).
    public var authority: String {
        let bytes = target.utf8
        if let first = bytes.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "*"),
           let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) {
            let rest = bytes[bytes.index(colon, offsetBy: 3)...]
            return String(decoding: rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }, as: UTF8.self)
        }
        return headers["host"] ?? ""
    }

    /// Whether the client wants the connection kept open after this exchange: the default for
    /// HTTP/1.1 unless `Connection: close`; opt-in (`Connection: keep-alive`) for HTTP/1.0.
    public var wantsKeepAlive: Bool {
        if version == .http1_1 { return !headers.containsToken("close", in: "connection") }
        return headers.containsToken("keep-alive", in: "connection") && !headers.containsToken("close", in: "connection")
    }

    /// Builds a request from a target (`/path?x=1`), decoding path and query. For tests and
    /// in-process dispatch; throws the same 400 the parser would.
    public init(method: HTTPMethod = .get, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = ["Host": "localhost"], body: [UInt8] = []) throws {
        let split = try RequestTarget.decode(Array(target.utf8), method: method)
        self.init(method: method, target: target, path: split.path, query: split.query, version: version, headers: headers, body: body)
    }
}
