import HTTPCore

/// Strong ETags for responses that opt in (`HTTPResponse.immutable()`, `cacheable(maxAge:)` or
/// `generatesETag`): a 128-bit hash of the identity body (`.encoded` bodies carry theirs, hashed
/// once when they were encoded). `If-None-Match` on GET/HEAD answers
/// 304 with the same validators and cache headers and no body. When the gzip middleware (outside
/// this one, sharing its policy) will compress, the expected tag is the gzip variant.
public struct ETagMiddleware: ReplayableMiddleware {
    public let policy: CompressionPolicy
    /// Headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5).
    static let validatorHeaders = ["cache-control", "content-location", "date", "etag", "expires", "vary", "last-modified"]

    public init(policy: CompressionPolicy = CompressionPolicy()) { self.policy = policy }

    /// The gzip variant's tag is chosen by `Accept-Encoding`, which the gzip middleware keys on.
    public var replayKeyHeaders: [String] { ["if-none-match"] }

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        var response = try next(request, context)
        guard response.generatesETag, response.status == .ok else { return response }
        let identityTag: String
        switch response.body {
        case .bytes(let body):
            identityTag = response.headers["etag"] ?? "\"" + EncodedBody.hash(body) + "\""
        case .encoded(let e):
            identityTag = response.headers["etag"] ?? e.etag
        case .pull, .eventStream:
            return response
        }
        response.headers.replaceOrAdd(name: "ETag", value: identityTag)
        guard request.method == .get || request.method == .head, let ifNoneMatch = request.headers.values(for: "if-none-match").nonEmptyJoined else {
            return response
        }
        let compressed = policy.shouldCompress(request, response)
        let selected = compressed ? ETagMiddleware.gzipVariant(of: identityTag) : identityTag
        guard ETagMiddleware.matches(ifNoneMatch, selected) else { return response }
        var headers = HTTPHeaders()
        for f in response.headers where ETagMiddleware.validatorHeaders.contains(asciiLowercased(f.name)) {
            headers.add(name: f.name, value: f.name.lowercased() == "etag" ? selected : f.value)
        }
        if policy.isCandidate(response) { addVary("Accept-Encoding", to: &headers) }
        var notModified = HTTPResponse(status: .notModified, headers: headers, body: .bytes([]))
        notModified.allowsCompression = false
        return notModified
    }

    /// `"abc"` → `"abc-gzip"` (weak tags keep their `W/`).
    public static func gzipVariant(of tag: String) -> String {
        guard tag.hasSuffix("\""), !tag.hasSuffix("-gzip\"") else { return tag }
        return String(tag.dropLast()) + "-gzip\""
    }

    /// Weak comparison of `If-None-Match` members against `tag` (RFC 9110 §13.1.2); `*` matches.
    public static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        let opaque = stripWeak(tag)
        for member in ifNoneMatch.split(separator: ",") {
            let m = trimOWS(member)
            if m == "*" { return true }
            if stripWeak(String(m)) == opaque { return true }
        }
        return false
    }

    private static func stripWeak(_ t: String) -> String { t.hasPrefix("W/") ? String(t.dropFirst(2)) : t }
}

extension Array where Element == String {
    var nonEmptyJoined: String? { isEmpty ? nil : joined(separator: ", ") }
}
