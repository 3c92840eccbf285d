import Synchronization
import Zlib

/// A response body encoded once: the identity bytes, their gzip variant (when the type is worth
/// compressing and the body is at least the policy's minimum size) and the strong ETag of the
/// identity bytes. Immutable and shared: caches keep it, any number of connections send it, and
/// none of them compresses or hashes again. The gzip middleware picks the variant the client
/// accepts; the ETag middleware answers `If-None-Match` from `etag` without touching the bytes.
///
/// Build it off the event loop (it compresses and hashes the whole body):
/// ```swift
/// let body = EncodedBody(bytes: json, contentType: HTTPResponse.jsonContentType)
/// cache.insert(body, for: key)
/// return HTTPResponse(encoded: body).immutable()
/// ```
/// Every live instance is counted in a `MemoryLedger` (by default the process's), which the
/// server's response-memory budget reads.
public final class EncodedBody: Sendable {
    public let identity: [UInt8]
    public let gzip: [UInt8]?
    public let contentType: String
    /// The strong ETag of `identity` (quoted); the gzip variant's is `ETagMiddleware.gzipVariant(of:)`.
    public let etag: String
    private let ledger: MemoryLedger

    public init(bytes: [UInt8], contentType: String, policy: CompressionPolicy = CompressionPolicy(), ledger: MemoryLedger = .shared) {
        identity = bytes
        self.contentType = contentType
        if bytes.count >= policy.minimumSize, policy.isCompressible(contentType: contentType) {
            let packed = Deflater.compress(bytes, format: .gzip, level: policy.level(forSize: bytes.count))
            // Keep the variant only when it is smaller: a client asking for gzip gets identity otherwise.
            gzip = packed.count < bytes.count ? packed : nil
        } else {
            gzip = nil
        }
        etag = "\"" + ETagMiddleware.hash(bytes) + "\""
        self.ledger = ledger
        ledger.add(byteCount)
    }

    deinit { ledger.add(-byteCount) }

    /// Both variants.
    public var byteCount: Int { identity.count + (gzip?.count ?? 0) }
}

/// A running total of bytes held by shared response bodies. The server's response-memory budget
/// reads the ledger in its configuration (`.shared` unless a test isolates its own).
public final class MemoryLedger: Sendable {
    private let total = Atomic<Int>(0)

    public init() {}

    /// The process's ledger.
    public static let shared = MemoryLedger()

    public var bytes: Int { total.load(ordering: .relaxed) }

    func add(_ delta: Int) { total.add(delta, ordering: .relaxed) }
}
