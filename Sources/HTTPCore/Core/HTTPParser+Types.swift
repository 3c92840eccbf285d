/// Size limits the parser enforces (the HTTP contract, docs/http.md: request line 8 KiB,
/// headers 32 KiB / 100 fields, body 1 MiB).
public struct HTTPParserLimits: Sendable, Equatable {
    /// Longest request line (method, target, version) before 414.
    public var maxRequestLineBytes: Int = 8 * 1024
    /// Most header (and trailer) bytes before 431.
    public var maxHeaderBytes: Int = 32 * 1024
    /// Most header (and trailer) fields before 431.
    public var maxHeaderCount: Int = 100
    /// Largest request body, fixed-length or chunked, before 413.
    public var maxBodyBytes: Int = 1 << 20

    public init(maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 32 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Why a request could not be parsed: the status to answer with and a human detail. After an
/// error the connection is answered and closed; the parser stays failed.
public struct HTTPParseError: HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    public let status: HTTPStatus
    public let detail: String
    /// The query parameter concerned, for malformed query encoding.
    public let parameter: String?
    /// The decoded request path, when the error lies in the query (the problem's `instance`).
    public var instance: String?

    public init(_ status: HTTPStatus, _ detail: String, parameter: String? = nil, instance: String? = nil) {
        self.status = status
        self.detail = detail
        self.parameter = parameter
        self.instance = instance
    }

    public var description: String { "\(status.code): \(detail)" }

    /// The problem document the server answers with.
    public var problem: ProblemDetails {
        var p = ProblemDetails(status: status, detail: detail, instance: instance)
        if let parameter { p.extensions.append(("parameter", .string(parameter))) }
        return p
    }
}

/// What `HTTPParser.next()` found.
public enum HTTPParserEvent: Sendable {
    /// Nothing complete yet: append more bytes.
    case needMore
    /// The head of a request with `Expect: 100-continue` is complete and its body has not
    /// arrived: the server should send `100 Continue` (once) and keep feeding.
    case continueExpected
    /// One complete request; call `next()` again for a pipelined one.
    case request(HTTPRequest)
    /// The input is not acceptable HTTP/1.1; answer `error.status` and close.
    case error(HTTPParseError)
}
