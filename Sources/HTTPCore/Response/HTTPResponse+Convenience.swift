import Foundation

extension HTTPResponse {
    public static let jsonContentType = "application/json; charset=utf-8"
    public static let textContentType = "text/plain; charset=utf-8"

    /// A JSON body from bytes already encoded.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": jsonContentType], body: .bytes(bytes))
    }

    /// A JSON body encoded with `JSONEncoder` (sorted keys so the bytes, and so the ETag, are stable).
    public static func json<T: Encodable>(encoding value: T, status: HTTPStatus = .ok) throws -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json([UInt8](try encoder.encode(value)), status: status)
    }

    /// A UTF-8 text body.
    public static func text(_ text: String, status: HTTPStatus = .ok, contentType: String = textContentType) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }

    /// Raw bytes with a content type.
    public static func bytes(_ bytes: [UInt8], contentType: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(bytes))
    }

    /// A chunked body pulled from `producer` as the client drains it (large JSON/CSV series).
    public static func stream(contentType: String, status: HTTPStatus = .ok, _ producer: BodyProducer) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .pull(producer))
    }

    /// A `text/event-stream` response; `setup` receives the stream once the headers are queued.
    public static func eventStream(_ setup: @escaping @Sendable (EventStream) -> Void) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no"],
            body: .eventStream(setup)
        )
    }

    /// An `application/problem+json` response (what the error middleware produces).
    public static func problem(_ problem: ProblemDetails) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": ProblemDetails.contentType]
        headers.add(contentsOf: problem.headers)
        if problem.status.code == 503 || problem.status.code == 429, !headers.contains("retry-after") {
            headers.add(name: "Retry-After", value: "1")
        }
        var r = HTTPResponse(status: problem.status, headers: headers, body: .bytes(problem.jsonBytes))
        r.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return r
    }
}
