import Foundation
import Testing
import Ephemeris
@testable import Scene
@testable import Rendering

@Suite("View camera and labels")
struct ViewCameraTests {
    let cam = ViewCamera(eye: Vector3(3, 10, 30), target: Vector3(1, 0, -2), width: 1280, height: 720)

    @Test("project agrees with the view × projection matrix route")
    func matrixRoute() throws {
        let vp = cam.viewProjection
        for p in [Vector3(1, 0, -2), Vector3(5, -3, 4), Vector3(-8, 2, -10)] {
            let s = try #require(cam.project(p))
            let clip = vp * SIMD4(p.x, p.y, p.z, 1)
            let x = (clip.x / clip.w + 1) * 0.5 * 1280, y = (1 - clip.y / clip.w) * 0.5 * 720
            #expect(abs(s.x - x) < 1e-6 && abs(s.y - y) < 1e-6 && abs(s.depth - clip.w) < 1e-9)
        }
        // The target lands at the centre of the viewport.
        let c = try #require(cam.project(cam.target))
        #expect(abs(c.x - 640) < 1e-9 && abs(c.y - 360) < 1e-9)
    }

    @Test("projection scales derive from the vertical FOV and the aspect")
    func scales() {
        let f = 1 / tan(Double.pi / 6)
        #expect(abs(cam.yScale - f) < 1e-12)
        #expect(abs(cam.xScale - f / (1280.0 / 720.0)) < 1e-12)
        #expect(abs(cam.pixelsPerUnit - f * 360) < 1e-9)
        // A sphere seen at depth d: its silhouette's half-height is R·ppu/d (small-angle).
        #expect(abs(cam.screenRadius(worldRadius: 1, depth: 100) - f * 3.6) < 1e-9)
    }

    @Test("a point behind the camera projects to nil")
    func behind() {
        let behind = cam.eye + cam.basisBack * 5
        #expect(cam.project(behind) == nil)
        #expect(cam.projectDirection(cam.basisBack) == nil)
        #expect(cam.project(cam.eye - cam.basisBack * 5) != nil)
    }

    @Test("ray through a projected pixel points back at the point")
    func rayRoundTrip() throws {
        let p = Vector3(5, -3, 4)
        let s = try #require(cam.project(p))
        let d = cam.rayDirection(x: s.x, y: s.y)
        #expect(d.angle(to: (p - cam.eye).normalized) < 1e-9)
    }

    @Test("segments are clipped at the near plane")
    func clipping() throws {
        let front = cam.eye - cam.basisBack * 10, back = cam.eye + cam.basisBack * 10 + cam.basisRight
        let (a, b) = try #require(cam.projectSegment(front, back))
        #expect(a.depth > 0 && b.depth > 0)
        #expect(cam.projectSegment(back, back + cam.basisUp) == nil)
    }

    @Test("label offset is max(8, screenR + 4)")
    func offset() {
        #expect(LabelLayout.offsetY(screenRadius: 0) == 8)
        #expect(LabelLayout.offsetY(screenRadius: 3) == 8)
        #expect(LabelLayout.offsetY(screenRadius: 40) == 44)
    }

    @Test("deconfliction: planets over moons over stars; labels behind a nearer disc are hidden")
    func deconfliction() throws {
        let cam = ViewCamera(eye: Vector3(0, 0, 10), target: .zero, width: 400, height: 300)
        let candidates = [
            LabelCandidate(text: "Starry", position: Vector3(0, 0, -1), kind: .star, isDirection: true),
            LabelCandidate(text: "Moonish", position: Vector3(0.01, 0, 0), worldRadius: 0.01, kind: .moon, body: .moon),
            LabelCandidate(text: "Planet", position: .zero, worldRadius: 0.01, kind: .planet, body: .earth),
            LabelCandidate(text: "Far", position: Vector3(2, 1, 0), worldRadius: 0.01, kind: .moon, body: .io),
        ]
        let placed = LabelLayout.place(candidates, camera: cam, occluders: [])
        // The moon's label goes below its body when the planet's label holds the place above;
        // the star's label, with both places taken, is dropped.
        #expect(placed.map(\.text) == ["Planet", "Moonish", "Far"])
        #expect(placed[1].y > placed[1].anchorY)
        let crowded = LabelLayout.place(candidates + [
            LabelCandidate(text: "Other", position: Vector3(0.02, 0, 0), worldRadius: 0.01, kind: .planet, body: .mars),
        ], camera: cam, occluders: [])
        #expect(crowded.map(\.text) == ["Planet", "Other", "Far"])
        // The label sits offsetY above its anchor.
        let p = try #require(placed.first)
        #expect(abs(p.anchorY - p.y - 8) < 1e-9)

        // A body's disc hides a star behind it, and a moon behind it, but not its own label.
        let disc = ScreenDisc(body: .jupiter, x: 200, y: 150, radius: 50, depth: 10)
        let hidden = LabelLayout.place([
            LabelCandidate(text: "Starry", position: Vector3(0, 0, -1), kind: .star, isDirection: true),
            LabelCandidate(text: "Behind", position: Vector3(0.1, 0, -3), worldRadius: 0.01, kind: .moon, body: .io),
            LabelCandidate(text: "Jupiter", position: .zero, worldRadius: 2, kind: .planet, body: .jupiter),
        ], camera: cam, occluders: [disc])
        #expect(hidden.map(\.text) == ["Jupiter"])
    }
}

/// ViewCamera's documentation example, run as written: the target at the picture's centre, at
/// the eye's distance (√1000 = 31.62 scene units).
@Test("ViewCamera's documentation example: the target projects to (640, 360) at depth 31.6")
func viewCameraDocumentationExample() throws {
    let cam = ViewCamera(eye: Vector3(0, 10, 30), target: .zero, width: 1280, height: 720)
    let p = try #require(cam.project(.zero))
    #expect(abs(p.x - 640) < 1e-9 && abs(p.y - 360) < 1e-9, "\(p)")
    #expect(abs(p.depth - 1000.0.squareRoot()) < 1e-9 && String(format: "%.1f", p.depth) == "31.6", "\(p)")
}
