import Ephemeris

/// A spacecraft's path between its samples made of physics rather than polynomials.
///
/// Why: Horizons state vectors come daily (more often around encounters), and a polynomial
/// through daily samples cuts the corner of a flyby or a Juno perijove by up to a million km.
/// Between samples i and i+1 this integrates the force model forward from sample i and backward
/// from sample i+1 and blends the two arcs (``BlendedInterval``): the path passes exactly
/// through every sample, position and velocity, its velocity is continuous across samples and
/// is the derivative of its position, and listed impulsive burns make the only velocity jumps.
/// Each interval reports how far apart its two arcs are (``BlendedInterval/mismatchKm``).
///
/// Samples: one spacecraft, strictly increasing times (TDB seconds past J2000), km and km/s
/// relative to the model's centre, ecliptic J2000 — the same centre as the model's, which
/// the samples cannot show: the caller keeps them together.
///
/// Intervals are computed on demand. A generator walking tens of thousands of them in order
/// calls ``interval(_:)`` (or ``forEachInterval(_:)``) and queries each as often as it likes; the
/// value holds both dense-output arcs, so repeated queries cost a few hundred nanoseconds.
/// ``state(at:)`` does the same for random access, keeping the last interval it used.
/// Intervals are independent: a generator may compute them on several threads, each with its
/// own copy (and its own model, to avoid sharing the model's table lock).
///
/// ```swift
/// var path = try BallisticInterpolator(samples: horizons, model: jupiter, burns: [joiSeconds])
/// let s = try path.state(at: t)
/// for i in 0..<path.intervalCount { let iv = try path.interval(i); log(iv.mismatchKm) }
/// ```
public struct BallisticInterpolator<Model: AccelerationModel>: Sendable {
    /// The samples, as given (checked, never altered).
    public let samples: [OrbitalState]
    /// The forces between samples.
    public let model: Model
    /// How each arc is integrated (its tolerances bound the blend's error when the model
    /// explains the data).
    public let integrator: DormandPrince853
    /// The burns inside the samples' span, sorted.
    public let burns: [Double]
    /// The burn of each interval that has one: start < burn ≤ end.
    let burnByInterval: [Int: Double]
    private var cached: BlendedInterval?

    /// Checks the samples (at least two, finite, times strictly increasing) and assigns each
    /// burn to its interval (a burn at a sample time belongs to the interval that ends there;
    /// burns outside the span, or at its very start, have no effect). Computes nothing yet.
    public init(samples: [OrbitalState], model: Model, burns: [Double] = [], integrator: DormandPrince853 = DormandPrince853()) throws(PropagationError) {
        guard samples.count >= 2 else { throw .tooFewSamples(count: samples.count) }
        for (i, s) in samples.enumerated() {
            guard s.seconds.isFinite, s.positionKm.isFinite, s.velocityKmS.isFinite else {
                throw .invalidInput("sample \(i) is not finite")
            }
            if i > 0, !(s.seconds > samples[i - 1].seconds) { throw .nonIncreasingSamples(index: i) }
        }
        guard burns.allSatisfy(\.isFinite) else { throw .invalidInput("a burn time is not finite") }
        let first = samples[0].seconds, last = samples[samples.count - 1].seconds
        let inside = burns.filter { $0 > first && $0 <= last }.sorted()
        var byInterval: [Int: [Double]] = [:]
        for burn in inside {
            byInterval[Self.interval(containing: burn, in: samples, endInclusive: true), default: []].append(burn)
        }
        if let (i, list) = byInterval.first(where: { $0.value.count > 1 }) { throw .burnsInOneInterval(interval: i, burnSeconds: list) }
        self.samples = samples
        self.model = model
        self.integrator = integrator
        self.burns = inside
        burnByInterval = byInterval.mapValues { $0[0] }
    }

    /// Intervals between consecutive samples.
    public var intervalCount: Int { samples.count - 1 }

    /// From the first sample to the last.
    public var span: ClosedRange<Double> { samples[0].seconds...samples[samples.count - 1].seconds }

    /// Interval `i` (between samples i and i + 1), integrated now.
    public func interval(_ i: Int) throws(PropagationError) -> BlendedInterval {
        guard samples.indices.contains(i), i < intervalCount else { throw .invalidInput("no interval \(i) (there are \(intervalCount))") }
        return try BlendedInterval(index: i, start: samples[i], end: samples[i + 1], burnSeconds: burnByInterval[i], model: model, integrator: integrator)
    }

    /// The interval whose span holds `seconds` (the later one at a sample time, except at the
    /// last sample).
    public func intervalIndex(containing seconds: Double) throws(PropagationError) -> Int {
        guard span.contains(seconds) else { throw .outsideSpan(seconds: seconds, span: span) }
        return Self.interval(containing: seconds, in: samples, endInclusive: false)
    }

    /// The blended state at `seconds`, anywhere from the first sample to the last; reuses the
    /// interval of the previous call when it covers `seconds`.
    public mutating func state(at seconds: Double) throws(PropagationError) -> OrbitalState {
        if let cached, cached.span.contains(seconds) { return try cached.state(at: seconds) }
        let iv = try interval(try intervalIndex(containing: seconds))
        cached = iv
        return try iv.state(at: seconds)
    }

    /// Every interval in order, each computed once and handed to `body` (which may keep what it
    /// needs: tens of thousands of intervals with their arcs would not fit in memory at once).
    public func forEachInterval(_ body: (BlendedInterval) throws -> Void) throws {
        for i in 0..<intervalCount { try body(try interval(i)) }
    }

    /// Binary search: the interval [t_i, t_i+1) holding `seconds` (or (t_i, t_i+1] with
    /// `endInclusive`), clamped to the intervals that exist.
    static func interval(containing seconds: Double, in samples: [OrbitalState], endInclusive: Bool) -> Int {
        var lo = 0, hi = samples.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            let t = samples[mid].seconds
            if endInclusive ? t < seconds : t <= seconds { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
