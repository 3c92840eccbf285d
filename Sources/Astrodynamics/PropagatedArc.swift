import Ephemeris

/// A numerically integrated trajectory: the state at any time inside the span it covers, from
/// the integrator's dense output (Dormand–Prince's 7th-order continuous extension, one
/// polynomial per step), plus what the integration cost.
///
/// Times are TDB seconds past J2000; positions km and velocities km/s relative to the centre of
/// the ``AccelerationModel`` it was integrated with, ecliptic J2000. The span runs from
/// ``start`` to ``end`` whichever way the integration went (``isBackward``); ``start`` and
/// ``end`` themselves are returned exactly.
///
/// ```swift
/// let arc = try DormandPrince853().propagate(sample, to: sample.seconds + 86_400, model: jupiter)
/// let noon = try arc.state(at: sample.seconds + 43_200)
/// arc.stepCount
/// ```
public struct PropagatedArc: Sendable {
    /// The state the integration started from.
    public let start: OrbitalState
    /// The state at the target time.
    public let end: OrbitalState
    /// Accepted steps.
    public let stepCount: Int
    /// Steps tried and rejected by the error control.
    public let rejectedStepCount: Int
    /// Acceleration evaluations, the integration's real cost (15 per accepted step with dense
    /// output, 11 per rejected one, plus the start).
    public let evaluationCount: Int
    /// The steps in increasing time, whichever way they were taken.
    let steps: [DenseStep]

    init(start: OrbitalState, end: OrbitalState, steps: [DenseStep], rejected: Int, evaluations: Int) {
        self.start = start
        self.end = end
        self.steps = end.seconds < start.seconds ? steps.reversed() : steps
        stepCount = steps.count
        rejectedStepCount = rejected
        evaluationCount = evaluations
    }

    /// True when the integration ran backward in time.
    public var isBackward: Bool { end.seconds < start.seconds }

    /// The times covered, TDB seconds past J2000.
    public var span: ClosedRange<Double> { min(start.seconds, end.seconds)...max(start.seconds, end.seconds) }

    /// The state at `seconds` (inside ``span``) from the dense output; exact at both ends.
    public func state(at seconds: Double) throws(PropagationError) -> OrbitalState {
        guard span.contains(seconds) else { throw .outsideSpan(seconds: seconds, span: span) }
        if seconds == start.seconds { return start }
        if seconds == end.seconds { return end }
        let y = steps[stepIndex(containing: seconds)].evaluate(at: seconds)
        return OrbitalState(seconds: seconds, positionKm: y.r, velocityKmS: y.v)
    }

    /// The times where the integrator's steps meet, increasing (both ends included): between two
    /// of them the dense output is one polynomial.
    public var stepTimes: [Double] {
        guard let first = steps.first else { return [start.seconds] }
        return [first.lowerSeconds] + steps.map { $0.lowerSeconds + abs($0.stepSeconds) }
    }

    /// The position alone at `seconds`, clamped into ``span`` (the hot path of a perturber
    /// read many times per step: no state built, no error).
    @inline(__always) public func position(at seconds: Double) -> Vector3 {
        var hint = 0
        return position(at: seconds, hint: &hint)
    }

    /// The same, starting the search at step `hint` and leaving there the step used: a
    /// perturber read at the stages of one integration step after another finds its step at
    /// once instead of by a binary search.
    @inline(__always) public func position(at seconds: Double, hint: inout Int) -> Vector3 {
        guard !steps.isEmpty else { return start.positionKm }
        let t = min(max(seconds, span.lowerBound), span.upperBound)
        var i = min(max(hint, 0), steps.count - 1)
        if steps[i].lowerSeconds > t || (i + 1 < steps.count && steps[i + 1].lowerSeconds <= t) {
            if i + 1 < steps.count, steps[i + 1].lowerSeconds <= t, i + 2 >= steps.count || steps[i + 2].lowerSeconds > t {
                i += 1
            } else {
                i = stepIndex(containing: t)
            }
        }
        hint = i
        return steps[i].evaluatePosition(at: t)
    }

