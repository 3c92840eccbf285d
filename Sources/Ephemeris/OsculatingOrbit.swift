import Glibc

/// Gravitational parameters for two-body (osculating) orbits.
public enum GravitationalParameter {
    /// k², the Sun's GM in AU³/day² (Gaussian gravitational constant k = 0.01720209895, IAU 1976).
    public static let sunAU3PerDay2 = 0.017_202_098_95 * 0.017_202_098_95

    /// Sun/planet-system mass ratios (IAU 2009 system of constants / JPL DE430–DE440).
    static let sunOverPlanet: [BodyID: Double] = [
        .mercury: 6_023_597.4, .venus: 408_523.72, .earth: 328_900.56, .mars: 3_098_703.59,
        .jupiter: 1_047.348_644, .saturn: 3_497.9018, .uranus: 22_902.98, .neptune: 19_412.26, .pluto: 136_566_000,
    ]

    /// GM of the parent planets in km³/s² (JPL DE440 / satellite ephemerides), plus the
    /// satellite's own GM where it matters at the drawing's precision (the Moon).
    static let planetKm3PerS2: [BodyID: Double] = [
        .earth: 398_600.435_436, .mars: 42_828.375_214, .jupiter: 126_686_531.9, .saturn: 37_931_206.2,
    ]
    static let moonKm3PerS2 = 4_902.800_066

    /// μ = GM(Sun)·(1 + m) for a planet's heliocentric orbit, AU³/day².
    public static func heliocentric(_ body: BodyID) -> Double {
        sunAU3PerDay2 * (1 + 1 / (sunOverPlanet[body] ?? .infinity))
    }

    /// μ for a satellite's orbit about its parent, km³/day².
    public static func planetocentric(_ body: BodyID) -> Double {
        guard let parent = body.parent, let gm = planetKm3PerS2[parent] else { return 0 }
        let s = Constants.secondsPerDay
        return (gm + (body == .moon ? moonKm3PerS2 : 0)) * s * s
    }
}

/// Classical elements of the two-body orbit through a state vector (any consistent units:
/// length L, time T, μ in L³/T²).
public struct OsculatingOrbit: Sendable, Hashable {
    public let semiMajorAxis: Double
    public let eccentricity: Double
    public let inclinationRad: Double
    public let ascendingNodeRad: Double
    public let argumentOfPeriapsisRad: Double
    public let meanAnomalyRad: Double
    /// Orbital period in the time unit of μ; infinite for unbound orbits.
    public let period: Double
    /// Perifocal → reference frame rotation (columns: periapsis direction, 90° ahead, orbit normal).
    public let perifocalToReference: Matrix3

    /// Elements from position `r` and velocity `v` (vector algebra, no angle singularities:
    /// circular and equatorial orbits get a well-defined frame).
    public init(position r: Vector3, velocity v: Vector3, mu: Double) {
        let h = r.cross(v)
        let rLen = r.length
        let eVec = v.cross(h) / mu - r / rLen
        let e = eVec.length
        let energy = v.lengthSquared / 2 - mu / rLen
        let a = -mu / (2 * energy)
        let w = h.normalized
        // Periapsis direction; for a (nearly) circular orbit, the current position stands in.
        let p = e > 1e-10 ? eVec / e : r / rLen
        let q = w.cross(p)
        perifocalToReference = Matrix3(columns: p, q, w)
        semiMajorAxis = a
        eccentricity = e
        inclinationRad = acos(max(-1, min(1, w.z)))
        let nodeVec = Vector3(-h.y, h.x, 0)
        ascendingNodeRad = nodeVec.length > 0 ? atan2(nodeVec.y, nodeVec.x) : 0
        if nodeVec.length > 0 {
            let n = nodeVec.normalized
            argumentOfPeriapsisRad = atan2(n.cross(p).dot(w), n.dot(p))
        } else {
            argumentOfPeriapsisRad = atan2(p.y, p.x)
        }
        // True anomaly from the perifocal coordinates of r, then mean anomaly.
        let nu = atan2(r.dot(q), r.dot(p))
        if e < 1 {
            let E = 2 * atan2((1 - e).squareRoot() * sin(nu / 2), (1 + e).squareRoot() * cos(nu / 2))
            meanAnomalyRad = E - e * sin(E)
            period = a > 0 ? 2 * Double.pi * (a * a * a / mu).squareRoot() : .infinity
        } else {
            meanAnomalyRad = .nan
            period = .infinity
        }
    }

    /// `count` points of one revolution, evenly spaced in eccentric anomaly, starting at
    /// periapsis, in the reference frame and length unit of the state it was built from.
    /// Unbound orbits give an empty polyline.
    public func polyline(count: Int) -> [Vector3] {
        polyline(count: count, range: 0..<count)
    }

    /// Points `range` of the `count`-point polyline (for producing a long one piece by piece).
    public func polyline(count: Int, range: Range<Int>) -> [Vector3] {
        guard isBound, count > 0 else { return [] }
        let a = semiMajorAxis, e = eccentricity
        let b = a * (1 - e * e).squareRoot()
        return range.clamped(to: 0..<count).map { k in
            let E = 2 * Double.pi * Double(k) / Double(count)
            return perifocalToReference * Vector3(a * (cos(E) - e), b * sin(E), 0)
        }
    }

    /// Whether the orbit is an ellipse (unbound orbits have no polyline).
    public var isBound: Bool { eccentricity < 1 && semiMajorAxis > 0 }
}
