import Astrodynamics
import Ephemeris
import Missions

extension FlybyRecipe.Layout {
    /// The least of `f` over `lo...hi` by golden-section search, to `tolerance`.
    static func golden(_ f: (Double) -> Double, _ lo: Double, _ hi: Double, tolerance: Double) -> (x: Double, f: Double) {
        let bracket = Search.golden(f, lo, hi, tolerance: tolerance)
        let x = (bracket.lo + bracket.hi) / 2
        return (x, f(x))
    }

    /// The least of `f` sampled every `step` over `range` (both ends included), refined by
    /// golden-section search within a step of the best sample.
    static func scan(_ f: (Double) -> Double, _ range: ClosedRange<Double>, step: Double, tolerance: Double, periodic: Bool) -> (x: Double, f: Double) {
        var best = (x: range.lowerBound, f: Double.infinity)
        var t = range.lowerBound
        while t <= range.upperBound + step * 1e-9 {
            let x = min(t, range.upperBound)
            let v = f(x)
            if v < best.f { best = (x, v) }
            t += step
        }
        let lo = periodic ? best.x - step : max(range.lowerBound, best.x - step)
        let hi = periodic ? best.x + step : min(range.upperBound, best.x + step)
        let refined = golden(f, lo, hi, tolerance: tolerance)
        return refined.f < best.f ? refined : best
    }

    static func tolerance(_ v: FlybyRecipe.Variable) -> Double { v.tolerance }

    /// The section solved at the least total impulse over its free variables, with notes on what
    /// the search chose.
    func optimise(_ s: FlybyRecipe.Section) throws -> FlybyRecipe.Built {
        let vars = s.variables
        var x = vars.map { $0.periodic ? 0 : ($0.range.lowerBound + $0.range.upperBound) / 2 }
        if !vars.isEmpty {
            if s.method == .chain {
                polish(s, &x, fullScans: 2, rounds: 8)
            } else {
                shootingStart(s, &x)
                leastSquares(s, &x)
                polish(s, &x, fullScans: 0, rounds: 8)
            }
        }
        var built = try build(s, x)
        let names = s.eventNames
        for (v, value) in zip(vars, x) {
            switch v.kind {
            case .aim, .impulse: break
            case .flyby(let k):
                built.searchNotes.append("\(s.encounters[k].event.name): the sources give only the date; closest approach at \(FlybyRecipe.iso(value)), the time within that day needing the least total impulse (\(FlybyRecipe.metres(built.cost)) for this stretch).")
            case .joinAfter, .joinBefore:
                built.searchNotes.append("The \(v.kind.isAfter ? names[0] : names[names.count - 1]): at \(FlybyRecipe.iso(value)), the time between \(FlybyRecipe.iso(v.range.lowerBound)) and \(FlybyRecipe.iso(v.range.upperBound)) needing the least total impulse (\(FlybyRecipe.metres(built.cost)) for this stretch).")
            }
        }
        return built
    }

    /// Coordinate descent on the full cost: each variable scanned over its whole range for the
    /// first `fullScans` rounds, then golden-section search within a step of its value, until a
    /// round saves less than a millimetre per second (at most `rounds` rounds).
    func polish(_ s: FlybyRecipe.Section, _ x: inout [Double], fullScans: Int, rounds: Int) {
        let vars = s.variables
        func cost(_ y: [Double]) -> Double { (try? build(s, y))?.cost ?? .infinity }
        var current = cost(x)
        for round in 0..<rounds {
            let before = current
            var moved = false
            for (i, v) in vars.enumerated() {
                func at(_ t: Double) -> Double { var y = x; y[i] = t; return cost(y) }
                let found: (x: Double, f: Double)
                if round < fullScans {
                    found = Self.scan(at, v.range, step: v.step, tolerance: Self.tolerance(v), periodic: v.periodic)
                } else {
                    let lo = v.periodic ? x[i] - v.step : max(v.range.lowerBound, x[i] - v.step)
                    let hi = v.periodic ? x[i] + v.step : min(v.range.upperBound, x[i] + v.step)
                    found = Self.golden(at, lo, hi, tolerance: Self.tolerance(v))
                }
                if found.f < current {
                    if abs(found.x - x[i]) > Self.tolerance(v) { moved = true }
                    x[i] = found.x
                    current = found.f
                }
            }
            if round >= fullScans, !moved || before - current < 1e-6 { break }
        }
    }

