#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a body is turned at an instant: its north pole in ICRF, its prime meridian angle, and the
/// rotation from body-fixed coordinates (IAU: +z north pole, +x prime meridian) into the
/// inertial frames.
public struct Orientation: Sendable, Hashable {
    /// Right ascension and declination of the north pole (ICRF / equatorial J2000), degrees.
    public let poleRADeg: Double
    public let poleDecDeg: Double
    /// Prime meridian angle W, degrees in [0, 360), measured along the body's equator from its
    /// ascending node on the ICRF equator.
    public let primeMeridianDeg: Double
    /// Body-fixed → ICRF (equatorial J2000).
    public let bodyToEquatorial: Matrix3
    /// Body-fixed → ecliptic J2000.
    public let bodyToEcliptic: Matrix3

    /// Builds the orientation from IAU angles: body → ICRF = Rz(α0 + 90°) · Rx(90° − δ0) · Rz(W).
    public init(poleRADeg: Double, poleDecDeg: Double, primeMeridianDeg: Double) {
        let rad = Angle.radiansPerDegree
        self.poleRADeg = Angle.normalizedDegrees(poleRADeg)
        self.poleDecDeg = poleDecDeg
        self.primeMeridianDeg = Angle.normalizedDegrees(primeMeridianDeg)
        let m = Matrix3.rotationZ((poleRADeg + 90) * rad) * Matrix3.rotationX((90 - poleDecDeg) * rad) * Matrix3.rotationZ(primeMeridianDeg * rad)
        self.bodyToEquatorial = m
        self.bodyToEcliptic = Precession.equatorialToEclipticJ2000 * m
    }

    /// Builds the orientation from body axes given in ecliptic J2000 (unit pole `z`, unit prime
    /// meridian direction `x` perpendicular to it), deriving the IAU angles.
    public init(poleEcliptic z: Vector3, primeMeridianEcliptic x: Vector3) {
        let y = z.cross(x)
        let ecl = Matrix3(columns: x, y, z)
        let equ = Precession.eclipticToEquatorialJ2000 * ecl
        // Pole in ICRF: third column of body→ICRF.
        let pz = Vector3(equ.r0.z, equ.r1.z, equ.r2.z)
        let ra = atan2(pz.y, pz.x) * Angle.degreesPerRadian
        let dec = asin(max(-1, min(1, pz.z))) * Angle.degreesPerRadian
        // W: angle from the node direction (α0 + 90° on the ICRF equator) to +x, about the pole.
        let node = Vector3(-sin(ra * Angle.radiansPerDegree), cos(ra * Angle.radiansPerDegree), 0)
        let px = Vector3(equ.r0.x, equ.r1.x, equ.r2.x)
        let w = atan2(node.cross(px).dot(pz), node.dot(px)) * Angle.degreesPerRadian
        self.poleRADeg = Angle.normalizedDegrees(ra)
        self.poleDecDeg = dec
        self.primeMeridianDeg = Angle.normalizedDegrees(w)
        self.bodyToEquatorial = equ
        self.bodyToEcliptic = ecl
    }

    /// `[x, y, z, w]` rotating body-fixed coordinates into ecliptic J2000.
    public var quaternionEcliptic: Quaternion { Quaternion(bodyToEcliptic) }
    /// `[x, y, z, w]` rotating body-fixed coordinates into ICRF / equatorial J2000.
    public var quaternionEquatorial: Quaternion { Quaternion(bodyToEquatorial) }

    /// The north pole as a unit vector in ecliptic J2000.
    public var poleEcliptic: Vector3 { Vector3(bodyToEcliptic.r0.z, bodyToEcliptic.r1.z, bodyToEcliptic.r2.z) }
}
