import Ephemeris

/// A force model plus six small empirical accelerations, the way orbit determination spreads
/// what its model leaves out (a gravity field's higher harmonics, the upper atmosphere's drag,
/// sunlight's pressure, small trims) over an arc rather than at its ends: "reduced dynamics".
///
/// With R̂ the direction of the position, N̂ the normal of the reference orbit (the arc's first
/// state), T̂ = N̂ × R̂ along the track and u the angle from the first position in that plane
/// (cos u = R̂·P̂, sin u = R̂·Q̂):
///
///     a = a_model + (c₀ + c₂ cos u + c₃ sin u) T̂ + c₁ R̂ + (c₄ cos u + c₅ sin u) N̂
///
/// Why these six: over many revolutions a constant along-track push changes the orbit's size
/// and so its phase, a constant radial one its period apart from its size; once-per-revolution
/// along-track terms turn the eccentricity vector and normal ones the plane (Gauss's
/// equations), each secularly, so micrometres per second squared move a day's end state by
/// kilometres. Six parameters, six conditions: fitted so the arc integrated from one state
/// arrives at the next with its position and velocity (``BlendedInterval/fitted``). (Against
/// Horizons' 10-minute states of MRO and MAVEN a constant radial term left a day's path closer
/// to them than an along-track term growing in time, at the same size.) Everything depends on
/// the position alone, so the plain ``accelerationKmS2(at:seconds:)`` holds it too.
///
/// Units km/s²; positions relative to the model's centre, ecliptic J2000; TDB seconds.
public struct EmpiricalAccelerations<Base: AccelerationModel>: AccelerationModel {
    /// How many coefficients there are.
    public static var count: Int { 6 }
    /// The forces modelled.
    public let base: Base
    /// c₀ … c₅, km/s².
    public private(set) var coefficients: [Double]
    /// The reference orbit's axes: P̂ to the first position, Q̂ = N̂ × P̂, N̂ its normal.
    let p: Vector3, q: Vector3, n: Vector3

    /// `reference` sets the axes (its position and velocity must not be parallel).
    /// Coefficients default to zero: the model alone.
    public init(base: Base, reference: OrbitalState, coefficients: [Double] = Array(repeating: 0, count: 6)) {
        precondition(coefficients.count == Self.count, "six coefficients")
        self.base = base
        self.coefficients = coefficients
        p = reference.positionKm.normalized
        n = reference.positionKm.cross(reference.velocityKmS).normalized
        q = n.cross(p)
    }

    /// The same axes with other coefficients.
    public func with(_ coefficients: [Double]) -> EmpiricalAccelerations {
        precondition(coefficients.count == Self.count, "six coefficients")
        var copy = self
        copy.coefficients = coefficients
        return copy
    }

    /// The empirical part alone at a position, km/s².
    @inline(__always) public func empiricalKmS2(at positionKm: Vector3) -> Vector3 {
        let c = coefficients
        let r = positionKm.normalized
        let t = n.cross(r).normalized
        let cosU = r.dot(p), sinU = r.dot(q)
        let along: Double = c[0] + c[2] * cosU + c[3] * sinU
        let normal: Double = c[4] * cosU + c[5] * sinU
        return t * along + r * c[1] + n * normal
    }

    /// An upper bound of the empirical part's size anywhere, km/s².
    public var boundKmS2: Double {
        let c = coefficients
        return abs(c[0]) + abs(c[1]) + (c[2] * c[2] + c[3] * c[3]).squareRoot() + (c[4] * c[4] + c[5] * c[5]).squareRoot()
    }

    public func accelerationKmS2(at positionKm: Vector3, seconds: Double) -> Vector3 {
        base.accelerationKmS2(at: positionKm, seconds: seconds) + empiricalKmS2(at: positionKm)
    }

    public func accelerationKmS2(at positionKm: Vector3, velocityKmS: Vector3, seconds: Double) -> Vector3 {
        base.accelerationKmS2(at: positionKm, velocityKmS: velocityKmS, seconds: seconds) + empiricalKmS2(at: positionKm)
    }
}

extension BlendedInterval {
    /// How a fitted interval came out: the empirical coefficients (km/s², as
    /// ``EmpiricalAccelerations`` orders them), how far the forward arc missed the end sample
    /// before and after the fit (position km, velocity km/s), and the Newton steps taken.
    public struct Fit: Sendable, Hashable {
        public let coefficients: [Double]
        public let missBeforeKm: Double, missBeforeKmS: Double
        public let missAfterKm: Double, missAfterKmS: Double
        public let iterations: Int
        /// An upper bound of the empirical accelerations' size, km/s².
        public let boundKmS2: Double
    }

