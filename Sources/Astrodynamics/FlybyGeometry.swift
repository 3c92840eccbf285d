import Glibc
import Ephemeris

/// Two-body hyperbolas about a flyby body: from asymptotic velocities to states and back, the
/// times a hyperbola crosses a sphere, and the periapsis that joins an incoming and an
/// outgoing asymptote with the least impulse. Body-centred kilometres, km/s, seconds; any
/// inertial axes (the chains use ecliptic J2000).
public enum FlybyGeometry {
    /// The turn of the asymptotes of an unpowered hyperbola with speed at infinity `vInfinity`
    /// (km/s) and periapsis `periapsisKm`: δ = 2·asin(1/e), e = 1 + r_p·v∞²/μ. Radians.
    public static func unpoweredTurn(vInfinity: Double, periapsisKm: Double, mu: Double) -> Double {
        let e = 1 + periapsisKm * vInfinity * vInfinity / mu
        return 2 * asin(1 / e)
    }

    /// The velocity at `position` of the hyperbola that leaves it and tends to `vInfinity` as
    /// t → +∞, sweeping the angle φ < 180° between the position and the asymptote (the
    /// branch that does not first pass through a periapsis on the far side). Nil when the
    /// position lies along the asymptote, where the conic is rectilinear.
    ///
    /// From the conserved eccentricity vector: μ·e = v × h − μ·r̂ = v∞ × h − μ·v̂∞, so
    /// v = v∞ + μ·ĥ × (r̂ − v̂∞)/H with H = |h| the positive root of
    /// H² − r·v∞·sin φ·H − μ·r·(1 − cos φ) = 0 and ĥ = r̂ × v̂∞ / |r̂ × v̂∞|.
    public static func departingVelocity(at position: Vector3, vInfinity: Vector3, mu: Double) -> Vector3? {
        let r = position.length, speed = vInfinity.length
        guard r > 0, speed > 0 else { return nil }
        let rHat = position / r, uHat = vInfinity / speed
        let normal = rHat.cross(uHat)
        let sinPhi = normal.length
        guard sinPhi > 1e-12 else { return nil }
        let cosPhi = rHat.dot(uHat)
        let b = r * speed * sinPhi
        // 1 − cos φ from sin φ where φ is small (cos φ → 1).
        let oneMinusCos = cosPhi > 0 ? sinPhi * sinPhi / (1 + cosPhi) : 1 - cosPhi
        let h = (b + (b * b + 4 * mu * r * oneMinusCos).squareRoot()) / 2
        return vInfinity + (normal / sinPhi).cross(rHat - uHat) * (mu / h)
    }

    /// The velocity at `position` of the hyperbola that arrives there from infinity with
    /// asymptotic velocity `vInfinity` (the time reverse of ``departingVelocity(at:vInfinity:mu:)``).
    public static func arrivingVelocity(at position: Vector3, vInfinity: Vector3, mu: Double) -> Vector3? {
        departingVelocity(at: position, vInfinity: -vInfinity, mu: mu).map { -$0 }
    }

    /// The asymptotic velocity of a hyperbolic state: where it tends as t → +∞ (`outgoing`) or
    /// came from as t → −∞. Nil for an ellipse, a parabola or a rectilinear path.
    public static func vInfinity(position: Vector3, velocity: Vector3, mu: Double, outgoing: Bool) -> Vector3? {
        let r = position.length
        let speedSquared = velocity.lengthSquared - 2 * mu / r
        guard speedSquared > 0 else { return nil }
        let h = position.cross(velocity)
        guard h.lengthSquared > 0 else { return nil }
        let eVector = velocity.cross(h) / mu - position / r
        let e = eVector.length
        guard e > 1 else { return nil }
        let p = eVector / e, q = h.normalized.cross(p)
        let cosTheta = -1 / e, sinTheta = (1 - cosTheta * cosTheta).squareRoot()
        let direction = outgoing ? p * cosTheta + q * sinTheta : p * -cosTheta + q * sinTheta
        return direction * speedSquared.squareRoot()
    }

