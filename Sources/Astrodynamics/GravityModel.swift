import Ephemeris
import Synchronization

/// Newtonian gravity on a spacecraft near a body: the centre as a point mass plus, optionally,
/// its zonal harmonics J2 … J6 (and Mars's C22, S22) and the pull of other bodies as point masses, in the frame of
/// the centre (non-inertial: the centre's own acceleration by each perturber, the indirect
/// term, is subtracted).
///
/// - Centre: the Sun, a planet (Mercury … Neptune), Pluto, the Earth or the Moon. Mercury …
///   Pluto are the system barycentres the ephemeris serves (with the whole system's GM)
///   unless the planet's own moons are perturbers: then the centre is the planet itself,
///   ``PlanetCenter/offsetFromBarycenter(_:seconds:)`` away from the barycentre,
///   with the planet-alone GM (``PlanetCenter/planetGM(_:)``). That matters for Juno and
///   Cassini: 200–300 km of offset, and the moons' pull, at a few planet radii.
/// - Perturbers: the Sun, the planets as system barycentres, Pluto, the Earth and the Moon
///   apart, and the moons of the centre planet, each where the ephemeris serves it: a moon
///   a loaded kernel covers, or one anchored near a published flyby (``MoonAnchor``), pulls
///   from there, not from its theory.
/// - Zonal harmonics of the centre (``GravityConstants/zonal(_:)``) up to `zonalDegree`, about
///   the centre's IAU pole from `Ephemeris.orientation` (precession and periodic terms
///   included).
/// - With `sectoral`, the centre's degree-2 sectoral harmonics C22 and S22
///   (``GravityConstants/sectoral(_:)``: Mars's), about its IAU body-fixed axes, which turn
///   with the body (its prime meridian tabulated every 512 s).
///
/// Units and frames as ``AccelerationModel``: km, km/s², TDB seconds past J2000, ecliptic J2000.
///
/// Cost: the ephemeris is slow (microseconds per body), so each perturber's state relative to
/// the centre (and the centre's pole) is tabulated on a fixed grid the first time a span is
/// asked for and read back by cubic Hermite interpolation (``HermiteTable``). The grid step
/// of each body is derived from the fastest orbital motion in its position relative to the
/// centre (its own orbit, the centre's, the Earth's monthly wobble about the Earth–Moon
/// barycentre) so that the interpolation stays within half a metre; a force evaluation then
/// costs a few hundred nanoseconds (see `solarsystem bench propagator`).
///
/// Thread safety: `Sendable`; the tables sit behind a mutex, so any number of threads may share
/// one model, though they take turns for each evaluation. For parallel propagations give each
/// thread its own model: the tables are rebuilt per model, the answers are identical (nodes
/// sit at fixed times, whatever was asked first).
///
/// ```swift
/// let model = try GravityModel(ephemeris: eph, center: .jupiter,
///                              perturbers: [.sun, .io, .europa, .ganymede, .callisto, .saturn], zonalDegree: 6)
/// let arc = try DormandPrince853().propagate(junoState, to: junoState.seconds + 86_400, model: model)
/// ```
public final class GravityModel: AccelerationModel {
    /// Where the perturbers, the centre's pole and (for a barycentre) the centre come from.
    public let ephemeris: Ephemeris
    /// The body positions are relative to.
    public let center: BodyID
    /// The bodies pulling as point masses, in the order given.
    public let perturbers: [BodyID]
    /// Highest zonal degree included (0: none).
    public let zonalDegree: Int
    /// GM of the centre, km³/s²: the planet alone when ``isPlanetCenter``, else
    /// ``GravityConstants/gm(_:)``.
    public let centerGM: Double
    /// True when the centre is the planet itself rather than its system barycentre (its moons
    /// are perturbers).
    public let isPlanetCenter: Bool

    /// How each perturber's position is found: a moon in the moon table (relative to the
    /// planet's centre), or its own table (relative to the table origin: the centre, or in
    /// planet-centre mode the system barycentre).
    enum Source: Sendable {
        case moon(Int)
        case body(Int)
    }

    let forces: [(gm: Double, source: Source)]
    /// GM_moon / GM_system for every engine moon of the centre (planet-centre mode).
    let moonWeights: [Double]
    /// J_n·R^n for n = 0 … zonalDegree (zeros below 2 and where the source gives none).
    let zonalTerms: [Double]
    /// The centre's C22 and S22 (``GravityConstants/sectoral(_:)``), when asked for.
    public let sectoral: GravityConstants.Sectoral?
    let tables: Mutex<Tables>

