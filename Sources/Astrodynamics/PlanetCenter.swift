import Ephemeris

/// Where a planet itself is, as opposed to the barycentre of its system.
///
/// Why it matters: the ephemeris gives Mercury … Pluto as system barycentres (JPL DE440 does),
/// while a spacecraft at Jupiter or Saturn orbits the planet, and its moons pull the planet
/// around that barycentre. The planet's centre is the barycentre minus Σ (GM_moon / GM_system) ·
/// r_moon over the moons the engine has (r_moon relative to the planet). Measured over
/// 2016–2018: Jupiter's centre is 0–220 km from the barycentre (135 km typical; Callisto's and
/// Ganymede's pulls add or cancel), Saturn's 267–312 km (Titan's 289 km, give or take its
/// eccentricity and Iapetus's 11 km), Mars's 0.1–0.2 m — while Juno passes 4,000 km
/// above the cloud tops at 58 km/s. Mission telemetry needs it to report distances from
/// Jupiter's centre; ``GravityModel`` centres its frame there when the moons are perturbers.
///
/// Positions km, velocities km/s, ecliptic J2000, time TDB seconds past J2000. The moons come
/// from the engine's analytical theories (Meeus's for the Galilean and Saturnian moons, JPL's
/// mean elements for Phobos and Deimos), the ones `Ephemeris` serves them from with or
/// without a DE kernel.
///
/// ```swift
/// let o = PlanetCenter.offsetFromBarycenter(.jupiter, seconds: 5.2e8)
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
    public static func offsetFromBarycenter(_ planet: BodyID, seconds: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let moons = moons(of: planet)
        guard !moons.isEmpty else { return (.zero, .zero) }
        let states = moonStates(planet, seconds: seconds)
        var p = Vector3.zero, v = Vector3.zero
        for (i, moon) in moons.enumerated() {
            let w = GravityConstants.gm(moon) / GravityConstants.gm(planet)
            p -= states[i].r * w
            v -= states[i].v * w
        }
        return (p, v)
    }

    /// The moons of `planet` relative to its centre, km, in `moons(of:)` order, from one run of
    /// the engine's theory (the calls `Ephemeris.parentRelativeState` makes).
    static func moonPositions(_ planet: BodyID, seconds: Double) -> [Vector3] {
        let jd = TimeScale.instant(tdbSecondsPastJ2000: seconds).jdTDB
        switch planet {
        case .jupiter:
            let p = GalileanMoons.planetocentricPositionsKm(jdTDB: jd)
            return moons(of: planet).map { p[$0] }
        case .saturn:
            let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd)
            return moons(of: planet).map { p[$0] }
        case .mars:
            return moons(of: planet).map { MartianMoons.planetocentricPositionKm($0, jdTDB: jd) }
        default:
            return []
        }
    }

    /// The moons' positions (`moonPositions`) and velocities, the derivative of those positions.
    ///
    /// The Galilean and Saturnian theories give velocities as a central difference (relative
    /// error ~7·10⁻⁶, 0.12 m/s for Io) and the Martian moons' analytic velocities leave out the
    /// elements' slow turning (1.4·10⁻⁵, 3 cm/s): too coarse where metres count between
    /// positions minutes apart. So the positions are differentiated here with the fourth-order
    /// stencil [8(p(t+δ) − p(t−δ)) − (p(t+2δ) − p(t−2δ))] / 12δ, δ = the innermost moon's
    /// period / 1000 (truncation (2πδ/P)⁴/30 ≈ 5·10⁻¹¹).
    static func moonStates(_ planet: BodyID, seconds: Double) -> [PhaseState] {
        let period: Double
        switch planet {
        case .jupiter: period = 1.769_137_786 // Io, days (Meeus ch. 44: 360° / 203.488955790°/day)
        case .saturn: period = 0.942_421_813 // Mimas, days (Meeus ch. 46)
        case .mars: period = 0.318_910_203 // Phobos, days (JPL mean elements)
        default: return []
        }
        let delta = period / 1000 * Constants.secondsPerDay
        func at(_ k: Double) -> [Vector3] { moonPositions(planet, seconds: seconds + k * delta) }
        let p0 = at(0), p1 = at(1), m1 = at(-1), p2 = at(2), m2 = at(-2)
        let scale = 1 / (12 * delta)
        return p0.indices.map { i in PhaseState(r: p0[i], v: ((p1[i] - m1[i]) * 8 - (p2[i] - m2[i])) * scale) }
    }
}
