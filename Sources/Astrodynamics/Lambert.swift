import Glibc
import Ephemeris

/// Which way round a transfer goes: angular momentum along the reference normal (prograde) or
/// against it (retrograde). With the ecliptic pole as the normal, prograde is the planets' way.
public enum LambertDirection: String, Sendable, Hashable, CaseIterable {
    case prograde, retrograde
}

/// For N ≥ 1 complete revolutions Lambert's problem has two solutions (when it has any), one on
/// each side of the minimum of the time-of-flight curve T(x): `left` the smaller x (Izzo's
/// x_l, the longer-period, more eccentric orbit), `right` the larger x.
public enum LambertBranch: String, Sendable, Hashable, CaseIterable {
    case left, right
}

/// One solution of Lambert's problem: the velocities at both ends (the units of μ, positions and
/// time: km³/s², km and s give km/s) and what identifies it.
public struct LambertSolution: Sendable, Hashable {
    /// Complete revolutions before arrival.
    public let revolutions: Int
    /// Nil for zero revolutions, where the solution is unique.
    public let branch: LambertBranch?
    public let v1: Vector3
    public let v2: Vector3
    /// Izzo's variable: −1 < x < 1 ellipse, x = 1 parabola, x > 1 hyperbola.
    public let x: Double
    /// Semi-major axis of the transfer conic (negative for a hyperbola), units of the positions.
    public let semiMajorAxis: Double
    /// Householder iterations the root took.
    public let iterations: Int
}

/// Why Lambert's problem could not be posed or solved.
public enum LambertError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Non-finite input, a non-positive μ or time of flight, a position at the centre.
    case invalidInput(String)
    /// Both positions along the same direction from the centre: the only conic is rectilinear.
    case parallelEnds
    /// The transfer is 180° and the reference normal lies along the positions, so no plane can be
    /// chosen.
    case undefinedPlane
    /// No solution with that many revolutions: the time of flight is below the minimum.
    case noSolution(revolutions: Int, maximum: Int)

    public var description: String {
        switch self {
        case .invalidInput(let why): "invalid Lambert problem: \(why)"
        case .parallelEnds: "both positions lie along the same direction from the centre; only a rectilinear conic joins them"
        case .undefinedPlane: "a 180° transfer whose reference normal lies along the positions: no transfer plane can be chosen"
        case let .noSolution(n, maximum): "no transfer with \(n) revolutions (at most \(maximum) fit in the time of flight)"
        }
    }
}

/// Lambert's problem — the conic from `r1` to `r2` in a given time about a centre of
/// gravitational parameter μ — by Izzo's algorithm (D. Izzo, "Revisiting Lambert's problem",
/// Celest. Mech. Dyn. Astron. 121:1–15, 2015): the Lancaster–Blanchard variable x, the time of
/// flight T(x) non-dimensionalised by √(2μ/s³), Householder iterations from Izzo's initial
/// guesses, every solution for 0…N complete revolutions.
///
/// ```swift
/// let all = try Lambert.solutions(mu: GravityConstants.sunGM, from: r1, to: r2, seconds: tof, maxRevolutions: 2)
/// // all[0]: 0 revolutions; then (1, left), (1, right), (2, left), (2, right) as far as they exist
/// ```
///
/// Geometry. The transfer plane contains both positions; `direction` picks the sense of motion
/// relative to `referenceNormal` (default +z: the ecliptic pole in ecliptic coordinates), so a
/// prograde transfer whose positions are more than 180° apart going that way is the "long way".
/// Near 180° the plane through both positions turns steeply with any small out-of-plane
/// component — that is the true solution of the problem as posed, and it is returned (a transfer
/// 179.9° apart with r2 slightly above the plane of r1 and the normal is a highly inclined
/// orbit). Only when the positions are antiparallel to within 1e-12 rad, where the plane is
/// undefined, is it chosen: the plane containing r1 whose normal is closest to
/// `referenceNormal` (``LambertError/undefinedPlane`` if the normal lies along r1).
/// Positions along the same direction (0° or 360°) throw ``LambertError/parallelEnds``.
///
/// Accuracy: x to ~1e-14; velocities reproduce the target through ``KeplerArc`` within metres
/// and mm/s over interplanetary distances (the tests count the cases).
public enum Lambert {
    /// Every solution from 0 up to `maxRevolutions` complete revolutions, in order of
    /// revolutions (left branch before right for N ≥ 1). Revolution counts the time of flight
    /// cannot hold are absent, so the result holds 1 + 2·min(N, ``maximumRevolutions``)
    /// solutions.
    public static func solutions(mu: Double, from r1: Vector3, to r2: Vector3, seconds: Double,
                                 direction: LambertDirection = .prograde, maxRevolutions: Int = 0,
                                 referenceNormal: Vector3 = Vector3(0, 0, 1)) throws(LambertError) -> [LambertSolution] {
        let g = try Geometry(mu: mu, r1: r1, r2: r2, seconds: seconds, direction: direction, referenceNormal: referenceNormal)
        guard maxRevolutions >= 0 else { throw .invalidInput("maxRevolutions \(maxRevolutions) is negative") }
        let fits = g.maximumRevolutions()
        var out: [LambertSolution] = []
        out.reserveCapacity(1 + 2 * min(maxRevolutions, fits.count))
        out.append(g.solve(revolutions: 0, branch: nil, xMinimum: nil))
        if maxRevolutions > 0, fits.count > 0 {
            for n in 1...min(maxRevolutions, fits.count) {
                let xMin = n == fits.count ? fits.xMinimumOfLast : nil
                out.append(g.solve(revolutions: n, branch: .left, xMinimum: xMin))
                out.append(g.solve(revolutions: n, branch: .right, xMinimum: xMin))
            }
        }
        return out
    }

