import Glibc
import Ephemeris

/// An adaptive explicit Runge–Kutta integrator of order 8 with dense output: Dormand & Prince's
/// 8(5,3) pair as Hairer, Nørsett & Wanner give it (*Solving ODEs I*, §II.10, "DOP853"), with the
/// 7th-order continuous extension, so a ``PropagatedArc`` answers the state at any time of the
/// span without re-integrating.
///
/// Why this method: spacecraft trajectories are smooth but span scales from minutes (a 58 km/s
/// perijove) to months (an apoapsis), and the interpolator samples every arc densely. A high
/// order keeps the step count low at the metre-level accuracy the missions need, the error
/// control follows the periapsis passes on its own, and the dense output costs three extra
/// evaluations per step instead of restarting at every query.
///
/// The second-order equation r̈ = a(r, t) is integrated as the first-order system (r, v).
/// Forward and backward in time alike (the target may be earlier than the start). The error of a
/// step is measured component by component against `absoluteTolerance + relativeTolerance ·
/// |component|`, positions in km and velocities in km/s each with their own absolute part,
/// combining the 5th- and 3rd-order estimates as Hairer does.
///
/// ```swift
/// let integrator = DormandPrince853()          // metre-level over a day at flyby speeds
/// let arc = try integrator.propagate(state, to: state.seconds + 86_400, model: GravityModel(...))
/// ```
///
/// Runaway is an error, never a trap or a hang: more than ``maxSteps`` attempts, a step size the
/// time can no longer resolve, or numbers that stop being finite throw a ``PropagationError``.
public struct DormandPrince853: Sendable, Hashable {
    /// Relative part of the per-component error bound.
    public var relativeTolerance: Double
    /// Absolute part of the bound on position components, km.
    public var absoluteToleranceKm: Double
    /// Absolute part of the bound on velocity components, km/s.
    public var absoluteToleranceKmS: Double
    /// Most steps (accepted and rejected) one propagation may try.
    public var maxSteps: Int
    /// Longest step allowed, seconds (infinity: no limit beyond the error control).
    public var maxStepSeconds: Double

    /// The defaults keep the position error at the metre level over a day for planetary flyby
    /// speeds (measured: a 15 km/s Earth flyby, a 58 km/s Juno perijove; see the tests) while a
    /// year of Juno-like orbits takes a few thousand steps.
    public init(relativeTolerance: Double = 1e-13, absoluteToleranceKm: Double = 1e-9, absoluteToleranceKmS: Double = 1e-12,
                maxSteps: Int = 1_000_000, maxStepSeconds: Double = .infinity) {
        self.relativeTolerance = relativeTolerance
        self.absoluteToleranceKm = absoluteToleranceKm
        self.absoluteToleranceKmS = absoluteToleranceKmS
        self.maxSteps = maxSteps
        self.maxStepSeconds = maxStepSeconds
    }

    /// Step-size control (Hairer's DOP853 defaults): a safety factor on the predicted step, and
    /// the step may shrink at most 3× and grow at most 6× at a time.
    static let safety = 0.9
    static let minFactor = 1.0 / 3
    static let maxFactor = 6.0
    /// Consecutive steps rejected for non-finite numbers before giving up.
    static let nonFiniteRetries = 40

