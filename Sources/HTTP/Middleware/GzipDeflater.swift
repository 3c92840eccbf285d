import CZlib

/// A zlib deflate stream with the gzip wrapper (windowBits 31). The `z_stream` lives on the
/// heap: zlib keeps a pointer back to it, so it must never move.
public final class GzipDeflater: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private var ended = false

    /// `level` 1 (fast) … 9 (small); 6 is zlib's default.
    public init(level: Int32 = 6) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let rc = czlib_deflateInit2(stream, level, 31, 8)
        precondition(rc == Z_OK, "deflateInit2 failed (\(rc))")
    }

    deinit {
        if !ended { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input`; with `finish` the gzip trailer is written and the stream ends.
    public func compress(_ input: [UInt8], finish: Bool = false) -> [UInt8] {
        precondition(!ended, "deflater already finished")
        var output: [UInt8] = []
        let capacity = max(4096, Int(deflateBound(stream, UInt(input.count))) + 64)
        var scratch = [UInt8](repeating: 0, count: finish || input.count > 4096 ? capacity : 4096)
        input.withUnsafeBufferPointer { inp in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
            stream.pointee.avail_in = UInt32(inp.count)
            while true {
                var rc: Int32 = Z_OK
                let produced: Int = scratch.withUnsafeMutableBufferPointer { o in
                    stream.pointee.next_out = o.baseAddress
                    stream.pointee.avail_out = UInt32(o.count)
                    rc = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    return o.count - Int(stream.pointee.avail_out)
                }
                if produced > 0 { output.append(contentsOf: scratch[0..<produced]) }
                if finish {
                    if rc == Z_STREAM_END { break }
                    precondition(rc == Z_OK || rc == Z_BUF_ERROR, "deflate failed (\(rc))")
                } else {
                    // All input consumed and the output buffer not filled: nothing more now.
                    if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { break }
                    precondition(rc == Z_OK || rc == Z_BUF_ERROR, "deflate failed (\(rc))")
                }
            }
            stream.pointee.next_in = nil
        }
        if finish {
            deflateEnd(stream)
            ended = true
        }
        return output
    }

    /// One-shot gzip of a whole buffer.
    public static func gzip(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        GzipDeflater(level: level).compress(bytes, finish: true)
    }
}