    /// The tabulated states, behind the mutex.
    struct Tables: Sendable {
        var moons: HermiteTable?
        var bodies: [HermiteTable]
        var pole: HermiteTable?
        var primeMeridian: HermiteTable?
        var moonPositions: [Vector3]
        var bodyPositions: [Vector3]
        var poleBuffer: [Vector3] = [.zero]
        var primeMeridianBuffer: [Vector3] = [.zero]
    }

    /// `sectoral`: the centre's degree-2 sectoral harmonics too, about its IAU body-fixed axes
    /// (Mars only; ``GravityConstants/sectoral(_:)``).
    public init(ephemeris: Ephemeris, center: BodyID, perturbers: [BodyID] = [], zonalDegree: Int = 0, sectoral: Bool = false) throws(GravityModelError) {
        let planets: Set<BodyID> = [.mercury, .venus, .earth, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto]
        guard center == .sun || center == .moon || planets.contains(center) else { throw .unsupportedCenter(center) }
        let ownMoons = PlanetCenter.moons(of: center)
        var seen: Set<BodyID> = []
        for p in perturbers {
            guard seen.insert(p).inserted else { throw .duplicatePerturber(p) }
            guard p != center, p == .sun || p == .moon || planets.contains(p) || ownMoons.contains(p) else {
                throw .unsupportedPerturber(p, center: center)
            }
        }
        guard zonalDegree == 0 || (2...6).contains(zonalDegree) else { throw .invalidZonalDegree(zonalDegree) }
        let zonal = zonalDegree > 0 ? GravityConstants.zonal(center) : nil
        if zonalDegree > 0, zonal == nil { throw .noZonalHarmonics(center) }
        let twoTwo = sectoral ? GravityConstants.sectoral(center) : nil
        if sectoral, twoTwo == nil { throw .noSectoralHarmonics(center) }
        self.sectoral = twoTwo

        self.ephemeris = ephemeris
        self.center = center
        self.perturbers = perturbers
        self.zonalDegree = zonalDegree
        let planetCenter = perturbers.contains { ownMoons.contains($0) }
        isPlanetCenter = planetCenter
        centerGM = planetCenter ? PlanetCenter.planetGM(center) : GravityConstants.gm(center)

        var terms = [Double](repeating: 0, count: zonalDegree + 1)
        if let zonal {
            var rn = 1.0
            for n in 0...zonalDegree {
                if n >= 2, n < zonal.coefficients.count { terms[n] = zonal.coefficients[n] * rn }
                rn *= zonal.referenceRadiusKm
            }
        }
        zonalTerms = terms

        // The tables: the centre's moons together (one run of their theory serves all), every
        // other perturber on its own, and the pole.
        let origin = center
        var bodyTables: [HermiteTable] = []
        var forces: [(gm: Double, source: Source)] = []
        for p in perturbers {
            if planetCenter, let i = ownMoons.firstIndex(of: p) {
                forces.append((GravityConstants.gm(p), .moon(i)))
            } else {
                forces.append((GravityConstants.gm(p), .body(bodyTables.count)))
                bodyTables.append(Self.bodyTable(p, relativeTo: origin, ephemeris: ephemeris))
            }
        }
        self.forces = forces
        moonWeights = planetCenter ? ownMoons.map { GravityConstants.gm($0) / GravityConstants.gm(center) } : []
        let moonTable = planetCenter ? Self.moonTable(center, ephemeris: ephemeris) : nil
        let poleTable = zonalDegree > 0 || sectoral ? Self.poleTable(center, ephemeris: ephemeris) : nil
        let meridianTable = sectoral ? Self.primeMeridianTable(center, ephemeris: ephemeris) : nil
        tables = Mutex(Tables(moons: moonTable, bodies: bodyTables, pole: poleTable, primeMeridian: meridianTable,
                              moonPositions: [Vector3](repeating: .zero, count: planetCenter ? ownMoons.count : 0),
                              bodyPositions: [Vector3](repeating: .zero, count: bodyTables.count)))
    }

    public func accelerationKmS2(at r: Vector3, seconds: Double) -> Vector3 {
        let r2 = r.lengthSquared, rn = r2.squareRoot()
        var a = r * (-centerGM / (r2 * rn))
        guard !forces.isEmpty || zonalDegree > 0 || sectoral != nil else { return a }
        let (perturbation, pole, meridian) = tables.withLock { tables in perturbations(on: r, seconds: seconds, tables: &tables) }
        a += perturbation
        if zonalDegree > 0 { a += zonalAcceleration(r, r2: r2, rn: rn, pole: pole) }
        if let sectoral { a += sectoralAcceleration(r, r2: r2, rn: rn, pole: pole, primeMeridian: meridian, sectoral) }
        return a
    }

