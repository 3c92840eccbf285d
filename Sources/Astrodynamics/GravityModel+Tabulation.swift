import Glibc
import Ephemeris

/// How `GravityModel` tabulates its perturbers: which states, on which grid.
extension GravityModel {
    /// What a table may lose between its nodes, km (half the metre the propagator aims at).
    static let tabulationToleranceKm = 5e-4
    /// The coarsest grid, seconds (2¹⁸ s ≈ 3 days), however slow the motion.
    static let longestTabulationStep = 262_144.0
    /// The pole's grid and the half-width of the difference that gives its rate, seconds. The
    /// fastest pole motion served is the Moon's monthly terms (0.07°), held to 10⁻¹⁰ rad.
    static let poleStepSeconds = 21_600.0
    static let poleDifferenceSeconds = 600.0

    /// One periodic part of a body's motion relative to the Sun: an amplitude (km, signed so
    /// that the parts two bodies share cancel) and the fastest angular rate along it (rad/s).
    struct MotionTerm: Sendable, Hashable {
        /// The orbit it comes from: a planet's (the Earth's stands for the Earth–Moon
        /// barycentre's), the Moon's about the Earth, a moon's about its planet.
        let key: BodyID
        let amplitudeKm: Double
        let rateRadS: Double
    }

    /// The table of `body` relative to `origin` (the centre, or in planet-centre mode the
    /// system barycentre) from `Ephemeris.state(_:relativeTo:at:)`.
    static func bodyTable(_ body: BodyID, relativeTo origin: BodyID, ephemeris: Ephemeris) -> HermiteTable {
        let step = tabulationStep(relativeTerms(body, origin, ephemeris: ephemeris))
        return HermiteTable(stepSeconds: step, bodies: 1, sampler: .states { seconds in
            let s = ephemeris.state(body, relativeTo: origin, at: TimeScale.instant(tdbSecondsPastJ2000: seconds))
            return [PhaseState(r: s.positionAU * Constants.auKm, v: s.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay))]
        })
    }

    /// Every engine moon of `planet` relative to the planet's centre, one table (one run of
    /// the moons' theory per node; their velocities from the nodes), as the ephemeris serves
    /// them (``Ephemeris/satellitePositionsKm(of:at:)``: a covering kernel's, or the theory
    /// moved by an anchor; the theory alone otherwise, bit for bit).
    static func moonTable(_ planet: BodyID, ephemeris: Ephemeris) -> HermiteTable {
        let moons = PlanetCenter.moons(of: planet)
        let now = PlanetCenter.moonStates(planet, seconds: 0)
        let terms = zip(moons, now).map { moon, s in orbitTerm(moon, r: s.r, v: s.v, mu: GravityConstants.gm(planet)) }
        return HermiteTable(stepSeconds: tabulationStep(terms), bodies: moons.count, sampler: .positions { seconds in
            let served = ephemeris.satellitePositionsKm(of: planet, at: TimeScale.instant(tdbSecondsPastJ2000: seconds))
            return moons.map { m in served.first { $0.body == m }!.km }
        })
    }

    /// The centre's north pole (unit vector, ecliptic J2000) and its rate per second.
    static func poleTable(_ body: BodyID, ephemeris: Ephemeris) -> HermiteTable {
        HermiteTable(stepSeconds: poleStepSeconds, bodies: 1, sampler: .states { seconds in
            func pole(_ t: Double) -> Vector3 { ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: t)).poleEcliptic }
            let d = poleDifferenceSeconds
            return [PhaseState(r: pole(seconds), v: (pole(seconds + d) - pole(seconds - d)) / (2 * d))]
        })
    }

    /// The centre's prime-meridian axis (body-fixed +x, unit vector, ecliptic J2000) and its
    /// rate. It turns once a day, so its grid is fine: cubic Hermite on a unit circle turning at
    /// ω loses ω⁴h⁴/384, 10⁻⁸ rad for Mars at 512 s.
    static func primeMeridianTable(_ body: BodyID, ephemeris: Ephemeris) -> HermiteTable {
        HermiteTable(stepSeconds: primeMeridianStepSeconds, bodies: 1, sampler: .states { seconds in
            func axis(_ t: Double) -> Vector3 { ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: t)).bodyToEcliptic * Vector3(1, 0, 0) }
            let d = primeMeridianDifferenceSeconds
            return [PhaseState(r: axis(seconds), v: (axis(seconds + d) - axis(seconds - d)) / (2 * d))]
        })
    }

    static let primeMeridianStepSeconds = 512.0
    static let primeMeridianDifferenceSeconds = 1.0

    /// The grid step that holds `tabulationToleranceKm` for motion made of `terms`: cubic
    /// Hermite loses at most A·ω⁴·h⁴/384 on a circle of radius A at rate ω, so
    /// h = (384 ε / A)^¼ / ω for the most demanding term, rounded down to a power of two
    /// seconds (a margin, and a grid that does not move when an orbit's elements wobble).
    static func tabulationStep(_ terms: [MotionTerm]) -> Double {
        var step = longestTabulationStep
        for term in terms where abs(term.amplitudeKm) > 1e-6 {
            step = min(step, pow(384 * tabulationToleranceKm / abs(term.amplitudeKm), 0.25) / term.rateRadS)
        }
        return pow(2, floor(log2(step)))
    }

    /// The motion of `body` relative to `origin` as the parts of their heliocentric motions
    /// that do not cancel (the Earth–Moon barycentre's orbit cancels between the Earth and the
    /// Moon; their monthly parts add).
    static func relativeTerms(_ body: BodyID, _ origin: BodyID, ephemeris: Ephemeris) -> [MotionTerm] {
        var merged: [BodyID: MotionTerm] = [:]
        func add(_ terms: [MotionTerm], sign: Double) {
            for t in terms {
                let amplitude = (merged[t.key]?.amplitudeKm ?? 0) + sign * t.amplitudeKm
                merged[t.key] = MotionTerm(key: t.key, amplitudeKm: amplitude, rateRadS: max(t.rateRadS, merged[t.key]?.rateRadS ?? 0))
            }
        }
        add(heliocentricTerms(body, ephemeris: ephemeris), sign: 1)
        add(heliocentricTerms(origin, ephemeris: ephemeris), sign: -1)
        return merged.values.sorted { $0.key.index < $1.key.index }
    }

    /// A body's heliocentric motion, from its osculating orbit(s) at J2000 (fixed, so the grid
    /// never depends on when it is first asked for): a planet system's orbit; for the Earth
    /// and the Moon the Earth–Moon barycentre's orbit plus their monthly motion about it.
    static func heliocentricTerms(_ body: BodyID, ephemeris: Ephemeris) -> [MotionTerm] {
        let j2000 = TimeScale.instant(tdbSecondsPastJ2000: 0)
        let kmPerSecond = Constants.auKm / Constants.secondsPerDay
        switch body {
        case .sun:
            return []
        case .earth, .moon:
            let earth = ephemeris.state(.earth, at: j2000), moon = ephemeris.state(.moon, at: j2000)
            let mE = GravityConstants.earthGM, mM = GravityConstants.moonGM
            let emb = (earth.positionAU * mE + moon.positionAU * mM) / (mE + mM)
            let embV = (earth.velocityAUPerDay * mE + moon.velocityAUPerDay * mM) / (mE + mM)
            let barycenter = orbitTerm(.earth, r: emb * Constants.auKm, v: embV * kmPerSecond, mu: GravityConstants.sunGM + mE + mM)
            let m = ephemeris.parentRelativeState(.moon, at: j2000)
            let month = orbitTerm(.moon, r: m.positionKm, v: m.velocityKmPerDay / Constants.secondsPerDay, mu: mE + mM)
            let share = body == .earth ? -mM / (mE + mM) : mE / (mE + mM)
            return [barycenter, MotionTerm(key: .moon, amplitudeKm: month.amplitudeKm * share, rateRadS: month.rateRadS)]
        default:
            let s = ephemeris.state(body, at: j2000)
            return [orbitTerm(body, r: s.positionAU * Constants.auKm, v: s.velocityAUPerDay * kmPerSecond,
                              mu: GravityConstants.sunGM + GravityConstants.gm(body))]
        }
    }

    /// An osculating orbit as a motion term: amplitude a(1 + e), rate the angular rate at
    /// periapsis, n(1 + e)²/(1 − e²)^{3/2}.
    static func orbitTerm(_ key: BodyID, r: Vector3, v: Vector3, mu: Double) -> MotionTerm {
        let rn = r.length
        let a = 1 / (2 / rn - v.lengthSquared / mu)
        let e = min(0.9, (v.cross(r.cross(v)) / mu - r / rn).length)
        let n = (mu / (a * a * a)).squareRoot()
        return MotionTerm(key: key, amplitudeKm: a * (1 + e), rateRadS: n * (1 + e) * (1 + e) / pow(1 - e * e, 1.5))
    }
}
