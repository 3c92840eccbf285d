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
        let pan = Vector3(1, -2, 0.5)
        #expect(CameraChoice.from(focus: .mars, azimuthRad: nil, elevationRad: nil, distance: nil, pan: pan) == .panned(.focus(.mars), offset: pan))
        #expect(CameraChoice.from(focus: nil, azimuthRad: nil, elevationRad: nil, distance: nil, pan: pan) == .panned(.overview, offset: pan))
        #expect(CameraChoice.from(focus: .mars, azimuthRad: 1, elevationRad: nil, distance: nil, pan: .zero) == .orbit(target: .mars, azimuthRad: 1, elevationRad: nil, distance: nil))
    }

    @Test("a pan moves the target and the eye by its offset and keeps the angles; around the Sun by Mars's place it is the camera around Mars")
    func panned() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        let positions = RenderTestEngine.layout.positions(RenderTestEngine.ephemeris.snapshot(at: t))
        func pose(_ c: CameraChoice) -> CameraPose { ViewCamera.pose(for: c, positions: positions, layout: RenderTestEngine.layout, aspect: 16.0 / 9.0) }
        let offset = Vector3(3, -1, 2)
        for inner in [CameraChoice.overview, .focus(.saturn), .orbit(target: .earth, azimuthRad: 0.4, elevationRad: -0.2, distance: 7)] {
            let base = pose(inner), moved = pose(.panned(inner, offset: offset))
            #expect((moved.target - base.target - offset).length < 1e-12 && (moved.position - base.position - offset).length < 1e-9)
            #expect(moved.distance == base.distance && moved.azimuthRad == base.azimuthRad && moved.elevationRad == base.elevationRad)
        }
        let aroundMars = pose(.orbit(target: .mars, azimuthRad: 0.3, elevationRad: 0.5, distance: 20))
        let sunPanned = pose(.panned(.orbit(target: .sun, azimuthRad: 0.3, elevationRad: 0.5, distance: 20), offset: positions[BodyID.mars.index]))
        #expect((aroundMars.position - sunPanned.position).length < 1e-12 && (aroundMars.target - sunPanned.target).length < 1e-12)
        // The moons' orbit lines follow the inner camera's system.
        #expect(ViewScene.systemInView(.panned(.focus(.io), offset: offset)) == .jupiter)
    }

    @Test("a pan must be finite and within ±10000 scene units per axis")
    func panLimits() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        for bad in [Vector3(1e4 + 1, 0, 0), Vector3(0, -.infinity, 0), Vector3(0, 0, .nan)] {
            #expect(throws: ViewRequestError.self) { try ViewRequest(instant: t, camera: .panned(.overview, offset: bad)) }
        }
        #expect(throws: ViewRequestError.self) {
            try ViewRequest(instant: t, camera: .panned(.orbit(target: .sun, azimuthRad: nil, elevationRad: nil, distance: -1), offset: Vector3(1, 0, 0)))
        }
        _ = try ViewRequest(instant: t, camera: .panned(.overview, offset: Vector3(1e4, -1e4, 0)))
    }

    @Test("label options parse")
    func labels() throws {
        #expect(try LabelOptions.parse("planets,moons").get() == [.planets, .moons])
        #expect(try LabelOptions.parse("all").get() == .all)
        #expect(try LabelOptions.parse("none").get() == [])
        #expect(throws: ViewRequestError.badLabels("comets")) { try LabelOptions.parse("planets,comets").get() }
    }
}
