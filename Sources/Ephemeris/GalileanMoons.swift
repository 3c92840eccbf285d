import Glibc

/// One vector per Galilean satellite. Positions are km, velocities km/day (see the function
/// that returned it), jovicentric, mean ecliptic and equinox of J2000.
public struct GalileanPositions: Sendable, Hashable {
    public var io: Vector3
    public var europa: Vector3
    public var ganymede: Vector3
    public var callisto: Vector3

    public init(io: Vector3, europa: Vector3, ganymede: Vector3, callisto: Vector3) {
        self.io = io; self.europa = europa; self.ganymede = ganymede; self.callisto = callisto
    }

    /// The satellites in the theory's order (I, II, III, IV).
    public static let bodies: [BodyID] = [.io, .europa, .ganymede, .callisto]

    /// The vector of `body`, which must be one of `bodies`.
    public subscript(body: BodyID) -> Vector3 {
        switch body {
        case .io: return io
        case .europa: return europa
        case .ganymede: return ganymede
        case .callisto: return callisto
        default: preconditionFailure("\(body) is not a Galilean satellite")
        }
    }

    /// The vector of satellite `index` (0 = Io … 3 = Callisto).
    subscript(index: Int) -> Vector3 {
        switch index {
        case 0: return io
        case 1: return europa
        case 2: return ganymede
        default: return callisto
        }
    }

    static func * (v: GalileanPositions, s: Double) -> GalileanPositions {
        GalileanPositions(io: v.io * s, europa: v.europa * s, ganymede: v.ganymede * s, callisto: v.callisto * s)
    }

    static func - (a: GalileanPositions, b: GalileanPositions) -> GalileanPositions {
        GalileanPositions(io: a.io - b.io, europa: a.europa - b.europa, ganymede: a.ganymede - b.ganymede,
                          callisto: a.callisto - b.callisto)
    }
}

/// Velocities of the Galilean satellites, km/day, same frame as `GalileanPositions`.
public typealias GalileanVelocities = GalileanPositions

/// Io, Europa, Ganymede and Callisto: Lieske's E5 theory as given by Meeus, *Astronomical
/// Algorithms* (2nd ed.), chapter 44, "higher accuracy" method.
///
/// Meeus ends with apparent sky-plane offsets seen from the Earth; this stops before that, at the
/// satellites' geometric jovicentric rectangular coordinates at the requested instant (no light
/// time), which his rotation via Jupiter's equator and orbit refers to the mean ecliptic and
/// equinox **of date** (the longitudes are precessed from B1950 by his P, p. 311, and Jupiter's
/// node and inclination are of date). They are then precessed to J2000.
///
/// ```swift
/// let p = GalileanMoons.planetocentricPositionsKm(jdTDB: 2_461_001.5)
/// p.io.length   // ≈ 421,700 km
/// ```
public enum GalileanMoons {
    /// The unit of the theory's radius vectors, km. Meeus gives them in "equatorial radii of
    /// Jupiter" without a km value. Galilean-satellite dynamics works in R_J = 71,398 km (the
    /// pre-Voyager IAU value, kept by the L1–L3 ephemerides: Table 1 of the 2020 A&A article
    /// aa37445-20 lists R_J = 71,398 km with the L3 constants). Cross-checks on E5 itself: Kepler's
    /// third law with its mean motion of Callisto and JPL's GM of the Jupiter system
    /// (126,712,764 km³/s², JUP309) gives 71,416 km, Meeus's perspective constant (2095 radii per
    /// AU, p. 313) 71,407 km — all within 0.03 %, i.e. < 500 km on Callisto. (71,492 km, the IAU
    /// 1-bar radius, would make every orbit 0.13 % too large.)
    static let radiusUnitKm = 71_398.0
    /// Mean distances a of satellites I–IV in that unit (Meeus ch. 44).
    static let meanDistances: SIMD4<Double> = [5.90569, 9.39657, 14.98832, 26.36273]
    /// Π, longitude of the perihelion of Jupiter, degrees (Meeus ch. 44).
    static let jupiterPerihelionDegrees = 13.469942
    /// Epoch of the theory's time argument t: 1976 Aug 10.0 TDB (Meeus ch. 44).
    static let theoryEpochJD = 2_443_000.5
    /// Shortest period of the four (Io, 1.769 d): sets the velocity difference step.
    static let shortestPeriodDays = 360 / 203.488955790

    /// Jovicentric positions of the four satellites, km, mean ecliptic and equinox of J2000,
    /// geometric (at `jdTDB` itself, no light time).
    public static func planetocentricPositionsKm(jdTDB: Double) -> GalileanPositions {
        positionsAndOrbitNormals(jdTDB: jdTDB).positionsKm
    }