    /// Seconds from the state's epoch until the hyperbola reaches `radiusKm`: forwards on the
    /// way out (positive), or backwards on the way in (`forward: false`, negative). Nil when
    /// the conic is not a hyperbola, or never reaches that radius on that side (the radius is
    /// below its periapsis, or already behind it). Kepler's hyperbolic equation, so no
    /// propagation.
    public static func secondsToRadius(position: Vector3, velocity: Vector3, mu: Double, radiusKm: Double, forward: Bool) -> Double? {
        let r = position.length
        let energy = velocity.lengthSquared / 2 - mu / r
        guard energy > 0 else { return nil }
        let a = mu / (2 * energy) // |a|
        let h = position.cross(velocity)
        let e = (velocity.cross(h) / mu - position / r).length
        guard e > 1 else { return nil }
        let coshTarget = (1 + radiusKm / a) / e
        guard coshTarget >= 1 else { return nil }
        let fNow = asinh(position.dot(velocity) / (e * (mu * a).squareRoot()))
        let fTarget = forward ? acosh(coshTarget) : -acosh(coshTarget)
        guard forward ? fTarget >= fNow : fTarget <= fNow else { return nil }
        let n = (mu / (a * a * a)).squareRoot()
        return ((e * sinh(fTarget) - fTarget) - (e * sinh(fNow) - fNow)) / n
    }

    /// Seconds from the state's epoch to the next periapsis of its two-body ellipse about `mu`:
    /// Kepler's equation, as ``secondsToRadius(position:velocity:mu:radiusKm:forward:)`` for the
    /// hyperbola. Nil for an open or circular orbit.
    public static func secondsToPeriapsis(position r: Vector3, velocity v: Vector3, mu: Double) -> Double? {
        let radius = r.length
        let a = 1 / (2 / radius - v.lengthSquared / mu)
        guard a > 0 else { return nil }
        let eCos = 1 - radius / a, eSin = r.dot(v) / (mu * a).squareRoot()
        let e = (eCos * eCos + eSin * eSin).squareRoot()
        guard e > 1e-12 else { return nil }
        let eccentricAnomaly = atan2(eSin, eCos)
        let meanAnomaly = eccentricAnomaly - eSin
        let meanMotion = (mu / (a * a * a)).squareRoot()
        // Before periapsis the mean anomaly is negative: −M/n ahead; after it, the next one.
        return (meanAnomaly <= 0 ? -meanAnomaly : 2 * .pi - meanAnomaly) / meanMotion
    }

    /// Radius of the sphere of influence of a body of gravitational parameter `mu` at distance
    /// `distanceKm` from a centre of `centralMu` (Laplace: d·(μ/μ_c)^⅖).
    public static func sphereOfInfluenceKm(distanceKm: Double, mu: Double, centralMu: Double) -> Double {
        distanceKm * pow(mu / centralMu, 0.4)
    }

    /// A closest-approach point joining two asymptotes, with the impulse there.
    public struct Periapsis: Sendable, Hashable {
        /// Unit vector from the body's centre to the closest approach.
        public let direction: Vector3
        /// Its distance from the centre, km (the planned one, or up to the allowance below it).
        public let distanceKm: Double
        /// Velocity on arrival (incoming hyperbola) and on departure (outgoing), km/s.
        public let arrivingVelocity: Vector3
        public let departingVelocity: Vector3
        public var deltaV: Vector3 { departingVelocity - arrivingVelocity }
    }

