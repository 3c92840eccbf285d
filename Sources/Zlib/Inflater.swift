import CZlib

/// Errors from inflating.
public enum ZlibError: Error, Sendable, Equatable, CustomStringConvertible {
    case initFailed(code: Int32)
    case corrupt(code: Int32)
    case truncated
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case let .initFailed(code): return "zlib could not start (code \(code))"
        case let .corrupt(code): return "compressed data is corrupt (zlib code \(code))"
        case .truncated: return "compressed data ends early"
        case let .tooLarge(limit): return "decompressed data exceeds the limit of \(limit) bytes"
        }
    }
}

/// One-shot inflate with an output limit, so hostile or damaged input cannot allocate without bound.
public enum Inflater {
    /// The framing `decompress` accepts.
    public enum Format: Sendable {
        case zlib, gzip
        /// zlib or gzip, detected from the header.
        case automatic

        var windowBits: Int32 {
            switch self {
            case .zlib: return 15
            case .gzip: return 15 + 16
            case .automatic: return 15 + 32
            }
        }
    }

    /// Inflates `bytes`. Throws when the output would exceed `limit` bytes, or the data is
    /// corrupt or truncated; bytes after the end of the stream are ignored.
    public static func decompress(_ bytes: [UInt8], format: Format, limit: Int) throws(ZlibError) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deinitialize(count: 1); stream.deallocate() }
        let rc0 = czlib_inflateInit2(stream, format.windowBits)
        guard rc0 == Z_OK else { throw .initFailed(code: rc0) }
        defer { inflateEnd(stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(1024, bytes.count * 4)))
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var failure: ZlibError?
        bytes.withUnsafeBufferPointer { inp in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
            stream.pointee.avail_in = UInt32(inp.count)
            while true {
                let (rc, produced): (Int32, Int) = chunk.withUnsafeMutableBufferPointer { o in
                    stream.pointee.next_out = o.baseAddress
                    stream.pointee.avail_out = UInt32(o.count)
                    let rc = inflate(stream, Z_NO_FLUSH)
                    return (rc, o.count - Int(stream.pointee.avail_out))
                }
                if output.count + produced > limit { failure = .tooLarge(limit: limit); return }
                if produced > 0 { output.append(contentsOf: chunk[0..<produced]) }
                if rc == Z_STREAM_END { return }
                if rc == Z_BUF_ERROR || (rc == Z_OK && produced == 0 && stream.pointee.avail_in == 0) {
                    failure = .truncated; return
                }
                guard rc == Z_OK else { failure = .corrupt(code: rc); return }
            }
        }
        if let failure { throw failure }
        return output
    }
}
