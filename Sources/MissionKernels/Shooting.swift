import Astrodynamics

/// Newton's method on a small square system `f(x) = 0` with a finite-difference Jacobian: the
/// differential correction mission designers use to aim a burn at a target (a closest
/// approach, an entry interface). Damped: a step that does not shrink the residual is halved.
public enum Shooting {
    public struct ShootingError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Solves `f(x) = 0` from `x0`; `steps` are the finite-difference steps per unknown;
    /// converged when every |f_i| ≤ `tolerance[i]`. Levenberg–Marquardt: Newton's step where
    /// the problem is nearly linear, shortened and turned towards steepest descent where it is
    /// not (a curved valley, as when an arc is aimed past the Moon).
    public static func solve(_ x0: [Double], steps: [Double], tolerance: [Double], maxIterations: Int = 60,
                             _ f: ([Double]) throws -> [Double]) throws -> (x: [Double], residual: [Double]) {
        let best = try fit(x0, steps: steps, tolerance: tolerance, maxIterations: maxIterations, f)
        if best.converged { return (best.x, best.residual) }
        throw ShootingError(description: "did not converge: residual \(best.residual) (tolerance \(tolerance)) at \(best.x)")
    }

    /// The same iteration, for a problem that may have no exact solution (more residuals than
    /// unknowns): the best `x` found, whether every |f_i| ≤ `tolerance[i]` there, and the residuals.
    public static func fit(_ x0: [Double], steps: [Double], tolerance: [Double], maxIterations: Int = 60,
                           _ f: ([Double]) throws -> [Double]) throws -> (x: [Double], residual: [Double], converged: Bool) {
        let n = x0.count
        var x = x0
        // Residuals in units of their tolerance.
        func g(_ x: [Double]) throws -> [Double] { zip(try f(x), tolerance).map { $0 / $1 } }
        var r = try g(x)
        guard r.count == tolerance.count else { throw ShootingError(description: "\(r.count) residuals for \(tolerance.count) tolerances") }
        func converged(_ r: [Double]) -> Bool { r.allSatisfy { abs($0) <= 1 } }
        func cost(_ r: [Double]) -> Double { r.reduce(0) { $0 + $1 * $1 } }
        var lambda = 1e-3
        for _ in 0..<maxIterations {
            if converged(r) { return (x, zip(r, tolerance).map { $0 * $1 }, true) }
            var jacobian = [[Double]](repeating: [Double](repeating: 0, count: n), count: r.count)
            for j in 0..<n {
                var xp = x
                xp[j] += steps[j]
                let rp = try g(xp)
                for i in 0..<r.count { jacobian[i][j] = (rp[i] - r[i]) / steps[j] }
            }
            var improved = false
            for _ in 0..<16 {
                guard let dx = leastSquares(jacobian, r.map { -$0 }, damping: lambda) else { lambda *= 10; continue }
                let trial = zip(x, dx).map { $0 + $1 }
                if let rt = try? g(trial), cost(rt) < cost(r) {
                    x = trial
                    r = rt
                    lambda = max(lambda / 10, 1e-12)
                    improved = true
                    break
                }
                lambda *= 10
            }
            if !improved { break }
        }
        return (x, zip(r, tolerance).map { $0 * $1 }, converged(r))
    }

    /// Solves `a·x = b` in the least-squares sense (normal equations, Gaussian elimination with
    /// partial pivoting), the normal matrix's diagonal raised by `damping` times itself
    /// (Marquardt's scaling); nil when singular.
    static func leastSquares(_ a: [[Double]], _ b: [Double], damping: Double = 0) -> [Double]? {
        let m = a.count, n = a[0].count
        var ata = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        var atb = [Double](repeating: 0, count: n)
        for i in 0..<n {
            for j in 0..<n { for k in 0..<m { ata[i][j] += a[k][i] * a[k][j] } }
            for k in 0..<m { atb[i] += a[k][i] * b[k] }
        }
        for i in 0..<n { ata[i][i] *= 1 + damping }
        guard let x = LinearSystem.solve(ata, atb) else { return nil }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
