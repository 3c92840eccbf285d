/// Small dense linear systems, as the shooting and fitting solvers meet them (3 to 12 unknowns).
package enum LinearSystem {
    /// Solves A·x = b by Gaussian elimination with partial pivoting; nil if a pivot is zero (or
    /// below 1e-300). `a` is square, its size `b.count`.
    package static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a, v = b
        let n = v.count
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-300 else { return nil }
            if pivot != col { m.swapAt(pivot, col); v.swapAt(pivot, col) }
            for row in (col + 1)..<n where m[row][col] != 0 {
                let factor = m[row][col] / m[col][col]
                for k in col..<n { m[row][k] -= factor * m[col][k] }
                v[row] -= factor * v[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = v[row]
            for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
            x[row] = sum / m[row][row]
        }
        return x
    }
}
