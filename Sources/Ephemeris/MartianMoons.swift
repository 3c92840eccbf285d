import Glibc

/// Phobos and Deimos as precessing Keplerian ellipses on their local Laplace planes, from JPL's
/// "Planetary Satellite Mean Orbital Parameters" (ssd.jpl.nasa.gov/?sat_elem, Mars table: solution
/// MAR080, epoch 1950 Jan 1.00 TT, elements referred to the local Laplace plane, whose node is
/// counted from its ascending node on the ICRF equator).
///
/// Accuracy: JPL warns these are mean elements, not an ephemeris. Against the PyEphem-derived
/// reference vectors (2006–2037) Phobos stays within about 3.3 % of its orbit radius (an along-track
/// drift of ≈ 1–2°, the price of extrapolating a 1950 fit) and Deimos within about 0.7 %.
public enum MartianMoons {
    /// The bodies this theory serves.
    public static let bodies: [BodyID] = [.phobos, .deimos]

    /// Planetocentric (Mars-centred) position, ecliptic J2000, km.
    ///
    /// `body` must be `.phobos` or `.deimos` (see `bodies`); any other id is a programming error
    /// and stops with a precondition failure naming it.
    ///
    /// ```swift
    /// let phobos = MartianMoons.planetocentricPositionKm(.phobos, jdTDB: 2_461_001.5) // |r| ≈ 9 235…9 517 km
    /// ```
    public static func planetocentricPositionKm(_ body: BodyID, jdTDB: Double) -> Vector3 {
        state(elements(body), jdTDB: jdTDB, withVelocity: false).positionKm
    }

    /// Planetocentric velocity, ecliptic J2000, km/day: the analytic derivative of the precessing
    /// ellipse (Kepler motion plus the turning of periapsis and node).
    public static func planetocentricVelocityKmPerDay(_ body: BodyID, jdTDB: Double) -> Vector3 {
        state(elements(body), jdTDB: jdTDB, withVelocity: true).velocityKmPerDay
    }

