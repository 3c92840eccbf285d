import Glibc
import Astrodynamics
import Ephemeris

/// Osculating heliocentric elements, ecliptic and equinox J2000, as element files give them:
/// perihelion distance and time (every conic, comets' parabolas and hyperbolas included), plus
/// the mean anomaly at the epoch when the source gives one (asteroids), which is then what
/// places the body (it carries all of the source's digits). Times are Julian dates TDB
/// (MPC epochs are TT: the 1.7 ms between them is far below the elements' precision).
///
/// ```swift
/// let e = OrbitalElements(epochJDTDB: 2458200.5, perihelionAU: 2.558, eccentricity: 0.0755, inclinationDeg: 10.59,
///                         ascendingNodeDeg: 80.31, argumentOfPerihelionDeg: 73.12, perihelionJDTDB: 2458236.78,
///                         meanAnomalyDeg: 352.23)
/// let s = e.heliocentricState()      // km, km/s at the epoch
/// ```
public struct OrbitalElements: Sendable, Hashable {
    public var epochJDTDB: Double
    public var perihelionAU: Double
    public var eccentricity: Double
    public var inclinationDeg: Double
    public var ascendingNodeDeg: Double
    public var argumentOfPerihelionDeg: Double
    public var perihelionJDTDB: Double
    public var meanAnomalyDeg: Double?

    public init(epochJDTDB: Double, perihelionAU: Double, eccentricity: Double, inclinationDeg: Double, ascendingNodeDeg: Double,
                argumentOfPerihelionDeg: Double, perihelionJDTDB: Double, meanAnomalyDeg: Double? = nil) {
        self.epochJDTDB = epochJDTDB
        self.perihelionAU = perihelionAU
        self.eccentricity = eccentricity
        self.inclinationDeg = inclinationDeg
        self.ascendingNodeDeg = ascendingNodeDeg
        self.argumentOfPerihelionDeg = argumentOfPerihelionDeg
        self.perihelionJDTDB = perihelionJDTDB
        self.meanAnomalyDeg = meanAnomalyDeg
    }

    /// The heliocentric GM the elements are osculating with, km³/s² (DE440's Sun; JPL's
    /// k² differs from it by 5 × 10⁻¹¹).
    public static let sunGM = GravityConstants.sunGM

    /// Semi-major axis, AU (negative for hyperbolas, infinite for a parabola).
    public var semiMajorAxisAU: Double { perihelionAU / (1 - eccentricity) }

    /// Mean motion, degrees per day (elliptic orbits; nil otherwise).
    public var meanMotionDegPerDay: Double? {
        guard eccentricity < 1 else { return nil }
        let a = semiMajorAxisAU * Constants.auKm
        return (Self.sunGM / (a * a * a)).squareRoot() * Constants.secondsPerDay * 180 / .pi
    }

    /// Orbital period, days (elliptic orbits).
    public var periodDays: Double? { meanMotionDegPerDay.map { 360 / $0 } }

    /// Aphelion distance, AU (elliptic orbits).
    public var aphelionAU: Double? { eccentricity < 1 ? semiMajorAxisAU * (1 + eccentricity) : nil }

    /// Whether every element is a finite number in its range.
    public var isValid: Bool {
        epochJDTDB.isFinite && perihelionJDTDB.isFinite && perihelionAU.isFinite && perihelionAU > 0
            && eccentricity.isFinite && eccentricity >= 0 && eccentricity < 100
            && inclinationDeg.isFinite && inclinationDeg >= 0 && inclinationDeg <= 180
            && ascendingNodeDeg.isFinite && argumentOfPerihelionDeg.isFinite && (meanAnomalyDeg?.isFinite ?? true)
    }

    /// Perifocal to ecliptic J2000: R_z(Ω) R_x(i) R_z(ω).
    var perifocalToEcliptic: Matrix3 {
        let d = Double.pi / 180
        return Matrix3.rotationZ(ascendingNodeDeg * d) * Matrix3.rotationX(inclinationDeg * d) * Matrix3.rotationZ(argumentOfPerihelionDeg * d)
    }

    /// The heliocentric state at the epoch, km and km/s, ecliptic J2000.
    public func heliocentricState() -> (positionKm: Vector3, velocityKmS: Vector3) {
        state(atJDTDB: epochJDTDB)
    }

    /// The two-body (Kepler) state at `jd` (TDB): the comparison model `model=kepler`.
    public func state(atJDTDB jd: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let mu = Self.sunGM
        let q = perihelionAU * Constants.auKm
        let e = eccentricity
        let rotation = perifocalToEcliptic
        if e < 1 {
            let a = q / (1 - e)
            let n = (mu / (a * a * a)).squareRoot() // rad/s
            let m0 = meanAnomalyDeg.map { $0 * .pi / 180 } ?? n * (epochJDTDB - perihelionJDTDB) * Constants.secondsPerDay
            let m = m0 + n * (jd - epochJDTDB) * Constants.secondsPerDay
            let E = Kepler.solve(meanAnomaly: m, eccentricity: e)
            let cosE = cos(E), sinE = sin(E)
            let b = a * (1 - e * e).squareRoot()
            let r = a * (1 - e * cosE)
            let p = Vector3(a * (cosE - e), b * sinE, 0)
            let v = Vector3(-a * sinE, b * cosE, 0) * ((mu / a).squareRoot() / r)
            return (rotation * p, rotation * v)
        }
        // Parabolas and hyperbolas: the perihelion state carried by the universal Kepler arc.
        let vq = (mu * (1 + e) / q).squareRoot()
        let arc = KeplerArc(mu: mu, position: rotation * Vector3(q, 0, 0), velocity: rotation * Vector3(0, vq, 0), epochHours: 0)
        let s = arc.state(afterSeconds: (jd - perihelionJDTDB) * Constants.secondsPerDay)
        return (s.position, s.velocity)
    }
}
