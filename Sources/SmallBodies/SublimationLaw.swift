import Glibc

/// The radial dependence g(r) of a non-gravitational acceleration: α (r/r₀)^−m (1 + (r/r₀)^n)^−k,
/// r in AU (Marsden, Sekanina & Yeomans 1973). JPL's SBDB answers name the parameters `ALN`
/// (α), `R0`, `NM`, `NN`, `NK`.
///
/// ```swift
/// SmallBodyConstants.standardSublimation.g(rAU: 1)   // ≈ 1
/// SmallBodyConstants.inverseSquare.g(rAU: 2)          // 0.25
/// ```
public struct SublimationLaw: Sendable, Hashable {
    public var alpha: Double
    public var r0AU: Double
    public var m: Double
    public var n: Double
    public var k: Double

    public init(alpha: Double, r0AU: Double, m: Double, n: Double, k: Double) {
        self.alpha = alpha
        self.r0AU = r0AU
        self.m = m
        self.n = n
        self.k = k
    }

    @inline(__always) public func g(rAU: Double) -> Double {
        let x = rAU / r0AU
        var value = alpha * pow(x, -m)
        if k != 0 { value *= pow(1 + pow(x, n), -k) }
        return value
    }
}