    /// Integrates `state` to `seconds` (TDB past J2000, before or after the state's time) under
    /// `model`; the state is relative to the model's centre, ecliptic J2000. `shouldStop` is
    /// asked before every step: true ends the integration with ``PropagationError/stopped(reachedSeconds:)``
    /// (a request's time budget spent, a server shutting down).
    public func propagate<Model: AccelerationModel>(_ state: OrbitalState, to seconds: Double, model: Model,
                                                    shouldStop: () -> Bool = { false }) throws(PropagationError) -> PropagatedArc {
        guard state.seconds.isFinite, state.positionKm.isFinite, state.velocityKmS.isFinite else {
            throw .invalidInput("the initial state is not finite")
        }
        guard seconds.isFinite else { throw .invalidInput("the target time is not finite") }
        guard relativeTolerance > 0, absoluteToleranceKm > 0, absoluteToleranceKmS > 0,
              relativeTolerance.isFinite, absoluteToleranceKm.isFinite, absoluteToleranceKmS.isFinite else {
            throw .invalidInput("tolerances must be positive and finite")
        }
        guard maxSteps > 0, maxStepSeconds > 0 else { throw .invalidInput("maxSteps and maxStepSeconds must be positive") }

        let start = PhaseState(r: state.positionKm, v: state.velocityKmS)
        if seconds == state.seconds {
            return PropagatedArc(start: state, end: state, steps: [], rejected: 0, evaluations: 0)
        }
        func derivative(_ t: Double, _ y: PhaseState) -> PhaseState {
            PhaseState(r: y.v, v: model.accelerationKmS2(at: y.r, velocityKmS: y.v, seconds: t))
        }

        let direction: Double = seconds > state.seconds ? 1 : -1
        let c = Tableau.c, a = Tableau.a, b = Tableau.b, e3 = Tableau.errorOrder3, e5 = Tableau.errorOrder5, d = Tableau.dense
        var k = [PhaseState](repeating: .zero, count: 16)
        var t = state.seconds
        var y = start
        k[0] = derivative(t, y)
        var evaluations = 1
        guard k[0].isFinite else { throw .nonFiniteState(seconds: t) }

        var h = try initialStep(t: t, y: y, f0: k[0], direction: direction, target: seconds, evaluations: &evaluations, derivative: derivative)
        var steps: [DenseStep] = []
        var attempts = 0, rejected = 0, nonFiniteInARow = 0
        var lastRejected = false

        while true {
            attempts += 1
            if attempts > maxSteps { throw .tooManySteps(limit: maxSteps, reachedSeconds: t) }
            if shouldStop() { throw .stopped(reachedSeconds: t) }
            // The last step lands exactly on the target.
            var last = false
            if (t + h - seconds) * direction >= 0 {
                h = seconds - t
                last = true
            }
            if !last, abs(h) < Self.minimumStep(at: t) {
                if nonFiniteInARow > 0 { throw .nonFiniteState(seconds: t) }
                throw .stepSizeUnderflow(seconds: t, stepSeconds: abs(h))
            }

            // Stages 1…11.
            for i in 1...11 {
                k[i] = derivative(t + c[i] * h, y + Self.combination(a[i], k) * h)
            }
            evaluations += 11
            let increment = Self.combination(b, k)
            let yNew = y + increment * h
            let err = errorNorm(e5: Self.combination(e5, k), e3: Self.combination(e3, k), h: h, y0: y, y1: yNew)

            // A step whose numbers broke down (NaN, infinity) is retried much shorter.
            var brokeDown = !err.isFinite || !yNew.isFinite
            var dense: DenseStep?
            if err <= 1, !brokeDown {
                // The slope at the new point (stage 0 of the next step), then the three stages
                // only the dense output needs.
                k[12] = derivative(t + h, yNew)
                for i in 13...15 {
                    k[i] = derivative(t + c[i] * h, y + Self.combination(a[i], k) * h)
                }
                evaluations += 4
                let dy = yNew - y
                let f1 = k[0] * h - dy
                let f2 = dy - k[12] * h - f1
                let step = DenseStep(startSeconds: t, stepSeconds: h, y: y, f0: dy, f1: f1, f2: f2,
                                     f3: Self.combination(d[0], k) * h, f4: Self.combination(d[1], k) * h,
                                     f5: Self.combination(d[2], k) * h, f6: Self.combination(d[3], k) * h)
                if k[12].isFinite, step.f3.isFinite, step.f4.isFinite, step.f5.isFinite, step.f6.isFinite {
                    dense = step
                } else {
                    brokeDown = true
                }
            }

            guard let dense else {
                // Rejected: shrink (hard when the numbers broke down), never grow on the retry.
                rejected += 1
                if brokeDown {
                    nonFiniteInARow += 1
                    if nonFiniteInARow > Self.nonFiniteRetries { throw .nonFiniteState(seconds: t) }
                    h *= 0.25
                } else {
                    nonFiniteInARow = 0
                    h *= max(Self.minFactor, Self.safety * pow(err, -1.0 / 8))
                }
                lastRejected = true
                continue
            }

            nonFiniteInARow = 0
            steps.append(dense)
            t = last ? seconds : t + h
            y = yNew
            k[0] = k[12]
            if last { break }
            var factor = err > 0 ? Self.safety * pow(err, -1.0 / 8) : Self.maxFactor
            factor = min(lastRejected ? 1 : Self.maxFactor, max(Self.minFactor, factor))
            h = direction * min(abs(h * factor), maxStepSeconds)
            lastRejected = false
        }
        let end = OrbitalState(seconds: seconds, positionKm: y.r, velocityKmS: y.v)
        return PropagatedArc(start: state, end: end, steps: steps, rejected: rejected, evaluations: evaluations)
    }