    /// The one solution with `revolutions` complete revolutions on `branch` (ignored for zero
    /// revolutions); ``LambertError/noSolution(revolutions:maximum:)`` if it does not exist.
    public static func solution(mu: Double, from r1: Vector3, to r2: Vector3, seconds: Double,
                                direction: LambertDirection = .prograde, revolutions: Int = 0, branch: LambertBranch = .left,
                                referenceNormal: Vector3 = Vector3(0, 0, 1)) throws(LambertError) -> LambertSolution {
        let g = try Geometry(mu: mu, r1: r1, r2: r2, seconds: seconds, direction: direction, referenceNormal: referenceNormal)
        guard revolutions >= 0 else { throw .invalidInput("revolutions \(revolutions) is negative") }
        if revolutions == 0 { return g.solve(revolutions: 0, branch: nil, xMinimum: nil) }
        let fits = g.maximumRevolutions()
        guard revolutions <= fits.count else { throw .noSolution(revolutions: revolutions, maximum: fits.count) }
        return g.solve(revolutions: revolutions, branch: branch, xMinimum: revolutions == fits.count ? fits.xMinimumOfLast : nil)
    }

    /// The most complete revolutions a transfer between the two positions can make in the time.
    public static func maximumRevolutions(mu: Double, from r1: Vector3, to r2: Vector3, seconds: Double,
                                          direction: LambertDirection = .prograde,
                                          referenceNormal: Vector3 = Vector3(0, 0, 1)) throws(LambertError) -> Int {
        try Geometry(mu: mu, r1: r1, r2: r2, seconds: seconds, direction: direction, referenceNormal: referenceNormal).maximumRevolutions().count
    }

    // MARK: - Geometry and reconstruction

    /// The problem reduced to (λ, T) plus what rebuilds the velocities (Izzo §2, §4).
    struct Geometry {
        let mu: Double
        let n1: Double, n2: Double, c: Double, s: Double
        /// Radial and tangential unit vectors at both ends, the tangents in the sense of motion.
        let ir1: Vector3, ir2: Vector3, it1: Vector3, it2: Vector3
        /// λ ∈ [−1, 1]: positive when the motion sweeps less than 180°.
        let lambda: Double
        /// Non-dimensional time of flight, √(2μ/s³)·Δt.
        let t: Double

        init(mu: Double, r1: Vector3, r2: Vector3, seconds: Double, direction: LambertDirection, referenceNormal: Vector3) throws(LambertError) {
            guard mu.isFinite, mu > 0 else { throw .invalidInput("μ \(mu) must be positive") }
            guard seconds.isFinite, seconds > 0 else { throw .invalidInput("time of flight \(seconds) s must be positive") }
            guard r1.isFinite, r2.isFinite, referenceNormal.isFinite else { throw .invalidInput("non-finite position or normal") }
            let n1 = r1.length, n2 = r2.length
            guard n1 > 0, n2 > 0 else { throw .invalidInput("a position at the centre") }
            let nRef = referenceNormal.normalized
            guard nRef.lengthSquared > 0.5 else { throw .invalidInput("zero reference normal") }
            let ir1 = r1 / n1, ir2 = r2 / n2
            // r1 × r2 with each a·b − c·d to within an ulp of its result (Kahan's fused
            // difference): near 180° the plain products leave the plane's normal only ε/sin θ
            // accurate, kilometres of error at 1 AU for positions 1e-9 rad from opposite.
            let cross = Self.accurateCross(r1, r2)
            let sinTheta = cross.length / (n1 * n2)
            var ih = cross / cross.length
            if !(sinTheta >= 1e-12) {
                // 0°/360° or 180°: the plane of the two positions is undefined.
                guard ir1.dot(ir2) < 0 else { throw .parallelEnds }
                let inPlane = nRef - ir1 * nRef.dot(ir1)
                guard inPlane.length > 1e-12 else { throw .undefinedPlane }
                ih = inPlane.normalized
            }
            let chord = (r2 - r1).length
            let s = (n1 + n2 + chord) / 2
            // λ² = 1 − c/s = k/(2s²) with k = r1·r2 + r1·r2 (magnitudes, then the dot product),
            // which cancels near 180°; there k = |r1 × r2|²/(r1·r2 − r1·r2) instead.
            let dot = r1.dot(r2)
            let k = dot < 0 ? cross.lengthSquared / (n1 * n2 - dot) : n1 * n2 + dot
            // Motion normal: ih when it points along the reference normal, else −ih (the motion
            // then sweeps more than 180° from r1 to r2 and λ is negative).
            var lambda = min(1, max(0, k / (2 * s * s)).squareRoot())
            var normal = ih
            if ih.dot(nRef) < 0 {
                lambda = -lambda
                normal = -ih
            }
            if direction == .retrograde {
                lambda = -lambda
                normal = -normal
            }
            self.mu = mu
            self.n1 = n1
            self.n2 = n2
            self.c = chord
            self.s = s
            self.ir1 = ir1
            self.ir2 = ir2
            self.it1 = normal.cross(ir1)
            self.it2 = normal.cross(ir2)
            self.lambda = lambda
            self.t = (2 * mu / (s * s * s)).squareRoot() * seconds
        }

