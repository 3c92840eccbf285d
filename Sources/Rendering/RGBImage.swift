/// An 8-bit RGB image, rows top to bottom, 3 bytes per pixel, no padding.
public struct RGBImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// A black image.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "pixels must hold width × height × 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    @inlinable public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

/// A colour with components in 0…1 (sRGB-encoded, as the catalogue stores them).
public struct RGBColor: Sendable, Hashable {
    public var r: Double
    public var g: Double
    public var b: Double

    @inlinable public init(_ r: Double, _ g: Double, _ b: Double) {
        self.r = r; self.g = g; self.b = b
    }

    /// From a catalogue `[r, g, b]` array (missing components are 0).
    public init(_ a: [Double]) {
        self.init(a.count > 0 ? a[0] : 0, a.count > 1 ? a[1] : 0, a.count > 2 ? a[2] : 0)
    }

    public static let white = RGBColor(1, 1, 1)

    /// `#rrggbb`.
    public var hex: String {
        func h(_ c: Double) -> String {
            let v = Int((max(0, min(1, c)) * 255).rounded())
            let s = String(v, radix: 16)
            return v < 16 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b)
    }

    @inlinable public static func * (c: RGBColor, s: Double) -> RGBColor { RGBColor(c.r * s, c.g * s, c.b * s) }
    @inlinable public static func + (a: RGBColor, b: RGBColor) -> RGBColor { RGBColor(a.r + b.r, a.g + b.g, a.b + b.b) }
}
