import HTTPCore

/// CORS for browsers (Fetch standard, "CORS protocol"), on every answer whatever the request
/// carried, because answers are cached: a URL first loaded without `Origin` (a plain `<img>`)
/// and kept as `immutable` must still serve a later `fetch()` or `<img crossorigin>` of it.
///
/// - Any origin (`*`, the default): every answer carries `Access-Control-Allow-Origin: *` and
///   `Access-Control-Expose-Headers`; none varies by `Origin`.
/// - A list of origins: every answer carries `Vary: Origin` (a shared cache must not hand one
///   origin's answer to another); answers to a listed origin also carry that origin in
///   `Access-Control-Allow-Origin`, and the exposed headers.
/// - Preflights (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an allowed
///   origin get 204 allowing GET, HEAD, OPTIONS and the requested headers, for `maxAge`
///   seconds, varying by the request headers their answer depends on.
///
/// Responses the chain makes from errors (problem+json), 304s and 503s pass through here too.
public struct CORSMiddleware: ReplayableMiddleware {
    public let allowedOrigins: [String]
    public let allowedMethods: String
    public let exposedHeaders: String
    public let maxAge: Int

    /// Response headers a front-end reads beyond the CORS-safelisted ones (`Cache-Control`,
    /// `Content-Language`, `Content-Length`, `Content-Type`, `Expires`, `Last-Modified`, `Pragma`).
    public static let defaultExposedHeaders = ["ETag", "X-Request-Id", "Retry-After", "Allow", "Link"]

    /// `["*"]` allows any origin; otherwise exact origins (`https://example.org`).
    public init(allowedOrigins: [String] = ["*"], allowedMethods: [HTTPMethod] = [.get, .head, .options], exposedHeaders: [String] = CORSMiddleware.defaultExposedHeaders, maxAge: Int = 86400) {
        self.allowedOrigins = allowedOrigins
        self.allowedMethods = allowedMethods.map(\.rawValue).joined(separator: ", ")
        self.exposedHeaders = exposedHeaders.joined(separator: ", ")
        self.maxAge = maxAge
    }

    var allowsAny: Bool { allowedOrigins.contains("*") }

    /// Only GET answers are replayed, so the preflight's headers never matter there.
    public var replayKeyHeaders: [String] { ["origin"] }

    func allows(_ origin: String) -> Bool {
        allowsAny || allowedOrigins.contains { asciiCaseInsensitiveEquals($0, origin) }
    }

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        let origin = request.headers["origin"]
        let allowed = origin.map(allows) ?? false
        let isPreflight = request.method == .options && origin != nil && request.headers["access-control-request-method"] != nil
        var response: HTTPResponse
        if isPreflight, allowed {
            response = HTTPResponse(status: .noContent)
            response.headers.add(name: "Access-Control-Allow-Methods", value: allowedMethods)
            let requested = request.headers.values(for: "access-control-request-headers")
                .flatMap { $0.split(separator: ",") }.map { trimOWS($0) }
                .filter { !$0.isEmpty && $0.utf8.allSatisfy(isTokenChar) }
            if !requested.isEmpty { response.headers.add(name: "Access-Control-Allow-Headers", value: requested.joined(separator: ", ")) }
            response.headers.add(name: "Access-Control-Max-Age", value: String(maxAge))
        } else {
            response = try next(request, context)
        }
        if allowsAny {
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: "*")
        } else {
            addVary("Origin", to: &response.headers)
            if allowed, let origin { response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: origin) }
        }
        if isPreflight {
            // The preflight answer echoes the requested headers (and, for a list, the origin).
            if !allowsAny { addVary("Access-Control-Request-Method", to: &response.headers) }
            addVary("Access-Control-Request-Headers", to: &response.headers)
        } else if allowsAny || allowed {
            response.headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: exposedHeaders)
        }
        return response
    }
}