    /// The whole arc as numbers (for a cache that keeps doubles): start, end, counts, then each
    /// step's 50 numbers. ``init(packed:)`` reads it back exactly.
    public var packed: [Double] {
        var out: [Double] = [start.seconds, end.seconds, Double(stepCount), Double(rejectedStepCount), Double(evaluationCount)]
        out.reserveCapacity(out.count + 12 + steps.count * DenseStep.packedCount)
        for s in [start, end] { out += [s.positionKm.x, s.positionKm.y, s.positionKm.z, s.velocityKmS.x, s.velocityKmS.y, s.velocityKmS.z] }
        for step in steps { step.pack(into: &out) }
        return out
    }

    /// An arc from ``packed`` (nil when the numbers are not one).
    public init?(packed p: [Double]) {
        guard p.count >= 17, let count = Int(exactly: p[2]), count >= 0, p.count == 17 + count * DenseStep.packedCount,
              let rejected = Int(exactly: p[3]), let evaluations = Int(exactly: p[4]) else { return nil }
        func state(_ k: Int, _ t: Double) -> OrbitalState {
            OrbitalState(seconds: t, positionKm: Vector3(p[k], p[k + 1], p[k + 2]), velocityKmS: Vector3(p[k + 3], p[k + 4], p[k + 5]))
        }
        let start = state(5, p[0]), end = state(11, p[1])
        var steps: [DenseStep] = []
        steps.reserveCapacity(count)
        for k in 0..<count { steps.append(DenseStep(unpacking: p, at: 17 + k * DenseStep.packedCount)) }
        self.start = start
        self.end = end
        self.steps = steps
        stepCount = count
        rejectedStepCount = rejected
        evaluationCount = evaluations
    }

    /// The last step whose lower end is at or before `seconds` (binary search).
    func stepIndex(containing seconds: Double) -> Int {
        var lo = 0, hi = steps.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if steps[mid].lowerSeconds <= seconds { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// One step's continuous extension: y(θ) = y₀ + θ(F₀ + θ′(F₁ + θ(F₂ + θ′(F₃ + θ(F₄ + θ′(F₅ +
/// θ F₆)))))), θ = (t − t₀)/h, θ′ = 1 − θ (Hairer, Nørsett & Wanner, §II.10; the nesting of
/// Hairer's CONTD8).
struct DenseStep: Sendable {
    let startSeconds: Double
    let stepSeconds: Double
    let y: PhaseState
    let f0, f1, f2, f3, f4, f5, f6: PhaseState

    var lowerSeconds: Double { stepSeconds < 0 ? startSeconds + stepSeconds : startSeconds }

    /// ``evaluate(at:)``'s position alone (half the work).
    @inline(__always) func evaluatePosition(at t: Double) -> Vector3 {
        let x = (t - startSeconds) / stepSeconds, x1 = 1 - x
        var s = f6.r * x
        s = (f5.r + s) * x1
        s = (f4.r + s) * x
        s = (f3.r + s) * x1
        s = (f2.r + s) * x
        s = (f1.r + s) * x1
        s = (f0.r + s) * x
        return y.r + s
    }

    @inline(__always) func evaluate(at t: Double) -> PhaseState {
        let x = (t - startSeconds) / stepSeconds, x1 = 1 - x
        var s = f6 * x
        s = (f5 + s) * x1
        s = (f4 + s) * x
        s = (f3 + s) * x1
        s = (f2 + s) * x
        s = (f1 + s) * x1
        s = (f0 + s) * x
        return y + s
    }
}

/// A step as the numbers `PropagatedArc.packed` writes.
extension DenseStep {
    static let packedCount = 2 + 8 * 6

    func pack(into out: inout [Double]) {
        out.append(startSeconds)
        out.append(stepSeconds)
        for s in [y, f0, f1, f2, f3, f4, f5, f6] { out += [s.r.x, s.r.y, s.r.z, s.v.x, s.v.y, s.v.z] }
    }

    init(unpacking p: [Double], at k: Int) {
        func state(_ j: Int) -> PhaseState {
            let i = k + 2 + 6 * j
            return PhaseState(r: Vector3(p[i], p[i + 1], p[i + 2]), v: Vector3(p[i + 3], p[i + 4], p[i + 5]))
        }
        self.init(startSeconds: p[k], stepSeconds: p[k + 1], y: state(0), f0: state(1), f1: state(2), f2: state(3),
                  f3: state(4), f4: state(5), f5: state(6), f6: state(7))
    }
}