    /// The closest-approach direction at distance `periapsisKm` that joins the incoming
    /// asymptote `vIn` to the outgoing `vOut` with the least impulse at that point. Both arcs
    /// pass through the point; the incoming one arrives falling or level (it has not passed a
    /// lower periapsis before it) and the outgoing one leaves rising or level, so the point is
    /// the path's closest approach, at the planned distance and time. An unpowered flyby
    /// (|vIn| = |vOut| and the turn the distance gives) comes out with zero impulse, a
    /// classical powered flyby with its tangential burn; otherwise the impulse also turns or
    /// tilts the velocity, as little as the geometry allows.
    ///
    /// The least impulse over the directions meeting those two conditions lies inside them or
    /// on their boundaries, so every case is tried and the least kept:
    /// - both arcs at periapsis there: the two cones p̂·v̂in = 1/e_in, p̂·v̂out = −1/e_out meet
    ///   in at most two directions (closed form);
    /// - only the incoming arc at periapsis (p̂ on its cone, one angle) or only the outgoing
    ///   one: a scan of the angle, golden section, then Newton steps on the derivative;
    /// - neither: Levenberg–Marquardt on the impulse vector from `start` (the previous answer)
    ///   or from the classical direction v̂in − v̂out and eight directions on the unpowered cone.
    /// Given `start` (the branch the chain's iteration is on), the candidate nearest it among
    /// those within 2% (or 0.1 m/s) of the least wins, so a mirror pair of equal impulse cannot
    /// alternate between passes.
    /// Each answer is exact or converged to ~1e-11 rad, so it moves smoothly with the
    /// asymptotes, which the chain's iteration needs.
    ///
    /// `lowerByUpToKm`: how far below `periapsisKm` the closest approach may pass if that
    /// saves impulse. When the needed turn is slightly more than the planned distance gives,
    /// the least impulse at that distance is a plane change growing with the square root of
    /// the excess; passing a little lower instead turns the asymptotes ballistically. With an
    /// allowance, a needed turn between what `periapsisKm` and `periapsisKm − lowerByUpToKm`
    /// give is met by the classical flyby at the distance that gives it exactly (a tangential
    /// impulse only, zero when |vIn| = |vOut|); beyond, the search runs at the lowest distance.
    public static func leastImpulsePeriapsis(vIn: Vector3, vOut: Vector3, periapsisKm planned: Double, mu: Double, start: Vector3? = nil,
                                             lowerByUpToKm allowance: Double = 0) -> Periapsis? {
        let speedIn = vIn.length, speedOut = vOut.length
        guard speedIn > 0, speedOut > 0, planned > 0, mu > 0, allowance >= 0, allowance < planned else { return nil }
        let uIn = vIn / speedIn, uOut = vOut / speedOut
        let needed = uIn.angle(to: uOut)
        func natural(_ r: Double) -> Double {
            (unpoweredTurn(vInfinity: speedIn, periapsisKm: r, mu: mu) + unpoweredTurn(vInfinity: speedOut, periapsisKm: r, mu: mu)) / 2
        }
        var rp = planned
        if allowance > 0, needed > natural(planned) {
            let lowest = planned - allowance
            if needed <= natural(lowest) {
                // The distance in [lowest, planned] whose two half-hyperbolas turn exactly as
                // needed (the turn falls as the distance grows), and the classical flyby there.
                var lo = lowest, hi = planned
                for _ in 0..<100 where hi - lo > 1e-12 * planned {
                    let mid = (lo + hi) / 2
                    if natural(mid) > needed { lo = mid } else { hi = mid }
                }
                if let p = classical(uIn: uIn, uOut: uOut, speedIn: speedIn, speedOut: speedOut, rp: (lo + hi) / 2, mu: mu),
                   let a = arrivingVelocity(at: p * ((lo + hi) / 2), vInfinity: vIn, mu: mu),
                   let d = departingVelocity(at: p * ((lo + hi) / 2), vInfinity: vOut, mu: mu) {
                    return Periapsis(direction: p, distanceKm: (lo + hi) / 2, arrivingVelocity: a, departingVelocity: d)
                }
            }
            rp = lowest
        }
        let eIn = 1 + rp * speedIn * speedIn / mu, eOut = 1 + rp * speedOut * speedOut / mu
        func velocities(_ p: Vector3) -> (Vector3, Vector3)? {
            guard let a = arrivingVelocity(at: p * rp, vInfinity: vIn, mu: mu),
                  let d = departingVelocity(at: p * rp, vInfinity: vOut, mu: mu) else { return nil }
            return (a, d)
        }
        func feasible(_ p: Vector3, _ a: Vector3, _ d: Vector3) -> Bool {
            a.dot(p) <= 1e-12 * a.length && d.dot(p) >= -1e-12 * d.length
        }
        /// Impulse at p̂, infinite where the conditions fail.
        func impulse(_ p: Vector3) -> Double {
            guard let (a, d) = velocities(p), feasible(p, a, d) else { return .infinity }
            return (d - a).length
        }
        var candidates: [(p: Vector3, dv: Double)] = []
        var best: (p: Vector3, dv: Double)?
        func consider(_ p: Vector3?) {
            guard let p, p.isFinite else { return }
            let u = p.normalized
            let dv = impulse(u)
            guard dv.isFinite else { return }
            candidates.append((u, dv))
            if dv < (best?.dv ?? .infinity) { best = (u, dv) }
        }
        // Both at periapsis: p̂ = α·v̂in + β·v̂out ± γ·n̂.
        let c = uIn.dot(uOut)
        let s1 = 1 / eIn, s2 = -1 / eOut
        if 1 - c * c > 1e-14 {
            let alpha = (s1 - c * s2) / (1 - c * c), beta = (s2 - c * s1) / (1 - c * c)
            let base = uIn * alpha + uOut * beta
            let rest = 1 - base.lengthSquared
            if rest >= 0 {
                let n = uIn.cross(uOut).normalized
                consider(base + n * rest.squareRoot())
                consider(base - n * rest.squareRoot())
            }
        }
        // One at periapsis: the cones.
        consider(bestOnCone(axis: uIn, cosHalfAngle: s1, impulse: impulse))
        consider(bestOnCone(axis: uOut, cosHalfAngle: s2, impulse: impulse))
        // Neither: the interior minimum.
        var starts: [Vector3] = []
        if let s = start, s.lengthSquared > 0 { starts.append(s.normalized) }
        if start == nil || best == nil {
            let classical = uIn - uOut
            if classical.length > 1e-9 { starts.append(classical.normalized) }
            let (e1, e2) = perpendicularBasis(uIn)
            let cone = acos(min(1, s1))
            for k in 0..<8 {
                let clock = Double(k) * Double.pi / 4
                starts.append((uIn * cos(cone) + (e1 * cos(clock) + e2 * sin(clock)) * sin(cone)).normalized)
            }
        }
        func residuals(_ p: Vector3) -> [Double]? {
            guard let (a, d) = velocities(p) else { return nil }
            let dv = d - a
            return [dv.x, dv.y, dv.z]
        }
        func cost(_ p: Vector3) -> Double {
            guard let r = residuals(p) else { return .infinity }
            return r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
        }
        for s in starts { consider(refine(from: s, cost: cost, residuals: residuals)) }
        // With a previous answer, of the candidates within 2% (or 0.1 m/s) of the least, the
        // one nearest it: branches of (nearly) equal impulse — the mirror pair of a plane change
        // — must not trade places between the chain's iterations.
        guard let least = best else { return nil }
        var found = least
        if let s = start {
            let allowance = max(0.02 * least.dv, 1e-4)
            found = candidates.filter { $0.dv <= least.dv + allowance }.min { $0.p.angle(to: s) < $1.p.angle(to: s) } ?? least
        }
        guard let (a, d) = velocities(found.p) else { return nil }
        return Periapsis(direction: found.p, distanceKm: rp, arrivingVelocity: a, departingVelocity: d)
    }

