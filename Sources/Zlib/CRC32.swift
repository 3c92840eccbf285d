import CZlib

/// CRC-32 (ISO 3309 / ITU-T V.42), as PNG chunks and gzip trailers use it, computed by zlib's
/// `crc32`. `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
public enum CRC32 {
    /// Continues a running CRC (start from 0) over `bytes`.
    public static func update<C: Collection>(_ crc: UInt32, _ bytes: C) -> UInt32 where C.Element == UInt8 {
        if let c = bytes.withContiguousStorageIfAvailable({ update(crc, UnsafeRawBufferPointer($0)) }) { return c }
        return Array(bytes).withUnsafeBytes { update(crc, $0) }
    }

    /// Continues a running CRC over raw bytes.
    public static func update(_ crc: UInt32, _ raw: UnsafeRawBufferPointer) -> UInt32 {
        // zlib's length parameter is 32-bit: feed very large buffers in pieces.
        var c = UInt(crc)
        var offset = 0
        while offset < raw.count {
            let n = min(raw.count - offset, 1 << 30)
            c = crc32(c, raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), UInt32(n))
            offset += n
        }
        return UInt32(truncatingIfNeeded: c)
    }

    public static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 { update(0, bytes) }
}
