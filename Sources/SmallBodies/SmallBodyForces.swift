import Glibc
import Astrodynamics
import Ephemeris

/// The forces on an asteroid or comet, in the solar-system barycentric frame (ecliptic J2000,
/// km, km/s, TDB seconds), as JPL's small-body integrator models them (Giorgini et al.;
/// Farnocchia et al. 2015, *Asteroids IV*, "Asteroid impact monitoring"):
///
/// - Newtonian point masses from the DE kernel: the Sun, the Mercury and Venus systems, the Earth
///   and the Moon apart, the Mars … Neptune systems and the Pluto system (DE440 GMs);
/// - the massive asteroids (SB441-N16's, those loaded), each from its own integrated path;
/// - the Sun's first post-Newtonian (Schwarzschild) term, PPN β = γ = 1, in harmonic
///   coordinates: a = μ/(c²r³) [(4μ/r − v²) r + 4 (r·v) v], r and v heliocentric;
/// - the non-gravitational acceleration (``NonGravitationalParameters``), with g(r) read `DT`
///   days earlier on the two-body orbit through the current state.
struct SmallBodyForces: AccelerationModel {
    let kernel: PlanetaryKernel
    let perturbers: [PerturberPath]
    let relativity: Bool
    let nonGravitational: NonGravitationalParameters?

    /// GM of each of `PlanetaryKernel.pointMasses`, km³/s² (DE440).
    static let pointMassGM: [Double] = PlanetaryKernel.pointMasses.map { body in
        switch body {
        case .sun: GravityConstants.sunGM
        case .mercury: GravityConstants.mercurySystemGM
        case .venus: GravityConstants.venusSystemGM
        case .earth: GravityConstants.earthGM
        case .moon: GravityConstants.moonGM
        case .mars: GravityConstants.marsSystemGM
        case .jupiter: GravityConstants.jupiterSystemGM
        case .saturn: GravityConstants.saturnSystemGM
        case .uranus: GravityConstants.uranusSystemGM
        case .neptune: GravityConstants.neptuneSystemGM
        default: GravityConstants.plutoSystemGM
        }
    }
    static let c2 = SmallBodyConstants.speedOfLightKmS * SmallBodyConstants.speedOfLightKmS

    func accelerationKmS2(at r: Vector3, seconds: Double) -> Vector3 {
        accelerationKmS2(at: r, velocityKmS: .zero, seconds: seconds)
    }

    func accelerationKmS2(at r: Vector3, velocityKmS v: Vector3, seconds t: Double) -> Vector3 {
        withUnsafeTemporaryAllocation(of: Vector3.self, capacity: Self.pointMassGM.count) { bodies in
            let sunVelocity = kernel.barycentricPositions(secondsPastJ2000: t, into: bodies)
            var a = Vector3.zero
            for k in 0..<Self.pointMassGM.count {
                let d = bodies[k] - r
                let d2 = d.lengthSquared
                a += d * (Self.pointMassGM[k] / (d2 * d2.squareRoot()))
            }
            for p in perturbers {
                let d = p.position(at: t) - r
                let d2 = d.lengthSquared
                a += d * (p.gm / (d2 * d2.squareRoot()))
            }
            guard relativity || nonGravitational != nil else { return a }
            let rh = r - bodies[0], vh = v - sunVelocity // the Sun is pointMasses[0]
            if relativity { a += Self.schwarzschild(rh, vh) }
            if let ng = nonGravitational {
                let distance = ng.dtDays == 0 ? rh.length : Self.delayedDistance(rh, vh, days: ng.dtDays)
                a += ng.accelerationKmS2(r: rh, v: vh, delayedDistanceKm: distance)
            }
            return a
        }
    }

    /// The Sun's post-Newtonian acceleration on a body at heliocentric `r` (km) moving at `v` (km/s).
    @inline(__always) static func schwarzschild(_ r: Vector3, _ v: Vector3) -> Vector3 {
        let mu = GravityConstants.sunGM
        let r2 = r.lengthSquared, rn = r2.squareRoot()
        let factor = mu / (c2 * r2 * rn)
        return (r * (4 * mu / rn - v.lengthSquared) + v * (4 * r.dot(v))) * factor
    }

    /// |r(t − DT)| on the heliocentric two-body orbit through (r, v): on an ellipse by Kepler's
    /// equation from the eccentric anomaly now (e cos E = 1 − r/a, e sin E = r·v/√(μa)), the
    /// comets' case, a third of the universal-variable arc's cost; otherwise by that arc.
    static func delayedDistance(_ r: Vector3, _ v: Vector3, days: Double) -> Double {
        let mu = GravityConstants.sunGM
        let rn = r.length
        let a = 1 / (2 / rn - v.lengthSquared / mu)
        guard a > 0 else {
            return KeplerArc(mu: mu, position: r, velocity: v, epochHours: 0).state(afterSeconds: -days * Constants.secondsPerDay).position.length
        }
        let eCos = 1 - rn / a, eSin = r.dot(v) / (mu * a).squareRoot()
        let e = (eCos * eCos + eSin * eSin).squareRoot()
        guard e < 0.99 else {
            return KeplerArc(mu: mu, position: r, velocity: v, epochHours: 0).state(afterSeconds: -days * Constants.secondsPerDay).position.length
        }
        let m = atan2(eSin, eCos) - eSin - (mu / (a * a * a)).squareRoot() * days * Constants.secondsPerDay
        return a * (1 - e * cos(Kepler.solve(meanAnomaly: m, eccentricity: e)))
    }
}

/// A perturbing asteroid's integrated path over a stretch of time: its GM and its chunks, and
/// the step last read. One integration (one thread) reads it at a time: the model is made for
/// each chunk and used by that chunk's integration alone.
final class PerturberPath: @unchecked Sendable {
    let gm: Double
    let chunks: ChunkedPath
    private var hint = 0

    init(gm: Double, chunks: ChunkedPath) {
        self.gm = gm
        self.chunks = chunks
    }

    @inline(__always) func position(at t: Double) -> Vector3 { chunks.position(at: t, hint: &hint) }
}
