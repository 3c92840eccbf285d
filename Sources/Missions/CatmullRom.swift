import Ephemeris

/// Centripetal Catmull-Rom splines (alpha = 0.5) through a polyline, evaluated with the
/// Barry–Goldman pyramid, as the seeds port Three.js's `CatmullRomCurve3` (open curve, the first
/// and last guide points extrapolated as `2·P0 − P1` and `2·Pn − Pn−1`).
///
/// ```swift
/// let p = CatmullRom.point(points, segment: 2, fraction: 0.5)   // halfway from points[2] to points[3]
/// let q = CatmullRom.point(points, at: 0.5)                      // Three.js getPoint(0.5)
/// ```
public enum CatmullRom {
    /// Knot spacing exponent: t(i+1) = t(i) + |P(i+1) − P(i)|^alpha.
    public static let alpha = 0.5
    /// Three.js's guard for repeated points: a knot interval below this is replaced (the middle
    /// one by 1, the outer ones by the middle one), so coincident waypoints never divide by zero.
    public static let minimumKnotInterval = 1e-4

    /// The point at `fraction` ∈ [0, 1] of the segment from `points[segment]` to
    /// `points[segment + 1]`. Fractions 0 and 1 return those control points exactly.
    public static func point(_ points: [Vector3], segment: Int, fraction: Double) -> Vector3 {
        let n = points.count
        precondition(n >= 1, "a curve needs a point")
        if n == 1 { return points[0] }
        let i = min(max(segment, 0), n - 2)
        if fraction <= 0 { return points[i] }
        if fraction >= 1 { return points[i + 1] }
        let p1 = points[i], p2 = points[i + 1]
        let p0 = i > 0 ? points[i - 1] : p1 * 2 - p2
        let p3 = i + 2 < n ? points[i + 2] : p2 * 2 - p1
        return barryGoldman(p0, p1, p2, p3, fraction: fraction)
    }

    /// Three.js `getPoint(u)`: `u` ∈ [0, 1] over the whole curve, each segment an equal share.
    public static func point(_ points: [Vector3], at u: Double) -> Vector3 {
        let n = points.count
        precondition(n >= 1, "a curve needs a point")
        if n == 1 { return points[0] }
        let p = Double(n - 1) * min(max(u, 0), 1)
        var i = Int(p.rounded(.down))
        var w = p - Double(i)
        if i >= n - 1 { i = n - 2; w = 1 }
        return point(points, segment: i, fraction: w)
    }

    /// One segment P1→P2 with guides P0, P3: three lerps, then two, then one, on centripetal knots.
    public static func barryGoldman(_ p0: Vector3, _ p1: Vector3, _ p2: Vector3, _ p3: Vector3, fraction: Double) -> Vector3 {
        var d0 = (p1 - p0).length.squareRoot()
        var d1 = (p2 - p1).length.squareRoot()
        var d2 = (p3 - p2).length.squareRoot()
        if d1 < minimumKnotInterval { d1 = 1 }
        if d0 < minimumKnotInterval { d0 = d1 }
        if d2 < minimumKnotInterval { d2 = d1 }
        let t0 = 0.0, t1 = d0, t2 = d0 + d1, t3 = d0 + d1 + d2
        let t = t1 + (t2 - t1) * fraction
        let a1 = lerp(p0, p1, t, t0, t1)
        let a2 = lerp(p1, p2, t, t1, t2)
        let a3 = lerp(p2, p3, t, t2, t3)
        let b1 = lerp(a1, a2, t, t0, t2)
        let b2 = lerp(a2, a3, t, t1, t3)
        return lerp(b1, b2, t, t1, t2)
    }

    /// Linear interpolation of `a` (at knot `ta`) and `b` (at knot `tb`) evaluated at knot `t`.
    @inlinable static func lerp(_ a: Vector3, _ b: Vector3, _ t: Double, _ ta: Double, _ tb: Double) -> Vector3 {
        let w = (t - ta) / (tb - ta)
        return a * (1 - w) + b * w
    }

    /// Where time `t` falls among strictly increasing `times`: the segment index and the fraction
    /// along it (the seeds' uniform-time sampling). Clamped to the first and last segments.
    public static func segment(for t: Double, times: [Double]) -> (segment: Int, fraction: Double) {
        let n = times.count
        guard n >= 2 else { return (0, 0) }
        if t <= times[0] { return (0, 0) }
        if t >= times[n - 1] { return (n - 2, 1) }
        var lo = 0, hi = n - 1 // times[lo] <= t < times[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid } else { hi = mid }
        }
        return (lo, (t - times[lo]) / (times[lo + 1] - times[lo]))
    }

    /// The curve through `points` at time `t`, each point reached exactly at its time in `times`.
    public static func point(_ points: [Vector3], times: [Double], at t: Double) -> Vector3 {
        let s = segment(for: t, times: times)
        return point(points, segment: s.segment, fraction: s.fraction)
    }
}
