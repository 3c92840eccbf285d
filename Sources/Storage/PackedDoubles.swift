/// `[Double]` ⇄ bytes as consecutive little-endian IEEE 754 binary64 values: the sample cache's
/// payload format. Portable across architectures and bit-exact (NaN payloads, −0, infinities and
/// subnormals survive).
///
/// ```swift
/// let bytes = PackedDoubles.pack([1.0, -0.0])   // 16 bytes, 00 00 00 00 00 00 f0 3f …
/// PackedDoubles.unpack(bytes)                   // [1.0, -0.0]
/// PackedDoubles.unpack([1, 2, 3])               // nil: not a multiple of 8 bytes
/// ```
public enum PackedDoubles {
    public static func pack(_ values: [Double]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: values.count * 8) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for (i, value) in values.enumerated() {
                raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: i * 8, as: UInt64.self)
            }
            initialized = values.count * 8
        }
    }

    /// The values, or nil when the length is not a multiple of 8.
    public static func unpack(_ bytes: UnsafeRawBufferPointer) -> [Double]? {
        guard bytes.count % 8 == 0 else { return nil }
        let count = bytes.count / 8
        return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count {
                let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                buffer[i] = Double(bitPattern: bits)
            }
            initialized = count
        }
    }

    public static func unpack(_ bytes: [UInt8]) -> [Double]? {
        bytes.withUnsafeBytes { unpack($0) }
    }
}
