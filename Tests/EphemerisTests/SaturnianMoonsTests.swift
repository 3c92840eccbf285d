import Glibc
import Testing
@testable import Ephemeris

@Suite("Saturnian moons (Meeus ch. 46)")
struct SaturnianMoonsTests {
    /// Semi-major axes (km) and eccentricities (JPL mean elements) of Mimas … Iapetus.
    static let semiMajorAxisKm: [BodyID: Double] = [
        .mimas: 185_539, .enceladus: 237_948, .tethys: 294_619, .dione: 377_396,
        .rhea: 527_108, .titan: 1_221_870, .iapetus: 3_560_820,
    ]
    static let eccentricity: [BodyID: Double] = [
        .mimas: 0.0196, .enceladus: 0.0047, .tethys: 0.0001, .dione: 0.0022,
        .rhea: 0.0010, .titan: 0.0288, .iapetus: 0.0286,
    ]
    /// Sidereal periods, days (JPL).
    static let siderealPeriodDays: [BodyID: Double] = [
        .mimas: 0.942421813, .enceladus: 1.370217855, .tethys: 1.887802160, .dione: 2.736914742,
        .rhea: 4.517500436, .titan: 15.94542068, .iapetus: 79.3301825,
    ]

    // MARK: Meeus's worked example 46.a (1999 Sep 8, 0h UT = JDE 2451439.50074)

    /// Saturn's geocentric place for example 46.a, light-time corrected and referred to the mean
    /// ecliptic and equinox of B1950 as Meeus requires: computed with PyEphem 4.2 (VSOP87) at
    /// TT = JDE 2451439.50074 (`Saturn.compute(date, epoch=B1950)`, then `Ecliptic(…, B1950)`).
    static let example = (jde: 2_451_439.50074, lambda0Deg: 46.1705619161989, beta0Deg: -2.5444379592270865,
                          delta: 8.557610511779785)

    @Test("example 46.a: geometric X, Y, Z continued through Meeus's sky projection reproduce the book")
    func example46a() {
        let e = Self.example
        let tau = e.delta * 0.0057755183          // light time, days per AU (Meeus eq. 33.3)
        let xyz = SaturnianMoons.equatorialCoordinates(jdTDB: e.jde - tau)
        let l0 = e.lambda0Deg * Angle.radiansPerDegree, b0 = e.beta0Deg * Angle.radiansPerDegree
        // Meeus's rotations to the B1950 ecliptic, then to Saturn's direction; D from the
        // fictitious satellite on Saturn's pole.
        func sky(_ v: Vector3) -> Vector3 {
            let m = SaturnianMoons.equatorToB1950 * v
            let a = m.x * sin(l0) - m.y * cos(l0)
            let b = m.x * cos(l0) + m.y * sin(l0)
            return Vector3(a, b * cos(b0) + m.z * sin(b0), m.z * cos(b0) - b * sin(b0))
        }
        let pole = sky(Vector3(0, 0, 1))
        let d = atan2(pole.x, pole.z)
        // The book's X, Y (Saturn radii, 3 decimals) and its differential-light-time constants k.
        let expected: [(BodyID, x: Double, y: Double, k: Double)] = [
            (.mimas, 3.102, -0.204, 20_947), (.enceladus, 3.823, 0.318, 23_715), (.tethys, 4.027, -1.061, 26_382),
            (.dione, -5.365, -1.148, 29_876), (.rhea, -0.972, -3.136, 35_313), (.titan, 14.568, 4.738, 53_800),
            (.iapetus, -48.760, 4.137, 91_820),
        ]
        for (body, bookX, bookY, k) in expected {
            let v = sky(xyz[body])
            var x = v.x * cos(d) - v.z * sin(d)
            var y = v.x * sin(d) + v.z * cos(d)
            let z = v.y
            let r = xyz[body].length
            x += abs(z) / k * (1 - (x / r) * (x / r)).squareRoot()
            let w = e.delta / (e.delta + z / 2475)
            x *= w; y *= w
            // Rounding (0.0005) plus PyEphem's VSOP87 against Meeus's: measured ≤ 0.0004.
            #expect(abs(x - bookX) < 0.001 && abs(y - bookY) < 0.001, "\(body): (\(x), \(y)) vs (\(bookX), \(bookY))")
        }
    }

    // MARK: Against the reference fixture

