import Glibc
import Testing
@testable import Ephemeris

/// The snapshot path's shortcuts against the slow, obvious computations they replace.
@Suite("Snapshot shortcuts")
struct SnapshotTests {
    /// Instants every 7.3 days over 1950–2050 (off any round phase of the moons).
    static let instants: [Instant] = {
        let start = try! TimeScale.parse("1950-01-01T00:00:00Z")
        return (0..<5_000).map { start.adding(seconds: Double($0) * 7.3 * 86_400) }
    }()

    @Test("remainder360 is fmod bit for bit: random, huge, tiny, negative, multiples of 360 and their neighbours")
    func remainder360MatchesFmod() {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 360, -360, 720, -720, 359.99999999999994, 1e-300, -1e-300, 0x1p50, -0x1p50, 0x1p50.nextDown, 1e300, -1e300, .infinity, -.infinity, .nan]
        for k in -2_000...2_000 {
            let m = Double(k) * 360
            values += [m, m.nextUp, m.nextDown]
        }
        for _ in 0..<1_000_000 { values.append(Double.random(in: -1e8...1e8, using: &rng)) }
        for _ in 0..<1_000_000 { values.append(Double.random(in: -1_000...1_000, using: &rng)) }
        for _ in 0..<1_000_000 {
            let v = Double(bitPattern: rng.next())
            values.append(v)
        }
        var mismatches: [Double] = []
        for v in values {
            let fast = Angle.remainder360(v), slow = fmod(v, 360)
            if !(fast.bitPattern == slow.bitPattern || (fast.isNaN && slow.isNaN)) { mismatches.append(v) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { ($0, Angle.remainder360($0), fmod($0, 360)) })")
    }

