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
        etag = "\"" + EncodedBody.hash(bytes) + "\""
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

extension EncodedBody {
    /// 32 hex digits of a 128-bit hash of `bytes` (two independent 64-bit lanes, murmur finaliser).
    public static func hash(_ bytes: [UInt8]) -> String {
        var h1: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var h2: UInt64 = 0xC2B2_AE3D_27D4_EB4F &+ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            var i = 0
            let n = raw.count
            while i + 8 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                h1 = ((h1 ^ w) &* 0x87C3_7B91_1142_53D5)
                h1 = (h1 << 31) | (h1 >> 33)
                h2 = ((h2 ^ w) &* 0x4CF5_AD43_2745_937F)
                h2 = ((h2 << 29) | (h2 >> 35)) &+ h1
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(raw[i]) << shift
                shift += 8
                i += 1
            }
            h1 = (h1 ^ tail) &* 0x87C3_7B91_1142_53D5
            h2 = (h2 ^ (tail &+ 0x1234_5678)) &* 0x4CF5_AD43_2745_937F
        }
        h1 = fmix(h1 &+ h2)
        h2 = fmix(h2 &+ h1)
        return hex16(h1) + hex16(h2)
    }

    private static func fmix(_ k: UInt64) -> UInt64 {
        var k = k
        k ^= k >> 33
        k = k &* 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k = k &* 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }

    private static func hex16(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
