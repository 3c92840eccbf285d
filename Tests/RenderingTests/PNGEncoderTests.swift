import Testing
import CZlib
import Zlib
@testable import Rendering

/// A minimal PNG reader for the tests: chunks with CRC checks, inflate, un-filter.
enum PNGReader {
    struct Chunk { let type: String; let data: [UInt8]; let crcOK: Bool }

    static func chunks(_ png: [UInt8]) -> [Chunk]? {
        guard png.count >= 8, Array(png[0..<8]) == PNGEncoder.signature else { return nil }
        var i = 8
        var out: [Chunk] = []
        func be32(_ at: Int) -> UInt32 { UInt32(png[at]) << 24 | UInt32(png[at + 1]) << 16 | UInt32(png[at + 2]) << 8 | UInt32(png[at + 3]) }
        while i + 12 <= png.count {
            let length = Int(be32(i))
            guard i + 12 + length <= png.count else { return nil }
            let typeBytes = Array(png[(i + 4)..<(i + 8)])
            let data = Array(png[(i + 8)..<(i + 8 + length)])
            let crc = be32(i + 8 + length)
            out.append(Chunk(type: String(decoding: typeBytes, as: UTF8.self), data: data, crcOK: CRC32.checksum(typeBytes + data) == crc))
            i += 12 + length
        }
        return i == png.count ? out : nil
    }

    /// Decodes an 8-bit RGB, non-interlaced PNG to its pixels.
    static func decode(_ png: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let d = try decodeAny(png)
        guard d.channels == 3 else { throw Failure.malformed }
        return (d.width, d.height, d.pixels)
    }

    /// Decodes an 8-bit RGB (colour type 2) or RGBA (colour type 6), non-interlaced PNG.
    static func decodeAny(_ png: [UInt8]) throws -> (width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        guard let chunks = chunks(png), let ihdr = chunks.first, ihdr.type == "IHDR", ihdr.data.count == 13 else { throw Failure.malformed }
        guard chunks.allSatisfy(\.crcOK), chunks.last?.type == "IEND" else { throw Failure.malformed }
        let d = ihdr.data
        let width = Int(d[0]) << 24 | Int(d[1]) << 16 | Int(d[2]) << 8 | Int(d[3])
        let height = Int(d[4]) << 24 | Int(d[5]) << 16 | Int(d[6]) << 8 | Int(d[7])
        guard d[8] == 8, d[9] == 2 || d[9] == 6, d[10] == 0, d[11] == 0, d[12] == 0 else { throw Failure.malformed }
        let bpp = d[9] == 6 ? 4 : 3
        let idat = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let raw = try inflate(idat)
        let rowBytes = width * bpp
        guard raw.count == height * (rowBytes + 1) else { throw Failure.malformed }
        var out = [UInt8](repeating: 0, count: width * height * bpp)
        for y in 0..<height {
            let f = raw[y * (rowBytes + 1)]
            for i in 0..<rowBytes {
                let x = raw[y * (rowBytes + 1) + 1 + i]
                let a = i >= bpp ? Int(out[y * rowBytes + i - bpp]) : 0
                let b = y > 0 ? Int(out[(y - 1) * rowBytes + i]) : 0
                let c = (i >= bpp && y > 0) ? Int(out[(y - 1) * rowBytes + i - bpp]) : 0
                let pred: Int
                switch f {
                case 0: pred = 0
                case 1: pred = a
                case 2: pred = b
                case 3: pred = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                default: throw Failure.malformed
                }
                out[y * rowBytes + i] = x &+ UInt8(pred & 0xFF)
            }
        }
        return (width, height, bpp, out)
    }

    /// zlib inflate straight through CZlib (not the encoder's own wrapper).
    static func inflate(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflateInit2(&stream, 15) == Z_OK else { throw Failure.zlib }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var input = input
        let rc: Int32 = input.withUnsafeMutableBufferPointer { inp in
            stream.next_in = inp.baseAddress
            stream.avail_in = UInt32(inp.count)
            while true {
                let (rc, n): (Int32, Int) = buffer.withUnsafeMutableBufferPointer { o in
                    stream.next_out = o.baseAddress
                    stream.avail_out = UInt32(o.count)
                    let rc = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (rc, o.count - Int(stream.avail_out))
                }
                out += buffer[0..<n]
                if rc != Z_OK { return rc }
            }
        }
        guard rc == Z_STREAM_END else { throw Failure.zlib }
        return out
    }

    enum Failure: Error { case malformed, zlib }
}