    /// Levenberg–Marquardt on a shot section's impulses (their components the residuals, so the
    /// sum of their squares is what falls), from `x`: coordinate descent crawls along the narrow
    /// curved valleys the aims and times make together, where steps on all of them at once go
    /// straight down. Finite differences for the Jacobian; times, correction places and join
    /// times kept inside their ranges; an aim is an angle and may go anywhere.
    func leastSquares(_ s: FlybyRecipe.Section, _ x: inout [Double]) {
        let vars = s.variables
        func residuals(_ y: [Double]) -> [Double]? {
            guard let built = try? build(s, y), case let .shooting(_, solution) = built.solved else { return nil }
            return solution.impulses.flatMap { [$0.deltaV.x, $0.deltaV.y, $0.deltaV.z] }
        }
        func clamp(_ y: [Double]) -> [Double] {
            zip(vars, y).map { v, value in v.periodic ? value : min(v.range.upperBound, max(v.range.lowerBound, value)) }
        }
        func sum(_ r: [Double]) -> Double { r.reduce(0) { $0 + $1 * $1 } }
        guard var r = residuals(x) else { return }
        var lambda = 1e-3
        let steps = vars.map { v -> Double in v.periodic ? 1e-7 : (v.tolerance < 1e-3 ? 1e-6 : 0.05) }
        for _ in 0..<200 {
            // Jacobian by forward differences.
            var columns: [[Double]] = []
            for (i, h) in steps.enumerated() {
                var y = x
                y[i] += h
                guard let ri = residuals(y), ri.count == r.count else { return }
                columns.append(zip(ri, r).map { ($0 - $1) / h })
            }
            let m = vars.count
            var jtj = [[Double]](repeating: [Double](repeating: 0, count: m), count: m)
            var jtr = [Double](repeating: 0, count: m)
            for i in 0..<m {
                for j in 0..<m { jtj[i][j] = zip(columns[i], columns[j]).reduce(0) { $0 + $1.0 * $1.1 } }
                jtr[i] = zip(columns[i], r).reduce(0) { $0 + $1.0 * $1.1 }
            }
            var improved = false
            for _ in 0..<20 {
                var a = jtj
                for i in 0..<m { a[i][i] += lambda * max(jtj[i][i], 1e-12) }
                guard let dx = Self.solve(a, jtr.map { -$0 }) else { lambda *= 10; continue }
                let trial = clamp(zip(x, dx).map { $0 + $1 })
                if let rt = residuals(trial), rt.count == r.count, sum(rt) < sum(r) {
                    let gain = sum(r) - sum(rt)
                    x = trial
                    r = rt
                    lambda = max(lambda / 10, 1e-12)
                    improved = gain > 1e-14
                    break
                }
                lambda *= 10
            }
            if !improved { break }
        }
    }

    /// Gaussian elimination with partial pivoting (nil if singular). Not `LinearSystem.solve`:
    /// its back-substitution sums each row before subtracting, and Parker's kernel depends on
    /// those roundings (with `LinearSystem`'s, parker.bsp changes in its last bits).
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a, v = b
        let n = v.count
        for c in 0..<n {
            guard let p = (c..<n).max(by: { abs(m[$0][c]) < abs(m[$1][c]) }), abs(m[p][c]) > 1e-300 else { return nil }
            if p != c { m.swapAt(p, c); v.swapAt(p, c) }
            for r in (c + 1)..<n where m[r][c] != 0 {
                let f = m[r][c] / m[c][c]
                for k in c..<n { m[r][k] -= f * m[c][k] }
                v[r] -= f * v[c]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            x[r] = (v[r] - ((r + 1)..<n).reduce(0) { $0 + m[r][$1] * x[$1] }) / m[r][r]
        }
        return x
    }

