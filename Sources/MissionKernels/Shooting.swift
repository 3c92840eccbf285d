/// Newton's method on a small square system `f(x) = 0` with a finite-difference Jacobian: the
/// differential correction mission designers use to aim a burn at a target (a closest
/// approach, an entry interface). Damped: a step that does not shrink the residual is halved.
public enum Shooting {
    public struct ShootingError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Solves `f(x) = 0` from `x0`; `steps` are the finite-difference steps per unknown;
    /// converged when every |f_i| ≤ `tolerance[i]`.
    public static func solve(_ x0: [Double], steps: [Double], tolerance: [Double], maxIterations: Int = 30,
                             _ f: ([Double]) throws -> [Double]) throws -> (x: [Double], residual: [Double]) {
        let n = x0.count
        var x = x0
        var r = try f(x)
        guard r.count == tolerance.count else { throw ShootingError(description: "\(r.count) residuals for \(tolerance.count) tolerances") }
        func converged(_ r: [Double]) -> Bool { zip(r, tolerance).allSatisfy { abs($0) <= $1 } }
        func norm(_ r: [Double]) -> Double { zip(r, tolerance).reduce(0) { $0 + ($1.0 / $1.1) * ($1.0 / $1.1) } }
        for _ in 0..<maxIterations {
            if converged(r) { return (x, r) }
            // Jacobian column by column.
            var jacobian = [[Double]](repeating: [Double](repeating: 0, count: n), count: r.count)
            for j in 0..<n {
                var xp = x
                xp[j] += steps[j]
                let rp = try f(xp)
                for i in 0..<r.count { jacobian[i][j] = (rp[i] - r[i]) / steps[j] }
            }
            guard let dx = leastSquares(jacobian, r.map { -$0 }) else { throw ShootingError(description: "singular Jacobian at \(x)") }
            var scale = 1.0
            var accepted = false
            for _ in 0..<12 {
                let trial = zip(x, dx).map { $0 + $1 * scale }
                if let rt = try? f(trial), norm(rt) < norm(r) {
                    x = trial
                    r = rt
                    accepted = true
                    break
                }
                scale /= 2
            }
            if !accepted { break }
        }
        if converged(r) { return (x, r) }
        throw ShootingError(description: "did not converge: residual \(r) (tolerance \(tolerance)) at \(x)")
    }

    /// Solves `a·x = b` in the least-squares sense (normal equations, Gaussian elimination with
    /// partial pivoting); nil when singular.
    static func leastSquares(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        let m = a.count, n = a[0].count
        var ata = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        var atb = [Double](repeating: 0, count: n)
        for i in 0..<n {
            for j in 0..<n { for k in 0..<m { ata[i][j] += a[k][i] * a[k][j] } }
            for k in 0..<m { atb[i] += a[k][i] * b[k] }
        }
        // Gaussian elimination.
        var mtx = ata, rhs = atb
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(mtx[$0][col]) < abs(mtx[$1][col]) }), abs(mtx[pivot][col]) > 1e-300 else { return nil }
            mtx.swapAt(col, pivot)
            rhs.swapAt(col, pivot)
            for row in (col + 1)..<n {
                let f = mtx[row][col] / mtx[col][col]
                for k in col..<n { mtx[row][k] -= f * mtx[col][k] }
                rhs[row] -= f * rhs[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var s = rhs[i]
            for k in (i + 1)..<n { s -= mtx[i][k] * x[k] }
            x[i] = s / mtx[i][i]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
