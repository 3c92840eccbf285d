import Astrodynamics
import Ephemeris
import Missions

/// A planetary encounter re-anchored on DE440's planet. JPL Horizons serves old spacecraft
/// (the Voyagers) from trajectories reconstructed against the planetary ephemerides of their
/// day; added to today's DE440 planets, the flyby bends around a point up to 14,000 km (Voyager
/// 2 at Neptune) from the planet the server draws — no force model explains the samples then,
/// and the closest approach is wrong by as much. The encounter's samples (a day either side of
/// closest approach) are fitted with the planet's gravity (its zonal harmonics and moons, the
/// Sun) and one constant offset of the planet, and the samples moved by that offset over the
/// encounter solution's span: out to the seam where Horizons' file switches to another
/// solution (the corrected samples jump by about the offset there), or, with no seam within
/// 30 days, tapering smoothly to nothing between 2 and 30 days from closest approach.
public struct EncounterAnchor: Sendable, Hashable {
    public let body: BodyID
    /// Closest approach in the samples, TDB seconds.
    public let closestSeconds: Double
    /// Where the samples' planet lies from DE440's, heliocentric ecliptic J2000 km.
    public let offsetKm: Vector3
    /// Fit residuals, km: without the offset and with it.
    public let rmsBeforeKm: Double
    public let rmsAfterKm: Double
    /// The full correction applies from `fullFrom` to `fullTo` (TDB seconds); none before
    /// `taperFrom` or after `taperTo`, smoothstep between. At a seam the taper bound equals
    /// the full one: the correction stops there.
    public let fullFrom: Double
    public let fullTo: Double
    public let taperFrom: Double
    public let taperTo: Double

    public init(body: BodyID, closestSeconds: Double, offsetKm: Vector3, rmsBeforeKm: Double, rmsAfterKm: Double,
                fullFrom: Double, fullTo: Double, taperFrom: Double, taperTo: Double) {
        self.body = body
        self.closestSeconds = closestSeconds
        self.offsetKm = offsetKm
        self.rmsBeforeKm = rmsBeforeKm
        self.rmsAfterKm = rmsAfterKm
        self.fullFrom = fullFrom
        self.fullTo = fullTo
        self.taperFrom = taperFrom
        self.taperTo = taperTo
    }

    /// The weight of the correction at `t` (1 over the encounter solution, 0 beyond it) and its rate.
    public func weight(_ t: Double) -> (w: Double, rate: Double) {
        if t >= fullFrom, t <= fullTo { return (1, 0) }
        let (a, b, sign) = t > fullTo ? (fullTo, taperTo, 1.0) : (fullFrom, taperFrom, -1.0)
        let d = abs(t - a), width = abs(b - a)
        guard d < width else { return (0, 0) }
        let x = d / width
        return (1 - x * x * (3 - 2 * x), -(6 * x - 6 * x * x) / width * sign)
    }

    /// A sample moved onto DE440's planet.
    public func corrected(_ s: OrbitalState) -> OrbitalState {
        let (w, rate) = weight(s.seconds)
        return OrbitalState(seconds: s.seconds, positionKm: s.positionKm - offsetKm * w, velocityKmS: s.velocityKmS - offsetKm * rate)
    }