    /// The positions of `planetocentricPositionsKm` and, from the same run of the theory, each
    /// satellite's orbit normal (unit vectors, same frame): the direction of r × ∂r/∂L, L the
    /// satellite's true longitude, whose motion is its orbital motion (the radius vector's
    /// motion is radial and leaves the normal alone). What it leaves out, the slow turning of
    /// the nodes and perijoves (10⁻³ of the mean motion at most), tilts it by under 10⁻⁴°.
    public static func positionsAndOrbitNormals(jdTDB: Double) -> (positionsKm: GalileanPositions, orbitNormals: GalileanPositions) {
        let s = solve(jdTDB: jdTDB)
        let m = Precession.ecliptic(fromJD: jdTDB, toJD: Constants.jdJ2000) * s.equatorToEclipticOfDate
        let k = radiusUnitKm
        let e = s.equatorial, n = s.orbitNormals
        return (GalileanPositions(io: m * e.io * k, europa: m * e.europa * k, ganymede: m * e.ganymede * k, callisto: m * e.callisto * k),
                GalileanPositions(io: m * n.io, europa: m * n.europa, ganymede: m * n.ganymede, callisto: m * n.callisto))
    }

    /// Jovicentric velocities, km/day, same frame: a central difference of positions over
    /// ±h with h = Io's period / 1000 (≈ 2.5 min). The truncation error is (2πh/P)²/6 ≈ 7·10⁻⁶
    /// of the speed for Io and less for the others; rounding (angles of ~10⁷ degrees carry
    /// ~10⁻⁹ degrees of noise) adds under 10⁻⁸ of it.
    public static func planetocentricVelocitiesKmPerDay(jdTDB: Double) -> GalileanVelocities {
        let h = shortestPeriodDays / 1000
        let ahead = planetocentricPositionsKm(jdTDB: jdTDB + h)
        let behind = planetocentricPositionsKm(jdTDB: jdTDB - h)
        return (ahead - behind) * (1 / (2 * h))
    }

    // MARK: - The theory

    /// Meeus's intermediate results, kept for tests against his worked example.
    struct Solution {
        /// Rectangular coordinates X, Y, Z (Meeus ch. 44) in Jupiter equatorial radii, referred
        /// to Jupiter's equator with x toward the node ψ (precessed by P).
        var equatorial: GalileanPositions
        /// Radius vectors R (radii).
        var radius: SIMD4<Double>
        /// Unit orbit normals in the same frame: r × ∂r/∂L normalised.
        var orbitNormals: GalileanPositions
        /// Rotation from that equatorial frame to the mean ecliptic and equinox of date
        /// (Meeus's steps 1–4, p. 312).
        var equatorToEclipticOfDate: Matrix3
    }

    /// The sixteen fundamental arguments as linear functions of t (days from the theory epoch),
    /// degrees and degrees per day, in the order l1–l4 (mean longitudes), π1–π4 (longitudes of
    /// the perijoves), ω1–ω4 (nodes on Jupiter's equatorial plane), ψ (node of Jupiter's equator
    /// on the ecliptic), G (mean anomaly of Jupiter, to which Γ is added), G′ (mean anomaly of
    /// Saturn), Φλ (phase of the free libration). Meeus ch. 44, "higher accuracy" method, as in
    /// PyMeeus and Keys's Go port (Gray's jsats.cpp has ω4 = 322.6168° and 50.317609209°/day for
    /// l3: the first a transposition, the second 10⁻⁴° per century).
    static let fundamentals = (
        atEpoch: SIMD16<Double>(106.07719, 175.73161, 120.55883, 84.44459,
                                97.0881, 154.8663, 188.1840, 335.2868,
                                312.3346, 100.4411, 119.1942, 322.6186,
                                316.5182, 30.23756, 31.97853, 199.6766),
        perDay: SIMD16<Double>(203.488955790, 101.374724735, 50.317609207, 21.571071177,
                               0.16138586, 0.04726307, 0.00712734, 0.00184000,
                               -0.13279386, -0.03263064, -0.00717703, -0.00175934,
                               -0.00000208, 0.0830925701, 0.0334597339, 0.17379190))

    /// Γ, the principal inequality in the longitude of Jupiter, degrees.
    static func principalInequality(t: Double) -> Double {
        0.33033 * SatelliteTrig.sin(degrees: 163.679 + 0.0010512 * t)
            + 0.03439 * SatelliteTrig.sin(degrees: 34.486 - 0.0161731 * t)
    }

