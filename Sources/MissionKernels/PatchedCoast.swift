import Astrodynamics
import Ephemeris
import Missions

/// A known state carried on (or back) ballistically by patched two-body conics: about the
/// planet whose sphere of influence (the Laplace radius, as ``FlybyChain`` uses) holds it, and
/// about the Sun from where it leaves that sphere — the way a flyby chain picks up the end of a
/// data kernel. Heliocentric ecliptic J2000, km and km/s, TDB seconds past J2000.
///
/// ```swift
/// let coast = try PatchedCoast(from: lastDataState, forward: true, ephemeris: eph)
/// coast.state(at: lastDataState.seconds + 30 * 86_400)
/// ```
public struct PatchedCoast: Sendable {
    /// The state it starts from.
    public let anchor: OrbitalState
    /// The planet whose sphere holds the anchor (nil: it starts about the Sun).
    public let body: BodyID?
    /// When it leaves that sphere (in the coast's direction of time).
    public let handoverSeconds: Double?
    public let forward: Bool
    let local: KeplerArc?
    let heliocentric: KeplerArc
    let epochSeconds: Double
    let ephemeris: Ephemeris

    /// The planets (and Pluto) whose spheres the coast looks in.
    static let planets: [BodyID] = [.mercury, .venus, .earth, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto]

    public struct CoastError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `forward`: carried on after the anchor (true) or back before it (false).
    public init(from anchor: OrbitalState, forward: Bool, ephemeris: Ephemeris) throws {
        self.anchor = anchor
        self.forward = forward
        self.ephemeris = ephemeris
        let sunMu = GravityConstants.gm(.sun)
        var found: (body: BodyID, sphereKm: Double)?
        for p in Self.planets {
            let b = Self.place(p, anchor.seconds, ephemeris)
            let sphere = FlybyGeometry.sphereOfInfluenceKm(distanceKm: b.positionKm.length, mu: GravityConstants.gm(p), centralMu: sunMu)
            if (anchor.positionKm - b.positionKm).length < sphere { found = (p, sphere) }
        }
        guard let (body, sphere) = found else {
            body = nil
            handoverSeconds = nil
            local = nil
            epochSeconds = anchor.seconds
            heliocentric = KeplerArc(mu: sunMu, position: anchor.positionKm, velocity: anchor.velocityKmS, epochHours: 0)
            return
        }
        let b = Self.place(body, anchor.seconds, ephemeris)
        let p = anchor.positionKm - b.positionKm, v = anchor.velocityKmS - b.velocityKmS
        let mu = GravityConstants.gm(body)
        guard let dt = FlybyGeometry.secondsToRadius(position: p, velocity: v, mu: mu, radiusKm: sphere, forward: forward) else {
            throw CoastError(description: "the state at \(TimeScale.instant(tdbSecondsPastJ2000: anchor.seconds).iso8601) is bound to \(body) (or never leaves its sphere of influence): no coast out of it")
        }
        let arc = KeplerArc(mu: mu, position: p, velocity: v, epochHours: 0)
        let exit = arc.state(afterSeconds: dt)
        let at = anchor.seconds + dt
        let bAt = Self.place(body, at, ephemeris)
        self.body = body
        handoverSeconds = at
        local = arc
        epochSeconds = at
        heliocentric = KeplerArc(mu: sunMu, position: exit.position + bAt.positionKm, velocity: exit.velocity + bAt.velocityKmS, epochHours: 0)
    }

    /// A body's heliocentric state as the kernels place it (`NAIFBody`: the planets as their
    /// system barycentres, the Earth itself).
    static func place(_ body: BodyID, _ seconds: Double, _ ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3) {
        ephemeris.naifState(FlybyRecipe.centerID(body), at: TimeScale.instant(tdbSecondsPastJ2000: seconds)) ?? (.zero, .zero)
    }

    /// The heliocentric state at `t` (on the anchor's side of the handover about the planet,
    /// beyond it about the Sun).
    public func state(at t: Double) -> OrbitalState {
        if let body, let local, let h = handoverSeconds, forward ? t <= h : t >= h {
            let s = local.state(afterSeconds: t - anchor.seconds)
            let b = Self.place(body, t, ephemeris)
            return OrbitalState(seconds: t, positionKm: s.position + b.positionKm, velocityKmS: s.velocity + b.velocityKmS)
        }
        let s = heliocentric.state(afterSeconds: t - epochSeconds)
        return OrbitalState(seconds: t, positionKm: s.position, velocityKmS: s.velocity)
    }
}