    /// The smallest step the time `t` still resolves comfortably (64 units in its last place).
    static func minimumStep(at t: Double) -> Double { 64 * max(abs(t), 1).ulp }

    /// Σ w_j k_j over the stages with nonzero weights.
    @inline(__always) static func combination(_ weights: [Double], _ k: [PhaseState]) -> PhaseState {
        var sum = PhaseState.zero
        for j in weights.indices where weights[j] != 0 {
            sum += k[j] * weights[j]
        }
        return sum
    }

    /// Hairer's error measure for DOP853: the 5th-order estimate, damped where the 3rd-order one
    /// says the step is far from its asymptotic regime, each component scaled by its tolerance.
    /// Below 1 the step is accepted.
    func errorNorm(e5: PhaseState, e3: PhaseState, h: Double, y0: PhaseState, y1: PhaseState) -> Double {
        var sum5 = 0.0, sum3 = 0.0
        func add(_ e5: Double, _ e3: Double, _ a: Double, _ b: Double, absolute: Double) {
            let scale = absolute + relativeTolerance * max(abs(a), abs(b))
            sum5 += (e5 / scale) * (e5 / scale)
            sum3 += (e3 / scale) * (e3 / scale)
        }
        add(e5.r.x, e3.r.x, y0.r.x, y1.r.x, absolute: absoluteToleranceKm)
        add(e5.r.y, e3.r.y, y0.r.y, y1.r.y, absolute: absoluteToleranceKm)
        add(e5.r.z, e3.r.z, y0.r.z, y1.r.z, absolute: absoluteToleranceKm)
        add(e5.v.x, e3.v.x, y0.v.x, y1.v.x, absolute: absoluteToleranceKmS)
        add(e5.v.y, e3.v.y, y0.v.y, y1.v.y, absolute: absoluteToleranceKmS)
        add(e5.v.z, e3.v.z, y0.v.z, y1.v.z, absolute: absoluteToleranceKmS)
        var denominator = sum5 + 0.01 * sum3
        if !(denominator > 0) { denominator = 1 }
        return abs(h) * sum5 / (6 * denominator).squareRoot()
    }

    /// The RMS of a state scaled by the tolerances at that state.
    func scaledNorm(_ v: PhaseState, at y: PhaseState) -> Double {
        func term(_ x: Double, _ ref: Double, _ absolute: Double) -> Double {
            let s = x / (absolute + relativeTolerance * abs(ref))
            return s * s
        }
        let sum = term(v.r.x, y.r.x, absoluteToleranceKm) + term(v.r.y, y.r.y, absoluteToleranceKm) + term(v.r.z, y.r.z, absoluteToleranceKm)
            + term(v.v.x, y.v.x, absoluteToleranceKmS) + term(v.v.y, y.v.y, absoluteToleranceKmS) + term(v.v.z, y.v.z, absoluteToleranceKmS)
        return (sum / 6).squareRoot()
    }

    /// The first step: the usual estimate from the sizes of the state, its slope and its
    /// second derivative (Hairer, Nørsett & Wanner §II.4, "Automatic step size control"),
    /// signed by the direction and no longer than the span or ``maxStepSeconds``.
    func initialStep(t: Double, y: PhaseState, f0: PhaseState, direction: Double, target: Double,
                     evaluations: inout Int, derivative: (Double, PhaseState) -> PhaseState) throws(PropagationError) -> Double {
        let span = abs(target - t)
        let d0 = scaledNorm(y, at: y), d1 = scaledNorm(f0, at: y)
        var h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1
        h0 = min(h0, span, maxStepSeconds)
        let f1 = derivative(t + direction * h0, y + f0 * (direction * h0))
        evaluations += 1
        guard f1.isFinite else { return direction * max(h0 * 1e-3, Self.minimumStep(at: t)) }
        let d2 = scaledNorm(f1 - f0, at: y) / h0
        let h1 = max(d1, d2) <= 1e-15 ? max(1e-6, h0 * 1e-3) : pow(0.01 / max(d1, d2), 1.0 / 8)
        return direction * min(100 * h0, h1, span, maxStepSeconds)
    }
}
