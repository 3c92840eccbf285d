import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Ephemeris
import Scene
@testable import Rendering

@Suite("SVG renderer")
struct SVGRendererTests {
    final class Collector: NSObject, XMLParserDelegate {
        var texts: [String] = []
        var current: String?
        var root: String?
        var viewBox: String?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name; viewBox = attributes["viewBox"] }
            if name == "text" { current = "" }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text", let c = current { texts.append(c); current = nil }
        }
    }

    func parse(_ svg: String) throws -> Collector {
        let parser = XMLParser(data: Data(svg.utf8))
        let c = Collector()
        parser.delegate = c
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return c
    }

    @Test("well-formed, viewBox set, every visible planet labelled, no external references")
    func overview() throws {
        let scene = RenderTestEngine.scene(width: 1280, height: 720)
        let svg = SVGRenderer.render(scene)
        let doc = try parse(svg)
        #expect(doc.root == "svg")
        #expect(doc.viewBox == "0 0 1280 720")
        #expect(!svg.contains("href"))
        #expect(doc.texts.contains(scene.caption))
        // Independently: planets in frame, greedily deconflicted among themselves in catalogue order.
        let cam = scene.camera
        var boxes: [(Double, Double, Double, Double)] = []
        var expected: [String] = []
        for b in scene.bodies where !b.id.isSatellite {
            guard let s = cam.project(b.position), s.x > 0, s.y > 0, s.x < 1280, s.y < 720 else { continue }
            let gap = LabelLayout.offsetY(screenRadius: cam.screenRadius(worldRadius: b.radius, depth: s.depth))
            for y in [s.y - gap, s.y + gap + 12 * 0.9] {
                let box = LabelLayout.box(text: b.name, x: s.x, y: y, fontSize: 12)
                if boxes.contains(where: { $0.0 < box.2 && box.0 < $0.2 && $0.1 < box.3 && box.1 < $0.3 }) { continue }
                boxes.append(box)
                expected.append(b.name)
                break
            }
        }
        #expect(expected.count >= 8)
        for name in expected { #expect(doc.texts.contains(name), "\(name)") }
    }

    @Test("text is escaped: an event label with <&> survives the round trip")
    func escaping() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        let earth = SceneTestPositions.position(.earth, at: t)
        let overlays = ViewOverlays(
            polylines: [ViewPolyline(points: [earth, earth + Vector3(1, 0.5, 0), earth + Vector3(2, 0, 1)], color: RGBColor(1, 0.5, 0))],
            labels: [OverlayLabel(text: "TLI <&> \"burn\"", position: earth + Vector3(0, 0.5, 0))]
        )
        let scene = RenderTestEngine.scene(camera: .focus(.earth), width: 800, height: 600, labels: .all, overlays: overlays)
        let svg = SVGRenderer.render(scene)
        #expect(svg.contains("TLI &lt;&amp;&gt; &quot;burn&quot;"))
        #expect(!svg.contains("<&>"))
        let doc = try parse(svg)
        #expect(doc.texts.contains("TLI <&> \"burn\""))
        #expect(svg.contains("<polyline"))
    }

    @Test("Saturn's ring is drawn as halves behind and in front of the disc")
    func saturnRing() throws {
        let svg = SVGRenderer.render(RenderTestEngine.scene(camera: .focus(.saturn), width: 800, height: 600))
        _ = try parse(svg)
        let back = try #require(svg.range(of: "ring-back")), disc = try #require(svg.range(of: "id=\"body-saturn\"")), front = try #require(svg.range(of: "ring-front"))
        #expect(back.lowerBound < disc.lowerBound && disc.lowerBound < front.lowerBound)
    }
}

enum SceneTestPositions {
    static func position(_ id: BodyID, at t: Instant) -> Vector3 {
        RenderTestEngine.layout.positions(RenderTestEngine.ephemeris.snapshot(at: t))[id.index]
    }
}

