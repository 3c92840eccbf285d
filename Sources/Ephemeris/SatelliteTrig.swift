/// Sine and cosine for the planetary-satellite theories, which evaluate a few hundred periodic
/// terms per call, and for the IAU rotation models (periodic terms, the body → ICRF matrix):
/// several times cheaper than libm's (no call, no branch) and within 10⁻¹⁵ of it.
///
/// The angle is reduced to r ∈ [−π/4, π/4] around the nearest quarter turn, then the Taylor
/// series run to r¹⁵ (sine) and r¹⁶ (cosine), whose first omitted terms are below 5·10⁻¹⁷ there.
enum SatelliteTrig {
    /// 1.5 × 2⁵²: adding and subtracting it rounds a double of magnitude below 2⁵¹ to the nearest
    /// integer, whose low bits are then the low bits of the sum's bit pattern.
    static let roundingMagic = 6_755_399_441_055_744.0

    /// sin and cos of `x` degrees. The reduction x − 90q is exact for |x| < 2⁵¹.
    @inline(__always) static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
        let shifted = x * (1.0 / 90) + roundingMagic
        let q = shifted - roundingMagic
        return kernel((x - 90 * q) * Angle.radiansPerDegree, quadrant: Int(truncatingIfNeeded: shifted.bitPattern) & 3)
    }

    /// sin and cos of `x` radians (Cody–Waite reduction by π/2 in two parts; |x| up to ~10⁶,
    /// beyond which the reduction loses digits).
    @inline(__always) static func sinCos(radians x: Double) -> (sin: Double, cos: Double) {
        let shifted = x * (2 / Double.pi) + roundingMagic
        let q = shifted - roundingMagic
        let r = x.addingProduct(-q, halfPiHigh) - q * halfPiLow
        return kernel(r, quadrant: Int(truncatingIfNeeded: shifted.bitPattern) & 3)
    }

    @inline(__always) static func sin(degrees x: Double) -> Double { sinCos(degrees: x).sin }
    @inline(__always) static func cos(degrees x: Double) -> Double { sinCos(degrees: x).cos }
    @inline(__always) static func sin(radians x: Double) -> Double { sinCos(radians: x).sin }
    @inline(__always) static func cos(radians x: Double) -> Double { sinCos(radians: x).cos }

    /// Four angles at once (degrees): the same arithmetic lane by lane, for the long series.
    @inline(__always) static func sinCos(degrees x: SIMD4<Double>) -> (sin: SIMD4<Double>, cos: SIMD4<Double>) {
        let shifted = x * (1.0 / 90) + roundingMagic
        let q = shifted - roundingMagic
        let r = (x - 90 * q) * Angle.radiansPerDegree
        let bits = unsafeBitCast(shifted, to: SIMD4<Int64>.self)
        let r2 = r * r
        var s = SIMD4<Double>(repeating: -1.0 / 1_307_674_368_000)
        s = s * r2 + 1.0 / 6_227_020_800
        s = s * r2 - 1.0 / 39_916_800
        s = s * r2 + 1.0 / 362_880
        s = s * r2 - 1.0 / 5_040
        s = s * r2 + 1.0 / 120
        s = s * r2 - 1.0 / 6
        let sine = r + r * r2 * s
        var c = SIMD4<Double>(repeating: 1.0 / 20_922_789_888_000)
        c = c * r2 - 1.0 / 87_178_291_200
        c = c * r2 + 1.0 / 479_001_600
        c = c * r2 - 1.0 / 3_628_800
        c = c * r2 + 1.0 / 40_320
        c = c * r2 - 1.0 / 720
        c = c * r2 + 1.0 / 24
        c = c * r2 - 0.5
        let cosine = 1 + r2 * c
        let odd = (bits & 1) .!= 0
        var sinOut = sine.replacing(with: cosine, where: odd)
        var cosOut = cosine.replacing(with: sine, where: odd)
        sinOut.replace(with: -sinOut, where: (bits & 2) .!= 0)
        cosOut.replace(with: -cosOut, where: ((bits &+ 1) & 2) .!= 0)
        return (sinOut, cosOut)
    }

    /// π/2 as a double, and what it leaves out.
    static let halfPiHigh = Double.pi / 2
    static let halfPiLow = 6.123_233_995_736_766e-17

    /// sin and cos of r + quadrant·π/2 for |r| ≤ π/4.
    @inline(__always) static func kernel(_ r: Double, quadrant: Int) -> (sin: Double, cos: Double) {
        let r2 = r * r
        // Taylor coefficients 1/(2k+1)! and 1/(2k)!, Horner form.
        var s = -1.0 / 1_307_674_368_000
        s = s * r2 + 1.0 / 6_227_020_800
        s = s * r2 - 1.0 / 39_916_800
        s = s * r2 + 1.0 / 362_880
        s = s * r2 - 1.0 / 5_040
        s = s * r2 + 1.0 / 120
        s = s * r2 - 1.0 / 6
        let sine = r + r * r2 * s
        var c = 1.0 / 20_922_789_888_000
        c = c * r2 - 1.0 / 87_178_291_200
        c = c * r2 + 1.0 / 479_001_600
        c = c * r2 - 1.0 / 3_628_800
        c = c * r2 + 1.0 / 40_320
        c = c * r2 - 1.0 / 720
        c = c * r2 + 1.0 / 24
        c = c * r2 - 0.5
        let cosine = 1 + r2 * c
        // Quadrants 0…3 give (s, c), (c, −s), (−s, −c), (−c, s): selected without branches, which
        // the random quadrants of consecutive terms would mispredict half the time.
        let odd = quadrant & 1 != 0
        let sinSign = Double(1 - (quadrant & 2))          // +1 or −1
        let cosSign = Double(1 - ((quadrant + 1) & 2))
        return ((odd ? cosine : sine) * sinSign, (odd ? sine : cosine) * cosSign)
    }
}
