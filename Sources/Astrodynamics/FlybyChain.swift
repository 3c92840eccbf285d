import Ephemeris

/// A patched-conic trajectory through dated events: two-body conics about the chain's centre
/// (the Sun, or the Earth for a lunar free return) between the bodies' spheres of influence,
/// and inside each sphere a hyperbola about the body whose closest approach is at the planned
/// distance and time. Positions and velocities of the bodies come from the ephemeris (DE440
/// inside its span).
///
/// Building (``init(plan:ephemeris:)``):
/// 1. Legs are first solved between the bodies' centres (zero-radius spheres); for legs asking
///    for it, the Lambert solution (revolutions, branch) with the least flyby Δv is chosen.
/// 2. Then, until the patch points settle: each flyby's two asymptotes (v∞ in and out) give its
///    closest-approach point — the direction where the incoming and outgoing hyperbolas through
///    it differ by the least impulse (``FlybyGeometry/leastImpulsePeriapsis(vIn:vOut:periapsisKm:mu:start:)``);
///    the hyperbolas are followed out to the sphere of influence (Laplace radius at the node);
///    Lambert legs join those crossing points at those times; and each leg's velocity where it
///    meets a sphere, taken relative to the body, gives that hyperbola's new asymptote (plain
///    iteration while it contracts, then Newton's method). At the fixed point the leg and the
///    hyperbola have the same state where they meet, so position and velocity are continuous
///    there. The residual, ``maximumPatchMismatchKmS``, is normally below 1e-11 km/s; what
///    cannot be removed (a flyby exactly where its needed turn starts to exceed the
///    distance's, where the least impulse has a square-root kink) is listed as a
///    patch-correction burn up to 10 cm/s; beyond that the chain is an error. No blends.
/// 3. What the geometry cannot do ballistically — |v∞ in| ≠ |v∞ out|, or a turn other than
///    the one the distance gives — is one impulse at the closest approach, listed in
///    ``burns`` and in the flyby's report. A turn slightly beyond what the planned distance
///    gives is taken by passing up to ``closestApproachAllowanceKm`` lower (the report gives
///    the distance flown) rather than by a plane change, whose cost grows with the square
///    root of the excess.
///
/// Departure from a planet with an injection altitude: the chain starts at the periapsis of the
/// escape hyperbola (the injection point, at the node's time) whose v∞ the first leg needs, in
/// the plane through v∞ least inclined to the planet's equator (prograde). Without an altitude
/// it starts at the planet's centre (inside the planet for the first minutes). From the chain's
/// own centre (a geocentric chain leaving the Earth), the injection point is the first leg's
/// perigee, in the plane of the first flyby body's orbit. An arrival mirrors these: the chain
/// ends on the approach hyperbola at the given distance and time, in the plane through v∞
/// least inclined to the equator.
///
/// All states are relative to the centre's centre, ecliptic J2000, km and km/s; times TDB
/// seconds past J2000.
public struct FlybyChain: Sendable {
    public let plan: FlybyPlan
    /// The first node's time: injection, or launch from the centre of the body.
    public let startSeconds: Double
    /// The arrival's time, or the open end's.
    public let endSeconds: Double
    /// The conics in time order, each valid over its span.
    public let segments: [Segment]
    public let departure: DepartureReport
    public let flybys: [FlybyReport]
    public let arrival: ArrivalReport?
    public let legs: [LegReport]
    /// The impulses in time order: one per powered flyby at its closest approach, and — rarely
    /// — a patch correction (below 1 µm/s they are left out).
    public let burns: [Burn]
    /// The largest velocity difference left between a leg and a hyperbola where they meet,
    /// km/s: normally below 1e-11; up to ``largestPatchCorrectionKmS`` it is listed as a
    /// patch-correction burn; beyond, the chain is not built.
    public let maximumPatchMismatchKmS: Double
    /// Passes (every node's hyperbolas and every leg solved once) the patch points took, the
    /// passes of Newton's finite differences included.
    public let iterations: Int
    let bodyStates: BodyStates

    /// The state at `seconds` (TDB past J2000) relative to the chain's centre: ecliptic J2000,
    /// km and km/s. Nil outside [``startSeconds``, ``endSeconds``]. At a burn's time it is the
    /// state after the burn.
    public func state(atSeconds seconds: Double) -> OrbitalState? {
        guard seconds >= startSeconds, seconds <= endSeconds, let index = segmentIndex(seconds) else { return nil }
        return segments[index].state(atSeconds: seconds, bodies: bodyStates)
    }

