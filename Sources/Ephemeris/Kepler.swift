import Glibc

/// Kepler's equation for elliptic orbits, M = E − e·sin E.
public enum Kepler {
    /// Convergence target on E, in radians.
    public static let tolerance = 1e-12

    /// The eccentric anomaly E (radians) for mean anomaly `meanAnomaly` (radians, any value) and
    /// eccentricity `eccentricity` in [0, 1).
    ///
    /// ```swift
    /// let E = Kepler.solve(meanAnomaly: 1.2, eccentricity: 0.0934)
    /// let x = a * (cos(E) - e), y = a * (1 - e * e).squareRoot() * sin(E)
    /// ```
    ///
    /// M is reduced to (−π, π] first and the reduced problem is solved by Newton–Raphson from
    /// Danby's starter E₀ = M + 0.85·e·sgn M, each step kept inside the bracket that always holds
    /// the root (between M and M + e·sgn M): a step that would leave it bisects instead, so it
    /// converges for every e < 1 (tested to e = 0.99) and never divides by a vanishing 1 − e·cos E.
    /// The whole turns removed by the reduction are added back, so the result is in the same
    /// revolution as the argument and `E − e·sin E == M` up to rounding.
    ///
    /// Non-finite M is returned as is (it has no anomaly to find); an eccentricity outside
    /// [0, 1) is a programming error (asserted in debug builds) and is clamped into it.
    public static func solve(meanAnomaly: Double, eccentricity: Double) -> Double {
        guard meanAnomaly.isFinite else { return meanAnomaly }
        assert(eccentricity >= 0 && eccentricity < 1, "Kepler.solve needs 0 ≤ e < 1, got \(eccentricity)")
        let e = eccentricity.isNaN ? 0 : min(max(eccentricity, 0), 0.999_999_999)
        let m = Angle.normalizedSignedRadians(meanAnomaly)
        let turns = meanAnomaly - m
        if e == 0 || m == 0 || m == Double.pi { return turns + m } // exact roots: sin E = 0 or e = 0

        // For M in (0, π) the root lies in [M, min(M + e, π)]; mirror for negative M.
        let sign: Double = m < 0 ? -1 : 1
        let mAbs = abs(m)
        var lo = mAbs
        var hi = min(mAbs + e, Double.pi)
        var E = min(mAbs + 0.85 * e, hi)
        for _ in 0..<100 {
            let f = E - e * sin(E) - mAbs
            if f == 0 { break }
            if f > 0 { hi = E } else { lo = E }
            let next = E - f / (1 - e * cos(E))
            if next >= lo && next <= hi {
                let moved = abs(next - E)
                E = next
                if moved <= tolerance { break } // Newton: the error is now ≈ moved², far below 1e-12
            } else {
                E = 0.5 * (lo + hi) // the step left the bracket: bisect instead
                if hi - lo <= 4 * E.ulp { break }
            }
        }
        return turns + sign * E
    }

    /// Mean anomaly from the eccentric anomaly: M = E − e·sin E (the inverse of `solve`).
    @inlinable public static func meanAnomaly(eccentricAnomaly E: Double, eccentricity e: Double) -> Double {
        E - e * sin(E)
    }

    /// True anomaly ν (radians, same revolution as E) from the eccentric anomaly.
    @inlinable public static func trueAnomaly(eccentricAnomaly E: Double, eccentricity e: Double) -> Double {
        // tan(ν/2) = √((1 + e)/(1 − e))·tan(E/2), with E/2 reduced so atan2 keeps its quadrant.
        let half = 0.5 * E
        let h = Angle.normalizedSignedRadians(half)
        let halfNu = atan2(((1 + e) / (1 - e)).squareRoot() * sin(h), cos(h))
        return 2 * (halfNu + (half - h))
    }
}
