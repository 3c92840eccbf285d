import Glibc
import Testing
@testable import Ephemeris

@Suite("Rotation (IAU WGCCRE)")
struct RotationTests {
    static let iauBodies: [BodyID] = [.sun, .mercury, .venus, .earth, .mars, .jupiter, .saturn, .uranus, .neptune]

    /// Signed difference of two angles in degrees, in (−180, 180].
    func angleDiff(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        return d
    }

    @Test("pole ≤ 0.05° and W ≤ 0.1° against the reference in every case (periodic terms included)", arguments: iauBodies)
    func servedOrientationAgainstReference(body: BodyID) throws {
        let cases = ReferenceFixture.shared.cases
        var checked = 0
        for c in cases {
            let raw = try #require(c.orientation_iau[body.rawValue], "\(body) missing from the reference at \(c.utc)")
            // The reference gives the IAU polynomials' raw angles (the Earth's δ0 passes 90° before
            // 2000); the served angles are the same rotation's with δ0 in −90…90.
            let ref = Orientation.normalizedAngles(poleRADeg: raw.pole_ra_deg, poleDecDeg: raw.pole_dec_deg, primeMeridianDeg: raw.w_deg)
            let t = TestEngine.instant(c)
            for o in [TestEngine.ephemeris.orientation(body, at: t), TestEngine.ephemeris.snapshot(at: t).orientation(body)] {
                #expect(abs(angleDiff(o.poleRADeg, ref.poleRADeg)) <= 0.05, "\(body) α0 at \(c.utc): \(angleDiff(o.poleRADeg, ref.poleRADeg))°")
                #expect(abs(o.poleDecDeg - ref.poleDecDeg) <= 0.05, "\(body) δ0 at \(c.utc): \(o.poleDecDeg - ref.poleDecDeg)°")
                #expect(abs(angleDiff(o.primeMeridianDeg, ref.primeMeridianDeg)) <= 0.1, "\(body) W at \(c.utc): \(angleDiff(o.primeMeridianDeg, ref.primeMeridianDeg))°")
            }
            checked += 1
        }
        #expect(checked == cases.count && checked == 48, "\(body): \(checked) cases checked")
    }

    @Test("Mars's pole at J2000 is JPL Horizons' 317.68°/52.89°; without the periodic terms it is 1.5° off")
    func marsPoleAtJ2000() throws {
        let e = try #require(TestEngine.catalogue[.mars].iauRotation)
        let full = IAURotation.angles(.mars, elements: e, daysTDB: 0)
        #expect(abs(full.ra - 317.68) < 0.01, "\(full.ra)")
        #expect(abs(full.dec - 52.89) < 0.01, "\(full.dec)")
        let poly = IAURotation.polynomial(e, daysTDB: 0)
        #expect(abs(poly.dec - 52.89) > 1.5 && abs(poly.ra - 317.68) > 0.4)
        // The long-period W term: 0.584542°·sin(95.391654°) at J2000.
        #expect(abs((full.w - poly.w) - 0.584_542 * sin(95.391_654 * Angle.radiansPerDegree)) < 0.001)
    }

    @Test("periodic terms apply to exactly Mercury, the Moon, Mars, Jupiter and Neptune, with the report's sizes")
    func periodicTermBodies() throws {
        let withTerms = BodyID.allCases.filter { IAUPeriodicTerms.forBody($0) != nil }
        #expect(Set(withTerms) == [.mercury, .moon, .mars, .jupiter, .neptune])
        // Largest possible offsets (sum of |amplitudes|), degrees: α0, δ0, W.
        func bound(_ s: IAUPeriodicTerms) -> (Double, Double, Double) {
            (s.terms.map { abs($0.ra) }.reduce(0, +), s.terms.map { abs($0.dec) }.reduce(0, +), s.terms.map { abs($0.w) }.reduce(0, +))
        }
        let mercury = bound(.mercury), jupiter = bound(.jupiter), moon = bound(.moon)
        #expect(mercury.0 == 0 && mercury.1 == 0 && abs(mercury.2 - 0.011_937_16) < 1e-9)
        #expect(abs(jupiter.0 - 0.004_667) < 1e-9 && abs(jupiter.1 - 0.002_010) < 1e-9 && jupiter.2 == 0)
        #expect(abs(moon.0 - 4.1030) < 1e-9 && abs(moon.1 - 1.6059) < 1e-9)
        #expect(IAUPeriodicTerms.mars.terms.count == 16)
        // Mercury's W terms are harmonics of M1 = 174.7910857° + 4.092335°/day.
        for (k, term) in IAUPeriodicTerms.mercury.terms.enumerated() {
            #expect(abs(term.rateDegPerCentury - Double(k + 1) * 4.092_335 * Constants.daysPerJulianCentury) < 1e-6)
        }
    }