    /// The state at `seconds` on the conic of `segments[index]`, relative to the chain's centre
    /// (as ``state(atSeconds:)``): at a burn's time, the segment ending there gives the state
    /// before the burn and the one starting there the state after, so a caller writing the
    /// chain piece by piece keeps each side of the burn. Outside the segment's span the conic
    /// carries on.
    public func state(atSeconds seconds: Double, segment index: Int) -> OrbitalState {
        segments[index].state(atSeconds: seconds, bodies: bodyStates)
    }

    /// Index of the segment serving `seconds`: the last one starting at or before it.
    func segmentIndex(_ seconds: Double) -> Int? {
        var lo = 0, hi = segments.count - 1
        guard hi >= 0, seconds >= segments[0].startSeconds else { return nil }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].startSeconds <= seconds { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// One conic of the chain: its centre (the chain's centre for legs and the coast, the
    /// body inside its sphere of influence), its state at its epoch relative to that centre,
    /// and the span it serves.
    public struct Segment: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// The escape hyperbola from the injection point.
            case escape
            /// Leg `index` about the chain's centre.
            case leg(Int)
            /// Flyby `node`'s hyperbola before and after its closest approach.
            case inbound(node: Int)
            case outbound(node: Int)
            /// The approach hyperbola of the arrival.
            case approach
            /// The ballistic coast of the open end.
            case coast
        }

        public let kind: Kind
        public let startSeconds: Double
        public let endSeconds: Double
        /// The body the conic is about.
        public let center: BodyID
        public let mu: Double
        public let epochSeconds: Double
        public let positionKm: Vector3
        public let velocityKmS: Vector3

        /// The conic's own state at `seconds`, relative to its centre.
        public func conicState(atSeconds seconds: Double) -> (position: Vector3, velocity: Vector3) {
            KeplerArc(mu: mu, position: positionKm, velocity: velocityKmS, epochHours: 0).state(afterSeconds: seconds - epochSeconds)
        }