    /// The coplanar periapsis direction of two half-hyperbolas that turn exactly by the angle
    /// between the asymptotes at `rp`: in their plane, at 90° − δin/2 from v̂in.
    static func classical(uIn: Vector3, uOut: Vector3, speedIn: Double, speedOut: Double, rp: Double, mu: Double) -> Vector3? {
        let n = uIn.cross(uOut)
        guard n.length > 1e-12 else { return nil }
        let w = n.normalized.cross(uIn) // in the plane, 90° ahead of v̂in
        let halfIn = unpoweredTurn(vInfinity: speedIn, periapsisKm: rp, mu: mu) / 2
        // p̂·v̂in = sin(δin/2); p̂ lies on the far side from v̂out.
        return (uIn * sin(halfIn) - w * cos(halfIn)).normalized
    }

    /// The least `impulse` over the cone of directions at `cosHalfAngle` about `axis`: a scan of
    /// the clock angle in 5° steps, golden section around the best, then Newton steps on the
    /// derivative (central differences) where the minimum is inside the feasible arc.
    static func bestOnCone(axis: Vector3, cosHalfAngle: Double, impulse: (Vector3) -> Double) -> Vector3? {
        guard abs(cosHalfAngle) <= 1 else { return nil }
        let sinHalf = (1 - cosHalfAngle * cosHalfAngle).squareRoot()
        let (e1, e2) = perpendicularBasis(axis)
        func point(_ theta: Double) -> Vector3 { axis * cosHalfAngle + (e1 * cos(theta) + e2 * sin(theta)) * sinHalf }
        func f(_ theta: Double) -> Double { impulse(point(theta)) }
        var bestTheta = 0.0, bestValue = Double.infinity
        for k in 0..<72 {
            let theta = Double(k) * Double.pi / 36
            let v = f(theta)
            if v < bestValue { bestValue = v; bestTheta = theta }
        }
        guard bestValue.isFinite else { return nil }
        var lo = bestTheta - Double.pi / 36, hi = bestTheta + Double.pi / 36
        let ratio = (5.0.squareRoot() - 1) / 2
        var x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo)
        var f1 = f(x1), f2 = f(x2)
        for _ in 0..<60 {
            if f1 < f2 { hi = x2; x2 = x1; f2 = f1; x1 = hi - ratio * (hi - lo); f1 = f(x1) } else { lo = x1; x1 = x2; f1 = f2; x2 = lo + ratio * (hi - lo); f2 = f(x2) }
        }
        var theta = (lo + hi) / 2
        var value = f(theta)
        // Newton on f′ where the neighbourhood is feasible (a smooth interior minimum).
        let h = 1e-5
        for _ in 0..<8 {
            let fp = f(theta + h), fm = f(theta - h)
            guard fp.isFinite, fm.isFinite, value.isFinite else { break }
            let d1 = (fp - fm) / (2 * h), d2 = (fp - 2 * value + fm) / (h * h)
            guard d2 > 0 else { break }
            let next = theta - d1 / d2
            let nextValue = f(next)
            guard nextValue <= value, abs(next - theta) < Double.pi / 36 else { break }
            let step = abs(next - theta)
            theta = next
            value = nextValue
            if step < 1e-13 { break }
        }
        return value < bestValue + 1e-12 ? point(theta) : point(bestTheta)
    }

    /// Levenberg–Marquardt over p̂ = normalise(p₀ + a·e₁ + b·e₂), re-centred after every
    /// accepted step; numerical Jacobian by central differences.
    static func refine(from start: Vector3, cost: (Vector3) -> Double, residuals: (Vector3) -> [Double]?) -> Vector3 {
        var p = start
        var current = cost(p)
        var lambda = 1e-3
        for _ in 0..<200 {
            guard current.isFinite, current > 0, let r0 = residuals(p) else { break }
            let (e1, e2) = perpendicularBasis(p)
            let h = 1e-7
            guard let r1p = residuals((p + e1 * h).normalized), let r1m = residuals((p - e1 * h).normalized),
                  let r2p = residuals((p + e2 * h).normalized), let r2m = residuals((p - e2 * h).normalized) else { break }
            var j11 = 0.0, j12 = 0.0, j22 = 0.0, g1 = 0.0, g2 = 0.0
            for i in 0..<r0.count {
                let d1 = (r1p[i] - r1m[i]) / (2 * h), d2 = (r2p[i] - r2m[i]) / (2 * h)
                j11 += d1 * d1
                j12 += d1 * d2
                j22 += d2 * d2
                g1 += d1 * r0[i]
                g2 += d2 * r0[i]
            }
            var accepted = false
            for _ in 0..<30 {
                let a11 = j11 * (1 + lambda), a22 = j22 * (1 + lambda)
                let det = a11 * a22 - j12 * j12
                guard det != 0, det.isFinite else { lambda *= 10; continue }
                let s1 = -(a22 * g1 - j12 * g2) / det
                let s2 = -(a11 * g2 - j12 * g1) / det
                let candidate = (p + e1 * s1 + e2 * s2).normalized
                let c = cost(candidate)
                if c < current {
                    let step = (candidate - p).length
                    p = candidate
                    current = c
                    lambda = max(lambda / 10, 1e-12)
                    accepted = true
                    if step < 1e-14 { return p }
                    break
                }
                lambda *= 10
            }
            if !accepted { break }
        }
        return p
    }

    /// Two unit vectors completing `u` (unit) to a right-handed orthonormal basis.
    static func perpendicularBasis(_ u: Vector3) -> (Vector3, Vector3) {
        let helper = abs(u.z) < 0.9 ? Vector3(0, 0, 1) : Vector3(1, 0, 0)
        let e1 = helper.cross(u).normalized
        return (e1, u.cross(e1))
    }
}
