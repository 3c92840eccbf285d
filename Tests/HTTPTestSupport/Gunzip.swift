import CZlib

/// Inflates a gzip member with zlib (the test's own decoder, independent of the server's deflater).
public func gunzip(_ input: [UInt8]) -> [UInt8]? {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer { stream.deallocate() }
    guard czlib_inflateInit2(stream, 31) == Z_OK else { return nil }
    defer { inflateEnd(stream) }
    var output: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: 65536)
    var input = input
    let ok: Bool = input.withUnsafeMutableBufferPointer { inp in
        stream.pointee.next_in = inp.baseAddress
        stream.pointee.avail_in = UInt32(inp.count)
        while true {
            var rc: Int32 = 0
            let produced = scratch.withUnsafeMutableBufferPointer { o -> Int in
                stream.pointee.next_out = o.baseAddress
                stream.pointee.avail_out = UInt32(o.count)
                rc = inflate(stream, Z_NO_FLUSH)
                return o.count - Int(stream.pointee.avail_out)
            }
            output.append(contentsOf: scratch[0..<produced])
            if rc == Z_STREAM_END { return stream.pointee.avail_in == 0 }
            if rc != Z_OK { return false }
            if stream.pointee.avail_in == 0, produced == 0 { return false }
        }
    }
    return ok ? output : nil
}
