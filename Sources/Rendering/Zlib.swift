import CZlib

/// Errors from the zlib wrappers.
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

/// A streaming zlib-format deflater (windowBits 15: the format PNG's IDAT carries). The
/// `z_stream` lives on the heap because zlib keeps a pointer back to it.
final class ZlibDeflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var ended = false
    private(set) var output: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    init(level: Int32) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let rc = czlib_deflateInit2(stream, level, 15, 8)
        precondition(rc == Z_OK, "deflateInit2 failed (\(rc))")
    }

    deinit {
        if !ended { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Feeds `count` bytes at `base`; with `finish`, flushes and ends the stream.
    func feed(_ base: UnsafePointer<UInt8>?, count: Int, finish: Bool) {
        precondition(!ended, "deflater already finished")
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
        stream.pointee.avail_in = UInt32(count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        while true {
            let (rc, produced): (Int32, Int) = scratch.withUnsafeMutableBufferPointer { o in
                stream.pointee.next_out = o.baseAddress
                stream.pointee.avail_out = UInt32(o.count)
                let rc = deflate(stream, flush)
                return (rc, o.count - Int(stream.pointee.avail_out))
            }
            if produced > 0 { output.append(contentsOf: scratch[0..<produced]) }
            if finish {
                if rc == Z_STREAM_END { break }
                precondition(rc == Z_OK || rc == Z_BUF_ERROR, "deflate failed (\(rc))")
            } else {
                precondition(rc == Z_OK || rc == Z_BUF_ERROR, "deflate failed (\(rc))")
                if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { break }
            }
        }
        stream.pointee.next_in = nil
        if finish {
            deflateEnd(stream)
            ended = true
        }
    }
}

/// One-shot zlib helpers.
public enum Zlib {
    /// zlib-format (RFC 1950) compression of `bytes`.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        let d = ZlibDeflater(level: level)
        bytes.withUnsafeBufferPointer { d.feed($0.baseAddress, count: $0.count, finish: true) }
        return d.output
    }

    /// Inflates `bytes`: `windowBits` 15 for a zlib stream, 15 + 16 for gzip, 15 + 32 to detect
    /// either. Throws when the output would exceed `limit` bytes, or the data is corrupt or
    /// truncated; bytes after the end of the stream are ignored.
    public static func decompress(_ bytes: [UInt8], windowBits: Int32 = 15, limit: Int) throws(ZlibError) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deinitialize(count: 1); stream.deallocate() }
        let rc0 = czlib_inflateInit2(stream, windowBits)
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
