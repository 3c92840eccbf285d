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

    /// The nodes (time order) for `required` epochs (strictly increasing, at least two).
    /// `state` gives the path's position and velocity at any time between the first and last.
    public static func fit(required: [Double], window: Int = 6, toleranceKm: Double = 0.01, maxPasses: Int = 24,
                           state: (Double) throws -> OrbitalState) throws -> [OrbitalState] {
        guard required.count >= 2 else { throw FitError(description: "at least two epochs are needed, \(required.count) given") }
        var nodes = try required.map { try state($0) }
        for _ in 0..<maxPasses {
            var split: [Int] = []
            for i in 0..<(nodes.count - 1) {
                let a = nodes[i].seconds, b = nodes[i + 1].seconds
                for f in [0.25, 0.5, 0.75] {
                    let t = a + (b - a) * f
                    let truth = try state(t)
                    let p = interpolate(nodes, at: t, window: window)
                    if (p.positionKm - truth.positionKm).length > toleranceKm {
                        split.append(i)
                        break
                    }
                }
            }
            if split.isEmpty { return nodes }
            var inserted: [OrbitalState] = []
            inserted.reserveCapacity(nodes.count + split.count)
            var next = 0
            for i in 0..<nodes.count {
                inserted.append(nodes[i])
                if next < split.count, split[next] == i {
                    let mid = (nodes[i].seconds + nodes[i + 1].seconds) / 2
                    // Halving stops at a millisecond: below that the path itself is not smooth.
                    if nodes[i + 1].seconds - nodes[i].seconds > 2e-3 { inserted.append(try state(mid)) }
                    next += 1
                }
            }
            if inserted.count == nodes.count { return nodes }
            nodes = inserted
        }
        throw FitError(description: "the interpolation did not settle within \(toleranceKm * 1000) m after \(maxPasses) halvings")
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