    /// A first answer for a shot section, leg by leg in the shooting's order, as a beam search:
    /// the impulse leaving a data span first, at its best time; then for each flyby, its aim —
    /// with where the next leg's correction falls when that is free (tried every tenth of the
    /// leg), and the next flyby's time when the sources give only its day (and this flyby's, for
    /// the first; tried hourly) — at the least total impulse of the section cut after the next
    /// flyby. A leg's impulse depends mostly on the aim of the flyby it leaves, but an aim's
    /// choice (there are usually two periods back to the same body) decides what the next leg
    /// can do, so the few best answers of each leg (every local minimum of the aim, scanned
    /// every two degrees) are carried on and the cheapest whole path wins;
    /// ``polish(_:_:fullScans:)`` then adjusts the variables together.
    func shootingStart(_ s: FlybyRecipe.Section, _ x: inout [Double]) {
        let vars = s.variables
        func index(_ match: (FlybyRecipe.Variable.Kind) -> Bool) -> Int? { vars.firstIndex { match($0.kind) } }
        func partial(_ y: [Double], through last: Int) -> Double { (try? build(s, y, through: last))?.cost ?? .infinity }
        // The impulse leaving a data span (backwards when reversed).
        if let j = index({ switch $0 { case .joinAfter, .joinBefore: return true; default: return false } }) {
            let v = vars[j]
            let y = x
            x[j] = Self.scan({ var z = y; z[j] = $0; return partial(z, through: 0) }, v.range, step: v.step, tolerance: 1, periodic: false).x
        }
        let n = s.method == .reversedShooting ? s.encounters.count + 1 : s.encounters.count
        let width = 3
        var beam: [(x: [Double], cost: Double)] = [(x, 0)]
        for k in 0..<max(0, n - 1) {
            guard let a = index({ if case .aim(let m) = $0 { return m == k } else { return false } }) else { continue }
            let times = [k == 0 ? 0 : nil, k + 1].compactMap { $0 }.compactMap { s.encounter(shot: $0) }
                .compactMap { e in index({ if case .flyby(let f) = $0 { return f == e } else { return false } }) }
            let fraction = index({ if case .impulse(let m) = $0 { return m == k + 1 } else { return false } })
            func cost(_ y: [Double]) -> Double { partial(y, through: k + 1) }
            // The aim's local minima for the other variables in `y`, cheapest first.
            func valleys(_ y: [Double], keep: Int) -> [(x: [Double], cost: Double)] {
                let step = Double.pi / 90
                let samples = (0..<180).map { i -> Double in var z = y; z[a] = Double(i) * step; return cost(z) }
                let minima = samples.indices.filter { samples[$0].isFinite && samples[$0] <= samples[($0 + 179) % 180] && samples[$0] < samples[($0 + 1) % 180] }
                return minima.sorted { samples[$0] < samples[$1] }.prefix(keep).map { i in
                    let found = Self.golden({ t in var z = y; z[a] = t; return cost(z) }, Double(i) * step - step, Double(i) * step + step, tolerance: 1e-9)
                    var z = y
                    z[a] = found.x
                    return (z, found.f)
                }
            }
            // The aim settled near its value in `y`.
            func settled(_ y: [Double]) -> (x: [Double], cost: Double) {
                let found = Self.golden({ t in var z = y; z[a] = t; return cost(z) }, y[a] - Double.pi / 90, y[a] + Double.pi / 90, tolerance: 1e-9)
                var z = y
                z[a] = found.x
                return (z, found.f)
            }
            var next: [(x: [Double], cost: Double)] = []
            for state in beam {
                // Candidates over a grid of the first time (hourly) and the correction's place.
                let timeGrid: [Double?] = times.first.map { t in stride(from: vars[t].range.lowerBound, through: vars[t].range.upperBound, by: 3_600).map { $0 } } ?? [nil]
                let fractionGrid: [Double?] = fraction.map { f in stride(from: vars[f].range.lowerBound, through: vars[f].range.upperBound + 1e-9, by: vars[f].step).map { $0 } } ?? [nil]
                var pool: [(x: [Double], cost: Double)] = []
                for time in timeGrid {
                    for place in fractionGrid {
                        var y = state.x
                        if let time, let t = times.first { y[t] = time }
                        if let place, let f = fraction { y[f] = place }
                        pool += valleys(y, keep: 2)
                    }
                }
                pool.sort { $0.cost < $1.cost }
                for candidate in pool.prefix(width) {
                    var y = candidate.x
                    // Refine each time, then the correction's place, the aim following.
                    for t in times {
                        let v = vars[t]
                        let refined = Self.golden({ time in var z = y; z[t] = time; return settled(z).cost },
                                                  max(v.range.lowerBound, y[t] - 3_600), min(v.range.upperBound, y[t] + 3_600), tolerance: 1)
                        var z = y
                        z[t] = refined.x
                        if refined.f <= settled(y).cost { y = settled(z).x }
                    }
                    if let f = fraction {
                        let v = vars[f]
                        let refined = Self.golden({ place in var z = y; z[f] = place; return settled(z).cost },
                                                  max(v.range.lowerBound, y[f] - v.step), min(v.range.upperBound, y[f] + v.step), tolerance: 1e-4)
                        var z = y
                        z[f] = refined.x
                        if refined.f <= settled(y).cost { y = settled(z).x }
                    }
                    let final = settled(y)
                    if final.cost.isFinite { next.append(final) }
                }
            }
            next.sort { $0.cost < $1.cost }
            var kept: [(x: [Double], cost: Double)] = []
            for candidate in next where !kept.contains(where: { zip($0.x, candidate.x).allSatisfy { abs($0 - $1) < 1e-6 * max(1, abs($0)) } }) {
                kept.append(candidate)
                if kept.count == width { break }
            }
            if !kept.isEmpty { beam = kept }
        }
        x = beam.min { $0.cost < $1.cost }?.x ?? x
    }
}
