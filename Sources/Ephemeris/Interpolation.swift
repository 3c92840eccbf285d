/// The interpolating polynomials of the SPK types that store states (8, 9, 12, 13, 18, 19),
/// evaluated by Neville's scheme as NAIF's LGRINT/LGRESP and HRMINT/HRMESP do: each column of
/// the tableau is a weighted mean of two polynomials of one degree less, which stays accurate
/// for the 2…28-point windows SPK allows without forming coefficients.
///
/// Everything works in caller-provided scratch memory (a stack buffer per evaluation), so an
/// evaluation allocates nothing; each division is done once and shared (by the three axes,
/// or by a value and its derivative), which costs at most an ulp against NAIF's order.
enum Interpolation {
    /// Three Lagrange polynomials — one per axis, values `ys[c·n + i]` at `xs[i]`, c = 0, 1, 2,
    /// i < n — at `x` (LGRINT for each axis; the three share each division). `ys` is
    /// overwritten.
    @inline(__always)
    static func lagrange(_ n: Int, _ xs: UnsafeMutablePointer<Double>, _ ys: UnsafeMutablePointer<Double>, _ x: Double) -> Vector3 {
        let y0 = ys, y1 = ys + n, y2 = ys + 2 * n
        var j = 1
        while j < n {
            var i = 0
            while i < n - j {
                let xi = xs[i], xj = xs[i + j]
                let a = x - xj, b = xi - x, over = 1 / (xi - xj)
                y0[i] = (a * y0[i] + b * y0[i + 1]) * over
                y1[i] = (a * y1[i] + b * y1[i + 1]) * over
                y2[i] = (a * y2[i] + b * y2[i + 1]) * over
                i += 1
            }
            j += 1
        }
        return Vector3(y0[0], y1[0], y2[0])
    }

    /// As `lagrange`, on unit-spaced abscissae 0, 1, …, n−1 at `u` (LGRESP: equally spaced
    /// states scaled to unit steps).
    @inline(__always)
    static func lagrangeUnitSteps(_ n: Int, _ ys: UnsafeMutablePointer<Double>, _ u: Double) -> Vector3 {
        let y0 = ys, y1 = ys + n, y2 = ys + 2 * n
        var j = 1
        while j < n {
            var i = 0
            let over = 1 / Double(j)
            while i < n - j {
                let a = Double(i + j) - u, b = u - Double(i)
                y0[i] = (a * y0[i] + b * y0[i + 1]) * over
                y1[i] = (a * y1[i] + b * y1[i + 1]) * over
                y2[i] = (a * y2[i] + b * y2[i + 1]) * over
                i += 1
            }
            j += 1
        }
        return Vector3(y0[0], y1[0], y2[0])
    }

    /// Three Hermite polynomials of degree 2n−1, one per axis c: value `f[c·n + k]` and
    /// derivative `df[c·n + k]` at `xs[k]`, k < n. Their values and derivatives at `x`, by
    /// Neville's scheme on the doubled abscissae x₀, x₀, x₁, x₁, … (HRMINT for each axis; the
    /// axes share each division). `work` is scratch of 6·(2n−1) values. Without `derivative`
    /// only the values are carried through the tableau (about half the work) and the derivative
    /// returned is NaN.
    @inline(__always)
    static func hermite(_ n: Int, _ xs: UnsafeMutablePointer<Double>, _ f: UnsafeMutablePointer<Double>, _ df: UnsafeMutablePointer<Double>,
                        _ work: UnsafeMutablePointer<Double>, _ x: Double, derivative: Bool = true) -> (value: Vector3, derivative: Vector3) {
        let m = 2 * n - 1
        // Values p and derivatives d of the tableau's current column, per axis.
        let p0 = work, p1 = work + m, p2 = work + 2 * m
        let d0 = work + 3 * m, d1 = work + 4 * m, d2 = work + 5 * m
        // First column: the tangent line at each abscissa, the chord between neighbours.
        var i = 0
        while i < m {
            let k = i >> 1
            if i & 1 == 0 {
                let h = x - xs[k]
                let r0 = df[k], r1 = df[n + k], r2 = df[2 * n + k]
                p0[i] = f[k] + r0 * h
                p1[i] = f[n + k] + r1 * h
                p2[i] = f[2 * n + k] + r2 * h
                d0[i] = r0
                d1[i] = r1
                d2[i] = r2
            } else {
                let a = x - xs[k], b = x - xs[k + 1], over = 1 / (xs[k + 1] - xs[k])
                @inline(__always) func chord(_ p: UnsafeMutablePointer<Double>, _ d: UnsafeMutablePointer<Double>, _ c: Int) {
                    let f0 = f[c * n + k], f1 = f[c * n + k + 1]
                    p[i] = (a * f1 - b * f0) * over
                    d[i] = (f1 - f0) * over
                }
                chord(p0, d0, 0)
                chord(p1, d1, 1)
                chord(p2, d2, 2)
            }
            i += 1
        }
        // Column c holds P over doubled abscissae z_i … z_{i+c}; z_i = xs[i/2].
        var c = 2
        if !derivative {
            while c <= m {
                i = 0
                while i <= m - c {
                    let zi = xs[i >> 1], zj = xs[(i + c) >> 1]
                    let a = x - zi, b = x - zj, over = 1 / (zj - zi)
                    p0[i] = (a * p0[i + 1] - b * p0[i]) * over
                    p1[i] = (a * p1[i + 1] - b * p1[i]) * over
                    p2[i] = (a * p2[i + 1] - b * p2[i]) * over
                    i += 1
                }
                c += 1
            }
            return (Vector3(p0[0], p1[0], p2[0]), Vector3(.nan, .nan, .nan))
        }
        while c <= m {
            i = 0
            while i <= m - c {
                let zi = xs[i >> 1], zj = xs[(i + c) >> 1]
                let a = x - zi, b = x - zj, over = 1 / (zj - zi)
                @inline(__always) func step(_ p: UnsafeMutablePointer<Double>, _ d: UnsafeMutablePointer<Double>) {
                    let v = (a * p[i + 1] - b * p[i]) * over
                    d[i] = (p[i + 1] + a * d[i + 1] - p[i] - b * d[i]) * over
                    p[i] = v
                }
                step(p0, d0)
                step(p1, d1)
                step(p2, d2)
                i += 1
            }
            c += 1
        }
        return (Vector3(p0[0], p1[0], p2[0]), Vector3(d0[0], d1[0], d2[0]))
    }
}
