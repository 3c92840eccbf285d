/// CRC-32 (ISO 3309 / ITU-T V.42, reflected polynomial 0xEDB88320), as PNG chunks use it.
/// Table-driven, one byte at a time. `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Continues a running CRC (start from 0) over `bytes`.
    public static func update<C: Sequence>(_ crc: UInt32, _ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c = ~crc
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return ~c
    }

    public static func checksum<C: Sequence>(_ bytes: C) -> UInt32 where C.Element == UInt8 { update(0, bytes) }
}