    /// Position (km) and velocity (km/day) together, ecliptic J2000.
    public static func planetocentricState(_ body: BodyID, jdTDB: Double) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        state(elements(body), jdTDB: jdTDB, withVelocity: true)
    }

    /// The mean semi-major axis (km) JPL gives for the moon: its orbit radius.
    public static func semiMajorAxisKm(_ body: BodyID) -> Double { elements(body).semiMajorAxisKm }

    // MARK: - Elements

    /// One row of JPL's table plus what is derived from it once.
    struct Elements: Sendable {
        let semiMajorAxisKm: Double
        let eccentricity: Double
        let argumentOfPeriapsisDeg: Double
        let meanAnomalyDeg: Double
        let inclinationDeg: Double
        let nodeDeg: Double
        /// JPL's n, the rate of the mean longitude Ω + ω + M (360°/n is the sidereal period P).
        let meanMotionDegPerDay: Double
        let periapsisPeriodYears: Double
        let nodePeriodYears: Double
        let laplacePoleRADeg: Double
        let laplacePoleDecDeg: Double
        let epochJD: Double
        /// Laplace plane → ecliptic J2000, computed once: the plane's x axis is its ascending node
        /// on the ICRF equator (right ascension α + 90°), tilted by 90° − δ; then ICRF → ecliptic.
        let laplaceToEclipticJ2000: Matrix3

        init(semiMajorAxisKm: Double, eccentricity: Double, argumentOfPeriapsisDeg: Double, meanAnomalyDeg: Double,
             inclinationDeg: Double, nodeDeg: Double, meanMotionDegPerDay: Double,
             periapsisPeriodYears: Double, nodePeriodYears: Double,
             laplacePoleRADeg: Double, laplacePoleDecDeg: Double, epochJD: Double) {
            self.semiMajorAxisKm = semiMajorAxisKm
            self.eccentricity = eccentricity
            self.argumentOfPeriapsisDeg = argumentOfPeriapsisDeg
            self.meanAnomalyDeg = meanAnomalyDeg
            self.inclinationDeg = inclinationDeg
            self.nodeDeg = nodeDeg
            self.meanMotionDegPerDay = meanMotionDegPerDay
            self.periapsisPeriodYears = periapsisPeriodYears
            self.nodePeriodYears = nodePeriodYears
            self.laplacePoleRADeg = laplacePoleRADeg
            self.laplacePoleDecDeg = laplacePoleDecDeg
            self.epochJD = epochJD
            laplaceToEclipticJ2000 = Precession.equatorialToEclipticJ2000
                * Matrix3.rotationZ((laplacePoleRADeg + 90) * Angle.radiansPerDegree)
                * Matrix3.rotationX((90 - laplacePoleDecDeg) * Angle.radiansPerDegree)
        }

        /// JPL gives the precession periods in Julian years.
        static let daysPerJulianYear = 365.25

        /// ω̇ = +360°/P_ω (apsides advance), Ω̇ = −360°/P_node (nodes regress), per Julian-year day count.
        var periapsisRateDegPerDay: Double { 360 / (periapsisPeriodYears * Elements.daysPerJulianYear) }
        var nodeRateDegPerDay: Double { -360 / (nodePeriodYears * Elements.daysPerJulianYear) }
        /// Ṁ = n − ω̇ − Ω̇, since n is the mean longitude's rate.
        var meanAnomalyRateDegPerDay: Double { meanMotionDegPerDay - periapsisRateDegPerDay - nodeRateDegPerDay }
    }

    /// JPL mean elements, Mars, solution MAR080 (Jacobson), epoch 1950 Jan 1.00 TT (JD 2433282.5),
    /// ssd.jpl.nasa.gov/?sat_elem: a, e, ω, M, i, node, n, P_ω, P_node, Laplace pole R.A. and Dec.
    static let phobos = Elements(
        semiMajorAxisKm: 9_376, eccentricity: 0.0151, argumentOfPeriapsisDeg: 150.057, meanAnomalyDeg: 91.059,
        inclinationDeg: 1.075, nodeDeg: 207.784, meanMotionDegPerDay: 1_128.844_756_9,
        periapsisPeriodYears: 1.1316, nodePeriodYears: 2.2617,
        laplacePoleRADeg: 317.671, laplacePoleDecDeg: 52.893, epochJD: 2_433_282.5)
    static let deimos = Elements(
        semiMajorAxisKm: 23_458, eccentricity: 0.0002, argumentOfPeriapsisDeg: 260.729, meanAnomalyDeg: 325.329,
        inclinationDeg: 1.788, nodeDeg: 24.525, meanMotionDegPerDay: 285.161_879_0,
        periapsisPeriodYears: 27.3703, nodePeriodYears: 54.5367,
        laplacePoleRADeg: 316.657, laplacePoleDecDeg: 53.529, epochJD: 2_433_282.5)

    // Phobos's tidal secular acceleration (½ṅ = 1.258e-3 °/yr², Jacobson et al., MAR099) is
    // deliberately not added: JPL's mean elements are a least-squares linear fit whose n and M
    // already absorb the acceleration over the fit span, and adding a quadratic on top about the
    // 1950 epoch moves Phobos by ≈ 3° in 2000 — measured against Lainey's numerical ephemeris and
    // the reference fixture it made every date worse, not better.

    private static func elements(_ body: BodyID) -> Elements {
        switch body {
        case .phobos: return phobos
        case .deimos: return deimos
        default: preconditionFailure("MartianMoons serves phobos and deimos, not \(body)")
        }
    }

    private static func state(_ el: Elements, jdTDB: Double, withVelocity: Bool) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        let rad = Angle.radiansPerDegree
        let t = jdTDB - el.epochJD
        let omegaDot = el.periapsisRateDegPerDay * rad
        let nodeDot = el.nodeRateDegPerDay * rad
        let mDot = el.meanAnomalyRateDegPerDay * rad
        // Reduce in degrees before scaling: t·Ṁ reaches 10⁷° over a century.
        let omega = Angle.normalizedDegrees(el.argumentOfPeriapsisDeg + el.periapsisRateDegPerDay * t) * rad
        let node = Angle.normalizedDegrees(el.nodeDeg + el.nodeRateDegPerDay * t) * rad
        let meanAnomaly = Angle.normalizedDegrees(el.meanAnomalyDeg + el.meanAnomalyRateDegPerDay * t) * rad

        let a = el.semiMajorAxisKm, e = el.eccentricity
        let E = Kepler.solve(meanAnomaly: meanAnomaly, eccentricity: e)
        let cosE = cos(E), sinE = sin(E)
        let rootOneMinusE2 = (1 - e * e).squareRoot()
        let inPlane = Vector3(a * (cosE - e), a * rootOneMinusE2 * sinE, 0)

        // Orbit plane → Laplace plane: Rz(Ω)·Rx(i)·Rz(ω).
        let nodeAndTilt = Matrix3.rotationZ(node) * Matrix3.rotationX(el.inclinationDeg * rad)
        let orbitToLaplace = nodeAndTilt * Matrix3.rotationZ(omega)
        let rLaplace = orbitToLaplace * inPlane
        let toEcliptic = el.laplaceToEclipticJ2000
        let position = toEcliptic * rLaplace
        guard withVelocity else { return (position, .zero) }

        let eDot = mDot / (1 - e * cosE)
        let vInPlane = Vector3(-a * sinE * eDot, a * rootOneMinusE2 * cosE * eDot, 0)
        // The ellipse turns: ω̇ about the orbit normal, Ω̇ about the Laplace pole.
        let orbitNormal = nodeAndTilt * Vector3(0, 0, 1)
        let vLaplace = orbitToLaplace * vInPlane
            + orbitNormal.cross(rLaplace) * omegaDot
            + Vector3(0, 0, 1).cross(rLaplace) * nodeDot
        return (position, toEcliptic * vLaplace)
    }
}
