import Glibc
import Testing
import Ephemeris
@testable import Astrodynamics

@Suite("Lambert's problem by Izzo's algorithm: every revolution count, both branches")
struct LambertTests {
    static let earthMu = 398_600.441_8 // km³/s², as the textbook examples use it

    // MARK: - Published examples

    @Test("Vallado, Fundamentals of Astrodynamics and Applications (4th ed.), example 7-5: 76 minutes about the Earth")
    func vallado75() throws {
        let s = try Lambert.solution(mu: Self.earthMu, from: Vector3(15_945.34, 0, 0), to: Vector3(12_214.838_99, 10_249.467_31, 0), seconds: 76 * 60)
        #expect((s.v1 - Vector3(2.058_913, 2.915_965, 0)).length < kmPerS(2e-6), "\(s.v1)")
        #expect((s.v2 - Vector3(-3.451_565, 0.910_315, 0)).length < kmPerS(2e-6), "\(s.v2)")
    }

    @Test("Curtis, Orbital Mechanics for Engineering Students, examples 5.2 (one hour) and 5.3 (13.5 hours)")
    func curtis() throws {
        let a = try Lambert.solution(mu: 398_600, from: Vector3(5_000, 10_000, 2_100), to: Vector3(-14_600, 2_500, 7_000), seconds: 3_600)
        #expect((a.v1 - Vector3(-5.9925, 1.9254, 3.2456)).length < kmPerS(1e-4), "\(a.v1)")
        #expect((a.v2 - Vector3(-3.3125, -4.1966, -0.38529)).length < kmPerS(1e-4), "\(a.v2)")
        // 5.3: the book prints v1's y component with the wrong sign (errata: +0.26741).
        let b = try Lambert.solution(mu: 398_600, from: Vector3(273_378, 0, 0), to: Vector3(145_820, 12_758, 0), seconds: 13.5 * 3600)
        #expect((b.v1 - Vector3(-2.4356, 0.26741, 0)).length < kmPerS(1e-4), "\(b.v1)")
    }

