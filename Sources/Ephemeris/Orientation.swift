import Glibc

/// How a body is turned at an instant: its north pole in ICRF, its prime meridian angle, and the
/// rotation from body-fixed coordinates (IAU: +z north pole, +x prime meridian) into the
/// inertial frames.
public struct Orientation: Sendable, Hashable {
    /// The IAU angles, degrees (α0 and W in [0, 360)).
    public struct Angles: Sendable, Hashable {
        public let poleRADeg: Double
        public let poleDecDeg: Double
        public let primeMeridianDeg: Double
    }

    /// The angles it was built from; nil when built from axes, whose angles are derived only
    /// when asked for (a snapshot turns 13 satellites this way and rarely needs theirs).
    private let givenAngles: Angles?
    /// Body-fixed → ICRF (equatorial J2000).
    public let bodyToEquatorial: Matrix3
    /// Body-fixed → ecliptic J2000.
    public let bodyToEcliptic: Matrix3

    /// Right ascension and declination of the north pole (ICRF / equatorial J2000), degrees.
    public var poleRADeg: Double { angles.poleRADeg }
    public var poleDecDeg: Double { angles.poleDecDeg }
    /// Prime meridian angle W, degrees in [0, 360), measured along the body's equator from its
    /// ascending node on the ICRF equator.
    public var primeMeridianDeg: Double { angles.primeMeridianDeg }

    /// All three angles (one derivation when built from axes).
    public var angles: Angles { givenAngles ?? Self.derivedAngles(bodyToEquatorial) }

    /// Builds the orientation from IAU angles: body → ICRF = Rz(α0 + 90°) · Rx(90° − δ0) · Rz(W),
    /// written out (sin(α0 + 90°) = cos α0, sin(90° − δ0) = cos δ0) from sines and cosines taken
    /// in degrees, so W's thousands of turns are reduced exactly.
    public init(poleRADeg: Double, poleDecDeg: Double, primeMeridianDeg: Double) {
        givenAngles = Self.normalizedAngles(poleRADeg: poleRADeg, poleDecDeg: poleDecDeg, primeMeridianDeg: primeMeridianDeg)
        let (sa, ca) = SatelliteTrig.sinCos(degrees: poleRADeg)
        let (sd, cd) = SatelliteTrig.sinCos(degrees: poleDecDeg)
        let (sw, cw) = SatelliteTrig.sinCos(degrees: primeMeridianDeg)
        // Rz(α0 + 90°): cos = −sin α0, sin = cos α0; Rx(90° − δ0): cos = sin δ0, sin = cos δ0.
        let m = Matrix3(rows: Vector3(-sa * cw - ca * sd * sw, sa * sw - ca * sd * cw, ca * cd),
                        Vector3(ca * cw - sa * sd * sw, -ca * sw - sa * sd * cw, sa * cd),
                        Vector3(cd * sw, cd * cw, sd))
        bodyToEquatorial = m
        bodyToEcliptic = Precession.equatorialToEclipticJ2000 * m
    }

    /// Builds the orientation from body axes given in ecliptic J2000 (unit pole `z`, unit prime
    /// meridian direction `x` perpendicular to it); the IAU angles are derived when asked for.
    public init(poleEcliptic z: Vector3, primeMeridianEcliptic x: Vector3) {
        let y = z.cross(x)
        let ecl = Matrix3(columns: x, y, z)
        givenAngles = nil
        bodyToEquatorial = Precession.eclipticToEquatorialJ2000 * ecl
        bodyToEcliptic = ecl
    }

    /// The same rotation's angles with δ0 in −90…90 and α0, W in [0, 360). The IAU polynomials
    /// can pass the pole: the Earth's δ0 = 90° − 0.557° T exceeds 90° before 2000. The pole
    /// (cos δ cos α, cos δ sin α, sin δ) is also at δ' = ±180° − δ, α' = α + 180°; the node
    /// (α0 + 90° on the equator) then turns by 180°, so W, measured from it, gains 180°.
    static func normalizedAngles(poleRADeg ra: Double, poleDecDeg dec: Double, primeMeridianDeg w: Double) -> Angles {
        guard abs(dec) > 90 else {
            return Angles(poleRADeg: Angle.normalizedDegrees(ra), poleDecDeg: dec, primeMeridianDeg: Angle.normalizedDegrees(w))
        }
        return Angles(poleRADeg: Angle.normalizedDegrees(ra + 180), poleDecDeg: (dec > 0 ? 180 : -180) - dec,
                      primeMeridianDeg: Angle.normalizedDegrees(w + 180))
    }

    /// α0, δ0 and W of a body → ICRF rotation.
    static func derivedAngles(_ equ: Matrix3) -> Angles {
        // Pole in ICRF: third column of body→ICRF.
        let pz = Vector3(equ.r0.z, equ.r1.z, equ.r2.z)
        let ra = atan2(pz.y, pz.x) * Angle.degreesPerRadian
        let dec = asin(max(-1, min(1, pz.z))) * Angle.degreesPerRadian
        // W: angle from the node direction (α0 + 90° on the ICRF equator) to +x, about the pole.
        let node = Vector3(-sin(ra * Angle.radiansPerDegree), cos(ra * Angle.radiansPerDegree), 0)
        let px = Vector3(equ.r0.x, equ.r1.x, equ.r2.x)
        let w = atan2(node.cross(px).dot(pz), node.dot(px)) * Angle.degreesPerRadian
        return Angles(poleRADeg: Angle.normalizedDegrees(ra), poleDecDeg: dec, primeMeridianDeg: Angle.normalizedDegrees(w))
    }

    /// `[x, y, z, w]` rotating body-fixed coordinates into ecliptic J2000.
    public var quaternionEcliptic: Quaternion { Quaternion(bodyToEcliptic) }
    /// `[x, y, z, w]` rotating body-fixed coordinates into ICRF / equatorial J2000.
    public var quaternionEquatorial: Quaternion { Quaternion(bodyToEquatorial) }

    /// The north pole as a unit vector in ecliptic J2000.
    public var poleEcliptic: Vector3 { Vector3(bodyToEcliptic.r0.z, bodyToEcliptic.r1.z, bodyToEcliptic.r2.z) }
}
