import Foundation
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

    /// Where `point` falls in a `width` × `height` view of `pose`, as a fraction of the half-size
    /// (1 = the edge), nil behind the camera.
    static func reach(_ point: Vector3, _ pose: CameraPose, width: Int, height: Int) -> Double? {
        let cam = ViewCamera(pose: pose, width: width, height: height)
        guard let s = cam.project(point) else { return nil }
        return max(abs(s.x - Double(width) / 2) / (Double(width) / 2), abs(s.y - Double(height) / 2) / (Double(height) / 2))
    }

    @Test("keeping points in view: each inside 90 % of the half-size, the nearest such distance, never nearer", arguments: [(1280, 720), (390, 844)])
    func keepingPointsInView(size: (Int, Int)) throws {
        let (w, h) = size
        let aspect = Double(w) / Double(h)
        let offsets = [Vector3(1.7, 0.2, -0.4), Vector3(-0.3, -1.1, 0.9), Vector3(0.05, 0.6, 1.8), Vector3(-1.9, 0.4, -1.2)]
        for azimuth in [-2.5, -1.0, 0.3, 1.7, 3.0] {
            for elevation in [-1.1, -0.3, 0.3, 1.0] {
                for distance in [0.3, 1.4, 6.0] {
                    let target = Vector3(12 * cos(azimuth * 3), 0.4, 12 * sin(azimuth * 3))
                    let pose = CameraPose(target: target, distance: distance, azimuthRad: azimuth, elevationRad: elevation)
                    let points = offsets.map { target + $0 }
                    let kept = CameraFraming.keeping(points, inViewOf: pose, aspect: aspect)
                    #expect(kept.target == pose.target && kept.azimuthRad == pose.azimuthRad && kept.elevationRad == pose.elevationRad)
                    #expect(kept.distance >= pose.distance)
                    let reaches = try points.map { try #require(Self.reach($0, kept, width: w, height: h)) }
                    #expect(reaches.allSatisfy { $0 <= CameraFraming.keptInViewMargin + 1e-9 }, "\(reaches)")
                    if kept.distance > pose.distance {
                        // Moved back no farther than needed: one point sits on the margin.
                        #expect(abs((reaches.max() ?? 0) - CameraFraming.keptInViewMargin) < 1e-9, "\(reaches)")
                    }
                }
            }
        }
        let still = CameraPose(target: .zero, distance: 2, azimuthRad: 0.3, elevationRad: 0.3)
        #expect(CameraFraming.keeping([.zero], inViewOf: still, aspect: aspect) == still)
    }

    @Test("the Earth preset keeps the Moon in shot (the Apollo 11 landing left it out); other presets are the seeds'", arguments: [(1280, 720), (390, 844)])
    func earthPresetKeepsTheMoon(size: (Int, Int)) throws {
        let (w, h) = size
        let aspect = Double(w) / Double(h)
        let layout = SceneTestEngine.layout
        for date in ["1969-07-20T20:17:40Z", "2026-11-22T00:00:00Z", "2026-12-01T00:00:00Z", "2027-01-05T12:00:00Z"] {
            let positions = layout.bodies(SceneTestEngine.ephemeris.snapshot(at: try TimeScale.parse(date))).map(\.position)
            let pose = CameraFraming.preset(.earth, position: { positions[$0.index] }, layout: layout, aspect: aspect)
            let moon = try #require(Self.reach(positions[BodyID.moon.index], pose, width: w, height: h))
            #expect(moon <= CameraFraming.keptInViewMargin + 1e-9, "\(date) \(w)x\(h): the Moon at \(moon) of the half-size")
            let (extent, hasMoons) = CameraFraming.systemExtent(.earth, layout: layout)
            #expect(pose.distance >= CameraFraming.focus(target: positions[BodyID.earth.index], extent: extent, hasMoons: hasMoons, aspect: aspect).distance)
            for body in [BodyID.jupiter, .saturn, .mars] {
                let (e, m) = CameraFraming.systemExtent(body, layout: layout)
                let seeds = CameraFraming.focus(target: positions[body.index], extent: e, hasMoons: m, aspect: aspect)
                #expect(CameraFraming.preset(body, position: { positions[$0.index] }, layout: layout, aspect: aspect) == seeds)
            }
        }
        // The case the viewer found: the seeds' rule alone leaves the Moon out at the landing.
        let landing = layout.bodies(SceneTestEngine.ephemeris.snapshot(at: try TimeScale.parse("1969-07-20T20:17:40Z"))).map(\.position)
        let (extent, hasMoons) = CameraFraming.systemExtent(.earth, layout: layout)
        let seeds = CameraFraming.focus(target: landing[BodyID.earth.index], extent: extent, hasMoons: hasMoons, aspect: 16.0 / 9.0)
        #expect((Self.reach(landing[BodyID.moon.index], seeds, width: 1280, height: 720) ?? 2) > 1)
    }
}
