import Glibc

/// Heliocentric planets from a truncated VSOP87A: rectangular X, Y, Z in au, mean ecliptic and
/// equinox of J2000 (the engine's frame, no rotation needed), geometric, TDB.
///
/// Each coordinate is Σ_α t^α Σ A cos(B + C t), t in Julian millennia of TDB from J2000. The
/// velocity is the term-by-term derivative, not a difference of positions.
///
/// ```swift
/// let (p, v) = VSOP87.state(.jupiter, jdTDB: 2_460_000.5)   // au, au/day
/// ```
///
/// Sources: P. Bretagnon & G. Francou, "Planetary theories in rectangular and spherical variables:
/// VSOP87 solutions", A&A 202, 309 (1988): the VSOP87A files of CDS catalogue VI/81, cut by
/// `scripts/make-vsop87-table.py`, which writes `VSOP87+Terms.swift`. The table was first
/// transcribed from Greg Miller's public-domain VSOP87-Multilang (`vsop87a_milli.js`, terms with
/// A ≥ 1e-5 au, and `vsop87a_small.js`), and the script keeps that shape: terms with A ≥ 1e-5 au,
/// and for the t⁰ X and Y series of Mercury, Venus and the Earth–Moon barycentre also the terms
/// between the cut below and 1e-5 au (those three otherwise miss 8–22″ against DE440). Only the
/// numbers were taken; the evaluation is our own.
///
/// The cut: a term is kept when A ≥ ε · a, a the planet's semi-major axis (ε and the count are
/// noted per planet in `VSOP87+Terms.swift`): Mercury 1e-5 (52 terms), Venus 5e-6 (46), EMB 5e-6
/// (57), Mars 1e-5 (94), Jupiter, Saturn, Uranus, Neptune 3e-5 (91, 119, 77, 43); 579 in all.
/// Measured against JPL DE440 at the reference cases 1950–2096 (VSOP87Tests prints the table):
/// Mercury 9.4″, Venus 6.5″, EMB 5.2″, Mars 10.4″, Jupiter 16″, Saturn 34″, Uranus 27″,
/// Neptune 13″ in direction.
///
/// The series stay finite for any date but lose accuracy away from J2000 (VSOP87A is specified
/// for ±4000 years at full precision; the truncation error grows with |t|^α for the secular
/// series): outside about 1900–2100 treat the result as a few arcminutes.
public enum VSOP87 {
    /// The bodies VSOP87A gives. The Earth itself is the barycentre minus the Moon's share
    /// (`Ephemeris.state(.earth…)` does that); VSOP87A's own Earth series are not carried.
    public enum Planet: Int, CaseIterable, Sendable {
        case mercury, venus, earthMoonBarycenter, mars, jupiter, saturn, uranus, neptune
    }

    static let daysPerJulianMillennium = 365_250.0 // VSOP87 time unit (Bretagnon & Francou 1988)

    /// Heliocentric position (au) alone, ecliptic J2000 (cheaper than `state`).
    public static func position(_ planet: Planet, jdTDB: Double) -> Vector3 {
        evaluators[planet.rawValue].position(t: (jdTDB - Constants.jdJ2000) / daysPerJulianMillennium)
    }

    /// Heliocentric position (au) and velocity (au/day) in the ecliptic J2000 frame.
    public static func state(_ planet: Planet, jdTDB: Double) -> (positionAU: Vector3, velocityAUPerDay: Vector3) {
        let t = (jdTDB - Constants.jdJ2000) / daysPerJulianMillennium
        let (p, dpdt) = evaluators[planet.rawValue].evaluate(t: t)
        return (p, dpdt / daysPerJulianMillennium)
    }

    /// One planet's coefficients as stored in `VSOP87+Terms.swift`.
    struct Table: Sendable {
        /// (coordinate, power, count) triples, in the order of `terms`.
        let series: [Int]
        /// (A, B, C) triples.
        let terms: [Double]
    }

    static let evaluators: [Evaluator] = tables.map(Evaluator.init)

    /// A table rearranged for evaluation. Many terms of a planet share a frequency C (the same
    /// argument appears in X, Y, Z and in several powers of t), so cos Ct and sin Ct are found once
    /// per distinct frequency and each term becomes cos(B + Ct) = cos B cos Ct − sin B sin Ct with
    /// A cos B and A sin B computed once here. Most frequencies are sums or differences of two
    /// others (they are integer combinations of the mean motions), and those are built by angle
    /// addition, so only 36 of the 166 distinct frequencies cost a call to sin and cos.
    final class Evaluator: Sendable {
        struct Series: Sendable {
            let coordinate: Int
            let power: Int
            let range: Range<Int>
        }

        /// A way to get cos Ct and sin Ct for frequency `target`: by sin and cos when `first` is
        /// nil, else from the already computed `first` ± `second` (`first` the larger).
        struct Step: Sendable {
            let target: Int
            let first: Int?
            let second: Int
            let isSum: Bool
        }

        let frequencies: [Double]
        /// Every frequency once, each after the ones it is built from.
        let steps: [Step]
        /// Per term, four numbers: A cos B, A sin B, AC cos B, AC sin B.
        let coefficients: [Double]
        /// Per term, its frequency's index in `frequencies`.
        let frequencyIndex: [Int]
        var termCount: Int { frequencyIndex.count }
        let series: [Series]

