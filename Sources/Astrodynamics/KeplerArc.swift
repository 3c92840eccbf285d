import Glibc
import Ephemeris

/// A two-body (Keplerian) trajectory around a central body: a state at an epoch, propagated to
/// any other time with the universal-variable Kepler equation, so ellipses, parabolas and
/// hyperbolas take the same path. Kilometres, km/s and seconds; epochs in mission hours.
///
/// ```swift
/// let arc = KeplerArc(mu: Constants.moonGMKm3PerS2, position: r, velocity: v, epochHours: 70)
/// let later = arc.state(atHours: 72)        // position and velocity two hours on
/// ```
public struct KeplerArc: Sendable, Hashable {
    /// Gravitational parameter of the central body, km³/s².
    public let mu: Double
    public let position: Vector3
    public let velocity: Vector3
    public let epochHours: Double

    public init(mu: Double, position: Vector3, velocity: Vector3, epochHours: Double) {
        self.mu = mu
        self.position = position
        self.velocity = velocity
        self.epochHours = epochHours
    }

    /// Position (km) and velocity (km/s) relative to the central body at `t` hours (before or
    /// after the epoch).
    public func state(atHours t: Double) -> (position: Vector3, velocity: Vector3) {
        state(afterSeconds: (t - epochHours) * 3600)
    }

    /// Position (km) and velocity (km/s) relative to the central body `dt` seconds after the
    /// epoch (negative: before it). For holders that keep their own epoch in TDB seconds.
    public func state(afterSeconds dt: Double) -> (position: Vector3, velocity: Vector3) {
        guard dt != 0 else { return (position, velocity) }
        let r0 = position.length
        let vr0 = position.dot(velocity) / r0
        let alpha = 2 / r0 - velocity.lengthSquared / mu
        let sqrtMu = mu.squareRoot()
        let chi = Self.universalAnomaly(dt: dt, r0: r0, vr0: vr0, alpha: alpha, sqrtMu: sqrtMu)
        let z = alpha * chi * chi
        let c = Stumpff.c(z), s = Stumpff.s(z)
        let f = 1 - chi * chi / r0 * c
        let g = dt - chi * chi * chi / sqrtMu * s
        let r = position * f + velocity * g
        let rn = r.length
        let fDot = sqrtMu / (rn * r0) * (z * s - 1) * chi
        let gDot = 1 - chi * chi / rn * c
        return (r, position * fDot + velocity * gDot)
    }

    /// Solves the universal Kepler equation F(χ) = 0 for χ (km^½). F is monotonic in χ (its
    /// derivative is the radius), so a bracket plus Newton steps that fall back to bisection
    /// always converges, backwards in time as well as forwards.
    static func universalAnomaly(dt: Double, r0: Double, vr0: Double, alpha: Double, sqrtMu: Double) -> Double {
        let a = r0 * vr0 / sqrtMu, b = 1 - alpha * r0
        let sign = dt > 0 ? 1.0 : -1.0
        /// F(χ)·sign and F'(χ); an overflow (χ far past the root on a hyperbola) counts as past it.
        func value(_ x: Double) -> (f: Double, df: Double) {
            let z = alpha * x * x
            let c = Stumpff.c(z), s = Stumpff.s(z)
            let f = (a * x * x * c + b * x * x * x * s + r0 * x - sqrtMu * dt) * sign
            let df = (a * x * (1 - z * s) + b * x * x * c + r0) * sign
            return f.isFinite && df.isFinite ? (f, df) : (.infinity, .infinity)
        }
        // Bracket the root on the side of zero that dt points to: F(0) = −√μ·dt.
        var lo = 0.0
        var hi = sign * max(sqrtMu * abs(dt) * max(abs(alpha), 1 / r0), 1e-6)
        var widenings = 0
        while value(hi).f < 0, widenings < 200 {
            lo = hi
            hi *= 2
            widenings += 1
        }
        // Invariant: value(lo).f < 0 ≤ value(hi).f, with lo and hi on dt's side of zero. Newton
        // steps while they stay inside the bracket and at least halve the step before last
        // (far out on a hyperbola F grows like e^χ and Newton crawls); bisection otherwise.
        var x = (lo + hi) / 2
        var step = abs(hi - lo), stepBefore = step
        // 1e-15 of the time: a millimetre after a decade at 30 km/s (1e-10, as before, was a
        // kilometre); the step test below ends the search where rounding sets in first.
        let tolerance = 1e-15 * sqrtMu * max(abs(dt), 1)
        for _ in 0..<300 {
            let (f, df) = value(x)
            if abs(f) < tolerance { return x }
            if f < 0 { lo = x } else { hi = x }
            let newton = f.isFinite ? x - f / df : .nan
            // A step at the level of rounding: converged (F's own rounding stops |F| short of
            // any fixed fraction of √μ·Δt when its terms cancel).
            if newton.isFinite, (newton - lo) * (newton - hi) <= 0, abs(newton - x) <= 1e-14 * abs(x) { return newton }
            if newton.isFinite, (newton - lo) * (newton - hi) < 0, abs(2 * f) < abs(stepBefore * df) {
                stepBefore = step
                step = abs(newton - x)
                x = newton
            } else {
                stepBefore = step
                step = abs(hi - lo) / 2
                x = (lo + hi) / 2
            }
            if abs(hi - lo) <= 1e-13 * max(1, abs(x)) { break }
        }
        return x
    }

