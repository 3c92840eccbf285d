import Astrodynamics
import Ephemeris

/// One close approach, as JPL's close-approach data gives it (SBDB `ca_data`, the CAD API):
/// the time of the distance minimum (TDB), the nominal distance, the relative speed then, and
/// v∞, the speed relative to the body as if the approaching body were massless and had come
/// from infinity on the same hyperbola (√(v² − 2μ/d)).
public struct CloseApproach: Sendable, Hashable {
    /// The body approached: the Earth, the Moon, a planet system.
    public var center: BodyID
    /// TDB seconds past J2000.
    public var seconds: Double
    public var distanceKm: Double
    public var relativeSpeedKmS: Double
    public var vInfinityKmS: Double
}

/// Finds the minima of the distance between an integrated path and a body of the kernel.
public enum CloseApproachSearch {
    /// The bodies approaches can be computed to, with the GM v∞ uses.
    public static let centers: [BodyID: Double] = [
        .mercury: GravityConstants.mercurySystemGM, .venus: GravityConstants.venusSystemGM, .earth: GravityConstants.earthGM,
        .moon: GravityConstants.moonGM, .mars: GravityConstants.marsSystemGM, .jupiter: GravityConstants.jupiterSystemGM,
        .saturn: GravityConstants.saturnSystemGM, .uranus: GravityConstants.uranusSystemGM, .neptune: GravityConstants.neptuneSystemGM,
        .pluto: GravityConstants.plutoSystemGM,
    ]

    /// Approaches to `center` between `a` and `b` (TDB seconds past J2000) no farther than
    /// `maxDistanceKm`, in time order. The range rate (Δr·Δv) is sampled at every integration
    /// step's ends and three points inside it (the steps shorten near a planet, so an encounter
    /// spans many samples); each change from approaching to receding is refined by bisection
    /// on the range rate to 1 ms.
    public static func find(_ path: ChunkedPath, center: BodyID, from a: Double, to b: Double, maxDistanceKm: Double,
                            kernel: PlanetaryKernel) -> [CloseApproach] {
        guard let gm = centers[center] else { return [] }
        func relative(_ t: Double) -> (Vector3, Vector3)? {
            guard let s = path.state(at: t) else { return nil }
            let c = kernel.barycentricState(center, secondsPastJ2000: t)
            return (s.positionKm - c.positionKm, s.velocityKmS - c.velocityKmS)
        }
        func rate(_ t: Double) -> Double? { relative(t).map { $0.0.dot($0.1) } }
        var found: [CloseApproach] = []
        for arc in path.arcs(from: a, to: b) {
            // The arc's step ends and quarter points inside the window, its ends, and no gap
            // longer than a 32nd of the window (a short window inside one long step).
            let lo = max(a, arc.span.lowerBound), hi = min(b, arc.span.upperBound)
            guard lo < hi else { continue }
            let knots = arc.stepTimes
            var grid: [Double] = [lo, hi]
            grid.reserveCapacity(knots.count * 4 + 2)
            for (k, t) in knots.enumerated() {
                grid.append(t)
                if k + 1 < knots.count {
                    let h = knots[k + 1] - t
                    grid += [t + h / 4, t + h / 2, t + 3 * h / 4]
                }
            }
            grid = grid.filter { $0 >= lo && $0 <= hi }.sorted()
            let maxGap = (b - a) / 32
            var samples: [Double] = []
            samples.reserveCapacity(grid.count)
            for t in grid {
                if let last = samples.last, t - last > maxGap {
                    let n = Int(((t - last) / maxGap).rounded(.up))
                    for j in 1..<n { samples.append(last + (t - last) * Double(j) / Double(n)) }
                }
                if samples.last != t { samples.append(t) }
            }
            var previous: (t: Double, rate: Double)?
            for t in samples {
                guard let r = rate(t) else { continue }
                if let p = previous, p.rate < 0, r >= 0 {
                    var lo = p.t, hi = t
                    while hi - lo > 1e-3 {
                        let mid = 0.5 * (lo + hi)
                        guard let m = rate(mid) else { break }
                        if m < 0 { lo = mid } else { hi = mid }
                    }
                    let tMin = 0.5 * (lo + hi)
                    if let (dr, dv) = relative(tMin) {
                        let d = dr.length
                        if d <= maxDistanceKm {
                            let v = dv.length
                            let vInf2 = v * v - 2 * gm / d
                            found.append(CloseApproach(center: center, seconds: tMin, distanceKm: d, relativeSpeedKmS: v,
                                                       vInfinityKmS: vInf2 > 0 ? vInf2.squareRoot() : 0))
                        }
                    }
                }
                previous = (t, r)
            }
        }
        // Chunks share their ends: the same minimum found twice is one approach.
        var unique: [CloseApproach] = []
        for c in found.sorted(by: { $0.seconds < $1.seconds }) where unique.last.map({ abs($0.seconds - c.seconds) > 60 }) ?? true {
            unique.append(c)
        }
        return unique
    }
}
