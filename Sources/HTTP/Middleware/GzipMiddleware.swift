/// gzip via zlib for responses the `CompressionPolicy` picks; `.pull` bodies are compressed as
/// they stream. Adds `Vary: Accept-Encoding` to every candidate and gives the gzip
/// representation its own strong ETag (`"…-gzip"`).
public struct GzipMiddleware: HTTPMiddleware {
    public let policy: CompressionPolicy

    public init(policy: CompressionPolicy = CompressionPolicy()) { self.policy = policy }

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        var response = try next(request, context)
        guard policy.isCandidate(response) else {
            if response.status.code == 304, response.headers["etag"] != nil { addVary("Accept-Encoding", to: &response.headers) }
            return response
        }
        addVary("Accept-Encoding", to: &response.headers)
        guard CompressionPolicy.acceptsGzip(request.headers) else { return response }
        switch response.body {
        case .bytes(let bytes):
            response.body = .bytes(GzipDeflater.gzip(bytes, level: policy.level))
        case .pull(let inner):
            let deflater = GzipDeflater(level: policy.level)
            response.body = .pull(BodyProducer(state: false) { done in
                if done { return nil }
                while true {
                    if let chunk = try inner.nextChunk() {
                        if chunk.isEmpty { continue }
                        let out = deflater.compress(chunk)
                        if !out.isEmpty { return out }
                    } else {
                        done = true
                        return deflater.compress([], finish: true)
                    }
                }
            })
        case .eventStream:
            return response
        }
        response.headers.replaceOrAdd(name: "Content-Encoding", value: "gzip")
        response.headers.remove(name: "Content-Length")
        if let tag = response.headers["etag"] {
            response.headers.replaceOrAdd(name: "ETag", value: ETagMiddleware.gzipVariant(of: tag))
        }
        return response
    }
}
