import Astrodynamics
import Ephemeris

/// A body's integrated path as arcs of one fixed length laid from its element epoch: forward
/// chunk k covers epoch + kL … epoch + (k+1)L, backward chunk k covers epoch − (k+1)L … epoch −
/// kL. Each chunk starts from the previous one's end state, so the path at any instant is the
/// same whatever was asked first (a cache of chunks never changes an answer).
public struct ChunkedPath: Sendable {
    public let epochSeconds: Double
    public let chunkSeconds: Double
    var forward: [PropagatedArc] = []
    var backward: [PropagatedArc] = []

    init(epochSeconds: Double, chunkSeconds: Double) {
        self.epochSeconds = epochSeconds
        self.chunkSeconds = chunkSeconds
    }

    /// The times covered (nil: nothing integrated yet).
    public var span: ClosedRange<Double>? {
        guard !forward.isEmpty || !backward.isEmpty else { return nil }
        let lo = backward.last?.span.lowerBound ?? epochSeconds
        let hi = forward.last?.span.upperBound ?? epochSeconds
        return lo...hi
    }

    /// Accepted integration steps held (the memory a path takes: 400 bytes each).
    public var stepCount: Int { (forward + backward).reduce(0) { $0 + $1.stepCount } }

    /// The chunk that holds `t`, if integrated.
    func arc(at t: Double) -> PropagatedArc? {
        if t >= epochSeconds {
            let k = Int(((t - epochSeconds) / chunkSeconds).rounded(.down))
            if k < forward.count { return forward[k] }
            return t == forward.last?.span.upperBound ? forward.last : nil
        }
        let k = Int(((epochSeconds - t) / chunkSeconds).rounded(.down))
        return k < backward.count ? backward[k] : nil
    }

    /// The state at `t` (km, km/s, barycentric), nil outside what is integrated.
    public func state(at t: Double) -> OrbitalState? {
        guard let arc = arc(at: t) else { return nil }
        return try? arc.state(at: t)
    }

    /// The position at `t`, clamped to the integrated span (a perturber read inside a step);
    /// `hint` remembers the step last used (see `PropagatedArc.position(at:hint:)`).
    @inline(__always) func position(at t: Double, hint: inout Int) -> Vector3 {
        if t >= epochSeconds {
            guard !forward.isEmpty else { return backward.first?.end.positionKm ?? .zero }
            let k = min(Int(((t - epochSeconds) / chunkSeconds).rounded(.down)), forward.count - 1)
            return forward[k].position(at: t, hint: &hint)
        }
        guard !backward.isEmpty else { return forward.first?.start.positionKm ?? .zero }
        let k = min(Int(((epochSeconds - t) / chunkSeconds).rounded(.down)), backward.count - 1)
        return backward[k].position(at: t, hint: &hint)
    }

    /// The chunks overlapping `a…b`, in time order.
    public func arcs(from a: Double, to b: Double) -> [PropagatedArc] {
        (backward.reversed() + forward).filter { $0.span.upperBound >= a && $0.span.lowerBound <= b }
    }
}
