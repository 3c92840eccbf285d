import Ephemeris

/// Where a planet itself is, as opposed to the barycentre of its system.
///
/// Why it matters: the ephemeris gives Mercury … Pluto as system barycentres (JPL DE440 does),
/// while a spacecraft at Jupiter or Saturn orbits the planet, and its moons pull the planet
/// around that barycentre. The planet's centre is the barycentre minus Σ (GM_moon / GM_system) ·
/// r_moon over the moons the engine has (r_moon relative to the planet): about 200 km for
/// Jupiter (Callisto and Ganymede; up to ~230 km when they line up) and about 300 km for
/// Saturn (Titan; ~290 km plus Iapetus's ~11 km), 0.15 m for Mars, while Juno passes 4,000 km
/// above the cloud tops at 58 km/s. Mission telemetry needs it to report distances from
/// Jupiter's centre; ``GravityModel`` centres its frame there when the moons are perturbers.
///
/// Positions km, velocities km/s, ecliptic J2000, time TDB seconds past J2000.
///
/// ```swift
/// let o = PlanetCenter.offsetFromBarycenter(.jupiter, ephemeris: eph, seconds: 5.2e8)
/// let jupiterCentreKm = eph.state(.jupiter, at: t).positionAU * Constants.auKm + o.positionKm
/// ```
public enum PlanetCenter {
    /// The moons the engine has for `planet` (empty for planets without any, and for the Earth,
    /// which the ephemeris serves as the Earth itself, not as the Earth–Moon barycentre).
    public static func moons(of planet: BodyID) -> [BodyID] {
        switch planet {
        case .mars: [.phobos, .deimos]
        case .jupiter: [.io, .europa, .ganymede, .callisto]
        case .saturn: [.mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus]
        default: []
        }
    }

    /// GM of the planet without its moons, km³/s²: JUP365's Jupiter, SAT441's Saturn, Mars as
    /// DE440's system less MAR097's Phobos and Deimos; the system GM for the others.
    public static func planetGM(_ planet: BodyID) -> Double {
        switch planet {
        case .jupiter: GravityConstants.jupiterGM
        case .saturn: GravityConstants.saturnGM
        case .mars: GravityConstants.marsSystemGM - GravityConstants.phobosGM - GravityConstants.deimosGM
        default: GravityConstants.gm(planet)
        }
    }

    /// The planet's centre relative to its system barycentre (the body the ephemeris serves),
    /// km and km/s: −Σ (GM_moon / GM_system) · (r_moon, v_moon). Zero for planets without
    /// moons in the engine.
    public static func offsetFromBarycenter(_ planet: BodyID, ephemeris: Ephemeris, seconds: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let moons = moons(of: planet)
        guard !moons.isEmpty else { return (.zero, .zero) }
        let states = moonStates(planet, ephemeris: ephemeris, seconds: seconds)
        var p = Vector3.zero, v = Vector3.zero
        for (i, moon) in moons.enumerated() {
            let w = GravityConstants.gm(moon) / GravityConstants.gm(planet)
            p -= states[i].r * w
            v -= states[i].v * w
        }
        return (p, v)
    }

    /// The moons of `planet` relative to its centre, in `moons(of:)` order: positions from the
    /// engine's theories (the same calls `Ephemeris.parentRelativeState` makes, one run of the
    /// theory for all the moons), velocities as the derivative of those positions.
    ///
    /// The Galilean and Saturnian theories give velocities as a central difference (relative
    /// error ~7·10⁻⁶, 0.12 m/s for Io), too coarse for a table that must hold a metre between
    /// nodes minutes apart, and the Martian moons' analytic velocities leave out the elements'
    /// slow turning (1.4·10⁻⁵, 3 cm/s), so the positions are differentiated here with the
    /// fourth-order stencil [8(p(t+δ) − p(t−δ)) − (p(t+2δ) − p(t−2δ))] / 12δ, δ = the innermost
    /// moon's period / 1000 (truncation (2πδ/P)⁴/30 ≈ 5·10⁻¹¹).
    static func moonStates(_ planet: BodyID, ephemeris: Ephemeris, seconds: Double) -> [PhaseState] {
        let instant = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        switch planet {
        case .jupiter:
            let jd = instant.jdTDB
            let delta = 1.769_137_786 / 1000 // Io's period, days (Meeus ch. 44: 360° / 203.488955790°/day)
            func at(_ k: Double) -> GalileanPositions { GalileanMoons.planetocentricPositionsKm(jdTDB: jd + k * delta) }
            let p0 = at(0), p1 = at(1), m1 = at(-1), p2 = at(2), m2 = at(-2)
            let scale = 1 / (12 * delta * Constants.secondsPerDay)
            return moons(of: planet).map { b in
                PhaseState(r: p0[b], v: ((p1[b] - m1[b]) * 8 - (p2[b] - m2[b])) * scale)
            }
        case .saturn:
            let jd = instant.jdTDB
            let delta = 0.942_421_813 / 1000 // Mimas's period, days (Meeus ch. 46)
            func at(_ k: Double) -> SaturnianPositions { SaturnianMoons.planetocentricPositionsKm(jdTDB: jd + k * delta) }
            let p0 = at(0), p1 = at(1), m1 = at(-1), p2 = at(2), m2 = at(-2)
            let scale = 1 / (12 * delta * Constants.secondsPerDay)
            return moons(of: planet).map { b in
                PhaseState(r: p0[b], v: ((p1[b] - m1[b]) * 8 - (p2[b] - m2[b])) * scale)
            }
        case .mars:
            let jd = instant.jdTDB
            let delta = 0.318_910_203 / 1000 // Phobos's period, days (JPL mean elements)
            let moons = moons(of: planet)
            func at(_ k: Double) -> [Vector3] { moons.map { MartianMoons.planetocentricPositionKm($0, jdTDB: jd + k * delta) } }
            let p0 = at(0), p1 = at(1), m1 = at(-1), p2 = at(2), m2 = at(-2)
            let scale = 1 / (12 * delta * Constants.secondsPerDay)
            return moons.indices.map { i in PhaseState(r: p0[i], v: ((p1[i] - m1[i]) * 8 - (p2[i] - m2[i])) * scale) }
        default:
            return []
        }
    }
}