@Suite("PNG encoder")
struct PNGEncoderTests {
    /// A deterministic image with gradients, flat areas and noise, so every filter gets used.
    static func testImage(width: Int, height: Int) -> RGBImage {
        var img = RGBImage(width: width, height: height)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let i = (y * width + x) * 3
                img.pixels[i] = UInt8((x * 255) / max(1, width - 1))
                img.pixels[i + 1] = y % 7 == 0 ? 200 : UInt8((y * 3 + x) & 0xFF)
                img.pixels[i + 2] = x > width / 2 ? UInt8(seed >> 24) : 40
            }
        }
        return img
    }

    @Test("signature, chunk order and every CRC")
    func chunks() throws {
        let png = PNGEncoder.encode(Self.testImage(width: 37, height: 23))
        let chunks = try #require(PNGReader.chunks(png))
        #expect(chunks.first?.type == "IHDR")
        #expect(chunks.last?.type == "IEND")
        #expect(chunks.contains { $0.type == "IDAT" })
        #expect(chunks.allSatisfy { $0.crcOK })
    }

    @Test("decodes back to the exact pixels, adaptive and every fixed filter", arguments: [
        PNGEncoder.FilterChoice.adaptive, .fixed(.none), .fixed(.sub), .fixed(.up), .fixed(.average), .fixed(.paeth),
    ])
    func roundTrip(filter: PNGEncoder.FilterChoice) throws {
        for (w, h) in [(37, 23), (16, 16), (1, 5), (300, 40)] {
            let img = Self.testImage(width: w, height: h)
            let decoded = try PNGReader.decode(PNGEncoder.encode(img, filter: filter))
            #expect(decoded.width == w && decoded.height == h)
            #expect(decoded.pixels == img.pixels, "\(w)×\(h)")
        }
    }

    @Test("RGBA: colour type 6 decodes back to the exact pixels and alpha, every filter", arguments: [
        PNGEncoder.FilterChoice.adaptive, .fixed(.none), .fixed(.sub), .fixed(.up), .fixed(.average), .fixed(.paeth),
    ])
    func rgbaRoundTrip(filter: PNGEncoder.FilterChoice) throws {
        let rgb = Self.testImage(width: 61, height: 37)
        var rgba: [UInt8] = []
        for i in 0..<(61 * 37) {
            rgba += rgb.pixels[(i * 3)..<(i * 3 + 3)]
            rgba.append(UInt8((i * 7) % 256)) // alpha unlike any colour channel
        }
        let png = PNGEncoder.encode(rgba: rgba, width: 61, height: 37, filter: filter)
        let decoded = try PNGReader.decodeAny(png)
        #expect(decoded.width == 61 && decoded.height == 37 && decoded.channels == 4)
        #expect(decoded.pixels == rgba)
    }

    @Test("a large image is split over several IDAT chunks and still round-trips")
    func manyChunks() throws {
        var img = RGBImage(width: 800, height: 700)
        var seed: UInt32 = 99
        for i in img.pixels.indices { seed = seed &* 1_664_525 &+ 1_013_904_223; img.pixels[i] = UInt8(seed >> 24) }
        // Noise does not compress: 1.6 MiB of deflate output, more than one IDAT.
        let png = PNGEncoder.encode(img, level: 1)
        let chunks = try #require(PNGReader.chunks(png))
        #expect(chunks.filter { $0.type == "IDAT" }.count >= 2)
        #expect(try PNGReader.decode(png).pixels == img.pixels)
    }

    @Test("a rendered view round-trips")
    func renderedView() throws {
        let scene = RenderTestEngine.scene(width: 96, height: 64)
        let img = RayCaster(textures: .empty).render(scene)
        #expect(try PNGReader.decode(PNGEncoder.encode(img)).pixels == img.pixels)
    }
}

@Suite("PPM encoder")
struct PPMEncoderTests {
    @Test("header and byte count are exact")
    func header() {
        let img = PNGEncoderTests.testImage(width: 33, height: 17)
        let ppm = PPMEncoder.encode(img)
        let header = Array("P6\n33 17\n255\n".utf8)
        #expect(Array(ppm[0..<header.count]) == header)
        #expect(ppm.count == header.count + 33 * 17 * 3)
        #expect(Array(ppm[header.count...]) == img.pixels)
    }

    @Test("the texture decoder reads what the encoder writes")
    func roundTrip() throws {
        let img = PNGEncoderTests.testImage(width: 20, height: 10)
        let t = try TextureDecoder.decode(PPMEncoder.encode(img))
        #expect(t.width == 20 && t.height == 10 && t.channels == 3 && t.pixels == img.pixels)
    }
}
