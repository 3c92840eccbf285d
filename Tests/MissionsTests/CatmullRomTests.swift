import Testing
import Ephemeris
@testable import Missions

@Suite struct CatmullRomTests {
    static let points = [Vector3(0, 0, 0), Vector3(1, 2, 0), Vector3(5, 2, 1), Vector3(5.5, -3, 0), Vector3(20, -1, 2)]
    static let times = [0.0, 0.05, 2.83, 40, 41]

    @Test func endpointsLandExactlyOnControlPoints() {
        let p = Self.points
        #expect(CatmullRom.point(p, at: 0) == p[0])
        #expect(CatmullRom.point(p, at: 1) == p[p.count - 1])
        for i in 0..<(p.count - 1) {
            #expect(CatmullRom.point(p, segment: i, fraction: 0) == p[i])
            #expect(CatmullRom.point(p, segment: i, fraction: 1) == p[i + 1])
        }
    }

    @Test func passesEveryWaypointAtItsTimestamp() {
        for (t, p) in zip(Self.times, Self.points) {
            #expect(CatmullRom.point(Self.points, times: Self.times, at: t) == p)
        }
        // Between timestamps the curve moves on: the point at mid-segment is none of the controls.
        let mid = CatmullRom.point(Self.points, times: Self.times, at: 20)
        #expect(!Self.points.contains(mid))
    }

    @Test func segmentLookupIsTimeParameterised() {
        #expect(CatmullRom.segment(for: 1.44, times: Self.times).segment == 1)
        let s = CatmullRom.segment(for: 21.415, times: Self.times)
        #expect(s.segment == 2 && abs(s.fraction - 0.5) < 1e-12)
        #expect(CatmullRom.segment(for: -1, times: Self.times) == (0, 0))
        #expect(CatmullRom.segment(for: 99, times: Self.times) == (3, 1))
    }

    /// Three.js's `initNonuniformCatmullRom` (Hermite form with centripetal tangents), an
    /// independent formulation the Barry–Goldman pyramid must agree with.
    static func threeJS(_ x0: Double, _ x1: Double, _ x2: Double, _ x3: Double, _ dt0: Double, _ dt1: Double, _ dt2: Double, _ w: Double) -> Double {
        var t1 = (x1 - x0) / dt0 - (x2 - x0) / (dt0 + dt1) + (x2 - x1) / dt1
        var t2 = (x2 - x1) / dt1 - (x3 - x1) / (dt1 + dt2) + (x3 - x2) / dt2
        t1 *= dt1
        t2 *= dt1
        let c0 = x1, c1 = t1, c2 = -3 * x1 + 3 * x2 - 2 * t1 - t2, c3 = 2 * x1 - 2 * x2 + t1 + t2
        return c0 + c1 * w + c2 * w * w + c3 * w * w * w
    }

    @Test(arguments: [0.1, 0.25, 0.5, 0.77, 0.95])
    func matchesThreeJSCentripetal(w: Double) {
        let p0 = Vector3(-2, 1, 0), p1 = Vector3(0, 0, 0), p2 = Vector3(9, 1, 0.5), p3 = Vector3(10, 30, -2)
        let dt0 = pow((p1 - p0).lengthSquared, 0.25), dt1 = pow((p2 - p1).lengthSquared, 0.25), dt2 = pow((p3 - p2).lengthSquared, 0.25)
        let got = CatmullRom.barryGoldman(p0, p1, p2, p3, fraction: w)
        let want = Vector3(
            Self.threeJS(p0.x, p1.x, p2.x, p3.x, dt0, dt1, dt2, w),
            Self.threeJS(p0.y, p1.y, p2.y, p3.y, dt0, dt1, dt2, w),
            Self.threeJS(p0.z, p1.z, p2.z, p3.z, dt0, dt1, dt2, w)
        )
        #expect((got - want).length < 1e-12, "\(got) vs \(want)")
    }

    @Test func centripetalDoesNotOvershootLikeUniform() {
        // Dense points then a long jump: the uniform spline loops past; centripetal stays within
        // the span of x it is interpolating (a known property, the reason the seeds chose it).
        let p = [Vector3(0, 0, 0), Vector3(0.1, 0, 0), Vector3(0.2, 0, 0), Vector3(10, 0.1, 0)]
        for k in 1..<100 {
            let q = CatmullRom.point(p, segment: 1, fraction: Double(k) / 100)
            #expect(q.x > 0.1 - 1e-9 && q.x < 0.2 + 1e-9)
        }
    }

    @Test func repeatedPointsStayPut() {
        let p = [Vector3(390_000, 0, 0), Vector3(390_000, 0, 0)]
        for f in stride(from: 0.0, through: 1.0, by: 0.125) {
            let q = CatmullRom.point(p, segment: 0, fraction: f)
            #expect(q == p[0])
        }
    }
}

import Foundation