@Suite("Ray caster")
struct RayCasterTests {
    static func luma(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Double { 0.2126 * Double(p.r) + 0.7152 * Double(p.g) + 0.0722 * Double(p.b) }

    @Test("the Sun at the overview's centre is bright")
    func sunBright() throws {
        let scene = RenderTestEngine.scene(width: 320, height: 180)
        let img = RayCaster(textures: RenderTestEngine.textures).render(scene)
        let s = try #require(scene.camera.project(.zero))
        #expect(abs(s.x - 160) < 1e-6 && abs(s.y - 90) < 1e-6)
        #expect(Self.luma(img[160, 90]) > 200)
        // Far from anything: black sky (or a faint star).
        #expect(Self.luma(img[2, 2]) < 120)
    }

    @Test("Earth close-up: the night side is dark, the day side lit")
    func earthNightSide() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        let earth = SceneTestPositions.position(.earth, at: t)
        let toSun = (-earth).normalized
        // Look at Earth from 90° off the Sun line (in the ecliptic): half lit, half dark.
        let side = Vector3(0, 1, 0).cross(toSun).normalized
        let az = atan2(side.x, side.z)
        let scene = RenderTestEngine.scene(camera: .orbit(target: .earth, azimuthRad: az, elevationRad: 0, distance: 0.6), width: 400, height: 400)
        let img = RayCaster(textures: RenderTestEngine.textures).render(scene)
        let r = 0.1 // Earth's scene radius ≈ 0.1
        let night = try #require(scene.camera.project(earth + (side - toSun).normalized * r * 0.999))
        let day = try #require(scene.camera.project(earth + (side + toSun).normalized * r * 0.999))
        let n = img[Int(night.x), Int(night.y)], d = img[Int(day.x), Int(day.y)]
        #expect(max(n.r, n.g, n.b) < 30, "night pixel \(n)")
        #expect(Self.luma(d) > 3 * Self.luma(n) + 10, "day \(d) night \(n)")
    }

    @Test("Earth's texture faces the right way for the date: the sub-solar point's surface", arguments: [
        // The sub-solar point runs west: 0° at 12:00 UTC, 90°E at 06:00, 90°W at 18:00.
        ("2026-06-21T12:00:00Z", "Sahara (23°N 0°): sand"), ("2026-06-21T18:00:00Z", "Gulf of Mexico (23°N 90°W): sea"),
        ("2026-06-21T06:00:00Z", "Bangladesh (23°N 90°E): land"),
    ])
    func earthOrientation(date: String, place: String) throws {
        let t = try TimeScale.parse(date)
        let earth = SceneTestPositions.position(.earth, at: t)
        let toSun = (-earth).normalized
        // Camera on the Sun line: the centre of the disc is the sub-solar point.
        let scene = RenderTestEngine.scene(date, camera: .orbit(target: .earth, azimuthRad: atan2(toSun.x, toSun.z), elevationRad: asin(toSun.y), distance: 0.4), width: 300, height: 300)
        let img = RayCaster(textures: RenderTestEngine.textures).render(scene)
        var r = 0.0, g = 0.0, b = 0.0
        for y in 147..<153 { for x in 147..<153 { let p = img[x, y]; r += Double(p.r); g += Double(p.g); b += Double(p.b) } }
        if place.hasSuffix("sea") {
            #expect(b > r * 1.5, "\(place): rgb \(r / 36), \(g / 36), \(b / 36)")
        } else {
            #expect(max(r, g) > b * 1.2, "\(place): rgb \(r / 36), \(g / 36), \(b / 36)")
        }
    }

    @Test("Saturn close-up: ring pixels exist where the ring projects")
    func saturnRings() throws {
        let scene = RenderTestEngine.scene(camera: .focus(.saturn), width: 640, height: 480)
        let img = RayCaster(textures: RenderTestEngine.textures).render(scene)
        let saturn = try #require(scene.bodies.first { $0.id == .saturn })
        let ring = try #require(saturn.ring)
        let e1 = ring.quaternion.rotate(Vector3(1, 0, 0)), e2 = ring.quaternion.rotate(Vector3(0, 0, 1))
        // The B ring (dense) at 80% of the way out, at points not hidden by the globe.
        let rB = ring.innerRadius + 0.5 * (ring.outerRadius - ring.innerRadius)
        var ringPixels = 0, tested = 0
        for k in 0..<36 {
            let a = Double(k) * Double.pi / 18
            let p = saturn.position + (e1 * cos(a) + e2 * sin(a)) * rB
            guard let s = scene.camera.project(p), let c = saturn.screen else { continue }
            let dx = s.x - c.x, dy = s.y - c.y
            if (dx * dx + dy * dy).squareRoot() < saturn.screenRadius + 2 { continue }
            tested += 1
            let px = img[Int(s.x), Int(s.y)]
            if Self.luma(px) > 40, px.r >= px.b { ringPixels += 1 }
        }
        #expect(tested >= 10)
        #expect(ringPixels >= tested * 3 / 4, "\(ringPixels) of \(tested)")
    }

