import Foundation
import Testing
import Ephemeris
@testable import Scene

@Suite("Scene scaling: the seeds' golden values")
struct SceneScalingTests {
    @Test("log distance 15·ln(1 + AU/0.5)")
    func distance() {
        #expect(abs(SceneScaling.sceneDistance(au: 1) - 16.479) < 0.001) // Earth ≈ 16.48
        #expect(abs(SceneScaling.sceneDistance(au: 5.2) - 36.50) < 0.01) // Jupiter ≈ 36.5
        #expect(SceneScaling.sceneDistance(au: 0) == 0)
        #expect(abs(SceneScaling.astronomicalUnits(sceneDistance: SceneScaling.sceneDistance(au: 30.07)) - 30.07) < 1e-12)
        // Monotonic.
        var last = -1.0
        for au in stride(from: 0.0, through: 50, by: 0.25) {
            let s = SceneScaling.sceneDistance(au: au)
            #expect(s > last)
            last = s
        }
    }

    @Test("planet radii √km × 0.00125 with a 0.03 floor", arguments: [
        ("jupiter", 69911.0, 0.331), ("saturn", 58232, 0.302), ("uranus", 25362, 0.199), ("neptune", 24622, 0.196),
        ("earth", 6371, 0.100), ("venus", 6051.8, 0.097), ("mars", 3389.5, 0.073), ("mercury", 2439.7, 0.062),
    ])
    func planetRadius(name: String, km: Double, golden: Double) {
        #expect(abs(SceneScaling.planetRadius(km: km) - golden) < 0.0006, "\(name)")
    }

    @Test("floors: planets 0.03, moons 0.012")
    func floors() {
        #expect(SceneScaling.planetRadius(km: 100) == 0.03)
        #expect(SceneScaling.moonRadius(km: 0.001, parentKm: 6371, parentSceneRadius: 0.1) == 0.012)
        #expect(SceneScaling.moonRadius(km: 1, parentKm: 0, parentSceneRadius: 0.1) == 0.012)
        #expect(SceneScaling.moonDistance(semiMajorAxisKm: 1000, parentKm: 0, parentSceneRadius: 0.1) == 0)
    }

    @Test("the Moon: radius 0.027, at 17.6 Earth radii (real 60.3)")
    func moon() {
        let earth = SceneScaling.planetRadius(km: 6371)
        #expect(abs(SceneScaling.moonRadius(km: 1737.4, parentKm: 6371, parentSceneRadius: earth) - 0.027) < 0.0005)
        let d = SceneScaling.moonDistance(semiMajorAxisKm: 384_400, parentKm: 6371, parentSceneRadius: earth)
        // The seeds' golden value: 60.3 Earth radii → 60.3^0.6 × 1.5 = 17.6 Earth scene radii.
        #expect(abs(d / earth - 17.6) < 0.06)
    }

    @Test("moon distances follow (a/R)^0.6: doubling the orbit multiplies the distance by 2^0.6, whatever the parent")
    func moonDistanceExponent() {
        for (parentKm, parentScene) in [(6371.0, 0.1), (69911.0, 0.33), (58232.0, 0.3)] {
            let near = SceneScaling.moonDistance(semiMajorAxisKm: 20 * parentKm, parentKm: parentKm, parentSceneRadius: parentScene)
            let far = SceneScaling.moonDistance(semiMajorAxisKm: 40 * parentKm, parentKm: parentKm, parentSceneRadius: parentScene)
            #expect(abs(far / near - pow(2, 0.6)) < 1e-12)
            // Proportional to the parent's scene radius, and 1.5 parent radii at a = R.
            #expect(abs(SceneScaling.moonDistance(semiMajorAxisKm: parentKm, parentKm: parentKm, parentSceneRadius: parentScene) - 1.5 * parentScene) < 1e-12)
        }
    }

    @Test("axis mapping scene = (x, z, −y) is a proper −90° rotation about x")
    func axes() {
        let v = Vector3(1, 2, 3)
        #expect(SceneAxes.scene(fromEcliptic: v) == Vector3(1, 3, -2))
        #expect((SceneAxes.fromEcliptic * v - Vector3(1, 3, -2)).length < 1e-15)
        #expect((SceneAxes.fromEclipticQuaternion.rotate(v) - Vector3(1, 3, -2)).length < 1e-15)
        #expect(SceneAxes.ecliptic(fromScene: SceneAxes.scene(fromEcliptic: v)) == v)
        // Ecliptic north is scene up.
        #expect(SceneAxes.scene(fromEcliptic: Vector3(0, 0, 1)) == Vector3(0, 1, 0))
    }
}
