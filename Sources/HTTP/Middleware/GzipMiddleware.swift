import HTTPCore
import Zlib

/// gzip via zlib for responses the `CompressionPolicy` picks; `.pull` bodies are compressed as
/// they stream (on the worker pool, where producers run); `.encoded` bodies already carry their
/// gzip variant, which is selected without compressing again. Adds `Vary: Accept-Encoding` to
/// every candidate and gives the gzip representation its own strong ETag (`"…-gzip"`).
///
/// `.bytes` bodies are compressed where the chain runs: on the event loop for `.light` routes,
/// which therefore return small bodies (or `.encoded` ones built off the loop).
public struct GzipMiddleware: ReplayableMiddleware {
    public let policy: CompressionPolicy

    public init(policy: CompressionPolicy = CompressionPolicy()) { self.policy = policy }

    public var replayKeyHeaders: [String] { ["accept-encoding"] }

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
            assert(!context.isOnEventLoop || bytes.count <= 64 * 1024,
                   "\(context.route) compresses \(bytes.count) bytes on the event loop: make it .compute or return an EncodedBody")
            response.body = .bytes(Deflater.compress(bytes, format: .gzip, level: policy.level(forSize: bytes.count)))
        case .encoded:
            response.selectsGzip = true
        case .pull(let inner):
            let deflater = Deflater(format: .gzip, level: policy.streamLevel, memory: policy.streamMemory, scratchSize: 16 * 1024)
            response.body = .pull(BodyProducer(state: false, retaining: inner.retainedBytes + deflater.retainedBytes) { done in
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
