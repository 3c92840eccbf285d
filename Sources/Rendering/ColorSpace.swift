import Glibc

/// sRGB transfer function (IEC 61966-2-1) as lookup tables: lighting is computed in linear
/// light, textures and output are sRGB-encoded bytes.
enum ColorSpace {
    static let linearFromSRGB: [Float] = (0..<256).map { i in
        let c = Double(i) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    static let encodeSteps = 4096
    static let srgbFromLinear: [UInt8] = (0...encodeSteps).map { i in
        let v = Double(i) / Double(encodeSteps)
        let s = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
        return UInt8(max(0, min(255, (s * 255).rounded())))
    }

    /// The same tables in never-freed heap blocks, for unchecked access in pixel loops.
    nonisolated(unsafe) static let linearTable: UnsafePointer<Float> = {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        p.initialize(from: linearFromSRGB, count: 256)
        return UnsafePointer(p)
    }()
    nonisolated(unsafe) static let encodeTable: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: encodeSteps + 1)
        p.initialize(from: srgbFromLinear, count: encodeSteps + 1)
        return UnsafePointer(p)
    }()

    @inline(__always) static func linear(_ c: Double) -> Float { Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)) }
}
