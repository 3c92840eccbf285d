import Glibc

/// One vector per major satellite of Saturn (Hyperion and Phoebe are not in the catalogue).
/// Positions are km, velocities km/day (see the function that returned it), saturnicentric,
/// mean ecliptic and equinox of J2000.
public struct SaturnianPositions: Sendable, Hashable {
    public var mimas: Vector3
    public var enceladus: Vector3
    public var tethys: Vector3
    public var dione: Vector3
    public var rhea: Vector3
    public var titan: Vector3
    public var iapetus: Vector3

    public init(mimas: Vector3, enceladus: Vector3, tethys: Vector3, dione: Vector3, rhea: Vector3,
                titan: Vector3, iapetus: Vector3) {
        self.mimas = mimas; self.enceladus = enceladus; self.tethys = tethys; self.dione = dione
        self.rhea = rhea; self.titan = titan; self.iapetus = iapetus
    }

    /// The satellites in the theory's order (I–VI, VIII).
    public static let bodies: [BodyID] = [.mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus]

    /// The vector of `body`, which must be one of `bodies`.
    public subscript(body: BodyID) -> Vector3 {
        switch body {
        case .mimas: return mimas
        case .enceladus: return enceladus
        case .tethys: return tethys
        case .dione: return dione
        case .rhea: return rhea
        case .titan: return titan
        case .iapetus: return iapetus
        default: preconditionFailure("\(body) is not one of Saturn's major satellites")
        }
    }

    func map(_ f: (Vector3) -> Vector3) -> SaturnianPositions {
        SaturnianPositions(mimas: f(mimas), enceladus: f(enceladus), tethys: f(tethys), dione: f(dione),
                           rhea: f(rhea), titan: f(titan), iapetus: f(iapetus))
    }

    static func - (a: SaturnianPositions, b: SaturnianPositions) -> SaturnianPositions {
        SaturnianPositions(mimas: a.mimas - b.mimas, enceladus: a.enceladus - b.enceladus,
                           tethys: a.tethys - b.tethys, dione: a.dione - b.dione, rhea: a.rhea - b.rhea,
                           titan: a.titan - b.titan, iapetus: a.iapetus - b.iapetus)
    }
}

/// Velocities of Saturn's satellites, km/day, same frame as `SaturnianPositions`.
public typealias SaturnianVelocities = SaturnianPositions

/// Mimas … Iapetus: Meeus, *Astronomical Algorithms* (2nd ed.), chapter 46 (after Harper &
/// Taylor 1993, themselves after Dourneau 1987).
///
/// Meeus ends with apparent sky-plane offsets seen from the Earth; this stops at the satellites'
/// geometric rectangular coordinates at the requested instant (no light time). The chapter
/// works in the mean ecliptic and equinox of B1950: each satellite's orbit is referred to a fixed
/// plane of Saturn's equator (inclination 28.0817°, node 168.8112° on the B1950 ecliptic), and
/// Meeus precesses Saturn's geocentric direction to B1950 to match. The vectors are rotated from
/// that plane to the B1950 ecliptic and precessed to J2000.
///
/// ```swift
/// let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: 2_461_001.5)
/// p.titan.length   // ≈ 1.22 million km
/// ```
public enum SaturnianMoons {
    /// The unit of the radius vectors, km. Meeus gives them in "equatorial radii of Saturn"
    /// without a km value. They are Dourneau's semi-major axes, given in arcseconds at Saturn's
    /// mean distance 9.538937 AU (as in Project Pluto's ssats.cpp: Titan 176.6041″, Rhea
    /// 76.2277″, Iapetus 514.8431″), divided by 8.7358″ (Titan 20.216193, Rhea 8.725924, Iapetus
    /// 58.935028 radii): 8.7358″ × 9.538937 AU = 60,437 km. Cross-checks: Meeus's perspective
    /// constant (2475 radii per AU, in his perspective correction) gives 60,443 km, and Kepler's third law with Titan's
    /// mean motion and JPL's GM of the Saturn system 60,440 km. (60,330 km would make every orbit
    /// 0.18 % too small; 60,268 km, the IAU 1-bar radius, 0.28 %.)
    static let radiusUnitKm = 8.7358 / 206_264.806_247 * 9.538937 * Constants.auKm
    /// The fixed plane of Saturn's equator on the B1950 ecliptic (Meeus ch. 46).
    static let equatorInclination = 28.0817 * Angle.radiansPerDegree
    static let equatorNode = 168.8112 * Angle.radiansPerDegree
    /// Saturn-equator frame (x toward the node above) → mean ecliptic and equinox of B1950:
    /// Meeus's rotations "towards the plane of the ecliptic" and "towards the vernal equinox".
    static let equatorToB1950 = Matrix3.rotationZ(equatorNode) * Matrix3.rotationX(equatorInclination)
    /// The same, continued to J2000 and scaled to km: the whole per-call rotation.
    static let equatorToJ2000 = Precession.ecliptic(fromJD: Constants.jdB1950, toJD: Constants.jdJ2000) * equatorToB1950
    static let equatorRadiiToJ2000Km: Matrix3 = {
        let m = equatorToJ2000, k = radiusUnitKm
        return Matrix3(rows: m.r0 * k, m.r1 * k, m.r2 * k)
    }()
    /// Shortest period of the seven (Mimas, 0.942 d): sets the velocity difference step.
    static let shortestPeriodDays = 360 / 381.994497

