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

    @Test("a map read from its file holds no pixels until a picture needs them, then the file's own")
    func decodedOnFirstUse() throws {
        let set = try TextureSet.decode(files: Self.files)
        let earth = try #require(set.surfaces[.earth])
        #expect(!earth.isDecoded)
        let original = try TextureDecoder.decode(Self.files["earth.ppm.gz"]!)
        let held = SurfaceMap(original)
        #expect(held.isDecoded)
        // The mean colour is known before the pixels are: bodies drawn as a dot do not decode them.
        #expect(earth.meanLinear == held.meanLinear)
        #expect(earth.meanLinear.x > 0 && earth.meanLinear.z > earth.meanLinear.x)
        // An eclipse map over the Earth decodes them, and reads what the file holds.
        let map = EclipseMap(title: "", curves: [], greatest: .init(latitudeDeg: 0, longitudeDeg: 0, text: ""), timeLabels: [], width: 64, height: 32)
        let raster = map.raster(earth: earth)
        #expect(earth.isDecoded)
        #expect(raster.pixels == map.raster(earth: held).pixels)
        #expect(Array(UnsafeBufferPointer(start: earth.data, count: 1024 * 512 * 3)) == original.pixels)
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
