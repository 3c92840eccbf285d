import Astrodynamics
import Ephemeris
import Missions

/// Chooses the states an SPK type 13 segment stores so that Hermite interpolation between them
/// reproduces a path within a tolerance: the path's own required epochs (the data's samples,
/// kept exactly), and as many more as the path's curvature needs — every interval whose
/// interpolant strays from the path is halved until none does. Interpolation uses the window
/// SPK type 13 uses for an even window size: the `window` states around the interval holding
/// the epoch, shifted inside the list at its ends.
///
/// ```swift
/// let nodes = try HermiteNodes.fit(required: sampleTimes, window: 6, toleranceKm: 0.01) { try path.state(at: $0) }
/// ```
public enum HermiteNodes {
    public struct FitError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The nodes (time order): every `required` epoch (strictly increasing, at least two: a
    /// piece's ends and the epochs it must keep), and as many of `checkpoints` (epochs where the
    /// path is known exactly, such as the data's own samples) and halfway points as keep the
    /// interpolation within `toleranceKm` of the path at every checkpoint and at the quarter
    /// points of every interval. An interval that fails is split at the checkpoint nearest its
    /// middle, or at its middle. `state` gives the path at any time between the ends. With
    /// `velocityToleranceKmS`, the interpolated velocity is held to it at the same epochs.
    public static func fit(required: [Double], checkpoints: [Double] = [], window: Int = 6, toleranceKm: Double = 0.01,
                           velocityToleranceKmS: Double? = nil, maxPasses: Int = 40,
                           state: (Double) throws -> OrbitalState) throws -> [OrbitalState] {
        guard required.count >= 2 else { throw FitError(description: "at least two epochs are needed, \(required.count) given") }
        var nodes = try required.map { try state($0) }
        let checks = checkpoints.filter { $0 > required[0] && $0 < required[required.count - 1] }.sorted()
        var worst = (seconds: 0.0, km: 0.0), worstVelocity = (seconds: 0.0, kmS: 0.0)
        for _ in 0..<maxPasses {
            var splits: [(after: Int, at: Double)] = []
            worst = (0, 0)
            worstVelocity = (0, 0)
            var c = 0
            for i in 0..<(nodes.count - 1) {
                let a = nodes[i].seconds, b = nodes[i + 1].seconds
                while c < checks.count, checks[c] <= a { c += 1 }
                var inside: [Double] = []
                var k = c
                while k < checks.count, checks[k] < b { inside.append(checks[k]); k += 1 }
                let tests = inside + [0.25, 0.5, 0.75].map { a + (b - a) * $0 }
                for t in tests {
                    let fitted = interpolate(nodes, at: t, window: window), exact = try state(t)
                    let error = (fitted.positionKm - exact.positionKm).length
                    let velocityError = (fitted.velocityKmS - exact.velocityKmS).length
                    let velocityOff = velocityToleranceKmS.map { velocityError > $0 } ?? false
                    guard error > toleranceKm || velocityOff else { continue }
                    if error > worst.km { worst = (t, error) }
                    if velocityOff, velocityError > worstVelocity.kmS { worstVelocity = (t, velocityError) }
                    let mid = (a + b) / 2
                    let at = inside.min { abs($0 - mid) < abs($1 - mid) } ?? mid
                    // Below a millisecond the path itself is not smooth: leave it.
                    if b - a > 2e-3 { splits.append((i, at)) }
                    break
                }
            }
            if splits.isEmpty { return nodes }
            var merged: [OrbitalState] = []
            merged.reserveCapacity(nodes.count + splits.count)
            var next = 0
            for i in 0..<nodes.count {
                merged.append(nodes[i])
                if next < splits.count, splits[next].after == i {
                    merged.append(try state(splits[next].at))
                    next += 1
                }
            }
            nodes = merged
        }
        // Name what kept it from settling: the position, the velocity (when held), or both.
        let velocityNote = velocityToleranceKmS.map { tolerance in
            worstVelocity.kmS > 0 ? "; velocity \(worstVelocity.kmS * 1000) m/s off at \(worstVelocity.seconds) s TDB, against \(tolerance * 1000) m/s" : "; velocity within \(tolerance * 1000) m/s"
        } ?? ""
        throw FitError(description: "the interpolation did not settle within \(toleranceKm * 1000) m after \(maxPasses) passes (\(worst.km * 1000) m at \(worst.seconds) s TDB\(velocityNote); \(nodes.count) nodes)")
    }

    /// Hermite interpolation at `t` over the `window` nodes around it (position and velocity).
    public static func interpolate(_ nodes: [OrbitalState], at t: Double, window: Int) -> OrbitalState {
        let n = nodes.count
        let w = min(window, n)
        // The last node at or before t.
        var lo = 0, hi = n - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if nodes[mid].seconds <= t { lo = mid } else { hi = mid - 1 }
        }
        let first = max(0, min(lo - w / 2 + 1, n - w))
        let slice = nodes[first..<(first + w)]
        let times = slice.map(\.seconds)
        let p = Vector3(
            hermite(times, slice.map(\.positionKm.x), slice.map(\.velocityKmS.x), t),
            hermite(times, slice.map(\.positionKm.y), slice.map(\.velocityKmS.y), t),
            hermite(times, slice.map(\.positionKm.z), slice.map(\.velocityKmS.z), t))
        let dp = Vector3(
            hermiteDerivative(times, slice.map(\.positionKm.x), slice.map(\.velocityKmS.x), t),
            hermiteDerivative(times, slice.map(\.positionKm.y), slice.map(\.velocityKmS.y), t),
            hermiteDerivative(times, slice.map(\.positionKm.z), slice.map(\.velocityKmS.z), t))
        return OrbitalState(seconds: t, positionKm: p, velocityKmS: dp)
    }