    @Test("Neptune's periodic terms: N = 357.85° + 52.316°·T")
    func neptunePeriodic() throws {
        let e = try #require(TestEngine.catalogue[.neptune].iauRotation)
        // At T = 0.5 (2050-01-01.5 TDB): N = 384.008° ≡ 24.008° → sin N = 0.40685.
        let d = 0.5 * Constants.daysPerJulianCentury
        let full = IAURotation.angles(.neptune, elements: e, daysTDB: d)
        let poly = IAURotation.polynomial(e, daysTDB: d)
        let N = (357.85 + 52.316 * 0.5) * Angle.radiansPerDegree
        #expect(abs((full.ra - poly.ra) - 0.70 * sin(N)) < 1e-12)
        #expect(abs((full.dec - poly.dec) + 0.51 * cos(N)) < 1e-12)
        // W itself is ~10⁷ degrees here, so its difference keeps only ~1e-9° of precision.
        #expect(abs((full.w - poly.w) + 0.48 * sin(N)) < 1e-8)
        #expect(abs(sin(N) - 0.40685) < 1e-4)
    }

    @Test("the Moon's IAU pole stays within 1.6° of its mean and W keeps the near side to the Earth")
    func moon() throws {
        for c in ReferenceFixture.shared.cases {
            let t = TestEngine.instant(c)
            let o = TestEngine.ephemeris.orientation(.moon, at: t)
            #expect(abs(angleDiff(o.poleRADeg, 269.9949)) < 4.2)
            #expect(abs(o.poleDecDeg - 66.5392) < 1.7)
            // The body-fixed +x (mean sub-Earth meridian) points at the Earth within the
            // optical libration (≈ 8° in longitude, 7° in latitude).
            let toEarth = (-TestEngine.ephemeris.parentRelativeState(.moon, at: t).positionKm).normalized
            let x = o.bodyToEcliptic * Vector3(1, 0, 0)
            #expect(x.angle(to: toEarth) < degrees(11), "\(c.utc): \(Angle.degrees(x.angle(to: toEarth)))°")
        }
    }