        func state(atSeconds seconds: Double, bodies: BodyStates) -> OrbitalState {
            let s = conicState(atSeconds: seconds)
            guard center != bodies.center else { return OrbitalState(seconds: seconds, positionKm: s.position, velocityKmS: s.velocity) }
            let b = bodies.state(center, seconds: seconds)
            return OrbitalState(seconds: seconds, positionKm: b.position + s.position, velocityKmS: b.velocity + s.velocity)
        }
    }

    /// An impulse, km/s in ecliptic J2000: at a flyby's closest approach, or a correction
    /// where a leg meets a sphere of influence.
    public struct Burn: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            /// The powered flyby's impulse.
            case closestApproach
            /// What the patch-point iteration could not remove (at most
            /// ``FlybyChain/largestPatchCorrectionKmS``), at the sphere of influence.
            case patchCorrection
        }

        public let node: Int
        public let body: BodyID
        public let seconds: Double
        public let deltaV: Vector3
        public let kind: Kind
        public var deltaVKmS: Double { deltaV.length }
    }

    /// How far below its planned distance a powered flyby's closest approach may pass when that
    /// turns the asymptotes ballistically instead of by a plane change (km; the time stays
    /// exact). See ``FlybyGeometry/leastImpulsePeriapsis(vIn:vOut:periapsisKm:mu:start:lowerByUpToKm:)``.
    public static let closestApproachAllowanceKm = 0.5

    /// The largest velocity difference between a leg and a hyperbola accepted as a correction
    /// burn (km/s); a chain that cannot get below it is not built.
    public static let largestPatchCorrectionKmS = 1e-4

    /// What one flyby needs and does. v∞ vectors are body-relative, ecliptic J2000, km/s.
    public struct FlybyReport: Sendable, Hashable {
        public let node: Int
        public let body: BodyID
        /// The planned closest approach: time (TDB s) and distance from the centre (km).
        public let seconds: Double
        public let closestApproachKm: Double
        /// The closest approach of the built path, and when.
        public let achievedClosestApproachKm: Double
        public let achievedClosestApproachSeconds: Double
        public let vInfinityIn: Vector3
        public let vInfinityOut: Vector3
        /// The angle between the asymptotes the legs need, radians.
        public let turnRadians: Double
        /// The turn two unpowered half-hyperbolas with these v∞ give when they meet at the
        /// planned distance, (δ(v∞in) + δ(v∞out))/2: the largest an unpowered flyby allows.
        public let unpoweredTurnRadians: Double
        /// The impulse at closest approach (zero when the flyby is ballistic).
        public let deltaV: Vector3
        public var deltaVKmS: Double { deltaV.length }
        /// Unit vector from the body to the closest approach.
        public let periapsisDirection: Vector3
        public let sphereOfInfluenceKm: Double
        /// When the path enters and leaves the sphere of influence.
        public let entrySeconds: Double
        public let exitSeconds: Double
    }

    /// How the chain leaves its first body.
    public struct DepartureReport: Sendable, Hashable {
        public let body: BodyID
        public let seconds: Double
        /// The escape asymptote (nil when the chain starts at the centre of its own centre's
        /// body, where there is none); for a departure from a body's centre or from a point,
        /// the first leg's velocity there relative to the body (to the chain's centre).
        public let vInfinity: Vector3?
        /// C3 = v∞², km²/s².
        public var c3: Double? { vInfinity.map { $0.lengthSquared } }
        /// Distance of the injection point from the body's centre (nil: the centre).
        public let injectionRadiusKm: Double?
        /// Speed relative to the body at injection, km/s.
        public let injectionSpeedKmS: Double?
        /// When the path leaves the sphere of influence (nil without an escape hyperbola).
        public let exitSeconds: Double?
    }

    /// How the chain ends at an arrival.
    public struct ArrivalReport: Sendable, Hashable {
        public let body: BodyID
        public let seconds: Double
        public let vInfinity: Vector3?
        public let periapsisKm: Double?
        /// When the approach hyperbola would reach periapsis (after the end for an entry).
        public let periapsisSeconds: Double?
        public let endRadiusKm: Double?
        /// Speed relative to the body at the end, km/s, and the flight-path angle there
        /// (radians, negative descending).
        public let endSpeedKmS: Double?
        public let flightPathAngleRadians: Double?
        public let entrySeconds: Double?
    }

    /// Which Lambert solution a leg took, and where it runs.
    public struct LegReport: Sendable, Hashable {
        public let index: Int
        public let revolutions: Int
        public let branch: LambertBranch?
        public let direction: LambertDirection
        public let startSeconds: Double
        public let endSeconds: Double
        /// The leg's closest distance to the chain's centre, km.
        public let minimumDistanceKm: Double
    }
}

/// Body states relative to a chain's centre in km and km/s at TDB seconds, straight from the
/// kernel inside its span (no ``Instant`` per call), from ``Ephemeris/state(_:relativeTo:at:)``
/// elsewhere.
struct BodyStates: Sendable {
    let ephemeris: Ephemeris
    let center: BodyID

    func state(_ body: BodyID, seconds: Double) -> (position: Vector3, velocity: Vector3) {
        if body == center { return (.zero, .zero) }
        if let k = ephemeris.kernel, k.spanSeconds.contains(seconds) {
            if center == .sun, !body.isSatellite {
                let s = k.heliocentricState(body, secondsPastJ2000: seconds)
                return (s.positionAU * Constants.auKm, s.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay))
            }
            if center == .earth, body == .moon {
                let m = k.moonGeocentricState(secondsPastJ2000: seconds)
                return (m.positionKm, m.velocityKmPerDay / Constants.secondsPerDay)
            }
        }
        let s = ephemeris.state(body, relativeTo: center, at: TimeScale.instant(tdbSecondsPastJ2000: seconds))
        return (s.positionAU * Constants.auKm, s.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay))
    }

    /// TDB seconds the ephemeris serves for the chain: the kernel's span when there is one
    /// (mixing theories at its seams would break the chain's continuity), else every accepted
    /// instant.
    var servedSeconds: ClosedRange<Double> {
        if let k = ephemeris.kernel { return k.spanSeconds }
        let jd = Ephemeris.servedJDTDB
        return (jd.lowerBound - Constants.jdJ2000) * Constants.secondsPerDay...(jd.upperBound - Constants.jdJ2000) * Constants.secondsPerDay
    }
}
