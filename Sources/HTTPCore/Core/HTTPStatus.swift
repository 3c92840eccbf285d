/// A response status: code plus reason phrase. An open struct with static members
/// (`HTTPStatus.notFound`); two statuses are equal when their codes are.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public let reasonPhrase: String

    public init(code: Int, reasonPhrase: String) {
        self.code = code
        self.reasonPhrase = reasonPhrase
    }

    /// A status with the standard reason phrase for `code` (or "Unknown").
    public init(code: Int) {
        self.code = code
        self.reasonPhrase = HTTPStatus.standardReason(code) ?? "Unknown"
    }

    public static func == (a: HTTPStatus, b: HTTPStatus) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "\(code) \(reasonPhrase)" }
    public var isInformational: Bool { (100..<200).contains(code) }
    public var isSuccess: Bool { (200..<300).contains(code) }
    public var isError: Bool { code >= 400 }
    /// 1xx, 204 and 304 never carry a body (RFC 9110 §6.4.1).
    public var mayHaveBody: Bool { !(isInformational || code == 204 || code == 304) }

    public static let `continue` = HTTPStatus(code: 100, reasonPhrase: "Continue")
    public static let ok = HTTPStatus(code: 200, reasonPhrase: "OK")
    public static let created = HTTPStatus(code: 201, reasonPhrase: "Created")
    public static let accepted = HTTPStatus(code: 202, reasonPhrase: "Accepted")
    public static let noContent = HTTPStatus(code: 204, reasonPhrase: "No Content")
    public static let partialContent = HTTPStatus(code: 206, reasonPhrase: "Partial Content")
    public static let movedPermanently = HTTPStatus(code: 301, reasonPhrase: "Moved Permanently")
    public static let found = HTTPStatus(code: 302, reasonPhrase: "Found")
    public static let seeOther = HTTPStatus(code: 303, reasonPhrase: "See Other")
    public static let notModified = HTTPStatus(code: 304, reasonPhrase: "Not Modified")
    public static let temporaryRedirect = HTTPStatus(code: 307, reasonPhrase: "Temporary Redirect")
    public static let permanentRedirect = HTTPStatus(code: 308, reasonPhrase: "Permanent Redirect")
    public static let badRequest = HTTPStatus(code: 400, reasonPhrase: "Bad Request")
    public static let unauthorized = HTTPStatus(code: 401, reasonPhrase: "Unauthorized")
    public static let forbidden = HTTPStatus(code: 403, reasonPhrase: "Forbidden")
    public static let notFound = HTTPStatus(code: 404, reasonPhrase: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reasonPhrase: "Method Not Allowed")
    public static let notAcceptable = HTTPStatus(code: 406, reasonPhrase: "Not Acceptable")
    public static let requestTimeout = HTTPStatus(code: 408, reasonPhrase: "Request Timeout")
    public static let conflict = HTTPStatus(code: 409, reasonPhrase: "Conflict")
    public static let gone = HTTPStatus(code: 410, reasonPhrase: "Gone")
    public static let lengthRequired = HTTPStatus(code: 411, reasonPhrase: "Length Required")
    public static let preconditionFailed = HTTPStatus(code: 412, reasonPhrase: "Precondition Failed")
    public static let contentTooLarge = HTTPStatus(code: 413, reasonPhrase: "Content Too Large")
    public static let uriTooLong = HTTPStatus(code: 414, reasonPhrase: "URI Too Long")
    public static let unsupportedMediaType = HTTPStatus(code: 415, reasonPhrase: "Unsupported Media Type")
    public static let rangeNotSatisfiable = HTTPStatus(code: 416, reasonPhrase: "Range Not Satisfiable")
    public static let expectationFailed = HTTPStatus(code: 417, reasonPhrase: "Expectation Failed")
    public static let unprocessableContent = HTTPStatus(code: 422, reasonPhrase: "Unprocessable Content")
    public static let tooManyRequests = HTTPStatus(code: 429, reasonPhrase: "Too Many Requests")
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reasonPhrase: "Request Header Fields Too Large")
    /// nginx's 499: the client closed the connection before the answer was ready. Never sent
    /// (there is nobody to send it to); access logs and metrics record it.
    public static let clientClosedRequest = HTTPStatus(code: 499, reasonPhrase: "Client Closed Request")
    public static let internalServerError = HTTPStatus(code: 500, reasonPhrase: "Internal Server Error")
    public static let notImplemented = HTTPStatus(code: 501, reasonPhrase: "Not Implemented")
    public static let badGateway = HTTPStatus(code: 502, reasonPhrase: "Bad Gateway")
    public static let serviceUnavailable = HTTPStatus(code: 503, reasonPhrase: "Service Unavailable")
    public static let gatewayTimeout = HTTPStatus(code: 504, reasonPhrase: "Gateway Timeout")
    public static let httpVersionNotSupported = HTTPStatus(code: 505, reasonPhrase: "HTTP Version Not Supported")

    static let known: [HTTPStatus] = [
        .continue, .ok, .created, .accepted, .noContent, .partialContent, .movedPermanently, .found,
        .seeOther, .notModified, .temporaryRedirect, .permanentRedirect, .badRequest, .unauthorized,
        .forbidden, .notFound, .methodNotAllowed, .notAcceptable, .requestTimeout, .conflict, .gone,
        .lengthRequired, .preconditionFailed, .contentTooLarge, .uriTooLong, .unsupportedMediaType,
        .rangeNotSatisfiable, .expectationFailed, .unprocessableContent, .tooManyRequests,
        .requestHeaderFieldsTooLarge, .clientClosedRequest, .internalServerError, .notImplemented, .badGateway,
        .serviceUnavailable, .gatewayTimeout, .httpVersionNotSupported,
    ]

    static func standardReason(_ code: Int) -> String? {
        for s in known where s.code == code { return s.reasonPhrase }
        return nil
    }
}