    @Test("a body's centre projects onto the centre of its traced disc (±1 px)")
    func discCenter() throws {
        // Off-centre in the frame: a camera aimed away from Jupiter so its disc sits to one side.
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        let jupiter = SceneTestPositions.position(.jupiter, at: t)
        let scene = RenderTestEngine.scene(camera: .orbit(target: .jupiter, azimuthRad: nil, elevationRad: nil, distance: 4), width: 400, height: 300)
        let img = RayCaster(textures: .empty).render(scene)
        let s = try #require(scene.camera.project(jupiter))
        // Find the disc's top and bottom edges along the column through the projected centre
        // (the terminator runs roughly vertically, so the vertical extent is fully lit).
        let cy = Int(s.y), cx = Int(s.x)
        var u = cy, d = cy
        while u > 0, Self.luma(img[cx, u - 1]) > 3 { u -= 1 }
        while d < 299, Self.luma(img[cx, d + 1]) > 3 { d += 1 }
        let midY = Double(u + d + 1) / 2
        #expect(abs(midY - s.y) <= 1, "vertical centre \(midY) vs \(s.y)")
        let radius = scene.camera.screenRadius(worldRadius: RenderTestEngine.layout.radii[BodyID.jupiter.index], depth: s.depth)
        #expect(abs(Double(d + 1 - u) / 2 - radius) <= 1.5, "traced radius vs projected \(radius)")
    }

    @Test("odd cameras do not crash: inside a body, straight down, straight up, tiny image")
    func oddCameras() throws {
        let caster = RayCaster(textures: RenderTestEngine.textures)
        for cam: CameraChoice in [
            .orbit(target: .earth, azimuthRad: 0, elevationRad: 0, distance: 0.01),
            .orbit(target: .jupiter, azimuthRad: 1, elevationRad: Double.pi / 2, distance: 3),
            .orbit(target: .sun, azimuthRad: nil, elevationRad: -Double.pi / 2, distance: 200),
            .orbit(target: .saturn, azimuthRad: 0.3, elevationRad: 0, distance: 0.5),
        ] {
            let scene = RenderTestEngine.scene(camera: cam, width: 16, height: 16, labels: .all)
            #expect(caster.render(scene).pixels.count == 16 * 16 * 3)
            #expect(!SVGRenderer.render(scene).isEmpty)
        }
    }

    @Test("sizes outside 16…4096 are refused")
    func sizes() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        #expect(throws: ViewRequestError.badSize(width: 15, height: 100)) { try ViewRequest(instant: t, width: 15, height: 100) }
        #expect(throws: ViewRequestError.badSize(width: 100, height: 4097)) { try ViewRequest(instant: t, width: 100, height: 4097) }
        #expect(try ViewRequest(instant: t, width: 4096, height: 16).width == 4096)
        // Hashable: equal requests are one cache key.
        #expect(try ViewRequest(instant: t, camera: .focus(.mars)) == (try ViewRequest(instant: t, camera: .focus(.mars))))
        #expect(try ViewRequest(instant: t, camera: .focus(.mars)) != (try ViewRequest(instant: t, camera: .focus(.venus))))
    }
}

/// The planets' orbits are drawn from far out only: within a planet's system a heliocentric
/// ellipse is a straight chord across the picture.
@Test("orbit lines: every planet's from the overview; within the Earth's or Saturn's system only the moons'")
func orbitLinesByDistance() {
    let overview = RenderTestEngine.scene(camera: .overview)
    #expect(overview.orbits.count == BodyID.heliocentric.count)
    let earth = RenderTestEngine.scene(camera: .focus(.earth))
    #expect((earth.camera.eye - earth.camera.target).length < ViewScene.planetOrbitsFromDistance)
    #expect(earth.orbits.count == 1)     // the Moon's (the ISS has none drawn)
    let saturn = RenderTestEngine.scene(camera: .focus(.saturn))
    #expect(saturn.orbits.count == RenderTestEngine.catalogue[.saturn].moons.count)
    // Backed far enough out, the planets' orbits come back.
    let far = RenderTestEngine.scene(camera: .orbit(target: .earth, azimuthRad: nil, elevationRad: nil, distance: ViewScene.planetOrbitsFromDistance + 1))
    #expect(far.orbits.count == BodyID.heliocentric.count + 1)
}
