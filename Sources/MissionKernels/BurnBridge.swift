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

    /// How closely the kernel's interpolation holds the bridge's velocity, km/s (1 cm/s: a
    /// coast of a minute or two beside a burn near periapsis would otherwise be two nodes of
    /// cubic Hermite, 2 mm/s² off gravity in Mars Odyssey's minute after orbit insertion).
    static let velocityToleranceKmS = 1e-5

    /// The bridge as kernel pieces (`name` the burn's): the coast to the window, the window and
    /// the coast after it, three segments, so that no interpolation window of the kernel
    /// straddles the thrust's onset or end (it would spread them into the coasts beside); the
    /// coasts held to ``velocityToleranceKmS`` as well as the assembly's position tolerance
    /// (the window is left to the position tolerance: held to 1 cm/s too, Artemis II's burns
    /// took 19 MB of nodes).
    /// `center` is the pieces' NAIF centre; `maxStepSeconds` their longest node spacing.
    public func pieces(name: String, center: Int, maxStepSeconds: Double) -> [PathPiece] {
        let parts: [(name: String, from: Double, to: Double, coast: Bool, note: String)] = [
            ("Coast to \(name)", before.seconds, window.lowerBound, true, "Integrated forward from the JPL Horizons sample before the burn."),
            ("\(name) (modelled)", window.lowerBound, window.upperBound, false, "Over the burn's published window: a powered blend between the coasts integrated from the JPL Horizons samples either side."),
            ("Coast after \(name)", window.upperBound, after.seconds, true, "Integrated back from the JPL Horizons sample after the burn."),
        ]
        return parts.filter { $0.to > $0.from }.map { part in
            var piece = PathPiece(name: String(part.name.prefix(40)), notes: [part.note], startSeconds: part.from, endSeconds: part.to, center: center,
                                  requiredSeconds: [part.from, part.to], maxStepSeconds: maxStepSeconds, state: { try self.state(at: $0) })
            if part.coast { piece.velocityToleranceKmS = Self.velocityToleranceKmS }
            return piece
        }
    }

    /// The velocity change across the window: the coast after less the coast before, at its middle.
    public var deltaVKmS: Double {
        let mid = (window.lowerBound + window.upperBound) / 2
        guard let a = try? coast(forward, mid), let b = try? coast(backward, mid) else { return .nan }
        return (b.velocityKmS - a.velocityKmS).length
    }
}