    /// The step of the finite-difference Jacobian, km/s² (a micrometre per second squared moves
    /// a day's end state by kilometres: far above the integration's millimetres, small enough to
    /// stay linear).
    static let fitStepKmS2 = 1e-9
    /// The fit stops when the forward arc reaches the end sample within this (km, and km/s times
    /// the orbit's time scale r/v: 10 cm and 0.1 mm/s for a low Mars orbit). Tight, because
    /// the backward arc starts from the end sample: a velocity off by 0.1 m/s there puts it
    /// tens of km along the track from the forward arc after a day.
    static let fitToleranceKm = 1e-4
    static let fitIterations = 12

    /// The path between two samples with no burn between them, as ``BallisticInterpolator``
    /// blends it, but under `model` plus ``EmpiricalAccelerations`` fitted (Newton's method, the
    /// Jacobian by finite differences, then Broyden's updates: ten to fifteen integrations of
    /// the interval) so that the arc integrated forward from `start` arrives at `end`, position
    /// and velocity. The two arcs then nearly coincide and the blend has almost nothing to
    /// bridge: what the model leaves out is spread evenly over the interval (hundredths to
    /// tenths of a mm/s² for a Mars orbiter's day) rather than concentrated where the blend's
    /// weight changes fastest (up to 3.5 mm/s²).
    ///
    /// `coefficients`, when given (a fit made before), are used as they are: two integrations.
    /// A fit that cannot improve on the model alone (a singular Jacobian, a step that does not
    /// shrink the miss) keeps its best coefficients, zero at worst.
    public static func fitted<Model: AccelerationModel>(index: Int, start: OrbitalState, end: OrbitalState, model: Model,
                                                        integrator: DormandPrince853,
                                                        coefficients known: [Double]? = nil) throws(PropagationError) -> (interval: BlendedInterval, fit: Fit) {
        let zero = EmpiricalAccelerations(base: model, reference: start)
        // Velocities weigh as positions over the orbit's time scale (a radian of it).
        let scale = start.positionKm.length / max(start.velocityKmS.length, 1e-9)
        func miss(_ arc: PropagatedArc) -> [Double] {
            let dr = arc.end.positionKm - end.positionKm, dv = (arc.end.velocityKmS - end.velocityKmS) * scale
            return [dr.x, dr.y, dr.z, dv.x, dv.y, dv.z]
        }
        func size(_ f: [Double]) -> Double { f.reduce(0) { max($0, abs($1)) } }
        func propagate(_ c: [Double]) throws(PropagationError) -> PropagatedArc {
            try integrator.propagate(start, to: end.seconds, model: zero.with(c))
        }
        var c = known ?? Array(repeating: 0, count: EmpiricalAccelerations<Model>.count)
        var arc = try propagate(c)
        var f = miss(arc)
        let before = f
        var iterations = 0
        if known == nil, size(f) > fitToleranceKm {
            // Newton's method with Broyden's update of the Jacobian after each step (one
            // integration a step); the Jacobian is made again by differences, once, when a step
            // fails to shrink the miss.
            func jacobianAt(_ c: [Double], _ f: [Double]) throws(PropagationError) -> [[Double]] {
                var jacobian = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
                for k in 0..<6 {
                    var ck = c
                    ck[k] += fitStepKmS2
                    let fk = miss(try propagate(ck))
                    for row in 0..<6 { jacobian[row][k] = (fk[row] - f[row]) / fitStepKmS2 }
                }
                return jacobian
            }
            var jacobian = try jacobianAt(c, f)
            var fresh = true
            while iterations < fitIterations, size(f) > fitToleranceKm {
                guard let step = LinearSystem.solve(jacobian, f.map { -$0 }), step.allSatisfy(\.isFinite) else { break }
                iterations += 1
                let next = zip(c, step).map { $0 + $1 }
                let nextArc = try propagate(next)
                let nextF = miss(nextArc)
                guard size(nextF) < size(f) else {
                    if fresh { break }
                    jacobian = try jacobianAt(c, f)
                    fresh = true
                    continue
                }
                // Broyden: J += (Δf − J·Δc) Δcᵀ / (Δcᵀ Δc).
                let norm = step.reduce(0) { $0 + $1 * $1 }
                for row in 0..<6 {
                    let predicted = (0..<6).reduce(0) { $0 + jacobian[row][$1] * step[$1] }
                    let correction = (nextF[row] - f[row] - predicted) / norm
                    for k in 0..<6 { jacobian[row][k] += correction * step[k] }
                }
                fresh = false
                (c, arc, f) = (next, nextArc, nextF)
            }
        }
        let fitted = zero.with(c)
        let backward = try integrator.propagate(end, to: start.seconds, model: fitted)
        let interval = try BlendedInterval(index: index, start: start, end: end, forward: arc, backward: backward)
        func split(_ f: [Double]) -> (Double, Double) {
            (Vector3(f[0], f[1], f[2]).length, Vector3(f[3], f[4], f[5]).length / scale)
        }
        let (b, bv) = split(before), (a, av) = split(f)
        return (interval, Fit(coefficients: c, missBeforeKm: b, missBeforeKmS: bv, missAfterKm: a, missAfterKmS: av,
                              iterations: iterations, boundKmS2: fitted.boundKmS2))
    }
}
