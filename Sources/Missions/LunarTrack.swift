#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ephemeris

/// A circular orbit around the Moon's centre in a fixed plane (Moon-relative, ecliptic J2000
/// axes): radius and rate obey Kepler's third law with the Moon's GM.
public struct LunarCircularOrbit: Sendable, Hashable {
    public let radiusKm: Double
    /// Orthonormal basis of the plane; the vehicle moves from `e1` toward `e2`.
    let e1: Vector3
    let e2: Vector3
    /// Radians per hour.
    public let angularRate: Double
    let epochHours: Double
    let phaseAtEpoch: Double

    init(radiusKm: Double, mu: Double, e1: Vector3, e2: Vector3, epochHours: Double, phaseAtEpoch: Double) {
        self.radiusKm = radiusKm
        self.e1 = e1
        self.e2 = e2
        self.angularRate = (mu / (radiusKm * radiusKm * radiusKm)).squareRoot() * 3600
        self.epochHours = epochHours
        self.phaseAtEpoch = phaseAtEpoch
    }

    /// The same orbit with its phase set so that the vehicle is over `direction` at `t`.
    func passing(over direction: Vector3, atHours t: Double) -> LunarCircularOrbit {
        LunarCircularOrbit(radiusKm: radiusKm, angularRate: angularRate, e1: e1, e2: e2, epochHours: t,
                           phaseAtEpoch: atan2(direction.dot(e2), direction.dot(e1)))
    }

    /// The same orbit at phase `phase` (radians from `e1`) at `t`.
    func withPhase(_ phase: Double, atHours t: Double) -> LunarCircularOrbit {
        LunarCircularOrbit(radiusKm: radiusKm, angularRate: angularRate, e1: e1, e2: e2, epochHours: t, phaseAtEpoch: phase)
    }

    private init(radiusKm: Double, angularRate: Double, e1: Vector3, e2: Vector3, epochHours: Double, phaseAtEpoch: Double) {
        self.radiusKm = radiusKm
        self.angularRate = angularRate
        self.e1 = e1
        self.e2 = e2
        self.epochHours = epochHours
        self.phaseAtEpoch = phaseAtEpoch
    }

    /// The orbit's normal: the direction of its angular momentum.
    public var normal: Vector3 { e1.cross(e2) }
    /// Hours per revolution.
    public var periodHours: Double { 2 * Double.pi / angularRate }
    /// km/s.
    public var speedKmS: Double { radiusKm * angularRate / 3600 }

    public func direction(atHours t: Double) -> Vector3 {
        let phi = phaseAtEpoch + angularRate * (t - epochHours)
        return e1 * cos(phi) + e2 * sin(phi)
    }

    public func position(atHours t: Double) -> Vector3 { direction(atHours: t) * radiusKm }

    /// km/s.
    public func velocity(atHours t: Double) -> Vector3 {
        let phi = phaseAtEpoch + angularRate * (t - epochHours)
        return (e2 * cos(phi) - e1 * sin(phi)) * speedKmS
    }
}

/// The Moon as a telemetry call sees it at one instant.
struct MoonState {
    /// Geocentric, ecliptic J2000 km.
    let positionKm: Vector3
    /// IAU body-fixed → ecliptic J2000; only the pieces on or near the surface read it
    /// (``TrackPiece/needsOrientation``), so it is left at identity for the others.
    let bodyToEcliptic: Matrix3
}

/// One stretch of a vehicle's physical path.
enum TrackPiece: Sendable {
    /// The authored path (``MissionEngine/authoredPath(_:atHours:moonKm:)``), geocentric.
    case curve
    /// A Moon-centred two-body arc (approach, departure, flyby).
    case arc(KeplerArc)
    /// From the authored path onto an arc (or back): positions blended with a smoothstep
    /// weight, so position and velocity stay continuous where the authored data meets the
    /// physics.
    case join(KeplerArc, towardArc: Bool)
    case orbit(LunarCircularOrbit)
    /// Fixed to the rotating Moon; `site` is a unit vector in the IAU body-fixed frame.
    case surface(site: Vector3)
    /// Powered descent, not flown by a guidance law: the horizontal speed falls linearly from
    /// the orbit's to zero (so the descent covers half the ground the orbit would in the same
    /// time: the orbit passes over the site at the segment's midpoint), the altitude falls to
    /// zero and the ground track eases onto the site, both by a smoothstep. C¹ at both ends.
    case descent(LunarCircularOrbit, site: Vector3)
    /// The ascent, the descent's mirror image (the orbit passes over the site at its midpoint).
    case ascent(LunarCircularOrbit, site: Vector3)
}

