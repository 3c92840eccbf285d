import Glibc

extension Lambert {
    /// Izzo's non-dimensional time of flight T(x; λ, N), its derivatives, the initial guesses
    /// and the root finders (Izzo 2015, §§2–3). Everything here is dimensionless.
    enum TimeOfFlight {
        /// y = √(1 − λ²(1 − x²)) (Izzo eq. 7).
        @inline(__always) static func y(x: Double, lambda: Double) -> Double {
            max(0, 1 - lambda * lambda * (1 - x * x)).squareRoot()
        }

        /// T(x) for N complete revolutions. Within 0.01 of the parabola (x = 1) Battin's series
        /// (Izzo eq. 20), where Lancaster's form divides two vanishing quantities; elsewhere
        /// Lancaster's (eq. 18) with ψ from both its sine and cosine, so the angle keeps its
        /// digits near 0 and π.
        static func value(x: Double, y: Double, lambda: Double, revolutions n: Int) -> Double {
            let u = 1 - x * x
            if abs(x - 1) < 0.01 {
                let eta = y - lambda * x
                let s1 = (1 - lambda - x * eta) / 2
                let q = 4.0 / 3 * hypergeometric(s1)
                var t = (eta * eta * eta * q + 4 * lambda * eta) / 2
                if n > 0 { t += Double(n) * Double.pi / pow(abs(u), 1.5) }
                return t
            }
            let psi: Double
            if x < 1 {
                let root = u.squareRoot()
                psi = atan2((y - x * lambda) * root, x * y + lambda * u)
            } else {
                psi = asinh((y - x * lambda) * (-u).squareRoot())
            }
            return ((psi + Double(n) * Double.pi) / abs(u).squareRoot() - x + lambda * y) / u
        }

        /// ₂F₁(3, 1; 5/2; z) by its series (|z| < 1 wherever Battin's form is used).
        static func hypergeometric(_ z: Double) -> Double {
            guard z < 1 else { return .infinity }
            var term = 1.0, sum = 1.0
            for j in 0..<500 {
                term *= (3 + Double(j)) / (2.5 + Double(j)) * z
                sum += term
                if abs(term) <= 1e-17 * abs(sum) { break }
            }
            return sum
        }

        /// dT/dx, d²T/dx², d³T/dx³ (Izzo eq. 22). They lose digits as x → 1, where the root
        /// finders' brackets take over.
        static func derivatives(x: Double, y: Double, t: Double, lambda: Double) -> (Double, Double, Double) {
            let u = 1 - x * x
            let l2 = lambda * lambda, l3 = l2 * lambda
            let dt = (3 * t * x - 2 + 2 * l3 * x / y) / u
            let ddt = (3 * t + 5 * x * dt + 2 * (1 - l2) * l3 / (y * y * y)) / u
            let dddt = (7 * x * ddt + 8 * dt - 6 * (1 - l2) * l3 * l2 * x / (y * y * y * y * y)) / u
            return (dt, ddt, dddt)
        }

        /// Izzo's single-revolution guess (eq. 30): the T(x) curve seen as three pieces through
        /// T(0) = T00 and T(1) = T1. The middle piece's exponent makes it pass through both.
        static func singleRevolutionGuess(t: Double, lambda: Double) -> Double {
            let t00 = acos(lambda) + lambda * (1 - lambda * lambda).squareRoot()
            let t1 = 2 * (1 - lambda * lambda * lambda) / 3
            if t >= t00 { return pow(t00 / t, 2.0 / 3) - 1 }
            if t < t1 {
                let l5 = pow(lambda, 5)
                return 2.5 * t1 * (t1 - t) / (t * (1 - l5)) + 1
            }
            return pow(t00 / t, 1 / log2(t00 / t1)) - 1
        }

        /// Izzo's guesses for the two N-revolution roots (eq. 31).
        static func multiRevolutionGuesses(t: Double, revolutions n: Int) -> (left: Double, right: Double) {
            let nPi = Double(n) * Double.pi
            let a = pow((nPi + Double.pi) / (8 * t), 2.0 / 3)
            let b = pow(8 * t / nPi, 2.0 / 3)
            return ((a - 1) / (a + 1), (b - 1) / (b + 1))
        }

        /// The x where T(x; N) is least, and that T: Halley's iterations on dT/dx = 0 from
        /// x = 0 (Izzo §3), kept inside a bracket on the sign of dT/dx (negative towards −1,
        /// positive towards 1) so a wild step falls back to bisection.
        static func minimum(lambda: Double, revolutions n: Int) -> (x: Double, t: Double) {
            var lo = -1.0, hi = 1.0
            var x = 0.0
            for _ in 0..<100 {
                let y = y(x: x, lambda: lambda)
                let t = value(x: x, y: y, lambda: lambda, revolutions: n)
                let (dt, ddt, dddt) = derivatives(x: x, y: y, t: t, lambda: lambda)
                if dt == 0 { break }
                if dt < 0 { lo = x } else { hi = x }
                var next = x - 2 * dt * ddt / (2 * ddt * ddt - dt * dddt)
                if next.isFinite, next >= lo, next <= hi, abs(next - x) <= 1e-14 {
                    x = next
                    break
                }
                if !(next.isFinite && next > lo && next < hi) { next = (lo + hi) / 2 }
                let step = abs(next - x)
                x = next
                if step <= 1e-14 || hi - lo <= 1e-15 { break }
            }
            return (x, value(x: x, y: y(x: x, lambda: lambda), lambda: lambda, revolutions: n))
        }

        /// The root of T(x) = t inside `bracket`, where T is monotonic (`decreasing` says which
        /// way): Householder's fourth-order iterations (Izzo eq. 23) from `guess`, each step
        /// kept inside the bracket that the signs of T(x) − t narrow, bisection (or, with no
        /// upper end yet, a step outwards) otherwise. Stops when a step is below 1e-14 of x.
        static func root(t target: Double, lambda: Double, revolutions n: Int, guess: Double,
                         bracket: (Double, Double), decreasing: Bool) -> (x: Double, iterations: Int) {
            var lo = bracket.0, hi = bracket.1
            var x = guess
            if !(x.isFinite && x > lo && x < hi) {
                x = hi.isFinite ? (lo + hi) / 2 : max(lo + 1, 0)
            }
            for iteration in 1...200 {
                let y = y(x: x, lambda: lambda)
                let t = value(x: x, y: y, lambda: lambda, revolutions: n)
                let delta = t - target
                if delta == 0 { return (x, iteration) }
                if (delta > 0) == decreasing { lo = x } else { hi = x }
                let (dt, ddt, dddt) = derivatives(x: x, y: y, t: t, lambda: lambda)
                let dt2 = dt * dt
                var next = x - delta * (dt2 - delta * ddt / 2) / (dt * (dt2 - delta * ddt) + dddt * delta * delta / 6)
                // Converged: the step is at rounding level (x itself may have just become a
                // bracket end, so the closed bracket).
                if next.isFinite, next >= lo, next <= hi, abs(next - x) <= 1e-14 * max(1, abs(x)) { return (next, iteration) }
                if !(next.isFinite && next > lo && next < hi) {
                    next = hi.isFinite ? (lo + hi) / 2 : x + max(1, abs(x))
                }
                let step = abs(next - x)
                x = next
                if step <= 1e-14 * max(1, abs(x)) || (hi - lo) <= 1e-15 * max(1, abs(x)) { return (x, iteration) }
            }
            return (x, 200)
        }
    }
}