    /// Saturnicentric positions of the seven satellites, km, mean ecliptic and equinox of J2000,
    /// geometric (at `jdTDB` itself, no light time).
    public static func planetocentricPositionsKm(jdTDB: Double) -> SaturnianPositions {
        let m = equatorRadiiToJ2000Km
        return equatorialCoordinates(jdTDB: jdTDB).map { m * $0 }
    }

    /// The positions of `planetocentricPositionsKm` and, from the same run of the theory, each
    /// satellite's orbit normal (unit vectors, same frame) from its node and inclination on
    /// Saturn's equator. It leaves out the nodes' regression (Mimas's, the fastest, is 1/380 of
    /// its mean motion), which tilts r × v from it by under 10⁻²°.
    public static func positionsAndOrbitNormals(jdTDB: Double) -> (positionsKm: SaturnianPositions, orbitNormals: SaturnianPositions) {
        let a = Arguments(jde: jdTDB)
        let m = equatorRadiiToJ2000Km, r = equatorToJ2000
        func place(_ o: Orbit) -> (Vector3, Vector3) {
            let g = o.equatorialAndNormal
            return (m * g.position, r * g.normal)
        }
        let (p0, n0) = place(a.mimas()), (p1, n1) = place(a.enceladus()), (p2, n2) = place(a.tethys())
        let (p3, n3) = place(a.dione()), (p4, n4) = place(a.rhea()), (p5, n5) = place(a.titan()), (p6, n6) = place(a.iapetus())
        return (SaturnianPositions(mimas: p0, enceladus: p1, tethys: p2, dione: p3, rhea: p4, titan: p5, iapetus: p6),
                SaturnianPositions(mimas: n0, enceladus: n1, tethys: n2, dione: n3, rhea: n4, titan: n5, iapetus: n6))
    }

    /// Saturnicentric velocities, km/day, same frame: a central difference of positions over
    /// ±h with h = Mimas's period / 1000 (≈ 81 s). The truncation error is (2πh/P)²/6 ≈ 7·10⁻⁶
    /// of the speed for Mimas and less for the others.
    public static func planetocentricVelocitiesKmPerDay(jdTDB: Double) -> SaturnianVelocities {
        let h = shortestPeriodDays / 1000
        let ahead = equatorialCoordinates(jdTDB: jdTDB + h)
        let behind = equatorialCoordinates(jdTDB: jdTDB - h)
        let m = equatorRadiiToJ2000Km
        let scale = 1 / (2 * h)
        return (ahead - behind).map { m * $0 * scale }
    }

    // MARK: - The theory

    /// A satellite's place in Meeus's notation: true longitude λ, radius vector r
    /// (Saturn radii), inclination γ on Saturn's equatorial plane and longitude Ω of the node
    /// (angles in radians; λ and Ω counted from the B1950 equinox along the ecliptic to the
    /// node of Saturn's equator, then along the equator).
    struct Orbit {
        var lambda: Double
        var radius: Double
        var gamma: Double
        var node: Double

        /// Meeus's X, Y, Z: rectangular coordinates on Saturn's equator, x toward its
        /// ascending node on the B1950 ecliptic, in Saturn radii.
        var equatorial: Vector3 { equatorialAndNormal.position }

        /// `equatorial` and the orbit's unit normal in the same frame: the plane is Rz(w)·Rx(γ)
        /// of the equator (w the node counted from x), so its normal is Rz(w)·Rx(γ)·ẑ.
        var equatorialAndNormal: (position: Vector3, normal: Vector3) {
            let u = lambda - node
            let w = node - SaturnianMoons.equatorNode
            let (su, cu) = SatelliteTrig.sinCos(radians: u)
            let (sw, cw) = SatelliteTrig.sinCos(radians: w)
            let (sg, cg) = SatelliteTrig.sinCos(radians: gamma)
            return (Vector3(radius * (cu * cw - su * cg * sw),
                            radius * (su * cw * cg + cu * sw),
                            radius * su * sg),
                    Vector3(sg * sw, -sg * cw, cg))
        }
    }

    /// Meeus's X, Y, Z of every satellite at `jdTDB` (Saturn radii, Saturn-equator frame).
    static func equatorialCoordinates(jdTDB: Double) -> SaturnianPositions {
        let a = Arguments(jde: jdTDB)
        return SaturnianPositions(
            mimas: a.mimas().equatorial, enceladus: a.enceladus().equatorial, tethys: a.tethys().equatorial,
            dione: a.dione().equatorial, rhea: a.rhea().equatorial, titan: a.titan().equatorial,
            iapetus: a.iapetus().equatorial)
    }
}
