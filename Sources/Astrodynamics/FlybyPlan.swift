import Ephemeris

/// What a ``FlybyChain`` is built from: dated nodes (a departure, flybys, optionally an
/// arrival), how each heliocentric leg between them runs, and optionally a ballistic coast past
/// the last flyby. Times are TDB seconds past J2000; distances km from the body's centre.
///
/// ```swift
/// let plan = FlybyPlan(centre: .sun, nodes: [
///     .departure(.earth, seconds: launch, injectionAltitudeKm: 200),
///     .flyby(.jupiter, seconds: jupiterCA, closestApproachKm: 2_305_000),
///     .flyby(.pluto, seconds: plutoCA, closestApproachKm: 13_690),
/// ], openEnd: FlybyPlan.OpenEnd(seconds: plutoCA + 86_400 * 30))
/// ```
public struct FlybyPlan: Sendable, Hashable {
    /// The body the legs are conics about: the Sun for interplanetary chains, the Earth for a
    /// lunar free return. Flyby and arrival bodies must orbit it directly.
    public var center: BodyID
    public var nodes: [FlybyNode]
    /// One per pair of consecutive nodes; empty means every leg is ``Leg/direct``.
    public var legs: [Leg]
    /// A ballistic coast after the last node, which must then be a flyby.
    public var openEnd: OpenEnd?

    public init(center: BodyID = .sun, nodes: [FlybyNode], legs: [Leg] = [], openEnd: OpenEnd? = nil) {
        self.center = center
        self.nodes = nodes
        self.legs = legs
        self.openEnd = openEnd
    }

    /// How one leg runs: which Lambert solution joins its ends.
    public struct Leg: Sendable, Hashable {
        public enum Revolutions: Sendable, Hashable {
            /// That many complete revolutions on that branch (the branch is ignored for 0).
            case exactly(Int, LambertBranch)
            /// Whichever solution with up to that many revolutions needs the least Δv at the
            /// flybys the leg touches (chosen once, over the whole chain, with planet-centred
            /// ends; ties, as for a leg touching no flyby, go to the least departure and
            /// arrival v∞).
            case leastDeltaV(maxRevolutions: Int)
        }

        public var revolutions: Revolutions
        /// Sense of motion about the ecliptic pole (the +z axis of the chain's frame).
        public var direction: LambertDirection

        public init(revolutions: Revolutions = .exactly(0, .left), direction: LambertDirection = .prograde) {
            self.revolutions = revolutions
            self.direction = direction
        }

        /// Zero revolutions, prograde.
        public static let direct = Leg()
    }

    /// The coast after the last flyby, to `seconds`. The flyby is unpowered (nothing fixes its
    /// outgoing asymptote), turned by what its distance gives, in the direction `turn` says.
    public struct OpenEnd: Sendable, Hashable {
        public var seconds: Double
        public var turn: Turn

        public init(seconds: Double, turn: Turn = .accelerate) {
            self.seconds = seconds
            self.turn = turn
        }
    }

    /// Which way an unpowered flyby with no leg after it bends its asymptote.
    public enum Turn: Sendable, Hashable {
        /// Towards the body's velocity about the centre: the most speed gained.
        case accelerate
        /// Away from it: the most speed lost (Parker Solar Probe's Venus flybys).
        case decelerate
        /// The turn's direction at this angle (radians) in the plane normal to v∞in, from
        /// T̂ = v̂∞ × ẑ/|v̂∞ × ẑ| towards R̂ = v̂∞ × T̂ (ẑ the ecliptic pole): the B-plane clock angle.
        case clockAngle(Double)
    }
}