    /// Runs the theory for the satellites' instant `jdTDB`. `lightTimeDays` (τ) is zero for
    /// geometric positions; Meeus's worked example sets it to the Earth–Jupiter light time.
    static func solve(jdTDB: Double, lightTimeDays: Double = 0) -> Solution {
        let t = jdTDB - theoryEpochJD - lightTimeDays
        let gamma = principalInequality(t: t)
        let meanLongitudes = SIMD4(fundamentals.atEpoch[0], fundamentals.atEpoch[1], fundamentals.atEpoch[2], fundamentals.atEpoch[3])
            + SIMD4(fundamentals.perDay[0], fundamentals.perDay[1], fundamentals.perDay[2], fundamentals.perDay[3]) * t
        let psi = fundamentals.atEpoch[12] + fundamentals.perDay[12] * t

        var radius = SIMD4<Double>()
        var rectangular = (Vector3.zero, Vector3.zero, Vector3.zero, Vector3.zero)
        var normals = rectangular
        for k in 0..<4 {
            let sigma = longitudeSeries[k].sum(t: t, gamma: gamma)
            let trueLongitude = meanLongitudes[k] + sigma
            let (tanB, dTanBdL) = latitudeSeries[k].sumAndLongitudeDerivative(t: t, gamma: gamma, trueLongitude: trueLongitude, sigma: sigma)
            let r = radiusSeries[k].sum(t: t, gamma: gamma, cosine: true)
            radius[k] = meanDistances[k] * (1 + r)

            // Meeus: X, Y, Z from L − ψ, B and R. P, added to L and ψ alike, cancels here.
            let cosB = 1 / (1 + tanB * tanB).squareRoot()
            let u = SatelliteTrig.sinCos(degrees: trueLongitude - psi)
            let v = Vector3(radius[k] * u.cos * cosB, radius[k] * u.sin * cosB, radius[k] * tanB * cosB)
            // The unit direction (cos u cos B, sin u cos B, sin B) and its derivative along L,
            // with dB/dL = d(tan B)/dL · cos² B.
            let sinB = tanB * cosB, dB = dTanBdL * cosB * cosB
            let direction = Vector3(u.cos * cosB, u.sin * cosB, sinB)
            let along = Vector3(-u.sin * cosB - u.cos * sinB * dB, u.cos * cosB - u.sin * sinB * dB, cosB * dB)
            let normal = direction.cross(along).normalized
            switch k {
            case 0: rectangular.0 = v; normals.0 = normal
            case 1: rectangular.1 = v; normals.1 = normal
            case 2: rectangular.2 = v; normals.2 = normal
            default: rectangular.3 = v; normals.3 = normal
            }
        }

        // Precession in longitude from B1950 to the equinox of date (Meeus p. 311): it survives
        // only in the node ψ + P of Jupiter's equator.
        let t0 = (jdTDB - 2_433_282.423) / Constants.daysPerJulianCentury
        let precessionP = (1.3966626 + 0.0003088 * t0) * t0
        // Meeus p. 312: I, inclination of Jupiter's equator on its orbit (T from J1900); Ω and i,
        // node and inclination of Jupiter's orbit on the ecliptic of date (T from J2000; the
        // polynomials printed there, as in PyMeeus and Project Pluto's jsats.cpp).
        let tJ1900 = (jdTDB - 2_415_020.0) / Constants.daysPerJulianCentury
        let tJ2000 = (jdTDB - lightTimeDays - Constants.jdJ2000) / Constants.daysPerJulianCentury
        let d = Angle.radiansPerDegree
        let inclinationEquator = (3.120262 + 0.0006 * tJ1900) * d
        let node = (100.464407 + tJ2000 * (1.0209774 + tJ2000 * (0.00040315 + tJ2000 * 0.000000404))) * d
        let inclinationOrbit = (1.303267 + tJ2000 * (-0.0054965 + tJ2000 * (0.00000466 - tJ2000 * 0.000000002))) * d
        let nodeOfDate = (psi + precessionP) * d
        // Steps 1–4: tilt by I about the node, turn by ψ − Ω in Jupiter's orbit plane, tilt by i,
        // turn by Ω to the equinox.
        let rotation = Matrix3.rotationZ(node) * Matrix3.rotationX(inclinationOrbit)
            * Matrix3.rotationZ(nodeOfDate - node) * Matrix3.rotationX(inclinationEquator)

        return Solution(
            equatorial: GalileanPositions(io: rectangular.0, europa: rectangular.1,
                                          ganymede: rectangular.2, callisto: rectangular.3),
            radius: radius,
            orbitNormals: GalileanPositions(io: normals.0, europa: normals.1, ganymede: normals.2, callisto: normals.3),
            equatorToEclipticOfDate: rotation)
    }
}