    @Test("a pole past 90° is reported as the same rotation with δ0 in −90…90: the Earth in 1991")
    func declinationPastThePole() throws {
        // The Earth's IAU pole: δ0 = 90° − 0.557° T, 90.05° in 1991 (T ≈ −0.09).
        let earth = TestEngine.ephemeris.orientation(.earth, at: try TimeScale.parse("1991-01-01T00:00:00Z"))
        #expect(earth.poleDecDeg <= 90 && earth.poleDecDeg > 89.9, "\(earth.poleDecDeg)")
        // (Not exactly ±90°: there α0 and W are not separately defined.)
        for (ra, dec, w) in [(0.06, 90.046, 100.0), (10, -91, 359), (350, 179, 0), (200, 45, 10)] {
            let o = Orientation(poleRADeg: ra, poleDecDeg: dec, primeMeridianDeg: w)
            #expect((-90...90).contains(o.poleDecDeg), "\(dec)")
            // The reported angles are the rotation's own: derived from its matrix, and rebuilding it.
            let derived = Orientation.derivedAngles(o.bodyToEquatorial)
            #expect(abs(o.poleDecDeg - derived.poleDecDeg) < 1e-9 && abs(angleDiff(o.poleRADeg, derived.poleRADeg)) < 1e-6
                    && abs(angleDiff(o.primeMeridianDeg, derived.primeMeridianDeg)) < 1e-6, "\(ra), \(dec), \(w): \(o.angles) vs \(derived)")
            let rebuilt = Orientation(poleRADeg: o.poleRADeg, poleDecDeg: o.poleDecDeg, primeMeridianDeg: o.primeMeridianDeg)
            #expect(rebuilt.quaternionEquatorial.angle(to: o.quaternionEquatorial) < 1e-9)
        }
        let flipped = Orientation(poleRADeg: 0.06, poleDecDeg: 90.046, primeMeridianDeg: 100).angles
        #expect(abs(flipped.poleDecDeg - 89.954) < 1e-9 && abs(flipped.poleRADeg - 180.06) < 1e-9 && abs(flipped.primeMeridianDeg - 280) < 1e-9)
    }

    @Test("quaternions are unit, proper, and rotate +z onto the pole and +x onto the prime meridian")
    func quaternions() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        for body in BodyID.allCases {
            let o = TestEngine.ephemeris.orientation(body, at: t)
            let q = o.quaternionEcliptic
            #expect(abs(q.norm - 1) < 1e-12)
            #expect(q.w >= 0)
            let pole = q.rotate(Vector3(0, 0, 1))
            #expect(pole.angle(to: o.poleEcliptic) < 1e-10)
            // Pole RA/Dec reconstructs the pole direction.
            let ra = o.poleRADeg * Angle.radiansPerDegree, dec = o.poleDecDeg * Angle.radiansPerDegree
            let poleEquatorial = Vector3(cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec))
            #expect((Precession.equatorialToEclipticJ2000 * poleEquatorial).angle(to: pole) < 1e-10, "\(body)")
            // Round trip: rotate and rotate back.
            let v = Vector3(0.3, -0.7, 0.2)
            #expect((q.conjugate.rotate(q.rotate(v)) - v).length < 1e-14)
            #expect((q.matrix * v - q.rotate(v)).length < 1e-14)
            // The equatorial quaternion is the ecliptic one seen through the obliquity rotation.
            let viaEcliptic = Precession.eclipticToEquatorialJ2000 * q.rotate(v)
            #expect((o.quaternionEquatorial.rotate(v) - viaEcliptic).length < 1e-12)
            // IAU angles rebuild the same matrix.
            let rebuilt = Orientation(poleRADeg: o.poleRADeg, poleDecDeg: o.poleDecDeg, primeMeridianDeg: o.primeMeridianDeg)
            #expect(rebuilt.quaternionEcliptic.angle(to: q) < 1e-9, "\(body)")
        }
    }

    @Test("synchronous moons face their parent with the pole along the orbit normal")
    func facingParent() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        let locked: [BodyID] = [.iss, .phobos, .deimos, .io, .europa, .ganymede, .callisto, .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus]
        let snapshot = TestEngine.ephemeris.snapshot(at: t)
        for body in locked {
            #expect(TestEngine.ephemeris.rotationModel(body) == .facesParent)
            let s = TestEngine.ephemeris.parentRelativeState(body, at: t)
            for o in [TestEngine.ephemeris.orientation(body, at: t), snapshot.orientation(body)] {
                let x = o.bodyToEcliptic * Vector3(1, 0, 0)
                #expect(x.angle(to: -s.positionKm) < degrees(0.01), "\(body) +x")
                let normal = s.positionKm.cross(s.velocityKmPerDay).normalized
                #expect(o.poleEcliptic.angle(to: normal) < degrees(0.5), "\(body) pole")
            }
        }
        for body in [BodyID.sun, .mercury, .earth, .moon, .pluto, .neptune] {
            #expect(TestEngine.ephemeris.rotationModel(body) == .iau)
        }
    }

    @Test("Saturn's pole is the ring-plane normal: 26.7° from the orbit normal")
    func saturnObliquity() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        let pole = TestEngine.ephemeris.orientation(.saturn, at: t).poleEcliptic
        let s = TestEngine.ephemeris.state(.saturn, at: t)
        let orbitNormal = s.positionAU.cross(s.velocityAUPerDay).normalized
        #expect(abs(Angle.degrees(pole.angle(to: orbitNormal)) - 26.73) < 0.1)
        // Uranus rolls on its side, Venus turns backwards: the IAU pole is the one north of the
        // invariable plane, so the spin axis (right-hand rule) is the pole times the sign of dW/dt.
        for (body, seedObliquity) in [(BodyID.uranus, 97.77), (.venus, 177.36)] {
            let rate = try #require(TestEngine.catalogue[body].iauRotation).primeMeridianRateDegPerDay
            let spin = TestEngine.ephemeris.orientation(body, at: t).poleEcliptic * (rate < 0 ? -1 : 1)
            let st = TestEngine.ephemeris.state(body, at: t)
            let normal = st.positionAU.cross(st.velocityAUPerDay)
            #expect(abs(Angle.degrees(spin.angle(to: normal)) - seedObliquity) < 0.2, "\(body)")
        }
    }
}