    @Test("the IAU orientation's closed form is Rz(α0 + 90°)·Rx(90° − δ0)·Rz(W) to 1e-15")
    func closedFormOrientation() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let ra = Double.random(in: -720...720, using: &rng), dec = Double.random(in: -90...90, using: &rng)
            let w = Double.random(in: -1e7...1e7, using: &rng)
            let o = Orientation(poleRADeg: ra, poleDecDeg: dec, primeMeridianDeg: w)
            let d = Angle.radiansPerDegree
            // W reduced first: libm's argument reduction of W·π/180 itself rounds by ~1e-11 rad at 1e7°.
            let product = Matrix3.rotationZ((ra + 90) * d) * Matrix3.rotationX((90 - dec) * d)
                * Matrix3.rotationZ(Angle.normalizedDegrees(w) * d)
            for (a, b) in [(o.bodyToEquatorial.r0, product.r0), (o.bodyToEquatorial.r1, product.r1), (o.bodyToEquatorial.r2, product.r2)] {
                #expect((a - b).length < 1e-14)
            }
            #expect(o.poleRADeg == Angle.normalizedDegrees(ra) && o.poleDecDeg == dec && o.primeMeridianDeg == Angle.normalizedDegrees(w))
        }
    }

    @Test("periodic terms four at a time equal the term-by-term libm sums to 1e-13°")
    func packedPeriodicTerms() {
        for body in [BodyID.mercury, .moon, .mars, .jupiter, .neptune] {
            guard let series = IAUPeriodicTerms.forBody(body) else { Issue.record("\(body) has no terms"); continue }
            for T in stride(from: -3.0, through: 3.0, by: 0.0137) {
                var ra = 0.0, dec = 0.0, w = 0.0
                for t in series.terms {
                    let theta = (t.phaseDeg + t.rateDegPerCentury * T) * Angle.radiansPerDegree
                    ra += t.ra * sin(theta); dec += t.dec * cos(theta); w += t.w * sin(theta)
                }
                let fast = series.offsets(centuriesTDB: T)
                // The libm sum's own argument rounding (rate·T up to 3·10⁵° in radians) is ~1e-13°.
                #expect(abs(fast.ra - ra) < 1e-12 && abs(fast.dec - dec) < 1e-12 && abs(fast.w - w) < 1e-12, "\(body) at T = \(T)")
            }
        }
    }

    @Test("orbit normals from one run of the theory are r × v's direction to 0.01°, every 7.3 days 1950–2050")
    func orbitNormalsAgainstVelocities() {
        var worst: [BodyID: Double] = [:]
        /// Each body's normal against r × v (v the theory's central-difference velocity).
        func compare(_ bodies: [BodyID], position: (BodyID) -> Vector3, normal: (BodyID) -> Vector3, velocity: (BodyID) -> Vector3) {
            for body in bodies {
                let rv = position(body).cross(velocity(body)).normalized
                worst[body] = max(worst[body] ?? 0, Angle.degrees(normal(body).angle(to: rv)))
            }
        }
        for t in Self.instants {
            let jd = t.jdTDB
            let galilean = GalileanMoons.positionsAndOrbitNormals(jdTDB: jd)
            let gv = GalileanMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
            #expect(galilean.positionsKm == GalileanMoons.planetocentricPositionsKm(jdTDB: jd))
            compare(GalileanPositions.bodies, position: { galilean.positionsKm[$0] }, normal: { galilean.orbitNormals[$0] }, velocity: { gv[$0] })
            let saturnian = SaturnianMoons.positionsAndOrbitNormals(jdTDB: jd)
            let sv = SaturnianMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
            #expect(saturnian.positionsKm == SaturnianMoons.planetocentricPositionsKm(jdTDB: jd))
            compare(SaturnianPositions.bodies, position: { saturnian.positionsKm[$0] }, normal: { saturnian.orbitNormals[$0] }, velocity: { sv[$0] })
        }
        for (body, angle) in worst.sorted(by: { $0.key.index < $1.key.index }) {
            print("[snapshot] \(body): orbit normal within \(angle)° of r × v")
            #expect(angle < 0.01, "\(body): \(angle)°")
        }
    }

    @Test("the snapshot equals the engine's one-body answers: positions and axes to 1e-12")
    func snapshotMatchesOneBodyAnswers() {
        for e in [TestEngine.ephemeris, TestEngine.served, Self.anchored] {
            for t in Self.instants.prefix(300) + Self.anchorInstants {
                let s = e.snapshot(at: t)
                for body in BodyID.allCases {
                    if body.isSatellite {
                        // (The kernel's Moon comes from two chains whose sums round differently.)
                        let r = s.relativeToParentKm(body), one = e.parentRelativeState(body, at: t).positionKm
                        #expect((r - one).length <= 1e-12 * one.length, "\(body)")
                    }
                    let a = s.orientation(body).bodyToEcliptic, b = e.orientation(body, at: t).bodyToEcliptic
                    #expect((a.r0 - b.r0).length + (a.r1 - b.r1).length + (a.r2 - b.r2).length < 1e-12, "\(body)")
                    let p = s.orientation(body).angles, q = e.orientation(body, at: t).angles
                    #expect(abs(p.poleRADeg - q.poleRADeg) < 1e-9 && abs(p.poleDecDeg - q.poleDecDeg) < 1e-9, "\(body)")
                }
            }
        }
    }

    /// Moons moved as near published flybys (``MoonAnchor``): Europa, Titan and Phobos, each at
    /// an instant of ``instants`` (so the loop above meets them in full, tapering and gone).
    static let anchorInstants: [Instant] = [instants[20], instants[40], instants[60]].flatMap { t in
        [0.0, 3_000, 2 * 3_600 + 600, 5 * 3_600, 60_000].map { t.adding(seconds: $0) }
    }
    static let anchored: Ephemeris = {
        let seconds = [20, 40, 60].map { instants[$0].daysSinceJ2000TDB * Constants.secondsPerDay }
        return Ephemeris(catalogue: TestEngine.catalogue, kernel: TestEngine.kernel, moonAnchors: [
            MoonAnchor(body: .europa, epochSeconds: seconds[0], offsetKm: Vector3(300, -200, 80), source: "test"),
            MoonAnchor(body: .titan, epochSeconds: seconds[1], offsetKm: Vector3(-900, 400, 150), source: "test"),
            MoonAnchor(body: .phobos, epochSeconds: seconds[2], offsetKm: Vector3(2, -3, 1), source: "test"),
        ])
    }()

    @Test("an anchor moves its moon only in its span: elsewhere the snapshot is the plain engine's, bit for bit")
    func anchorsOnlyActInTheirSpans() {
        var moved = 0
        for t in Self.instants.prefix(100) + Self.anchorInstants {
            let a = Self.anchored.snapshot(at: t), b = TestEngine.served.snapshot(at: t)
            let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
            for body in BodyID.allCases {
                let inSpan = Self.anchored.moonAnchors.contains { $0.body == body && $0.spanSeconds.contains(seconds) }
                let same = a.heliocentricAU[body.index] == b.heliocentricAU[body.index]
                    && a.orientation(body).bodyToEcliptic.r0 == b.orientation(body).bodyToEcliptic.r0
                    && a.orientation(body).bodyToEcliptic.r2 == b.orientation(body).bodyToEcliptic.r2
                if inSpan, !same { moved += 1 }
                if !inSpan { #expect(same, "\(body) at \(t.iso8601)") }
            }
        }
        #expect(moved >= 6, "the anchors moved their moons in their spans")
    }
}