    /// The Hermite polynomial through values `f` and slopes `df` at `x` (Newton form on the
    /// doubled nodes), at `t`. Times are taken relative to the first node, for conditioning.
    static func hermite(_ x: [Double], _ f: [Double], _ df: [Double], _ t: Double) -> Double {
        let (z, c) = newton(x, f, df)
        var v = c[c.count - 1]
        for k in stride(from: c.count - 2, through: 0, by: -1) { v = v * (t - x[0] - z[k]) + c[k] }
        return v
    }

    static func hermiteDerivative(_ x: [Double], _ f: [Double], _ df: [Double], _ t: Double) -> Double {
        let (z, c) = newton(x, f, df)
        var v = c[c.count - 1], d = 0.0
        for k in stride(from: c.count - 2, through: 0, by: -1) {
            d = d * (t - x[0] - z[k]) + v
            v = v * (t - x[0] - z[k]) + c[k]
        }
        return d
    }

    /// Newton coefficients of the Hermite interpolant: nodes doubled, divided differences with
    /// the slopes where a node meets itself.
    static func newton(_ x: [Double], _ f: [Double], _ df: [Double]) -> (nodes: [Double], coefficients: [Double]) {
        let m = 2 * x.count
        var z = [Double](repeating: 0, count: m)
        var q = [Double](repeating: 0, count: m)
        for i in 0..<x.count {
            z[2 * i] = x[i] - x[0]; z[2 * i + 1] = x[i] - x[0]
            q[2 * i] = f[i]; q[2 * i + 1] = f[i]
        }
        var coefficients = [q[0]]
        var column = q
        for order in 1..<m {
            var next = [Double](repeating: 0, count: m - order)
            for i in 0..<(m - order) {
                let dz = z[i + order] - z[i]
                next[i] = dz == 0 ? df[i / 2] : (column[i + 1] - column[i]) / dz
            }
            coefficients.append(next[0])
            column = next
        }
        return (z, coefficients)
    }
}
