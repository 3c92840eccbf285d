import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A launch from a pad to an escape hyperbola's perigee through a parking orbit, in the
/// departure plane (which holds the pad at liftoff): the ascent, the coast in a circular
/// parking orbit, and the upper stage's escape burn ending at the perigee — the sequence an
/// Atlas V/Centaur flies to Mars. Geocentric, ecliptic J2000, km and km/s.
///
/// - Ascent: angle in the plane and distance from the Earth's centre are cubics in time from the
///   pad's (with its in-plane rate) to the parking orbit's insertion point (with the orbit's
///   rate, at rest radially); the pad's small drift out of the plane as the Earth turns fades
///   out (smoothstep).
/// - Parking orbit: two-body circular motion at the perigee radius.
/// - Escape burn: at that radius, the angle a cubic from the orbit's rate to the perigee's. The
///   injection time is chosen so the burn covers the mean of the two rates times its length:
///   the cubic is then a parabola, constant tangential acceleration.
///
/// ```swift
/// let d = try PlanarDeparture(padAtLiftoff: pad, ..., perigee: injectionState)
/// d.state(at: d.injectionSeconds)   // the perigee state
/// ```
struct PlanarDeparture {
    let launchSeconds: Double
    let insertionSeconds: Double
    let burnStartSeconds: Double
    let injectionSeconds: Double
    /// In-plane axes: `e1` towards the pad at liftoff, `e2 = normal × e1`.
    let e1: Vector3
    let e2: Vector3
    let normal: Vector3
    let padRadiusKm: Double
    let padRate: Double
    let radiusKm: Double
    let insertionAngle: Double
    let circularRate: Double
    let perigeeRate: Double
    let perigeeAngle: Double
    /// The pad, geocentric.
    let pad: (Double) -> OrbitalState

    struct DepartureError: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// The injection time that makes the escape burn (of `burnSeconds`) a constant
    /// tangential acceleration from a parking orbit of radius `radius` entered at
    /// `insertionAngle` (radians downrange of the pad at liftoff) at `insertionSeconds`, to the
    /// perigee at `perigeeAngle` with `perigeeSpeed`.
    static func injectionSeconds(insertionSeconds: Double, insertionAngle: Double, burnSeconds: Double, radius: Double, perigeeAngle: Double,
                                 perigeeSpeed: Double, mu: Double) -> Double {
        let wc = (mu / (radius * radius * radius)).squareRoot(), wp = perigeeSpeed / radius
        return insertionSeconds + burnSeconds + (perigeeAngle - insertionAngle - 0.5 * (wc + wp) * burnSeconds) / wc
    }

    /// `pad` geocentric; `perigee` the escape hyperbola's perigee state (geocentric), at the
    /// injection time, in a plane that holds the pad at `launchSeconds`.
    init(launchSeconds: Double, insertionSeconds: Double, insertionAngle: Double, burnSeconds: Double, perigee: OrbitalState,
         mu: Double, pad: @escaping (Double) -> OrbitalState) throws {
        let p0 = pad(launchSeconds)
        normal = perigee.positionKm.cross(perigee.velocityKmS).normalized
        e1 = (p0.positionKm - normal * p0.positionKm.dot(normal)).normalized
        e2 = normal.cross(e1)
        guard abs(p0.positionKm.normalized.dot(normal)) < 1e-6 else {
            throw DepartureError(description: "the pad at liftoff is \(asin(p0.positionKm.normalized.dot(normal)) * 180 / .pi)° out of the departure plane")
        }
        self.launchSeconds = launchSeconds
        self.insertionSeconds = insertionSeconds
        self.insertionAngle = insertionAngle
        injectionSeconds = perigee.seconds
        burnStartSeconds = perigee.seconds - burnSeconds
        radiusKm = perigee.positionKm.length
        padRadiusKm = p0.positionKm.length
        padRate = p0.velocityKmS.dot(e2) / padRadiusKm
        circularRate = (mu / (radiusKm * radiusKm * radiusKm)).squareRoot()
        perigeeRate = perigee.velocityKmS.length / radiusKm
        var angle = atan2(perigee.positionKm.dot(e2), perigee.positionKm.dot(e1))
        if angle < insertionAngle { angle += 2 * .pi }
        perigeeAngle = angle
        self.pad = pad
        guard burnStartSeconds > insertionSeconds, insertionSeconds > launchSeconds else {
            throw DepartureError(description: "no coast: the parking orbit would be entered at +\(Int(insertionSeconds - launchSeconds)) s and left at +\(Int(burnStartSeconds - launchSeconds)) s")
        }
    }

    /// The angle of the parking orbit at `t`.
    func parkingAngle(_ t: Double) -> Double { insertionAngle + circularRate * (t - insertionSeconds) }

    /// The cubic through (0, a, rate a′·T) and (1, b, rate b′·T): value and derivative in time.
    static func hermite(_ s: Double, _ a: Double, _ da: Double, _ b: Double, _ db: Double, span: Double) -> (value: Double, rate: Double) {
        let s2 = s * s, s3 = s2 * s
        let value = a * (2 * s3 - 3 * s2 + 1) + da * span * (s3 - 2 * s2 + s) + b * (-2 * s3 + 3 * s2) + db * span * (s3 - s2)
        let rate = (a * (6 * s2 - 6 * s) + b * (-6 * s2 + 6 * s)) / span + da * (3 * s2 - 4 * s + 1) + db * (3 * s2 - 2 * s)
        return (value, rate)
    }

    /// Geocentric state at `t` in [launch, injection].
    func state(at t: Double) -> OrbitalState {
        var r = radiusKm, dr = 0.0, theta: Double, dtheta: Double
        var out = Vector3.zero, dout = Vector3.zero
        if t < insertionSeconds {
            let span = insertionSeconds - launchSeconds, s = max(0, (t - launchSeconds) / span)
            (r, dr) = Self.hermite(s, padRadiusKm, 0, radiusKm, 0, span: span)
            (theta, dtheta) = Self.hermite(s, 0, padRate, insertionAngle, circularRate, span: span)
            // The pad's drift out of the plane, fading.
            let p = pad(t)
            let w = s * s * (3 - 2 * s), dw = 6 * s * (1 - s) / span
            let z = p.positionKm.dot(normal), dz = p.velocityKmS.dot(normal)
            out = normal * (z * (1 - w))
            dout = normal * (dz * (1 - w) - z * dw)
        } else if t < burnStartSeconds {
            theta = parkingAngle(t)
            dtheta = circularRate
        } else {
            let span = injectionSeconds - burnStartSeconds, s = min(1, (t - burnStartSeconds) / span)
            (theta, dtheta) = Self.hermite(s, parkingAngle(burnStartSeconds), circularRate, perigeeAngle, perigeeRate, span: span)
        }
        let u = e1 * cos(theta) + e2 * sin(theta), along = normal.cross(u)
        return OrbitalState(seconds: t, positionKm: u * r + out, velocityKmS: u * dr + along * (r * dtheta) + dout)
    }
}