    /// Fits the encounter of `body` in `samples` (heliocentric, time order), nil when the
    /// samples a day either side of closest approach are too few (fewer than 12) or the fit
    /// does not improve on DE440's planet by a factor of two (the moons' theories leave tens of
    /// km at Jupiter).
    /// `within` bounds where the closest approach and the fitted samples are looked for (an
    /// encounter's days, clear of any burn); nil: all the samples.
    public static func fit(_ body: BodyID, samples: [OrbitalState], within: ClosedRange<Double>? = nil, ephemeris: Ephemeris) throws -> EncounterAnchor? {
        func planet(_ t: Double) -> Vector3 {
            ephemeris.naifState(NAIFBody.id(body), at: TimeScale.instant(tdbSecondsPastJ2000: t))?.positionKm ?? .zero
        }
        let candidates = within.map { w in samples.filter { w.contains($0.seconds) } } ?? samples
        guard let ca = candidates.min(by: { ($0.positionKm - planet($0.seconds)).length < ($1.positionKm - planet($1.seconds)).length }) else { return nil }
        let window = candidates.filter { abs($0.seconds - ca.seconds) <= 86_400 }
        guard window.count >= 12 else { return nil }
        let model = try HorizonsPath.model(body, frame: .heliocentric, ephemeris: ephemeris)
        let dop = DormandPrince853()
        let rel = window.map { s -> OrbitalState in
            let c = HorizonsPath.centerState(body, model: model, frame: .heliocentric, seconds: s.seconds, ephemeris: ephemeris)
            return OrbitalState(seconds: s.seconds, positionKm: s.positionKm - c.positionKm, velocityKmS: s.velocityKmS - c.velocityKmS)
        }
        let mid = rel.min { abs($0.seconds - ca.seconds) < abs($1.seconds - ca.seconds) } ?? rel[rel.count / 2]
        let first = rel[0].seconds, last = rel[rel.count - 1].seconds
        func residuals(_ x: [Double]) throws -> [Double] {
            let offset = Vector3(x[0], x[1], x[2])
            let start = OrbitalState(seconds: mid.seconds, positionKm: mid.positionKm - offset + Vector3(x[3], x[4], x[5]),
                                     velocityKmS: mid.velocityKmS + Vector3(x[6], x[7], x[8]))
            let forward = try dop.propagate(start, to: last, model: model)
            let backward = try dop.propagate(start, to: first, model: model)
            var out: [Double] = []
            for s in rel {
                let p = s.seconds >= mid.seconds ? try forward.state(at: s.seconds) : try backward.state(at: s.seconds)
                let d = p.positionKm - (s.positionKm - offset)
                out += [d.x, d.y, d.z]
            }
            return out
        }
        func rms(_ r: [Double]) -> Double { (r.reduce(0) { $0 + $1 * $1 } / Double(r.count)).squareRoot() }
        let before = rms(try residuals([Double](repeating: 0, count: 9)))
        let x = try LeastSquares.fit([Double](repeating: 0, count: 9), steps: [1, 1, 1, 0.01, 0.01, 0.01, 1e-6, 1e-6, 1e-6], residuals)
        let after = rms(try residuals(x))
        let offset = Vector3(x[0], x[1], x[2])
        guard before > 2 * after, offset.length > 1 else { return nil }

        // The encounter solution's span: the samples within 30 days, all moved by the offset,
        // are walked outward from closest approach; an interval whose ends the physics cannot
        // join (a gap over 1,000 km and over a third of the offset) is the seam to another
        // solution.
        let day = 86_400.0, reach = 30 * day
        let near = samples.filter { abs($0.seconds - ca.seconds) <= reach }
        let moved = near.map { OrbitalState(seconds: $0.seconds, positionKm: $0.positionKm - offset, velocityKmS: $0.velocityKmS) }
        let gaps = try HorizonsPath(samples: moved, frame: .heliocentric, ephemeris: ephemeris).mismatches()
        let threshold = max(1_000, offset.length / 3)
        guard let caIndex = near.firstIndex(where: { $0.seconds == ca.seconds }) else { return nil }
        var fullTo = ca.seconds + 2 * day, taperTo = ca.seconds + reach
        for i in caIndex..<gaps.count where gaps[i].km > threshold {
            fullTo = near[i].seconds
            taperTo = fullTo
            break
        }
        var fullFrom = ca.seconds - 2 * day, taperFrom = ca.seconds - reach
        for i in stride(from: caIndex - 1, through: 0, by: -1) where gaps[i].km > threshold {
            fullFrom = near[i + 1].seconds
            taperFrom = fullFrom
            break
        }
        return EncounterAnchor(body: body, closestSeconds: ca.seconds, offsetKm: offset, rmsBeforeKm: before, rmsAfterKm: after,
                               fullFrom: fullFrom, fullTo: fullTo, taperFrom: taperFrom, taperTo: taperTo)
    }
}

/// Gauss–Newton with a finite-difference Jacobian and step halving, for small over-determined
/// fits.
public enum LeastSquares {
    public static func fit(_ x0: [Double], steps: [Double], maxIterations: Int = 20, _ f: ([Double]) throws -> [Double]) throws -> [Double] {
        var x = x0
        var r = try f(x)
        func cost(_ r: [Double]) -> Double { r.reduce(0) { $0 + $1 * $1 } }
        for _ in 0..<maxIterations {
            var jacobian = [[Double]](repeating: [Double](repeating: 0, count: x.count), count: r.count)
            for j in 0..<x.count {
                var xp = x
                xp[j] += steps[j]
                let rp = try f(xp)
                for i in 0..<r.count { jacobian[i][j] = (rp[i] - r[i]) / steps[j] }
            }
            guard let dx = Shooting.leastSquares(jacobian, r.map { -$0 }) else { break }
            var scale = 1.0, improved = false
            for _ in 0..<10 {
                let trial = zip(x, dx).map { $0 + $1 * scale }
                if let rt = try? f(trial), cost(rt) < cost(r) {
                    let gain = cost(r) - cost(rt)
                    x = trial
                    r = rt
                    improved = gain > 1e-9 * cost(rt)
                    break
                }
                scale /= 2
            }
            if !improved { break }
        }
        return x
    }
}
