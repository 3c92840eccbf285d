import Glibc

/// A smooth function of time over [a, b] interpolated at the Chebyshev nodes: the eclipse
/// elements over their window (degree 10 over 9 hours: far below a millimetre for the Moon).
///
/// ```swift
/// let nodes = ChebyshevFit.nodes(from: 0, to: 3600, count: 11)
/// let fit = ChebyshevFit(from: 0, to: 3600, values: nodes.map { sin($0 / 1000) })
/// fit.value(1800)   // ≈ sin(1.8)
/// ```
struct ChebyshevFit: Sendable {
    let mid: Double
    let half: Double
    let coefficients: [Double]
    let derivativeCoefficients: [Double]

    /// The `count` interpolation nodes on [a, b], first to last in the order the values go in.
    static func nodes(from a: Double, to b: Double, count n: Int) -> [Double] {
        (0..<n).map { k in (a + b) / 2 + (b - a) / 2 * cos(Double.pi * (Double(k) + 0.5) / Double(n)) }
    }

    init(from a: Double, to b: Double, values f: [Double]) {
        let n = f.count
        mid = (a + b) / 2
        half = (b - a) / 2
        var c = [Double](repeating: 0, count: n)
        for j in 0..<n {
            var s = 0.0
            for k in 0..<n { s += f[k] * cos(Double.pi * Double(j) * (Double(k) + 0.5) / Double(n)) }
            c[j] = 2 * s / Double(n)
        }
        c[0] /= 2
        coefficients = c
        // d/du of Σ c_j T_j(u): d_{j−1} = d_{j+1} + 2 j c_j (d_0 halved), then per unit of time.
        var d = [Double](repeating: 0, count: n + 1)
        for j in stride(from: n - 1, through: 1, by: -1) { d[j - 1] = d[j + 1] + 2 * Double(j) * c[j] }
        d[0] /= 2
        derivativeCoefficients = Array(d.prefix(max(1, n - 1))).map { $0 / ((b - a) / 2) }
    }

    @inline(__always) static func clenshaw(_ c: [Double], _ u: Double) -> Double {
        var b1 = 0.0, b2 = 0.0
        for j in stride(from: c.count - 1, through: 1, by: -1) {
            let b0 = 2 * u * b1 - b2 + c[j]
            b2 = b1; b1 = b0
        }
        return u * b1 - b2 + c[0]
    }

    @inline(__always) func value(_ t: Double) -> Double { Self.clenshaw(coefficients, (t - mid) / half) }
    @inline(__always) func derivative(_ t: Double) -> Double { Self.clenshaw(derivativeCoefficients, (t - mid) / half) }
}