        /// a × b, each component a difference of products computed with one rounding
        /// (w = c·d; (a·b − w) fused, plus w's own rounding error recovered by a fused
        /// multiply-add).
        static func accurateCross(_ a: Vector3, _ b: Vector3) -> Vector3 {
            @inline(__always) func difference(_ p: Double, _ q: Double, _ r: Double, _ t: Double) -> Double {
                let w = r * t
                let e = w.addingProduct(-r, t)
                let f = (-w).addingProduct(p, q)
                return f + e
            }
            return Vector3(difference(a.y, b.z, a.z, b.y), difference(a.z, b.x, a.x, b.z), difference(a.x, b.y, a.y, b.x))
        }

        /// The largest N with a solution, and for that N the x of the minimum time when it was
        /// computed (to bracket the two branches). Izzo §3: N ≤ T/π; the last N counts only if
        /// T reaches its minimum time, found by Halley's iterations on dT/dx = 0 from x = 0.
        func maximumRevolutions() -> (count: Int, xMinimumOfLast: Double?) {
            let raw = t / Double.pi
            guard raw.isFinite, raw >= 1 else { return (0, nil) }
            var nMax = Int(min(raw, 1e6).rounded(.down))
            let t00 = acos(lambda) + lambda * (1 - lambda * lambda).squareRoot()
            if t < t00 + Double(nMax) * Double.pi {
                let (xMin, tMin) = TimeOfFlight.minimum(lambda: lambda, revolutions: nMax)
                if tMin > t {
                    nMax -= 1
                    return (nMax, nil)
                }
                return (nMax, xMin)
            }
            return (nMax, nil)
        }

        /// Solves for x on the requested branch and rebuilds the velocities (Izzo §4).
        func solve(revolutions n: Int, branch: LambertBranch?, xMinimum: Double?) -> LambertSolution {
            let root: (x: Double, iterations: Int)
            if n == 0 {
                root = TimeOfFlight.root(t: t, lambda: lambda, revolutions: 0, guess: TimeOfFlight.singleRevolutionGuess(t: t, lambda: lambda), bracket: (-1, .infinity), decreasing: true)
            } else {
                let xMin = xMinimum ?? TimeOfFlight.minimum(lambda: lambda, revolutions: n).x
                let guesses = TimeOfFlight.multiRevolutionGuesses(t: t, revolutions: n)
                if branch == .right {
                    root = TimeOfFlight.root(t: t, lambda: lambda, revolutions: n, guess: guesses.right, bracket: (xMin, 1), decreasing: false)
                } else {
                    root = TimeOfFlight.root(t: t, lambda: lambda, revolutions: n, guess: guesses.left, bracket: (-1, xMin), decreasing: true)
                }
            }
            let x = root.x
            let y = TimeOfFlight.y(x: x, lambda: lambda)
            let gamma = (mu * s / 2).squareRoot()
            let rho = (n1 - n2) / c
            let sigma = max(0, 1 - rho * rho).squareRoot()
            let vr1 = gamma * ((lambda * y - x) - rho * (lambda * y + x)) / n1
            let vr2 = -gamma * ((lambda * y - x) + rho * (lambda * y + x)) / n2
            let vt = gamma * sigma * (y + lambda * x)
            let v1 = ir1 * vr1 + it1 * (vt / n1)
            let v2 = ir2 * vr2 + it2 * (vt / n2)
            return LambertSolution(revolutions: n, branch: n == 0 ? nil : branch, v1: v1, v2: v2, x: x,
                                   semiMajorAxis: s / (2 * (1 - x * x)), iterations: root.iterations)
        }
    }
}
