import Astrodynamics
import Ephemeris
import Missions

/// A listed burn between two source samples, flown as it happened: a coast integrated forward
/// from the sample before it to the burn's start, one integrated back from the sample after it to
/// the burn's end, and a powered blend between them over the burn's published window. The
/// whole velocity change (and what an impulse could not explain) stays inside the window.
public struct BurnBridge {
    public let window: ClosedRange<Double>
    public let before: OrbitalState
    public let after: OrbitalState
    let frame: HorizonsPath.Frame
    let center: BodyID
    let model: GravityModel
    let forward: PropagatedArc
    let backward: PropagatedArc
    let ephemeris: Ephemeris

    /// `before` and `after` in `frame` (heliocentric or geocentric), `window` inside them.
    public init(before: OrbitalState, after: OrbitalState, window: ClosedRange<Double>, frame: HorizonsPath.Frame, ephemeris: Ephemeris) throws {
        guard before.seconds <= window.lowerBound, window.upperBound <= after.seconds else {
            throw RecipeError(description: "the burn window must lie between the samples")
        }
        self.window = window
        self.before = before
        self.after = after
        self.frame = frame
        self.ephemeris = ephemeris
        let a = HorizonsPath.dominantBody(before, frame: frame, ephemeris: ephemeris)
        let b = HorizonsPath.dominantBody(after, frame: frame, ephemeris: ephemeris)
        let center = a == b ? a : (a == .sun || (a == .earth && frame == .geocentric) ? b : a)
        let model = try HorizonsPath.model(center, frame: frame, ephemeris: ephemeris)
        func local(_ s: OrbitalState) -> OrbitalState {
            let c = HorizonsPath.centerState(center, model: model, frame: frame, seconds: s.seconds, ephemeris: ephemeris)
            return OrbitalState(seconds: s.seconds, positionKm: s.positionKm - c.positionKm, velocityKmS: s.velocityKmS - c.velocityKmS)
        }
        // Each coast carried on across the window, for the blend to start from and end on.
        let dop = DormandPrince853()
        self.center = center
        self.model = model
        self.forward = try dop.propagate(local(before), to: window.upperBound, model: model)
        self.backward = try dop.propagate(local(after), to: window.lowerBound, model: model)
    }

    /// A coast's state at `t`, in the frame.
    func coast(_ arc: PropagatedArc, _ t: Double) throws -> OrbitalState {
        let s = try arc.state(at: t)
        let c = HorizonsPath.centerState(center, model: model, frame: frame, seconds: t, ephemeris: ephemeris)
        return OrbitalState(seconds: t, positionKm: s.positionKm + c.positionKm, velocityKmS: s.velocityKmS + c.velocityKmS)
    }

    func heliocentric(_ s: OrbitalState) -> OrbitalState {
        guard frame == .geocentric else { return s }
        let e = ephemeris.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: s.seconds)) ?? (.zero, .zero)
        return OrbitalState(seconds: s.seconds, positionKm: s.positionKm + e.positionKm, velocityKmS: s.velocityKmS + e.velocityKmS)
    }

    /// The state at `t` (between the samples), heliocentric.
    public func state(at t: Double) throws -> OrbitalState {
        if t <= window.lowerBound { return heliocentric(try coast(forward, t)) }
        if t >= window.upperBound { return heliocentric(try coast(backward, t)) }
        return try PoweredBlend(center: center, start: window.lowerBound, end: window.upperBound, ephemeris: ephemeris,
                                from: { heliocentric(try coast(forward, $0)) }, to: { heliocentric(try coast(backward, $0)) }).state(at: t)
    }

    /// The velocity change across the window: the coast after less the coast before, at its middle.
    public var deltaVKmS: Double {
        let mid = (window.lowerBound + window.upperBound) / 2
        guard let a = try? coast(forward, mid), let b = try? coast(backward, mid) else { return .nan }
        return (b.velocityKmS - a.velocityKmS).length
    }
}
