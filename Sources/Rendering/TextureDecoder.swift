import Zlib
/// A decoded Netpbm image: 1 channel (P5 grey) or 3 (P6 RGB), 8 bits, rows top to bottom.
public struct Texture: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public let pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * channels, "pixels must hold width × height × channels bytes")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }
}

public enum TextureError: Error, Sendable, Equatable, CustomStringConvertible {
    case notNetpbm
    case unsupportedFormat(String)
    case malformedHeader(String)
    case tooLarge(width: Int, height: Int)
    case truncated(expected: Int, got: Int)
    case compression(ZlibError)

    public var description: String {
        switch self {
        case .notNetpbm: return "not a Netpbm image (expected P5 or P6 magic)"
        case let .unsupportedFormat(m): return "unsupported Netpbm format: \(m)"
        case let .malformedHeader(d): return "malformed Netpbm header: \(d)"
        case let .tooLarge(w, h): return "image \(w)×\(h) exceeds the size limit"
        case let .truncated(expected, got): return "pixel data truncated: expected \(expected) bytes, got \(got)"
        case let .compression(e): return "gzip: \(e)"
        }
    }
}

/// Decodes textures: gunzip (zlib inflate with the gzip wrapper, windowBits 15 + 16), then a
/// binary Netpbm P6 or P5 header (whitespace and `#` comments allowed), maxval 255.
public enum TextureDecoder {
    /// Largest accepted width or height.
    public static let maxDimension = 8192
    /// Largest accepted pixel payload (64 MiB).
    public static let maxPixelBytes = 64 << 20

    /// Decodes a gzip-compressed or a plain Netpbm file.
    public static func decode(_ bytes: [UInt8]) throws(TextureError) -> Texture {
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            let raw: [UInt8]
            do {
                raw = try Inflater.decompress(bytes, format: .gzip, limit: maxPixelBytes + 1024)
            } catch {
                throw .compression(error)
            }
            return try decodeNetpbm(raw)
        }
        return try decodeNetpbm(bytes)
    }

    /// Parses a binary P6 (RGB) or P5 (grey) image.
    public static func decodeNetpbm(_ b: [UInt8]) throws(TextureError) -> Texture {
        guard b.count >= 2, b[0] == UInt8(ascii: "P") else { throw .notNetpbm }
        let channels: Int
        switch b[1] {
        case UInt8(ascii: "6"): channels = 3
        case UInt8(ascii: "5"): channels = 1
        case UInt8(ascii: "1")...UInt8(ascii: "4"), UInt8(ascii: "7"):
            throw .unsupportedFormat("P\(Character(Unicode.Scalar(b[1]))) (only binary P5 and P6 are read)")
        default: throw .notNetpbm
        }
        var i = 2
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C }
        func number(_ name: String) throws(TextureError) -> Int {
            // Whitespace and comments (to the end of the line) before each field.
            while i < b.count {
                if isSpace(b[i]) { i += 1 } else if b[i] == UInt8(ascii: "#") {
                    while i < b.count, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
                } else { break }
            }
            var v = 0, digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                v = v * 10 + Int(b[i] - 0x30)
                digits += 1
                i += 1
                guard digits <= 9 else { throw .malformedHeader("\(name) has too many digits") }
            }
            guard digits > 0 else { throw .malformedHeader("expected a number for \(name)") }
            return v
        }
        let width = try number("width")
        let height = try number("height")
        let maxval = try number("maxval")
        guard width > 0, height > 0 else { throw .malformedHeader("width and height must be positive") }
        guard width <= maxDimension, height <= maxDimension, width * height * channels <= maxPixelBytes else {
            throw .tooLarge(width: width, height: height)
        }
        guard maxval == 255 else { throw .unsupportedFormat("maxval \(maxval) (only 255 is read)") }
        // Exactly one whitespace byte separates the header from the pixels.
        guard i < b.count, isSpace(b[i]) else { throw .malformedHeader("expected whitespace after maxval") }
        i += 1
        let expected = width * height * channels
        guard b.count - i >= expected else { throw .truncated(expected: expected, got: b.count - i) }
        return Texture(width: width, height: height, channels: channels, pixels: Array(b[i..<(i + expected)]))
    }
}