    /// The degree-2 sectoral harmonics' acceleration: the gradient of
    /// 3μR²[C22(x² − y²) + 2 S22 xy]/r⁵ in the body-fixed frame (x toward the prime meridian, z
    /// the pole; Kaula's P22 = 3 cos²φ), turned back to ecliptic J2000.
    @inline(__always) func sectoralAcceleration(_ r: Vector3, r2: Double, rn: Double, pole k: Vector3, primeMeridian m: Vector3,
                                                _ h: GravityConstants.Sectoral) -> Vector3 {
        let xAxis = (m - k * m.dot(k)).normalized, yAxis = k.cross(xAxis)
        let x = r.dot(xAxis), y = r.dot(yAxis), z = r.dot(k)
        let r5 = r2 * r2 * rn, r7 = r5 * r2
        let q = h.c22 * (x * x - y * y) + 2 * h.s22 * x * y
        let scale = 3 * centerGM * h.referenceRadiusKm * h.referenceRadiusKm
        let ax: Double = (2 * h.c22 * x + 2 * h.s22 * y) / r5 - 5 * q * x / r7
        let ay: Double = (2 * h.s22 * x - 2 * h.c22 * y) / r5 - 5 * q * y / r7
        let az: Double = -5 * q * z / r7
        return (xAxis * ax + yAxis * ay + k * az) * scale
    }

    /// The perturbers' direct and indirect terms, the centre's pole (unit vector; zero without
    /// harmonics) and its prime-meridian axis (zero without sectoral harmonics).
    @inline(__always) func perturbations(on r: Vector3, seconds t: Double, tables: inout Tables) -> (Vector3, Vector3, Vector3) {
        var offset = Vector3.zero
        if tables.moons != nil {
            tables.moons!.positions(at: t, into: &tables.moonPositions)
            for i in moonWeights.indices { offset -= tables.moonPositions[i] * moonWeights[i] }
        }
        for i in tables.bodies.indices {
            tables.bodies[i].positions(at: t, into: &tables.bodyPositions, offset: i)
        }
        var a = Vector3.zero
        for force in forces {
            // s: the perturber relative to the centre.
            let s: Vector3
            switch force.source {
            case .moon(let i): s = tables.moonPositions[i]
            case .body(let i): s = tables.bodyPositions[i] - offset
            }
            let d = s - r
            let d2 = d.lengthSquared, s2 = s.lengthSquared
            a += d * (force.gm / (d2 * d2.squareRoot())) - s * (force.gm / (s2 * s2.squareRoot()))
        }
        var pole = Vector3.zero
        if tables.pole != nil {
            tables.pole!.positions(at: t, into: &tables.poleBuffer)
            pole = tables.poleBuffer[0].normalized
        }
        var meridian = Vector3.zero
        if tables.primeMeridian != nil {
            tables.primeMeridian!.positions(at: t, into: &tables.primeMeridianBuffer)
            meridian = tables.primeMeridianBuffer[0]
        }
        return (a, pole, meridian)
    }

    /// The zonal harmonics' acceleration: the gradient of −(μ/r) Σ J_n (R/r)^n P_n(u), u = r̂·k̂,
    /// which is (μ/r²) Σ J_n (R/r)^n [((n+1) P_n + u P′_n) r̂ − P′_n k̂], with P_n and P′_n by
    /// their recurrences (Bonnet's, and P′_{n+1} = P′_{n−1} + (2n+1) P_n), so it stays regular at
    /// the poles.
    @inline(__always) func zonalAcceleration(_ r: Vector3, r2: Double, rn: Double, pole k: Vector3) -> Vector3 {
        let rHat = r / rn
        let u = rHat.dot(k)
        var pPrev = 1.0, p = u // P_{n−2}, P_{n−1} as n advances
        var dPrev = 0.0, dp = 1.0 // P′_{n−2}, P′_{n−1}
        let inverse = 1 / rn
        var inversePower = inverse // 1/r^n
        var radial = 0.0, polar = 0.0
        for n in 2...zonalDegree {
            let nd = Double(n)
            let pn = ((2 * nd - 1) * u * p - (nd - 1) * pPrev) / nd
            let dn = dPrev + (2 * nd - 1) * p
            inversePower *= inverse
            let term = zonalTerms[n] * inversePower
            radial += term * ((nd + 1) * pn + u * dn)
            polar += term * dn
            pPrev = p; p = pn
            dPrev = dp; dp = dn
        }
        let scale = centerGM / r2
        return (rHat * radial - k * polar) * scale
    }
}
