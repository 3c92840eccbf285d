import Testing
import Ephemeris
@testable import Rendering

@Suite("Texture PNGs")
struct TexturePNGTests {
    static let files = Dictionary(uniqueKeysWithValues: ["earth.ppm.gz", TextureSet.ringColorFile, TextureSet.ringAlphaFile].map {
        ($0, RenderTestEngine.bytes("Resources/textures/" + $0))
    })

    @Test("a surface map's PNG holds exactly the decoded map's pixels")
    func surface() throws {
        let set = try TextureSet.decode(files: Self.files)
        #expect(set.imageIDs == ["earth", TextureSet.ringsImageID])
        let png = try #require(set.png(for: "earth"))
        let decoded = try PNGReader.decodeAny(png)
        let original = try TextureDecoder.decode(Self.files["earth.ppm.gz"]!)
        #expect(decoded.width == 1024 && decoded.height == 512 && decoded.channels == 3)
        #expect(decoded.pixels == original.pixels)
    }

    @Test("the rings' PNG is RGBA: the colour strip with the opacity strip as alpha")
    func rings() throws {
        let set = try TextureSet.decode(files: Self.files)
        let decoded = try PNGReader.decodeAny(try #require(set.png(for: TextureSet.ringsImageID)))
        let color = try TextureDecoder.decode(Self.files[TextureSet.ringColorFile]!)
        let alpha = try TextureDecoder.decode(Self.files[TextureSet.ringAlphaFile]!)
        #expect(decoded.width == 2048 && decoded.height == 125 && decoded.channels == 4)
        var mismatches = 0
        for i in 0..<(2048 * 125) {
            let px = decoded.pixels[(i * 4)..<(i * 4 + 4)]
            if Array(px.prefix(3)) != Array(color.pixels[(i * 3)..<(i * 3 + 3)]) || px.last != alpha.pixels[i] { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // The strip is not opaque everywhere: the Cassini division lets light through.
        #expect(Set(alpha.pixels).count > 20)
    }

    @Test("ids without a map have no image")
    func missing() throws {
        let set = try TextureSet.decode(files: Self.files)
        #expect(set.png(for: "titan") == nil)
        #expect(set.png(for: "mars") == nil)
        #expect(set.png(for: "../earth") == nil)
        #expect(TextureSet.empty.png(for: TextureSet.ringsImageID) == nil)
    }
}
