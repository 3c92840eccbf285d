import Testing
import Ephemeris
import Scene
@testable import Rendering

@Suite("View renderer facade")
struct ViewRendererTests {
    static let renderer = ViewRenderer(ephemeris: RenderTestEngine.ephemeris, stars: RenderTestEngine.stars, textures: RenderTestEngine.textures)

    @Test("each format starts with its magic and has the right size")
    func formats() throws {
        let req = try ViewRequest(instant: TimeScale.parse("2026-11-22T00:00:00Z"), width: 64, height: 48, camera: .focus(.mars))
        let png = Self.renderer.render(req, format: .png)
        #expect(Array(png.prefix(8)) == PNGEncoder.signature)
        #expect(try PNGReader.decode(png).pixels.count == 64 * 48 * 3)
        let ppm = Self.renderer.render(req, format: .ppm)
        #expect(ppm.count == Array("P6\n64 48\n255\n".utf8).count + 64 * 48 * 3)
        let svg = String(decoding: Self.renderer.render(req, format: .svg), as: UTF8.self)
        #expect(svg.hasPrefix("<?xml") && svg.contains("viewBox=\"0 0 64 48\""))
        #expect(ViewFormat.png.contentType == "image/png" && ViewFormat.svg.contentType == "image/svg+xml")
    }

    @Test("query parameters map to a camera choice")
    func cameraChoice() {
        #expect(CameraChoice.from(focus: nil, azimuthRad: nil, elevationRad: nil, distance: nil) == .overview)
        #expect(CameraChoice.from(focus: .mars, azimuthRad: nil, elevationRad: nil, distance: nil) == .focus(.mars))
        #expect(CameraChoice.from(focus: .mars, azimuthRad: 1, elevationRad: nil, distance: nil) == .orbit(target: .mars, azimuthRad: 1, elevationRad: nil, distance: nil))
        #expect(CameraChoice.from(focus: nil, azimuthRad: nil, elevationRad: nil, distance: 50) == .orbit(target: .sun, azimuthRad: nil, elevationRad: nil, distance: 50))
    }

    @Test("label options parse")
    func labels() throws {
        #expect(try LabelOptions.parse("planets,moons").get() == [.planets, .moons])
        #expect(try LabelOptions.parse("all").get() == .all)
        #expect(try LabelOptions.parse("none").get() == [])
        #expect(throws: ViewRequestError.badLabels("comets")) { try LabelOptions.parse("planets,comets").get() }
    }
}