        init(_ table: Table) {
            var frequencies: [Double] = []
            var indexOf: [Double: Int] = [:]
            var coefficients: [Double] = [], frequencyIndex: [Int] = []
            let n = table.terms.count / 3
            coefficients.reserveCapacity(4 * n); frequencyIndex.reserveCapacity(n)
            for i in 0..<n {
                let a = table.terms[3 * i], b = table.terms[3 * i + 1], c = table.terms[3 * i + 2]
                coefficients += [a * cos(b), a * sin(b), a * c * cos(b), a * c * sin(b)]
                if let j = indexOf[c] {
                    frequencyIndex.append(j)
                } else {
                    indexOf[c] = frequencies.count
                    frequencyIndex.append(frequencies.count)
                    frequencies.append(c)
                }
            }
            var series: [Series] = []
            var start = 0
            for k in stride(from: 0, to: table.series.count, by: 3) {
                let count = table.series[k + 2]
                series.append(Series(coordinate: table.series[k], power: table.series[k + 1], range: start..<(start + count)))
                start += count
            }
            precondition(start == n, "VSOP87 series table does not cover its terms")
            self.frequencies = frequencies
            self.steps = Self.plan(frequencies)
            self.coefficients = coefficients
            self.frequencyIndex = frequencyIndex
            self.series = series
        }

        /// Position (au) and its derivative with respect to t (au per millennium).
        func evaluate(t: Double) -> (Vector3, Vector3) { evaluate(t: t, derivative: true) }

        /// Position (au) alone (the derivative is left zero): a snapshot needs no velocities.
        func position(t: Double) -> Vector3 { evaluate(t: t, derivative: false).0 }

        @inline(__always) func evaluate(t: Double, derivative: Bool) -> (Vector3, Vector3) {
            let m = frequencies.count
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * m) { trig in
                // trig[2j] = cos(C_j t), trig[2j + 1] = sin(C_j t)
                for step in steps {
                    let j = step.target
                    guard let a = step.first else {
                        let x = frequencies[j] * t
                        trig[2 * j] = x == 0 ? 1 : cos(x)
                        trig[2 * j + 1] = x == 0 ? 0 : sin(x)
                        continue
                    }
                    let b = step.second
                    let (ca, sa, cb, sb) = (trig[2 * a], trig[2 * a + 1], trig[2 * b], trig[2 * b + 1])
                    if step.isSum {
                        trig[2 * j] = ca * cb - sa * sb
                        trig[2 * j + 1] = sa * cb + ca * sb
                    } else {
                        trig[2 * j] = ca * cb + sa * sb
                        trig[2 * j + 1] = sa * cb - ca * sb
                    }
                }
                var p = SIMD3<Double>(), d = SIMD3<Double>()
                coefficients.withUnsafeBufferPointer { k in
                frequencyIndex.withUnsafeBufferPointer { index in
                for s in series where !derivative {
                    var sumCos = 0.0
                    for i in s.range {
                        let j = index[i]
                        sumCos += k[4 * i] * trig[2 * j] - k[4 * i + 1] * trig[2 * j + 1]
                    }
                    p[s.coordinate] += Self.power(t, s.power) * sumCos
                }
                for s in series where derivative {
                    // Σ A cos(B + Ct) and Σ A C sin(B + Ct) over the series.
                    var sumCos = 0.0, sumCSin = 0.0
                    for i in s.range {
                        let j = index[i]
                        let c = trig[2 * j], sn = trig[2 * j + 1]
                        sumCos += k[4 * i] * c - k[4 * i + 1] * sn
                        sumCSin += k[4 * i + 3] * c + k[4 * i + 2] * sn
                    }
                    // d/dt [t^α S] = α t^(α−1) S + t^α dS/dt, with dS/dt = −Σ A C sin(B + Ct).
                    let tPower = Self.power(t, s.power)
                    let tPowerBelow = s.power > 0 ? Double(s.power) * Self.power(t, s.power - 1) : 0
                    p[s.coordinate] += tPower * sumCos
                    d[s.coordinate] += tPowerBelow * sumCos - tPower * sumCSin
                }
                }
                }
                return (Vector3(p.x, p.y, p.z), Vector3(d.x, d.y, d.z))
            }
        }

        /// Orders the frequencies so that each one that is the sum or difference of two earlier ones
        /// (to 1e-8 rad per millennium, a phase error of 1e-8 rad over a millennium; the printed
        /// frequencies carry 11 decimals) is built from them; when none is, the smallest remaining
        /// frequency is taken directly.
        static func plan(_ frequencies: [Double]) -> [Step] {
            let tolerance = 1e-8
            var steps: [Step] = []
            var done: [Int] = []
            var remaining = frequencies.indices.sorted { frequencies[$0] < frequencies[$1] }
            func build(_ f: Double) -> Step? {
                for (n, a) in done.enumerated() {
                    for b in done[n...] {
                        let (big, small) = frequencies[a] >= frequencies[b] ? (a, b) : (b, a)
                        if abs(frequencies[big] + frequencies[small] - f) < tolerance {
                            return Step(target: -1, first: big, second: small, isSum: true)
                        }
                        if abs(frequencies[big] - frequencies[small] - f) < tolerance {
                            return Step(target: -1, first: big, second: small, isSum: false)
                        }
                    }
                }
                return nil
            }
            while !remaining.isEmpty {
                var progress = true
                while progress {
                    progress = false
                    for j in remaining {
                        guard frequencies[j] != 0, let s = build(frequencies[j]) else { continue }
                        steps.append(Step(target: j, first: s.first, second: s.second, isSum: s.isSum))
                        done.append(j)
                        remaining.removeAll { $0 == j }
                        progress = true
                    }
                }
                if let j = remaining.first {
                    steps.append(Step(target: j, first: nil, second: 0, isSum: true))
                    done.append(j)
                    remaining.removeFirst()
                }
            }
            return steps
        }

        @inline(__always) static func power(_ t: Double, _ n: Int) -> Double {
            var r = 1.0
            for _ in 0..<n { r *= t }
            return r
        }
    }
}