struct TrackSegment: Sendable {
    let startHours: Double
    let endHours: Double
    let piece: TrackPiece
    /// The segment starts with an impulsive burn (lunar orbit insertion, trans-Earth
    /// injection): the velocity jumps there, so differences must not straddle its start.
    var afterBurn = false
}

/// Where a vehicle physically is, piece by piece over its span: the authored path far from the
/// Moon, two-body arcs inside the Moon's sphere of influence, the real orbit, the landing site.
public struct LunarTrack: Sendable {
    let segments: [TrackSegment]
    let moonRadiusKm: Double

    /// The segment in force at `t` (the first one for earlier times, the last for later ones).
    func segment(atHours t: Double) -> TrackSegment {
        for s in segments where t < s.endHours { return s }
        return segments[segments.count - 1]
    }

    /// The segment to evaluate `x` in when differencing around `t`: `x`'s own, unless a burn
    /// lies between them — then `t`'s, extended past its end (conics and orbits extend
    /// naturally), so the velocity on each side of a burn is that side's.
    func segment(atHours x: Double, around t: Double) -> TrackSegment {
        let own = segment(atHours: x)
        let lo = min(t, x), hi = max(t, x)
        guard segments.contains(where: { $0.afterBurn && $0.startHours > lo && $0.startHours <= hi }) else { return own }
        return segment(atHours: t)
    }

    /// Moon-relative (or, for the curve, geocentric) position in one segment, evaluated even a
    /// little outside it so that differences across a burn use one side only.
    static func position(_ piece: TrackPiece, segment s: TrackSegment, atHours t: Double, moon: MoonState, curve: Vector3?, radiusKm r: Double) -> Vector3 {
        switch piece {
        case .curve:
            return (curve ?? .zero) - moon.positionKm
        case .arc(let arc):
            return arc.state(atHours: t).position
        case .join(let arc, let towardArc):
            let f = smoothstep((t - s.startHours) / (s.endHours - s.startHours))
            let w = towardArc ? f : 1 - f
            let onCurve = (curve ?? .zero) - moon.positionKm
            return onCurve * (1 - w) + arc.state(atHours: t).position * w
        case .orbit(let o):
            return o.position(atHours: t)
        case .surface(let site):
            return (moon.bodyToEcliptic * site) * r
        case .descent(let o, let site):
            let f = max(0, min(1, (t - s.startHours) / (s.endHours - s.startHours)))
            let half = (s.endHours - s.startHours) / 2
            // Along the track: the orbit's position (s.start + s.end)/2 − half·(1 − f)² ago.
            let track = o.direction(atHours: s.startHours + half - half * (1 - f) * (1 - f))
            let dir = slerp(track, (moon.bodyToEcliptic * site).normalized, smoothstep(f))
            return dir * (r + (o.radiusKm - r) * (1 - smoothstep(f)))
        case .ascent(let o, let site):
            let f = max(0, min(1, (t - s.startHours) / (s.endHours - s.startHours)))
            let half = (s.endHours - s.startHours) / 2
            let track = o.direction(atHours: s.startHours + half + half * f * f)
            let dir = slerp((moon.bodyToEcliptic * site).normalized, track, smoothstep(f))
            return dir * (r + (o.radiusKm - r) * smoothstep(f))
        }
    }

    /// Whether a piece needs the authored path's position.
    static func needsCurve(_ piece: TrackPiece) -> Bool {
        switch piece {
        case .curve, .join: true
        default: false
        }
    }
}

extension TrackPiece {
    /// Whether the piece needs the Moon's orientation (the landing site).
    var needsOrientation: Bool {
        switch self {
        case .surface, .descent, .ascent: true
        default: false
        }
    }
}

/// 3t² − 2t³ on [0, 1], clamped.
func smoothstep(_ x: Double) -> Double {
    let t = max(0, min(1, x))
    return t * t * (3 - 2 * t)
}

/// Spherical interpolation between unit vectors.
func slerp(_ a: Vector3, _ b: Vector3, _ f: Double) -> Vector3 {
    let theta = acos(max(-1, min(1, a.dot(b))))
    guard theta > 1e-12 else { return a }
    let s = sin(theta)
    return a * (sin((1 - f) * theta) / s) + b * (sin(f * theta) / s)
}