    @Test("inside 1999–2040, where PyEphem evaluates TASS, each moon is within 3 % of its orbit radius")
    func fixtureSeriesWindow() throws {
        var worst: [BodyID: (error: Double, utc: String)] = [:]
        var compared = 0
        for c in ReferenceFixture.shared.cases where SatelliteTestSupport.insidePyEphemSeriesWindow(c) {
            let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: c.jd_tdb)
            for body in SaturnianPositions.bodies {
                let ref = try #require(c.planetocentricKm(body.rawValue), "\(body) at \(c.utc)")
                let error = (p[body] - ref).length / Self.semiMajorAxisKm[body]!
                #expect(error <= 0.03, "\(body) at \(c.utc): \(error * 100) % of the orbit radius")
                if error > worst[body, default: (-1, "")].error { worst[body] = (error, c.utc) }
                compared += 1
            }
        }
        #expect(compared >= 7 * 10, "the window should hold a dozen fixture cases")
        // Measured: Mimas 0.96 %, Enceladus 0.87 %, Tethys 0.43 %, Dione 0.58 %, Rhea 0.31 %,
        // Titan 0.35 %, Iapetus 0.29 %.
        for body in SaturnianPositions.bodies {
            print("Saturnian vs fixture (1999–2040): \(body) max \(worst[body]!.error * 100) % at \(worst[body]!.utc)")
        }
    }

    /// Outside 1999–2040 the fixture holds PyEphem's fallback theory, which disagrees with PyEphem's
    /// own TASS values by ~2 Saturn radii for Titan at the 1999-01-01 switch and drifts to
    /// 100–200 % of the orbit radius by 1950 and 2096 (it holds Titan 70 % of an orbit radius
    /// along-track from where the window's mean motion puts it in 1950). Those cases cannot test a
    /// 3 % bound; this test pins that diagnosis, so a corrected fixture makes it fail and the bound
    /// above can then be extended to every case.
    @Test("outside 1999–2040 the fixture's Saturnian vectors are PyEphem's fallback, far off any theory")
    func fixtureOutsideWindowIsUnusable() throws {
        var worstTitan = 0.0
        for c in ReferenceFixture.shared.cases where !SatelliteTestSupport.insidePyEphemSeriesWindow(c) {
            let ref = try #require(c.planetocentricKm("titan"))
            let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: c.jd_tdb)
            worstTitan = max(worstTitan, (p.titan - ref).length / Self.semiMajorAxisKm[.titan]!)
        }
        #expect(worstTitan > 0.5, "the fixture now agrees outside the window: extend fixtureSeriesWindow to every case")
    }

    // MARK: Sanity

    @Test("distances stay within a(1 − e) − 1 % … a(1 + e) + 1 %, 1950–2096")
    func radiusBounds() {
        for jd in SatelliteTestSupport.sweepDates {
            let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd)
            for body in SaturnianPositions.bodies {
                let a = Self.semiMajorAxisKm[body]!, e = Self.eccentricity[body]!
                let r = p[body].length
                #expect(r >= a * (1 - e - 0.01) && r <= a * (1 + e + 0.01), "\(body) at JD \(jd): \(r) km")
            }
        }
    }

    @Test("one sidereal period sweeps 360° and returns the moon to its place", arguments: SaturnianPositions.bodies)
    func period(body: BodyID) {
        let period = Self.siderealPeriodDays[body]!
        for jd in [2_433_282.5, 2_451_545.0, 2_470_000.5] {
            let swept = SatelliteTestSupport.sweptDegrees(from: jd, over: period) { SaturnianMoons.planetocentricPositionsKm(jdTDB: $0)[body] }
            #expect(abs(swept - 360) < 1.5, "\(body) from JD \(jd): \(swept)°")
            let start = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd)[body]
            let end = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd + period)[body]
            #expect(start.angle(to: end) * Angle.degreesPerRadian < 1.5, "\(body) from JD \(jd)")
        }
    }

    @Test("the inner moons orbit in Saturn's equator: normals within γ + 0.1° of the IAU pole")
    func orbitPlaneMatchesIAUPole() throws {
        // γ, the inclination on Saturn's equator in Meeus's theory (Mimas 1.563°, Enceladus
        // 0.0262°, Tethys 1.0976°, Dione 0.0139°).
        let gamma: [(BodyID, Double)] = [(.mimas, 1.563), (.enceladus, 0.0262), (.tethys, 1.0976), (.dione, 0.0139)]
        for c in ReferenceFixture.shared.cases {
            let pole = try #require(c.orientation_iau["saturn"])
            let iauPole = SatelliteTestSupport.eclipticDirection(raDeg: pole.pole_ra_deg, decDeg: pole.pole_dec_deg)
            let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: c.jd_tdb)
            let v = SaturnianMoons.planetocentricVelocitiesKmPerDay(jdTDB: c.jd_tdb)
            for (body, g) in gamma {
                let angle = p[body].cross(v[body]).angle(to: iauPole) * Angle.degreesPerRadian
                #expect(angle < g + 0.1, "\(body) at \(c.utc): \(angle)°")
            }
        }
    }

    @Test("velocities: the difference quotient is converged and moves the moon prograde at the orbital speed")
    func velocities() {
        for jd in [2_440_000.5, 2_451_545.0, 2_461_001.5] {
            let v = SaturnianMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
            let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd)
            let h = 10 * SaturnianMoons.shortestPeriodDays / 1000
            let coarse = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd + h) - SaturnianMoons.planetocentricPositionsKm(jdTDB: jd - h)
            for body in SaturnianPositions.bodies {
                let speed = 2 * Double.pi * Self.semiMajorAxisKm[body]! / Self.siderealPeriodDays[body]!
                let e = Self.eccentricity[body]!
                #expect(abs(v[body].length / speed - 1) < e + 0.01, "\(body): \(v[body].length) km/day")
                #expect((v[body] - coarse[body] * (1 / (2 * h))).length / v[body].length < 1e-3, "\(body)")
                #expect(abs(p[body].normalized.dot(v[body])) / v[body].length < e + 0.01, "\(body)")
                // Prograde about Saturn's pole, which is tilted 28° from the ecliptic's.
                #expect(p[body].cross(v[body]).normalized.z > 0.85, "\(body)")
            }
        }
    }
}
