import Ephemeris
import Foundation
import HTTPTestSupport
import Testing

@Suite("GET /v1/rotations, /v1/scene, /v1/orbits, /v1/camera/focus")
struct FrameEndpointsTests {
    @Test("rotations: unit quaternions, pole and W per body; scene quaternion is the ecliptic one re-axed")
    func rotations() throws {
        let r = try APIServer.get("/v1/rotations?date=2026-01-01")
        #expect(r.status == 200)
        let bodies = r.objects("bodies")
        #expect(bodies.count == 25)
        for b in bodies {
            guard let q = b["quaternion"] as? [Double], let s = b["sceneQuaternion"] as? [Double], q.count == 4, s.count == 4 else {
                Issue.record("\(b["id"] ?? "?") lacks quaternions"); continue
            }
            #expect(abs(q.map { $0 * $0 }.reduce(0, +) - 1) < 1e-9)
            // scene = R_x(−90°): (x, y, z) → (x, z, −y) on the vector part.
            #expect(abs(s[0] - q[0]) < 1e-12 && abs(s[1] - q[2]) < 1e-12 && abs(s[2] + q[1]) < 1e-12 && abs(s[3] - q[3]) < 1e-12)
        }
        let earth = bodies.first { $0["id"] as? String == "earth" }
        #expect(abs((number(earth?["poleDecDeg"]) ?? 0) - 89.855) < 0.01)
    }

    @Test("rotations: equatorial frame and a body subset")
    func rotationsEquatorial() throws {
        let r = try APIServer.get("/v1/rotations?date=2026-01-01&bodies=earth&frame=equatorial-j2000")
        #expect(r.objects("bodies").count == 1)
        // The Earth's pole is within 0.2° of the equatorial +z axis.
        guard let q = r.objects("bodies").first?["quaternion"] as? [Double] else { Issue.record("no quaternion"); return }
        let pole = Quaternion(x: q[0], y: q[1], z: q[2], w: q[3]).rotate(Vector3(0, 0, 1))
        #expect(pole.z > cos(0.2 * .pi / 180))
        #expect(try APIServer.get("/v1/rotations?frame=scene").status == 400)
    }

    @Test("rotations: a declination in −90…90 where the IAU polynomial passes the pole (the Earth in 1991: 90.046°)")
    func rotationsDeclinationInRange() throws {
        let earth = try #require(try APIServer.get("/v1/rotations?date=1991-06-01&bodies=earth&frame=equatorial-j2000").objects("bodies").first)
        let dec = try #require(number(earth["poleDecDeg"])), ra = try #require(number(earth["poleRaDeg"]))
        #expect(dec <= 90 && dec > 89.9, "poleDecDeg \(dec)")
        // The same pole as the quaternion's: RA and Dec describe the rotation served.
        let q = try #require(earth["quaternion"] as? [Double])
        let pole = Quaternion(x: q[0], y: q[1], z: q[2], w: q[3]).rotate(Vector3(0, 0, 1))
        let fromAngles = Vector3(cos(dec * .pi / 180) * cos(ra * .pi / 180), cos(dec * .pi / 180) * sin(ra * .pi / 180), sin(dec * .pi / 180))
        #expect(pole.angle(to: fromAngles) < 1e-9)
    }

    @Test("scene: every body with scene position, radius, quaternion, colour; moons offset from their parent; Saturn's ring plane")
    func scene() throws {
        let r = try APIServer.get("/v1/scene?date=2026-01-01")
        #expect(r.status == 200)
        let bodies = r.objects("bodies")
        #expect(bodies.count == 25)
        let byId = Dictionary(uniqueKeysWithValues: bodies.map { ($0["id"] as? String ?? "", $0) })
        let earth = vector(byId["earth"]?["position"]) ?? .zero
        #expect(abs(earth.length - 15 * log(1 + 0.9833 / 0.5)) < 0.01)
        let moon = byId["moon"]
        let offset = vector(moon?["offsetFromParent"]) ?? .zero
        #expect(abs(offset.length - 0.0998 * pow(384_400 / 6371, 0.6) * 1.5) < 0.02)
        #expect(((vector(moon?["position"]) ?? .zero) - earth - offset).length < 1e-9)
        #expect(byId["earth"]?["offsetFromParent"] is NSNull)
        #expect(abs((number(byId["earth"]?["sceneRadius"]) ?? 0) - 0.0998) < 0.001)
        let rings = byId["saturn"]?["ringPlane"] as? [String: Any]
        #expect(rings != nil && (number(rings?["innerRadius"]) ?? 0) > 0.301)
        #expect((byId["sun"]?["emissive"] as? Bool) == true)
        #expect(number(byId["sun"]?["sceneRadius"]) == 0.8)
        #expect(number((r.json["scaling"] as? [String: Any])?["sunRadius"]) == 0.8)
        #expect(try APIServer.get("/v1/scene?date=2026-01-01&bodies=earth").status == 400)
    }

    @Test("orbits: planets close on themselves in AU and scene units; moons around their parent; samples bounds")
    func orbits() throws {
        let r = try APIServer.get("/v1/orbits?date=2026-01-01&bodies=mars,moon&samples=64")
        #expect(r.status == 200)
        let bodies = r.objects("bodies")
        #expect(bodies.count == 2)
        let mars = bodies[0]
        let pts = (mars["points"] as? [[Double]]) ?? []
        #expect(pts.count == 64)
        let radii = pts.map { ($0[0] * $0[0] + $0[1] * $0[1] + $0[2] * $0[2]).squareRoot() }
        #expect((radii.min() ?? 0) > 1.38 && (radii.max() ?? 9) < 1.67)
        #expect((mars["scenePoints"] as? [[Double]])?.count == 64)
        #expect(bodies[1]["center"] as? String == "earth")
        for bad in ["samples=15", "samples=4097", "samples=abc", "bodies=pluto,x"] {
            #expect(try APIServer.get("/v1/orbits?date=2026-01-01&\(bad)").status >= 400, "\(bad)")
        }
        let all = try APIServer.get("/v1/orbits?date=2026-01-01").objects("bodies")
        #expect(all.count == 24)
    }

    @Test("camera focus: the seeds' Sun-side framing with factor 0.8 for systems, 6.0 for lone bodies")
    func camera() throws {
        let s = try APIServer.get("/v1/camera/focus/saturn?date=2026-01-01&aspect=1.5").json
        let target = vector(s["target"]) ?? .zero
        #expect(abs((number(s["azimuthRad"]) ?? 0) - (atan2(-target.x, -target.z) + 0.55)) < 1e-9)
        #expect(number(s["elevationRad"]) == 0.3)
        let extent = number(s["systemExtent"]) ?? 0
        #expect(abs((number(s["distance"]) ?? 0) - extent * 0.8) < 1e-9)
        let venus = try APIServer.get("/v1/camera/focus/venus?date=2026-01-01&aspect=0.5").json
        let vr = 0.0972
        #expect(abs((number(venus["distance"]) ?? 0) - vr * 6.0 * 0.75) < 0.005)
        #expect(try APIServer.get("/v1/camera/focus/saturn?aspect=0").status == 400)
        #expect(try APIServer.get("/v1/camera/focus/vulcan").status == 404)
    }
}
