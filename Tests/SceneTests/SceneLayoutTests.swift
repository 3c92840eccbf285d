import Foundation
import Testing
import Ephemeris
@testable import Scene

enum SceneTestEngine {
    static let catalogue: Catalogue = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        do {
            let data = try Data(contentsOf: root.appendingPathComponent("Resources/bodies.json"))
            return try Catalogue(json: [UInt8](data))
        } catch { fatalError("catalogue: \(error)") }
    }()
    static let ephemeris = Ephemeris(catalogue: catalogue)
    static let layout = SceneLayout(catalogue: catalogue)
}

@Suite("Scene layout")
struct SceneLayoutTests {
    let t = try! TimeScale.parse("2026-11-22T00:00:00Z")

    @Test("planets orbit counter-clockwise seen from scene +Y")
    func counterClockwise() {
        for body in BodyID.heliocentric {
            let s = SceneTestEngine.ephemeris.state(body, at: t)
            let r = SceneAxes.scene(fromEcliptic: s.positionAU), v = SceneAxes.scene(fromEcliptic: s.velocityAUPerDay)
            #expect(r.cross(v).y > 0, "\(body)")
            // And the positions move that way: a later scene position is CCW (seen from +Y).
            let later = SceneLayout.scenePosition(heliocentricAU: SceneTestEngine.ephemeris.state(body, at: t.adding(seconds: 86_400)).positionAU)
            let now = SceneLayout.scenePosition(heliocentricAU: s.positionAU)
            #expect(now.cross(later).y > 0, "\(body)")
        }
    }

    @Test("scene positions: planets at their log distance along their true direction, moons at their compressed distance")
    func positions() {
        let snap = SceneTestEngine.ephemeris.snapshot(at: t)
        let pos = SceneTestEngine.layout.positions(snap)
        #expect(pos[BodyID.sun.index] == .zero)
        for body in BodyID.heliocentric {
            let helio = snap.heliocentric(body)
            #expect(abs(pos[body.index].length - SceneScaling.sceneDistance(au: helio.length)) < 1e-9)
            #expect(pos[body.index].angle(to: SceneAxes.scene(fromEcliptic: helio)) < 1e-12)
        }
        let earthR = SceneTestEngine.layout.radii[BodyID.earth.index]
        let moonOffset = pos[BodyID.moon.index] - pos[BodyID.earth.index]
        #expect(abs(moonOffset.length / earthR - 17.55) < 0.05)
        #expect(moonOffset.angle(to: SceneAxes.scene(fromEcliptic: snap.relativeToParentKm(.moon))) < 1e-12)
        for body in BodyID.allCases where body.isSatellite {
            let parent = body.parent!
            let offset = pos[body.index] - pos[parent.index]
            #expect(abs(offset.length - SceneTestEngine.layout.moonDistances[body.index]) < 1e-12, "\(body)")
            #expect(offset.length > SceneTestEngine.layout.radii[parent.index], "\(body) sits outside its parent")
        }
    }

    @Test("radii: planets by √km, moons by their parent's ratio, the Sun at the seeds' 0.8")
    func radii() {
        let r = SceneTestEngine.layout.radii
        #expect(abs(r[BodyID.jupiter.index] - 0.331) < 0.0006)
        #expect(abs(r[BodyID.moon.index] - 0.027) < 0.0005)
        #expect(r[BodyID.iss.index] == 0.012)
        // The scene draws the Sun at 0.8, not at the planet formula's √695,700 × 0.00125 = 1.04.
        #expect(r[BodyID.sun.index] == 0.8)
        #expect(SceneScaling.planetRadius(km: 695_700) > 1.04)
    }

    @Test("sceneQuaternion turns a Y-up model's +Y onto the pole and +X onto the prime meridian")
    func sceneQuaternion() {
        let snap = SceneTestEngine.ephemeris.snapshot(at: t)
        for body in SceneTestEngine.layout.bodies(snap) {
            let o = snap.orientation(body.id)
            let poleScene = SceneAxes.scene(fromEcliptic: o.poleEcliptic)
            let meridianScene = SceneAxes.scene(fromEcliptic: o.bodyToEcliptic * Vector3(1, 0, 0))
            #expect(body.quaternion.rotate(Vector3(0, 1, 0)).angle(to: poleScene) < 1e-10, "\(body.id)")
            #expect(body.quaternion.rotate(Vector3(1, 0, 0)).angle(to: meridianScene) < 1e-10, "\(body.id)")
            #expect(abs(body.quaternion.norm - 1) < 1e-12)
        }
    }

    @Test("Saturn's rings lie in its equator plane, scaled with the planet")
    func rings() throws {
        let snap = SceneTestEngine.ephemeris.snapshot(at: t)
        let bodies = SceneTestEngine.layout.bodies(snap)
        let saturn = try #require(bodies.first { $0.id == .saturn })
        let ring = try #require(saturn.ringPlane)
        #expect(ring.normal.angle(to: saturn.quaternion.rotate(Vector3(0, 1, 0))) < 1e-10)
        #expect(ring.quaternion.rotate(Vector3(0, 1, 0)).angle(to: ring.normal) < 1e-10)
        #expect(abs(ring.innerRadius / saturn.radius - 74_500 / 58_232) < 1e-12)
        #expect(abs(ring.outerRadius / saturn.radius - 140_220 / 58_232) < 1e-12)
        #expect(bodies.filter { $0.ringPlane != nil }.map(\.id) == [.saturn])
    }
}
