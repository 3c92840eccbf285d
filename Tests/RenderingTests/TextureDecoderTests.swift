import Testing
@testable import Rendering
import Zlib

@Suite("Texture decoder")
struct TextureDecoderTests {
    @Test("Earth's texture: gunzip and P6 header, 1024×512")
    func earth() throws {
        let t = try TextureDecoder.decode(RenderTestEngine.bytes("Resources/textures/earth.ppm.gz"))
        #expect(t.width == 1024 && t.height == 512 && t.channels == 3)
        #expect(t.pixels.count == 1024 * 512 * 3)
    }

    @Test("the ring alpha strip is a P5 grey map, 2048×125")
    func ringAlpha() throws {
        let t = try TextureDecoder.decode(RenderTestEngine.bytes("Resources/textures/saturn_rings_alpha.pgm.gz"))
        #expect(t.width == 2048 && t.height == 125 && t.channels == 1)
    }

    @Test("comments and odd whitespace in the header")
    func comments() throws {
        let bytes = Array("P5\n# made by hand\n 3\t# width\n2\n255\n".utf8) + [1, 2, 3, 4, 5, 6]
        let t = try TextureDecoder.decode(bytes)
        #expect(t.width == 3 && t.height == 2 && t.channels == 1 && t.pixels == [1, 2, 3, 4, 5, 6])
    }

    @Test("gzip-compressed input is detected")
    func gzip() throws {
        let raw = Array("P6 1 1 255\n".utf8) + [9, 8, 7]
        let gz = gzipForTest(raw)
        #expect(try TextureDecoder.decode(gz).pixels == [9, 8, 7])
    }

    @Test("clear errors")
    func errors() {
        #expect(throws: TextureError.notNetpbm) { try TextureDecoder.decode(Array("GIF89a".utf8)) }
        #expect(throws: TextureError.truncated(expected: 12, got: 3)) { try TextureDecoder.decode(Array("P6 2 2 255\n".utf8) + [1, 2, 3]) }
        #expect(throws: TextureError.tooLarge(width: 100_000, height: 2)) { try TextureDecoder.decode(Array("P6 100000 2 255\n".utf8)) }
        #expect(throws: TextureError.unsupportedFormat("maxval 65535 (only 255 is read)")) { try TextureDecoder.decode(Array("P5 1 1 65535\n".utf8) + [0, 0]) }
        #expect(throws: TextureError.malformedHeader("expected a number for height")) { try TextureDecoder.decode(Array("P6 4 x 255\n".utf8)) }
        // A gzip stream cut short.
        let gz = gzipForTest(Array("P6 4 4 255\n".utf8) + [UInt8](repeating: 7, count: 48))
        #expect(throws: TextureError.compression(.truncated)) { try TextureDecoder.decode(Array(gz.prefix(gz.count / 2))) }
    }
}

/// A gzip member built by hand (header, raw deflate taken from a zlib stream minus its 2-byte
/// header and Adler trailer, CRC-32 and size), so the decoder is checked against framing the test
/// writes itself rather than against the same wrapper that would encode it.
func gzipForTest(_ data: [UInt8]) -> [UInt8] {
    let z = Deflater.compress(data, format: .zlib)
    let deflate = Array(z[2..<(z.count - 4)])
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
    out += deflate
    let crc = CRC32.checksum(data)
    for s in [crc, UInt32(data.count)] { out += [UInt8(s & 0xFF), UInt8((s >> 8) & 0xFF), UInt8((s >> 16) & 0xFF), UInt8(s >> 24)] }
    return out
}