/// One dated event of a ``FlybyPlan``.
public struct FlybyNode: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case departure, flyby, arrival
    }

    public let kind: Kind
    public let body: BodyID
    /// TDB seconds past J2000: the injection (departure), the closest approach (flyby), the
    /// end of the conic (arrival).
    public let seconds: Double
    /// Departure: injection altitude above the body's radius (nil: the body's centre).
    /// Flyby: closest-approach distance from the centre. Arrival: the distance from the centre
    /// at which the chain ends (nil: the centre).
    public let distanceKm: Double?
    /// Arrival only: the approach hyperbola's periapsis from the centre (below the radius for
    /// an atmospheric entry); nil means the end distance, so the chain ends at periapsis.
    public let periapsisKm: Double?
    /// A label for errors and reports ("Jupiter flyby").
    public let name: String?
    /// A departure or arrival at a point rather than at a body: where, relative to the chain's
    /// centre (ecliptic J2000, km). `body` is then the centre.
    public let pointKm: Vector3?

    init(kind: Kind, body: BodyID, seconds: Double, distanceKm: Double?, periapsisKm: Double?, name: String?, pointKm: Vector3? = nil) {
        self.kind = kind
        self.body = body
        self.seconds = seconds
        self.distanceKm = distanceKm
        self.periapsisKm = periapsisKm
        self.name = name
        self.pointKm = pointKm
    }

    /// Leaves `body` at `seconds`: at the periapsis of an escape hyperbola `injectionAltitudeKm`
    /// above its radius, or — without an altitude — from its centre. When `body` is the chain's
    /// centre (a lunar free return from the Earth), the injection point is the perigee of the
    /// first leg.
    public static func departure(_ body: BodyID, seconds: Double, injectionAltitudeKm: Double? = nil, name: String? = nil) -> FlybyNode {
        FlybyNode(kind: .departure, body: body, seconds: seconds, distanceKm: injectionAltitudeKm, periapsisKm: nil, name: name)
    }

    /// Passes `body` at `closestApproachKm` from its centre at `seconds`.
    public static func flyby(_ body: BodyID, seconds: Double, closestApproachKm: Double, name: String? = nil) -> FlybyNode {
        FlybyNode(kind: .flyby, body: body, seconds: seconds, distanceKm: closestApproachKm, periapsisKm: nil, name: name)
    }

    /// Leaves the point `positionKm` (relative to the chain's centre `centre`, ecliptic J2000)
    /// at `seconds` with whatever velocity the first leg needs: where a known path (a data
    /// kernel's last state, coasted on) hands over to the chain. The leg's velocity there
    /// (``FlybyChain/state(atSeconds:)`` at the node, or ``FlybyChain/DepartureReport/vInfinity``)
    /// minus the path's is the impulse that joins them; the chain does not list it.
    public static func departure(fromPointKm positionKm: Vector3, seconds: Double, about center: BodyID = .sun, name: String? = nil) -> FlybyNode {
        FlybyNode(kind: .departure, body: center, seconds: seconds, distanceKm: nil, periapsisKm: nil, name: name, pointKm: positionKm)
    }

    /// Ends at the point `positionKm` (relative to the chain's centre `centre`) at `seconds`
    /// with whatever velocity the last leg arrives with: where the chain hands over to a known
    /// path (see ``departure(fromPointKm:seconds:about:name:)``).
    public static func arrival(atPointKm positionKm: Vector3, seconds: Double, about center: BodyID = .sun, name: String? = nil) -> FlybyNode {
        FlybyNode(kind: .arrival, body: center, seconds: seconds, distanceKm: nil, periapsisKm: nil, name: name, pointKm: positionKm)
    }

    /// Ends at `seconds`, `endRadiusKm` from `body`'s centre on an approach hyperbola with
    /// periapsis `periapsisKm` (default: the end radius) — or at the centre without a radius.
    /// When `body` is the chain's centre, the end is the last leg's perigee at that radius.
    public static func arrival(_ body: BodyID, seconds: Double, endRadiusKm: Double? = nil, periapsisKm: Double? = nil, name: String? = nil) -> FlybyNode {
        FlybyNode(kind: .arrival, body: body, seconds: seconds, distanceKm: endRadiusKm, periapsisKm: periapsisKm, name: name)
    }
}
