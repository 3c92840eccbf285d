/// CORS for browsers: `Access-Control-Allow-Origin` for allowed origins (default any), exposed
/// `X-Request-Id` and `ETag`, and preflight answers (`OPTIONS` with
/// `Access-Control-Request-Method`) allowing GET, HEAD, OPTIONS and the requested headers.
public struct CORSMiddleware: HTTPMiddleware {
    public let allowedOrigins: [String]
    public let allowedMethods: String
    public let exposedHeaders: String
    public let maxAge: Int

    /// `["*"]` allows any origin; otherwise exact origins (`https://example.org`).
    public init(allowedOrigins: [String] = ["*"], allowedMethods: [HTTPMethod] = [.get, .head, .options], exposedHeaders: [String] = ["X-Request-Id", "ETag"], maxAge: Int = 86400) {
        self.allowedOrigins = allowedOrigins
        self.allowedMethods = allowedMethods.map(\.rawValue).joined(separator: ", ")
        self.exposedHeaders = exposedHeaders.joined(separator: ", ")
        self.maxAge = maxAge
    }

    var allowsAny: Bool { allowedOrigins.contains("*") }

    func allows(_ origin: String) -> Bool {
        allowsAny || allowedOrigins.contains { asciiCaseInsensitiveEquals($0, origin) }
    }

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        guard let origin = request.headers["origin"] else { return try next(request, context) }
        let allowed = allows(origin)
        if request.method == .options, let requestedMethod = request.headers["access-control-request-method"], allowed {
            var headers: HTTPHeaders = [:]
            headers.add(name: "Access-Control-Allow-Origin", value: allowsAny ? "*" : origin)
            headers.add(name: "Access-Control-Allow-Methods", value: allowedMethods)
            let requested = request.headers.values(for: "access-control-request-headers")
                .flatMap { $0.split(separator: ",") }.map { trimOWS($0) }
                .filter { !$0.isEmpty && $0.utf8.allSatisfy(isTokenChar) }
            if !requested.isEmpty { headers.add(name: "Access-Control-Allow-Headers", value: requested.joined(separator: ", ")) }
            headers.add(name: "Access-Control-Max-Age", value: String(maxAge))
            if !allowsAny { headers.add(name: "Vary", value: "Origin") }
            _ = requestedMethod
            return HTTPResponse(status: .noContent, headers: headers)
        }
        var response = try next(request, context)
        if allowed {
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: allowsAny ? "*" : origin)
            response.headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: exposedHeaders)
            if !allowsAny { addVary("Origin", to: &response.headers) }
        }
        return response
    }
}

/// Adds `token` to `Vary` unless it is already listed.
func addVary(_ token: String, to headers: inout HTTPHeaders) {
    if headers.containsToken(token, in: "vary") || headers.containsToken("*", in: "vary") { return }
    if let existing = headers["vary"], !existing.isEmpty {
        headers.replaceOrAdd(name: "Vary", value: existing + ", " + token)
    } else {
        headers.replaceOrAdd(name: "Vary", value: token)
    }
}
