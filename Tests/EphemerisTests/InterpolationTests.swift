import Foundation
import Testing
@testable import Ephemeris

@Suite("Interpolation: Neville's scheme reproduces the polynomials it interpolates")
struct InterpolationTests {
    /// p(t) = Σ cₖ tᵏ and p′(t), per axis: axis a uses coefficients shifted by a.
    static func poly(_ c: [Double], _ t: Double, axis a: Int) -> (Double, Double) {
        var v = 0.0, d = 0.0
        for (k, ck) in c.enumerated() {
            let coefficient = ck + Double(a)
            v += coefficient * pow(t, Double(k))
            if k > 0 { d += coefficient * Double(k) * pow(t, Double(k - 1)) }
        }
        return (v, d)
    }

    static let abscissae: [Double] = [-3.1, -1.7, -0.2, 0.9, 2.4, 3.3]

    @Test("Lagrange through n unequally spaced points is exact for degree n − 1, each axis its own polynomial")
    func lagrange() {
        let c = [0.5, -1.25, 0.75, 0.125, -0.0625, 0.03125] // degree 5 through 6 points
        let n = Self.abscissae.count
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * n) { b in
            let xs = b.baseAddress!, ys = xs + n
            for x in [-3.0, -0.2, 0.0, 1.234, 3.3, 4.0] {
                for k in 0..<n {
                    xs[k] = Self.abscissae[k]
                    for a in 0..<3 { ys[a * n + k] = Self.poly(c, Self.abscissae[k], axis: a).0 }
                }
                let v = Interpolation.lagrange(n, xs, ys, x)
                for a in 0..<3 { #expect(abs(v[axis: a] - Self.poly(c, x, axis: a).0) < 1e-10, "axis \(a) at \(x)") }
            }
        }
    }

    @Test("Lagrange on unit steps equals Lagrange on the abscissae 0, 1, …, n − 1")
    func unitSteps() {
        let n = 8
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 8 * n) { b in
            let xs = b.baseAddress!, ys = xs + n, zs = ys + 3 * n
            for u in [-0.5, 0, 2.5, 3.7, 7, 7.25] {
                for k in 0..<n {
                    xs[k] = Double(k)
                    for a in 0..<3 { ys[a * n + k] = sin(Double(k) * 0.7 + Double(a)); zs[a * n + k] = ys[a * n + k] }
                }
                let v = Interpolation.lagrange(n, xs, ys, u), w = Interpolation.lagrangeUnitSteps(n, zs, u)
                #expect((v - w).length < 1e-12, "at \(u)")
            }
        }
    }

    @Test("Hermite through n points with their derivatives is exact for degree 2n − 1, value and derivative; values alone the same")
    func hermite() {
        let c = [1.5, -0.5, 0.25, 0.125, -0.03125, 0.015625] // degree 5 through 3 points
        let xs: [Double] = [-1.3, 0.4, 2.2]
        let n = xs.count
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 19 * n) { b in
            let x = b.baseAddress!, f = x + n, df = f + 3 * n
            for t in [-1.3, -0.9, 0.0, 0.4, 1.7, 2.2, 3.0] {
                for k in 0..<n {
                    x[k] = xs[k]
                    for a in 0..<3 { (f[a * n + k], df[a * n + k]) = Self.poly(c, xs[k], axis: a) }
                }
                let h = Interpolation.hermite(n, x, f, df, df + 3 * n, t)
                // Values only: the same values (the same arithmetic), no derivative.
                let v = Interpolation.hermite(n, x, f, df, df + 3 * n, t, derivative: false)
                #expect(v.value == h.value && v.derivative.x.isNaN, "at \(t)")
                for a in 0..<3 {
                    let (v, d) = Self.poly(c, t, axis: a)
                    #expect(abs(h.value[axis: a] - v) < 1e-11 && abs(h.derivative[axis: a] - d) < 1e-10, "axis \(a) at \(t)")
                }
            }
        }
    }
}
