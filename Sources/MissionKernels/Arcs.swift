import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// The escape hyperbola before a spacecraft's first data sample: the sample integrated back
/// under the Earth's gravity (J2–J4) with the Moon and the Sun pulling, to the lowest point
/// the arc reaches after launch, or to where it comes down to 150 km (the first sample may be
/// close to the end of powered flight, and a ballistic arc back from it dives into the Earth).
public struct EscapeArc {
    public let arc: PropagatedArc
    /// Where the ascent hands over to the arc.
    public let injectionSeconds: Double
    let ephemeris: Ephemeris

    /// `first`: heliocentric ecliptic J2000.
    public init(first: OrbitalState, launchSeconds: Double, ephemeris: Ephemeris) throws {
        self.ephemeris = ephemeris
        let model = try GravityModel(ephemeris: ephemeris, center: .earth, perturbers: [.sun, .moon], zonalDegree: 4)
        let earth = Self.earth(first.seconds, ephemeris)
        let local = OrbitalState(seconds: first.seconds, positionKm: first.positionKm - earth.positionKm, velocityKmS: first.velocityKmS - earth.velocityKmS)
        let earliest = launchSeconds + 8 * 60
        let arc = try DormandPrince853().propagate(local, to: earliest, model: model)
        // Scan back from the sample for the lowest point, or the 150 km floor.
        let radius = Constants.earthEquatorialRadiusKm + 150
        var best = (t: first.seconds, r: local.positionKm.length)
        var t = first.seconds
        let step = 10.0
        while t - step >= earliest {
            t -= step
            let r = try arc.state(at: t).positionKm.length
            if r < radius { best = (t, r); break }
            if r < best.r { best = (t, r) } else if r > best.r * 1.02 { break }
        }
        self.arc = arc
        injectionSeconds = best.t
    }

    static func earth(_ seconds: Double, _ ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3) {
        ephemeris.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: seconds)) ?? (.zero, .zero)
    }

    /// Heliocentric state. Before the injection (where only the ascent's blend asks for it) the
    /// injection point carried back along its horizontal motion at its height — a turn about the
    /// Earth's centre at the injection's angular rate — so the blend toward it flies downrange
    /// above the ground.
    public func state(at t: Double) throws -> OrbitalState {
        let e = Self.earth(t, ephemeris)
        if t < injectionSeconds {
            let s = try arc.state(at: injectionSeconds)
            let turned = Self.turned(position: s.positionKm, velocity: s.velocityKmS, by: t - injectionSeconds)
            return OrbitalState(seconds: t, positionKm: turned.position + e.positionKm, velocityKmS: turned.velocity + e.velocityKmS)
        }
        let s = try arc.state(at: t)
        return OrbitalState(seconds: t, positionKm: s.positionKm + e.positionKm, velocityKmS: s.velocityKmS + e.velocityKmS)
    }

    /// A body-relative state carried `dt` seconds along its horizontal motion at its height: a
    /// turn about the body's centre at the state's angular rate. Before an injection this is
    /// what an ascent's blend (``PoweredBlend``) flies towards, downrange above the ground.
    static func turned(position r: Vector3, velocity: Vector3, by dt: Double) -> (position: Vector3, velocity: Vector3) {
        let omega = r.cross(velocity) / r.lengthSquared
        let angle = omega.length * dt
        let k = omega.normalized
        let p = r * cos(angle) + k.cross(r) * sin(angle) + k * (k.dot(r) * (1 - cos(angle)))
        return (p, omega.cross(p))
    }
}

/// A state integrated forward (or back) under the gravity of the body whose sphere of
/// influence it is in (the Sun elsewhere), that body's harmonics and moons included.
public struct ForwardArc {
    public let arc: PropagatedArc
    public let center: BodyID
    let model: GravityModel
    let ephemeris: Ephemeris

    /// `from`: heliocentric ecliptic J2000.
    public init(from: OrbitalState, to seconds: Double, ephemeris: Ephemeris) throws {
        self.ephemeris = ephemeris
        let center = HorizonsPath.dominantBody(from, frame: .heliocentric, ephemeris: ephemeris)
        let model = try HorizonsPath.model(center, frame: .heliocentric, ephemeris: ephemeris)
        let c = HorizonsPath.centerState(center, model: model, frame: .heliocentric, seconds: from.seconds, ephemeris: ephemeris)
        let local = OrbitalState(seconds: from.seconds, positionKm: from.positionKm - c.positionKm, velocityKmS: from.velocityKmS - c.velocityKmS)
        arc = try DormandPrince853().propagate(local, to: seconds, model: model)
        self.center = center
        self.model = model
    }

    /// Heliocentric state.
    public func state(at t: Double) throws -> OrbitalState {
        let s = try arc.state(at: t)
        let c = HorizonsPath.centerState(center, model: model, frame: .heliocentric, seconds: t, ephemeris: ephemeris)
        return OrbitalState(seconds: t, positionKm: s.positionKm + c.positionKm, velocityKmS: s.velocityKmS + c.velocityKmS)
    }
}
