import Foundation
import Testing
@testable import Ephemeris

/// A fraction of a moon's orbit radius, the unit of the planetary-moon bounds.
fileprivate func percentOfOrbitRadius(_ v: Double) -> Double { v / 100 }
fileprivate func kmPerDay(_ v: Double) -> Double { v }

@Suite struct MartianMoonsTests {
    @Test(arguments: [BodyID.phobos, .deimos])
    func matchesThePyEphemReferenceWhereverItHasAValue(body: BodyID) {
        let a = MartianMoons.semiMajorAxisKm(body)
        var checked = 0
        var worst = 0.0, worstDate = ""
        for c in ReferenceFixture.shared.cases {
            guard let truth = c.planetocentricKm(body.rawValue) else { continue }
            checked += 1
            let ours = MartianMoons.planetocentricPositionKm(body, jdTDB: c.jd_tdb)
            let error = (ours - truth).length / a
            #expect(error <= percentOfOrbitRadius(5), "\(body) \(c.utc): \(error * 100) % of a")
            if error > worst { worst = error; worstDate = c.utc }
        }
        // The fixture has values for 2006–2037; an empty run would prove nothing.
        #expect(checked >= 10)
        print("MartianMoons \(body) vs PyEphem: max \(worst * 100) % of a (\(worstDate)) over \(checked) cases")
    }

    @Test func agreesWithLaineyNumericalEphemerisAtJ2000() {
        // Phobos from V. Lainey's MarsSatV1_0 (IMCCE, ftp.imcce.fr/pub/ephem/satel/martian README
        // examples), Mars-centred J2000 Earth mean equator, AU (1 AU = 149597870.691 km there).
        let samples: [(jd: Double, au: Vector3)] = [
            (2_451_545.0, Vector3(-0.000013308157, -0.000058444725, -0.000021266023)),
            (2_451_555.0, Vector3(0.000050907508, 0.000033574979, -0.000011296402)),
            (2_451_565.0, Vector3(-0.000051052809, 0.000012426617, 0.000033811410)),
        ]
        let a = MartianMoons.semiMajorAxisKm(.phobos)
        for s in samples {
            let truth = Precession.equatorialToEclipticJ2000 * (s.au * 149_597_870.691)
            let ours = MartianMoons.planetocentricPositionKm(.phobos, jdTDB: s.jd)
            let error = (ours - truth).length / a
            #expect(error <= percentOfOrbitRadius(5), "jd \(s.jd): \(error * 100) %")
        }
    }

    @Test(arguments: [BodyID.phobos, .deimos])
    func radiusStaysOnTheEllipse(body: BodyID) {
        let el = body == .phobos ? MartianMoons.phobos : MartianMoons.deimos
        let a = el.semiMajorAxisKm, e = el.eccentricity
        for jd in stride(from: 2_433_282.5, through: 2_488_069.5, by: 97.31) {
            let r = MartianMoons.planetocentricPositionKm(body, jdTDB: jd).length
            #expect(r >= a * (1 - e) - 1e-6 && r <= a * (1 + e) + 1e-6, "jd \(jd): r = \(r)")
        }
    }

    @Test(arguments: [BodyID.phobos, .deimos])
    func velocityIsTheDerivativeOfPosition(body: BodyID) {
        // h = 1e-4 d against Phobos's 0.32-day period: truncation ≈ h²ω³r/6 ≈ 0.1 km/day of 185 000.
        // Divide by the step actually taken (Julian dates are quantised to 4.7e-10 d).
        let h = 1e-4
        for jd in stride(from: 2_440_000.5, through: 2_480_000.5, by: 1_111.1) {
            let before = jd - h, after = jd + h
            let numeric = (MartianMoons.planetocentricPositionKm(body, jdTDB: after)
                - MartianMoons.planetocentricPositionKm(body, jdTDB: before)) / (after - before)
            let analytic = MartianMoons.planetocentricVelocityKmPerDay(body, jdTDB: jd)
            #expect((analytic - numeric).length <= kmPerDay(0.5), "\(body) jd \(jd): \(analytic) vs \(numeric)")
            #expect(MartianMoons.planetocentricState(body, jdTDB: jd).velocityKmPerDay == analytic)
        }
    }

    @Test func orbitsAreProgradeNearMarsEquator() {
        // Both moons circle Mars's north pole (RA 317.68°, Dec 52.89°) counter-clockwise, within a
        // few degrees of its equator.
        let ra = 317.68 * Angle.radiansPerDegree, dec = 52.89 * Angle.radiansPerDegree
        let pole = Precession.equatorialToEclipticJ2000 * Vector3(cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec))
        for body in MartianMoons.bodies {
            let s = MartianMoons.planetocentricState(body, jdTDB: 2_460_000.5)
            let normal = s.positionKm.cross(s.velocityKmPerDay).normalized
            #expect(normal.angle(to: pole) < degrees(3), "\(body)")
        }
    }

    @Test func otherBodiesAreAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            _ = MartianMoons.planetocentricPositionKm(.io, jdTDB: 2_451_545)
        }
    }
}