    /// The lowest distance from the central body between two states of the same arc: the
    /// periapsis if the arc passes it in between (falling at the first, rising at the second),
    /// otherwise the nearer end.
    public static func minimumDistance(mu: Double, from a: (position: Vector3, velocity: Vector3), to b: (position: Vector3, velocity: Vector3)) -> Double {
        let ends = min(a.position.length, b.position.length)
        guard a.position.dot(a.velocity) < 0, b.position.dot(b.velocity) > 0 else { return ends }
        let h = a.position.cross(a.velocity)
        let e = (a.velocity.cross(h) / mu - a.position.normalized).length
        return min(ends, h.lengthSquared / (mu * (1 + e)))
    }

    // MARK: - Lambert's problem

    /// The arc from `r1` to `r2` taking `seconds`, the short way round (transfer angle below
    /// 180°) or the long way: its velocities at both ends. Nil when the two positions are
    /// (anti)parallel, where the plane of the transfer is undefined.
    ///
    /// Universal-variable formulation (Bate, Mueller & White 1971, §5.3; Curtis, *Orbital
    /// Mechanics for Engineering Students*, §5.3): find z with
    /// `(y/C)^{3/2}·S + A·√y = √μ·Δt`, `y = r1 + r2 + A(zS − 1)/√C`, single revolution.
    public static func lambert(mu: Double, from r1: Vector3, to r2: Vector3, seconds: Double, longWay: Bool) -> (v1: Vector3, v2: Vector3)? {
        let n1 = r1.length, n2 = r2.length
        guard seconds > 0, n1 > 0, n2 > 0 else { return nil }
        let cosTheta = max(-1, min(1, r1.dot(r2) / (n1 * n2)))
        let shortAngle = acos(cosTheta)
        guard shortAngle > 1e-6, shortAngle < Double.pi - 1e-6 else { return nil }
        let theta = longWay ? 2 * Double.pi - shortAngle : shortAngle
        let A = sin(theta) * (n1 * n2 / (1 - cos(theta))).squareRoot()
        let sqrtMu = mu.squareRoot()
        func y(_ z: Double) -> Double { n1 + n2 + A * (z * Stumpff.s(z) - 1) / Stumpff.c(z).squareRoot() }
        /// Time-of-flight residual, increasing with z; where y < 0 the transfer would need a
        /// negative y, i.e. it is shorter than any conic allows: treat as too fast.
        func residual(_ z: Double) -> Double {
            let yz = y(z)
            guard yz >= 0 else { return -sqrtMu * seconds }
            let c = Stumpff.c(z), s = Stumpff.s(z)
            return pow(yz / c, 1.5) * s + A * yz.squareRoot() - sqrtMu * seconds
        }
        // Just below 4π², where C(z) → 0: closer, C and zS − 1 lose all their digits.
        var hi = 4 * Double.pi * Double.pi * (1 - 1e-6)
        var lo = -4 * Double.pi * Double.pi
        var widenings = 0
        while residual(lo) > 0, widenings < 100 {
            lo *= 2
            widenings += 1
        }
        guard residual(lo) <= 0, residual(hi) >= 0 else { return nil }
        // Newton steps (numerical slope) inside the bracket that at least halve the step before
        // last; bisection otherwise.
        var z = lo < 0 && hi > 0 ? 0.0 : (lo + hi) / 2
        var step = hi - lo, stepBefore = step
        let tolerance = 1e-12 * sqrtMu * seconds
        for _ in 0..<300 {
            let f = residual(z)
            if abs(f) < tolerance { break }
            if f < 0 { lo = z } else { hi = z }
            let dz = 1e-7 * max(1, abs(z))
            let slope = (residual(z + dz) - f) / dz
            let next = slope > 0 ? z - f / slope : .nan
            if next.isFinite, next > lo, next < hi, abs(2 * f) < abs(stepBefore * slope) {
                stepBefore = step
                step = abs(next - z)
                z = next
            } else {
                stepBefore = step
                step = (hi - lo) / 2
                z = (lo + hi) / 2
            }
            if hi - lo <= 1e-14 * max(1, abs(z)) { break }
        }
        let yz = y(z)
        guard yz > 0 else { return nil }
        let f = 1 - yz / n1
        let g = A * (yz / mu).squareRoot()
        let gDot = 1 - yz / n2
        guard abs(g) > 0 else { return nil }
        return ((r2 - r1 * f) / g, (r2 * gDot - r1) / g)
    }
}

/// Stumpff's functions C(z) and S(z). C from the half angle (1 − cos q = 2 sin²(q/2), no
/// cancellation); S by its series for |z| < 1, where q − sin q loses up to six digits (the
/// series' first omitted term is below 1e-22 there).
enum Stumpff {
    static func c(_ z: Double) -> Double {
        if z > 1e-3 {
            let h = sin(z.squareRoot() / 2)
            return 2 * h * h / z
        }
        if z < -1e-3 {
            let h = sinh((-z).squareRoot() / 2)
            return 2 * h * h / -z
        }
        return 1.0 / 2 - z / 24 + z * z / 720 - z * z * z / 40_320 + z * z * z * z / 3_628_800
    }

    static func s(_ z: Double) -> Double {
        if z >= 1 {
            let q = z.squareRoot()
            return (q - sin(q)) / (q * q * q)
        }
        if z <= -1 {
            let q = (-z).squareRoot()
            return (sinh(q) - q) / (q * q * q)
        }
        // Σ (−z)^k / (2k + 3)!, k = 0…9.
        var term = 1.0 / 6, sum = term
        for k in 1...9 {
            term *= -z / Double((2 * k + 2) * (2 * k + 3))
            sum += term
        }
        return sum
    }
}