    /// G. J. Der, "The Superior Lambert Algorithm", AMOS 2011, examples I and II (a Molniya-like
    /// transfer with zero and one revolution), the figures poliastro's tests reproduce.
    @Test("Der (AMOS 2011) examples I and II: zero revolutions, and both one-revolution branches")
    func der() throws {
        let i = try Lambert.solution(mu: Self.earthMu, from: Vector3(2_249.171_260, 1_898.007_100, 5_639.599_193),
                                     to: Vector3(1_744.495_443, -4_601.556_054, 4_043.864_391), seconds: 1_618.50)
        #expect((i.v1 - Vector3(-2.095_728_09, 3.926_021_96, -4.945_168_10)).length < kmPerS(1e-6), "\(i.v1)")
        #expect((i.v2 - Vector3(2.463_096_13, 0.844_901_97, 6.108_908_63)).length < kmPerS(1e-6), "\(i.v2)")

        let r1 = Vector3(22_592.145_603, -1_599.915_239, -19_783.950_506), r2 = Vector3(1_922.067_697, 4_054.157_051, -8_925.727_465)
        let all = try Lambert.solutions(mu: Self.earthMu, from: r1, to: r2, seconds: 36_000, maxRevolutions: 1)
        try #require(all.count == 3)
        #expect((all[0].v1 - Vector3(2.000_652_697, 0.387_688_615, -2.666_947_760)).length < kmPerS(1e-6), "\(all[0].v1)")
        #expect((all[0].v2 - Vector3(-3.792_466_19, -1.777_076_41, 6.856_814_395)).length < kmPerS(1e-6), "\(all[0].v2)")
        let left = all[1], right = all[2]
        #expect(left.revolutions == 1 && left.branch == .left && right.branch == .right && left.x < right.x)
        #expect((left.v1 - Vector3(0.503_357_70, 0.618_694_08, -1.571_769_04)).length < kmPerS(1e-6), "\(left.v1)")
        #expect((left.v2 - Vector3(-4.183_346_26, -1.132_627_27, 6.133_070_91)).length < kmPerS(1e-6), "\(left.v2)")
        #expect((right.v1 - Vector3(-2.457_595_53, 1.169_458_01, 0.431_612_58)).length < kmPerS(1e-6), "\(right.v1)")
        #expect((right.v2 - Vector3(-5.538_413_70, 0.018_222_20, 5.496_410_54)).length < kmPerS(1e-6), "\(right.v2)")
        // Five hours is too short for a revolution.
        #expect(throws: LambertError.noSolution(revolutions: 1, maximum: 0)) {
            try Lambert.solution(mu: Self.earthMu, from: r1, to: r2, seconds: 18_000, revolutions: 1)
        }
        #expect(try Lambert.solutions(mu: Self.earthMu, from: r1, to: r2, seconds: 18_000, maxRevolutions: 3).count == 1)
    }

    // MARK: - Random geometries, propagated

    @Test("every solution of random problems, propagated by KeplerArc, arrives at r2 with v2")
    func randomGeometries() throws {
        var rng = SplitMix64(seed: 0x1A3B_E7)
        let centers: [(mu: Double, unitKm: Double)] = [
            (GravityConstants.sunGM, Constants.auKm), (GravityConstants.earthGM, 20_000), (GravityConstants.moonGM, 4_000),
        ]
        var problems = 0, solutions = 0, multiRevolution = 0, hyperbolic = 0, divers = 0
        var worstPosition = 0.0, worstVelocity = 0.0
        for _ in 0..<3_000 {
            let center = centers[Int(rng.next() % 3)]
            let r1 = rng.direction() * (center.unitKm * rng.uniform(0.3, 5))
            var r2 = rng.direction() * (center.unitKm * rng.uniform(0.3, 5))
            if rng.next() % 8 == 0 {
                // Near 180°: r2 opposite r1, tilted by 1e-9…1e-2 rad.
                let tilt = pow(10, rng.uniform(-9, -2))
                r2 = (-r1.normalized + rng.direction() * tilt).normalized * r2.length
            }
            let rMean = (r1.length + r2.length) / 2
            let period = 2 * Double.pi * (rMean * rMean * rMean / center.mu).squareRoot()
            let seconds = period * pow(10, rng.uniform(-2.5, 0.9))
            let direction: LambertDirection = rng.next() % 2 == 0 ? .prograde : .retrograde
            let all = try Lambert.solutions(mu: center.mu, from: r1, to: r2, seconds: seconds, direction: direction, maxRevolutions: 5)
            problems += 1
            for s in all {
                // A hyperbola faster than ten times the circular speed (x > 10: 300 km/s and
                // more at 1 AU) or diving through a periapsis far below both ends (thousands of
                // km/s past the Sun's centre) is ill-conditioned for a universal-variable step
                // (sinh and cosh of large arguments; f·r1 and g·v1 cancel): one step there
                // misses by up to ~1e-10 of the distance. Those are checked as conics instead:
                // both ends on the same hyperbola (energy, angular momentum, eccentricity
                // vector) and the time between them from Kepler's hyperbolic equation.
                let h = r1.cross(s.v1)
                // The sense of motion is the one asked for.
                #expect((h.z > 0) == (direction == .prograde) || abs(h.normalized.z) < 1e-9)
                let e = (s.v1.cross(h) / center.mu - r1.normalized).length
                let periapsis = h.lengthSquared / (center.mu * (1 + e))
                let diving = s.x > 10 || (s.x > 1 && r1.dot(s.v1) < 0 && r2.dot(s.v2) > 0 && periapsis < 0.02 * min(r1.length, r2.length))
                if diving {
                    let check = Self.hyperbolicConsistency(mu: center.mu, r1: r1, v1: s.v1, r2: r2, v2: s.v2, seconds: seconds)
                    #expect(check.elements < 1e-10 && abs(check.timeError) < 1e-6 * max(1, seconds * 1e-9), "x \(s.x): \(check)")
                    divers += 1
                    solutions += 1
                    hyperbolic += 1
                    continue
                }
                let end = KeplerArc(mu: center.mu, position: r1, velocity: s.v1, epochHours: 0).state(afterSeconds: seconds)
                let dr = (end.position - r2).length, dv = (end.velocity - s.v2).length
                worstPosition = max(worstPosition, dr)
                worstVelocity = max(worstVelocity, dv)
                #expect(dr < km(0.001), "\(s.revolutions) \(String(describing: s.branch)) x \(s.x): \(dr) km off")
                #expect(dv < kmPerS(1e-6), "\(s.revolutions) \(String(describing: s.branch)) x \(s.x): \(dv) km/s off")
                solutions += 1
                if s.revolutions > 0 { multiRevolution += 1 }
                if s.x > 1 { hyperbolic += 1 }
            }
        }
        print("[lambert] \(problems) random problems, \(solutions) solutions (\(multiRevolution) multi-revolution, \(hyperbolic) hyperbolic of which \(divers) extreme ones checked as conics): worst \(worstPosition * 1000) m, \(worstVelocity * 1e6) mm/s")
        #expect(problems == 3_000)
        #expect(multiRevolution > 1_000 && hyperbolic > 100)
    }

    /// For a hyperbolic solution: the largest relative difference of the conic's invariants
    /// (energy, angular momentum, eccentricity vector) between the two ends, and the time from
    /// r1 to r2 by Kepler's hyperbolic equation minus the requested time (s).
    static func hyperbolicConsistency(mu: Double, r1: Vector3, v1: Vector3, r2: Vector3, v2: Vector3, seconds: Double) -> (elements: Double, timeError: Double) {
        let e1 = v1.lengthSquared / 2 - mu / r1.length, e2 = v2.lengthSquared / 2 - mu / r2.length
        let h1 = r1.cross(v1), h2 = r2.cross(v2)
        let ev1 = v1.cross(h1) / mu - r1.normalized, ev2 = v2.cross(h2) / mu - r2.normalized
        let elements = max(abs(e1 - e2) / abs(e1), (h1 - h2).length / h1.length, (ev1 - ev2).length / ev1.length)
        let a = -mu / (2 * e1), e = ev1.length
        func anomaly(_ r: Vector3, _ v: Vector3) -> Double { asinh(r.dot(v) / (e * (mu * -a).squareRoot())) }
        let f1 = anomaly(r1, v1), f2 = anomaly(r2, v2)
        let t = ((e * sinh(f2) - f2) - (e * sinh(f1) - f1)) / (mu / (-a * -a * -a)).squareRoot()
        return (elements, t - seconds)
    }

    @Test("exactly opposite positions: the plane is the one nearest the reference normal, and the arc still arrives")
    func exactly180() throws {
        let mu = GravityConstants.sunGM, au = Constants.auKm
        let r1 = Vector3(au, 0.2 * au, 0.1 * au), r2 = r1 * -1.5
        for direction in LambertDirection.allCases {
            let all = try Lambert.solutions(mu: mu, from: r1, to: r2, seconds: 300 * 86_400, direction: direction, maxRevolutions: 0)
            let s = try #require(all.first)
            let h = r1.cross(s.v1).normalized
            let expected = (Vector3(0, 0, 1) - r1.normalized * r1.normalized.z).normalized
            #expect((h - expected * (direction == .prograde ? 1 : -1)).length < 1e-9, "\(h)")
            let end = KeplerArc(mu: mu, position: r1, velocity: s.v1, epochHours: 0).state(afterSeconds: 300 * 86_400)
            #expect((end.position - r2).length < km(0.001))
        }
        #expect(throws: LambertError.undefinedPlane) {
            try Lambert.solution(mu: mu, from: Vector3(0, 0, au), to: Vector3(0, 0, -au), seconds: 86_400)
        }
        #expect(throws: LambertError.parallelEnds) {
            try Lambert.solution(mu: mu, from: Vector3(au, 0, 0), to: Vector3(2 * au, 0, 0), seconds: 86_400)
        }
    }

    @Test("bad input is an error, not a trap")
    func badInput() {
        let r1 = Vector3(7_000, 0, 0), r2 = Vector3(0, 8_000, 0)
        #expect(throws: LambertError.self) { try Lambert.solution(mu: Self.earthMu, from: r1, to: r2, seconds: 0) }
        #expect(throws: LambertError.self) { try Lambert.solution(mu: Self.earthMu, from: r1, to: r2, seconds: -5) }
        #expect(throws: LambertError.self) { try Lambert.solution(mu: Self.earthMu, from: r1, to: r2, seconds: .nan) }
        #expect(throws: LambertError.self) { try Lambert.solution(mu: 0, from: r1, to: r2, seconds: 60) }
        #expect(throws: LambertError.self) { try Lambert.solution(mu: Self.earthMu, from: .zero, to: r2, seconds: 60) }
        #expect(throws: LambertError.self) { try Lambert.solutions(mu: Self.earthMu, from: r1, to: r2, seconds: 60, maxRevolutions: -1) }
        #expect(throws: LambertError.self) { try Lambert.solution(mu: Self.earthMu, from: r1, to: Vector3(.infinity, 0, 0), seconds: 60) }
    }

    // MARK: - Against the existing solver

    @Test("zero revolutions agree with KeplerArc.lambert (universal variables), the short and the long way")
    func agreesWithUniversalVariables() throws {
        var rng = SplitMix64(seed: 42)
        let mu = GravityConstants.sunGM, au = Constants.auKm
        var compared = 0, worst = 0.0
        for _ in 0..<500 {
            let r1 = rng.direction() * (au * rng.uniform(0.4, 6)), r2 = rng.direction() * (au * rng.uniform(0.4, 6))
            let seconds = 86_400 * rng.uniform(20, 2_000)
            let longWay = rng.next() % 2 == 0
            guard let uv = KeplerArc.lambert(mu: mu, from: r1, to: r2, seconds: seconds, longWay: longWay) else { continue }
            // Short way = prograde about r1 × r2; the long way the other sense.
            let s = try Lambert.solution(mu: mu, from: r1, to: r2, seconds: seconds, direction: longWay ? .retrograde : .prograde, referenceNormal: r1.cross(r2))
            let d = max((s.v1 - uv.v1).length, (s.v2 - uv.v2).length)
            worst = max(worst, d)
            #expect(d < kmPerS(1e-6), "\(d) km/s")
            compared += 1
        }
        print("[lambert] \(compared) problems compared with KeplerArc.lambert: worst difference \(worst * 1e6) mm/s")
        #expect(compared > 450)
    }

    // MARK: - The number of solutions

    /// Roots of T(x) = t on (−1, 1) for N revolutions, counted by sign changes on a fine grid.
    static func scannedRoots(t: Double, lambda: Double, revolutions n: Int) -> Int {
        var count = 0
        var previous: Double?
        let steps = 20_000
        for k in 1..<steps {
            let x = -1 + 2 * Double(k) / Double(steps)
            let v = Lambert.TimeOfFlight.value(x: x, y: Lambert.TimeOfFlight.y(x: x, lambda: lambda), lambda: lambda, revolutions: n) - t
            if let p = previous, (p < 0) != (v < 0) { count += 1 }
            previous = v
        }
        return count
    }

    @Test("the solver returns 1 + 2·N solutions exactly where a scan of T(x) finds two roots for each N")
    func solutionCount() throws {
        var rng = SplitMix64(seed: 7)
        let mu = GravityConstants.earthGM
        var checked = 0
        for _ in 0..<60 {
            let r1 = rng.direction() * rng.uniform(7_000, 40_000), r2 = rng.direction() * rng.uniform(7_000, 40_000)
            let rMean = (r1.length + r2.length) / 2
            let seconds = 2 * Double.pi * (rMean * rMean * rMean / mu).squareRoot() * rng.uniform(0.3, 4.5)
            let g = try Lambert.Geometry(mu: mu, r1: r1, r2: r2, seconds: seconds, direction: .prograde, referenceNormal: Vector3(0, 0, 1))
            let all = try Lambert.solutions(mu: mu, from: r1, to: r2, seconds: seconds, maxRevolutions: 6)
            var expected = 1
            for n in 1...6 {
                let roots = Self.scannedRoots(t: g.t, lambda: g.lambda, revolutions: n)
                #expect(roots == 0 || roots == 2, "N = \(n): \(roots) roots")
                expected += roots
            }
            #expect(all.count == expected, "T = \(g.t), λ = \(g.lambda)")
            #expect(all.count == 1 + 2 * min(6, try Lambert.maximumRevolutions(mu: mu, from: r1, to: r2, seconds: seconds)))
            for (i, s) in all.enumerated().dropFirst() {
                #expect(s.revolutions == (i + 1) / 2 && s.branch == (i % 2 == 1 ? .left : .right))
            }
            checked += 1
        }
        #expect(checked == 60)
    }

    @Test("just above the minimum time for N revolutions there are two solutions; just below, none", arguments: [1, 2, 5])
    func minimumTime(revolutions n: Int) throws {
        let mu = GravityConstants.sunGM, au = Constants.auKm
        let r1 = Vector3(au, 0, 0), r2 = Vector3(0.3 * au, 1.4 * au, 0.05 * au)
        let g = try Lambert.Geometry(mu: mu, r1: r1, r2: r2, seconds: 1, direction: .prograde, referenceNormal: Vector3(0, 0, 1))
        let tMin = Lambert.TimeOfFlight.minimum(lambda: g.lambda, revolutions: n).t
        let secondsPerUnit = 1 / g.t
        let above = try Lambert.solutions(mu: mu, from: r1, to: r2, seconds: tMin * (1 + 1e-6) * secondsPerUnit, maxRevolutions: n)
        let below = try Lambert.solutions(mu: mu, from: r1, to: r2, seconds: tMin * (1 - 1e-6) * secondsPerUnit, maxRevolutions: n)
        #expect(above.count == 1 + 2 * n)
        #expect(below.count == 1 + 2 * (n - 1))
        // The two near-minimum solutions still arrive, on either side of the minimum.
        for s in above.suffix(2) {
            let end = KeplerArc(mu: mu, position: r1, velocity: s.v1, epochHours: 0).state(afterSeconds: tMin * (1 + 1e-6) * secondsPerUnit)
            #expect((end.position - r2).length < km(0.01))
        }
    }

    // MARK: - The time-of-flight function itself

    /// Lagrange's form of T(x) (Izzo eq. 9), independent of the forms the solver uses.
    static func lagrange(x: Double, lambda: Double, revolutions n: Int) -> Double {
        let a = 1 / (1 - x * x)
        if a > 0 {
            let alpha = 2 * acos(x)
            var beta = 2 * asin((lambda * lambda / a).squareRoot())
            if lambda < 0 { beta = -beta }
            return a * a.squareRoot() * ((alpha - sin(alpha)) - (beta - sin(beta)) + 2 * Double.pi * Double(n)) / 2
        }
        let alpha = 2 * acosh(x)
        var beta = 2 * asinh((-lambda * lambda / a).squareRoot())
        if lambda < 0 { beta = -beta }
        return -a * (-a).squareRoot() * ((beta - sinh(beta)) - (alpha - sinh(alpha))) / 2
    }

    @Test("T(x) matches Lagrange's form across Battin's and Lancaster's regions; derivatives match differences")
    func timeOfFlightForms() {
        var worst = 0.0, cases = 0
        for lambda in stride(from: -0.95, through: 0.95, by: 0.1) {
            for x in [-0.9, -0.5, 0, 0.5, 0.9, 0.985, 0.995, 0.999, 1.001, 1.005, 1.015, 1.5, 3, 10] {
                for n in x < 1 ? [0, 1, 3] : [0] {
                    let y = Lambert.TimeOfFlight.y(x: x, lambda: lambda)
                    let ours = Lambert.TimeOfFlight.value(x: x, y: y, lambda: lambda, revolutions: n)
                    let reference = Self.lagrange(x: x, lambda: lambda, revolutions: n)
                    // Lagrange's form itself loses digits next to x = 1 (α − sin α of a small α).
                    let tolerance = abs(x - 1) < 0.02 ? 1e-9 : 1e-12
                    worst = max(worst, abs(ours - reference) / reference)
                    #expect(abs(ours - reference) <= tolerance * reference, "λ \(lambda) x \(x) N \(n): \(ours) vs \(reference)")
                    cases += 1
                    if abs(x - 1) > 0.02 {
                        let h = 1e-5
                        func tof(_ x: Double) -> Double {
                            Lambert.TimeOfFlight.value(x: x, y: Lambert.TimeOfFlight.y(x: x, lambda: lambda), lambda: lambda, revolutions: n)
                        }
                        let (d1, d2, d3) = Lambert.TimeOfFlight.derivatives(x: x, y: y, t: ours, lambda: lambda)
                        let f1 = (tof(x + h) - tof(x - h)) / (2 * h)
                        let f2 = (tof(x + h) - 2 * ours + tof(x - h)) / (h * h)
                        let h3 = 2e-3 // the third difference needs a wider step than rounding allows at 1e-5
                        let f3 = (tof(x + 2 * h3) - 2 * tof(x + h3) + 2 * tof(x - h3) - tof(x - 2 * h3)) / (2 * h3 * h3 * h3)
                        #expect(abs(d1 - f1) <= 1e-6 * max(1, abs(d1)))
                        #expect(abs(d2 - f2) <= 1e-4 * max(1, abs(d2)))
                        #expect(abs(d3 - f3) <= 1e-2 * max(1, abs(d3)))
                    }
                }
            }
        }
        // Continuity across the switch between the forms, at |x − 1| = 0.01.
        for lambda in [-0.7, 0.0, 0.4, 0.9] {
            for edge in [0.99, 1.01] {
                let a = edge - 1e-12, b = edge + 1e-12
                let ta = Lambert.TimeOfFlight.value(x: a, y: Lambert.TimeOfFlight.y(x: a, lambda: lambda), lambda: lambda, revolutions: 0)
                let tb = Lambert.TimeOfFlight.value(x: b, y: Lambert.TimeOfFlight.y(x: b, lambda: lambda), lambda: lambda, revolutions: 0)
                let slope = Lambert.TimeOfFlight.derivatives(x: edge, y: Lambert.TimeOfFlight.y(x: edge, lambda: lambda), t: ta, lambda: lambda).0
                #expect(abs((tb - ta) - slope * (b - a)) < 5e-14 * ta, "\(tb - ta) vs \(slope * (b - a))")
            }
        }
        print("[lambert] T(x) vs Lagrange: \(cases) cases, worst relative \(worst)")
    }
}

/// A small deterministic generator (SplitMix64, Steele, Lea & Flood 2014) so the random cases
/// are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * Double(next() >> 11) / Double(1 << 53)
    }

    /// A direction uniform on the sphere.
    mutating func direction() -> Vector3 {
        let z = uniform(-1, 1), phi = uniform(0, 2 * Double.pi)
        let r = (1 - z * z).squareRoot()
        return Vector3(r * cos(phi), r * sin(phi), z)
    }
}
