import Ephemeris

/// The path between two consecutive samples of a spacecraft, made of physics: the arc
/// integrated forward from the first sample and the arc integrated backward from the second,
/// blended so the path passes exactly through both samples, position and velocity.
///
/// Without a burn, with s = (t − t₀)/Δ and w(s) = 10s³ − 15s⁴ + 6s⁵ (w(0) = 0, w(1) = 1,
/// w′ and w″ zero at both ends):
///
///     x(t) = (1 − w) x_f(t) + w x_b(t)
///     v(t) = (1 − w) v_f(t) + w v_b(t) + (w′/Δ)(x_b(t) − x_f(t))
///
/// so v is the derivative of x, and at each sample the velocity is the sample's: continuous
/// across samples. With an impulsive burn at t_b inside the interval the forward arc runs to
/// the burn and the backward arc back to it; the small position gap δ = x_b(t_b) − x_f(t_b)
/// is shared, half spread over each side by the same weight, so the position is continuous
/// and the velocity jumps only at the burn (by about the burn's Δv). A burn exactly at the
/// second sample: the forward arc covers the whole interval and the gap to that sample is
/// spread over it (the sample's velocity is taken as the one after the burn).
///
/// ``mismatchKm``, the largest distance between the two physical arcs the blend has to bridge,
/// is the honest measure of how well the force model explains the data: millimetres when it
/// does, kilometres when something (a burn, a force) is missing.
///
/// Times TDB seconds past J2000; km, km/s relative to the model's centre, ecliptic J2000.
public struct BlendedInterval: Sendable {
    /// Position in the samples.
    public let index: Int
    /// Sample `index`, where the path starts.
    public let start: OrbitalState
    /// Sample `index + 1`, where it ends.
    public let end: OrbitalState
    /// The impulsive burn inside the interval, if any (start < burn ≤ end).
    public let burnSeconds: Double?
    /// From `start` to the burn, or to `end`.
    public let forward: PropagatedArc
    /// From `end` back to the burn, or to `start`; nil when the burn is at `end`.
    public let backward: PropagatedArc?
    /// Without a burn: the largest |x_b − x_f| over the interval (sampled at 65 times); with
    /// one: the position gap at the burn. Km.
    public let mismatchKm: Double
    /// The same for velocities, km/s (without a burn; zero with one, where the difference is
    /// the burn).
    public let velocityMismatchKmS: Double
    /// Velocity after the burn minus before it, km/s; zero without a burn.
    public let velocityJumpKmS: Vector3
    /// Position gap at the burn, backward minus forward (zero without a burn).
    let gapKm: Vector3

    /// Points at which the mismatch between the arcs is sampled.
    static let mismatchSamples = 64

    init<Model: AccelerationModel>(index: Int, start: OrbitalState, end: OrbitalState, burnSeconds: Double?,
                                   model: Model, integrator: DormandPrince853) throws(PropagationError) {
        let forward = try integrator.propagate(start, to: burnSeconds ?? end.seconds, model: model)
        let backward: PropagatedArc?
        if let burn = burnSeconds {
            backward = burn < end.seconds ? try integrator.propagate(end, to: burn, model: model) : nil
        } else {
            backward = try integrator.propagate(end, to: start.seconds, model: model)
        }
        try self.init(index: index, start: start, end: end, burnSeconds: burnSeconds, forward: forward, backward: backward)
    }

    /// From arcs already integrated: `forward` from `start` to the burn (or `end`), `backward`
    /// from `end` to the burn (or `start`; nil when the burn is at `end`).
    init(index: Int, start: OrbitalState, end: OrbitalState, burnSeconds: Double? = nil,
         forward: PropagatedArc, backward: PropagatedArc?) throws(PropagationError) {
        self.index = index
        self.start = start
        self.end = end
        self.burnSeconds = burnSeconds
        self.forward = forward
        self.backward = backward
        if burnSeconds != nil {
            let before = forward.end, after = backward?.end ?? end
            gapKm = after.positionKm - before.positionKm
            mismatchKm = gapKm.length
            velocityMismatchKmS = 0
            velocityJumpKmS = after.velocityKmS - before.velocityKmS
        } else {
            guard let backward else { throw .invalidInput("an interval without a burn has a backward arc") }
            var worst = 0.0, worstV = 0.0
            for k in 0...Self.mismatchSamples {
                let t = k == Self.mismatchSamples ? end.seconds : start.seconds + (end.seconds - start.seconds) * Double(k) / Double(Self.mismatchSamples)
                let f = try forward.state(at: t), b = try backward.state(at: t)
                worst = max(worst, (b.positionKm - f.positionKm).length)
                worstV = max(worstV, (b.velocityKmS - f.velocityKmS).length)
            }
            mismatchKm = worst
            velocityMismatchKmS = worstV
            velocityJumpKmS = .zero
            gapKm = .zero
        }
    }

    /// The times covered.
    public var span: ClosedRange<Double> { start.seconds...end.seconds }

    /// The blended state at `seconds` (inside ``span``): the samples themselves at both ends,
    /// the state after the burn at the burn.
    public func state(at seconds: Double) throws(PropagationError) -> OrbitalState {
        guard span.contains(seconds) else { throw .outsideSpan(seconds: seconds, span: span) }
        if seconds == start.seconds { return start }
        if seconds == end.seconds { return end }
        let t0 = start.seconds, t1 = end.seconds
        guard let burn = burnSeconds else {
            guard let backward else { throw .invalidInput("an interval without a burn has a backward arc") }
            let duration = t1 - t0
            let s = (seconds - t0) / duration
            let (w, dw) = (Self.weight(s), Self.weightRate(s) / duration)
            let f = try forward.state(at: seconds), b = try backward.state(at: seconds)
            let dx = b.positionKm - f.positionKm
            return OrbitalState(seconds: seconds,
                                positionKm: f.positionKm * (1 - w) + b.positionKm * w,
                                velocityKmS: f.velocityKmS * (1 - w) + b.velocityKmS * w + dx * dw)
        }
        guard let backward else {
            // The burn at the end: the whole gap to the end sample spread over the interval.
            let duration = t1 - t0
            let s = (seconds - t0) / duration
            let f = try forward.state(at: seconds)
            return OrbitalState(seconds: seconds, positionKm: f.positionKm + gapKm * Self.weight(s),
                                velocityKmS: f.velocityKmS + gapKm * (Self.weightRate(s) / duration))
        }
        let half = gapKm * 0.5
        if seconds < burn {
            let duration = burn - t0
            let s = (seconds - t0) / duration
            let f = try forward.state(at: seconds)
            return OrbitalState(seconds: seconds, positionKm: f.positionKm + half * Self.weight(s),
                                velocityKmS: f.velocityKmS + half * (Self.weightRate(s) / duration))
        }
        let duration = t1 - burn
        let s = (seconds - burn) / duration
        let b = try backward.state(at: seconds)
        return OrbitalState(seconds: seconds, positionKm: b.positionKm - half * (1 - Self.weight(s)),
                            velocityKmS: b.velocityKmS + half * (Self.weightRate(s) / duration))
    }

    /// The blend weight w(s) = s³(10 − 15s + 6s²) ("smootherstep"): 0 at 0, 1 at 1 (exactly),
    /// first and second derivatives zero at both ends.
    @inline(__always) package static func weight(_ s: Double) -> Double { s * s * s * (10 + s * (-15 + 6 * s)) }

    /// dw/ds = 30 s²(1 − s)².
    @inline(__always) package static func weightRate(_ s: Double) -> Double {
        let u = s * (1 - s)
        return 30 * u * u
    }
}
