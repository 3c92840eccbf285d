import Zlib

/// When a response is gzip-compressed: the client accepts gzip with q > 0, the body is at least
/// `minimumSize` bytes (or streamed), the content type is compressible, the status has a body
/// and nothing set `Content-Encoding` already. Never for event streams or already-compressed
/// media (PNG, JPEG, gzip, …). Shared by the gzip and ETag middleware so both pick the same
/// representation.
public struct CompressionPolicy: Sendable {
    public var minimumSize: Int
    /// zlib level for whole bodies (compressed once when encoded, or per response for small ones)
    /// below `largeBodySize` bytes.
    public var level: Int32
    /// From this size whole bodies are compressed at `largeBodyLevel`: the first request for a
    /// large computed answer waits for its compression. On a 600 KB trajectory (numeric JSON)
    /// level 6 takes 28 ms and level 1 5 ms, for 12 % more bytes (190 against 212 KB).
    public var largeBodySize: Int
    public var largeBodyLevel: Int32
    /// zlib level for `.pull` bodies, compressed as they stream on every request: 1, as nginx's
    /// default, since level 6 costs several times as much CPU for a few per cent fewer bytes.
    public var streamLevel: Int32
    /// zlib's window and hash for `.pull` bodies, whose deflaters live as long as a client takes
    /// to read: `.compact` (about 87 KiB with the output scratch, against 295 KiB with zlib's
    /// defaults), so 200 clients that stop reading gzip streams do not hold 60 MB of zlib state.
    public var streamMemory: DeflateMemory

    public init(minimumSize: Int = 1024, level: Int32 = 6, largeBodySize: Int = 64 * 1024, largeBodyLevel: Int32 = 1,
                streamLevel: Int32 = 1, streamMemory: DeflateMemory = .compact) {
        self.minimumSize = minimumSize
        self.level = level
        self.largeBodySize = largeBodySize
        self.largeBodyLevel = largeBodyLevel
        self.streamLevel = streamLevel
        self.streamMemory = streamMemory
    }

    /// The zlib level for a whole body of `byteCount` bytes.
    public func level(forSize byteCount: Int) -> Int32 { byteCount >= largeBodySize ? largeBodyLevel : level }

    static let compressibleTypes: Set<String> = [
        "application/json", "application/problem+json", "application/geo+json", "application/ld+json",
        "application/javascript", "application/xml", "application/yaml", "application/x-yaml",
        "application/x-ndjson", "application/openapi+yaml", "image/svg+xml", "image/x-portable-pixmap",
        "image/x-portable-anymap", "image/bmp",
    ]

    /// Whether a media type is worth compressing (text/* except event streams, JSON, XML, SVG, PPM…).
    public func isCompressible(contentType: String?) -> Bool {
        guard let ct = contentType else { return false }
        // The types this server sends most, without parsing.
        if ct == HTTPResponse.jsonContentType || ct == ProblemDetails.contentType { return true }
        let media = asciiLowercased(trimOWS(Substring(ct.split(separator: ";", maxSplits: 1).first ?? "")))
        if media == "text/event-stream" { return false }
        if media.hasPrefix("text/") { return true }
        if media.hasSuffix("+json") || media.hasSuffix("+xml") { return true }
        return CompressionPolicy.compressibleTypes.contains(media)
    }

    /// Whether the response would be compressed for some client (so `Vary: Accept-Encoding` belongs on it).
    public func isCandidate(_ response: HTTPResponse) -> Bool {
        guard response.allowsCompression, response.status.mayHaveBody, response.status.code != 206,
              response.headers["content-encoding"] == nil,
              isCompressible(contentType: response.headers["content-type"]) else { return false }
        switch response.body {
        case .bytes(let b): return b.count >= minimumSize
        // Encoded once: compressed at encoding time when it was worth it.
        case .encoded(let e): return e.gzip != nil
        case .pull: return true
        case .eventStream: return false
        }
    }

    /// Whether this response is compressed for this request.
    public func shouldCompress(_ request: HTTPRequest, _ response: HTTPResponse) -> Bool {
        isCandidate(response) && CompressionPolicy.acceptsGzip(request.headers)
    }

    /// Parses `Accept-Encoding`: gzip (or x-gzip, or `*` when gzip is not named) with q > 0.
    public static func acceptsGzip(_ headers: HTTPHeaders) -> Bool {
        var star: Double?
        var gzip: Double?
        for element in headers.tokens(for: "accept-encoding") {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            let coding = String(trimOWS(first))
            var q = 1.0
            for p in parts.dropFirst() {
                let kv = trimOWS(p)
                if kv.hasPrefix("q=") { q = Double(kv.dropFirst(2)) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = max(gzip ?? 0, q) } else if coding == "*" { star = q }
        }
        if let gzip { return gzip > 0 }
        if let star { return star > 0 }
        return false
    }
}
