import Testing
import Ephemeris
@testable import Scene

@Suite("Camera framing")
struct CameraFramingTests {
    /// The docstring's numbers, worked by hand: 1.4 / tan(30°) = 1.4 · √3.
    @Test("mission distance: 1.4 · √3 per unit of radius, doubled for a portrait of aspect ½, never under 1.5")
    func missionDistance() {
        #expect(abs(CameraFraming.missionDistance(radius: 1, aspect: 2) - 2.424_871_130_596_428) < 1e-12)
        #expect(abs(CameraFraming.missionDistance(radius: 1, aspect: 0.5) - 4.849_742_261_192_856) < 1e-12)
        #expect(CameraFraming.missionDistance(radius: 1, aspect: 1) == CameraFraming.missionDistance(radius: 1, aspect: 3))
        #expect(CameraFraming.missionDistance(radius: 0.1, aspect: 2) == 1.5)
        #expect(CameraFraming.fit(center: .zero, radius: 1, sunSideOf: Vector3(1, 0, 0)).distance
                == CameraFraming.missionDistance(radius: 1))
    }
}
