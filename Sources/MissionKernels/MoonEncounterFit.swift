import Astrodynamics
import Ephemeris
import Missions

/// A moon moved to where a spacecraft's samples say it was. JPL Horizons' samples of a
/// spacecraft are its reconstructed path; the engine's moons come from analytical theories
/// that may be off by hundreds of km. Between two daily samples the path is integrated (a
/// ``HorizonsPath`` interval), and a close flyby of a misplaced moon bends the integration
/// away from the next sample: Cassini's daily samples around a 1,000 km Titan flyby then
/// disagree with gravity by thousands of km, and the blended path passes the theory's Titan at
/// a distance that was never flown, or through it.
///
/// The fit: for every close approach to a moon where an interval's integrations disagree, the
/// moon's offset from its theory (three unknowns, held as a ``MoonAnchor`` about the closest
/// approach) that makes the integrations from the samples either side meet (the forward
/// integration's end against the next sample and the backward one's against the previous, in
/// position and velocity: twelve residuals). The deflection a moon gives depends steeply on
/// how far it is passed (a 1,000 km Titan flyby turns the path by 8°, and every km of offset
/// moves the next day's sample by about ten), so the data fix the offset well; a fit is kept
/// only if it explains nine tenths of the disagreement with a plausible offset and leaves the
/// spacecraft outside the moon (``fit(_:intervals:fitted:ephemeris:source:)``).
///
/// The kernel builder integrates the whole path against the moved moons and writes each moved
/// moon as a segment of the mission kernel, so the server, where the kernel is loaded, serves
/// the moon there ("the kernel wins", ``SatelliteKernels``) and draws the flyby about it.
public struct MoonEncounterFit: Sendable {
    public let anchor: MoonAnchor
    /// The closest approach in the samples' path, TDB seconds, and its distance from the
    /// moon's centre before the fit (theory) and after (moved), km.
    public let closestSeconds: Double
    public let closestBeforeKm: Double
    public let closestAfterKm: Double
    /// Root-mean-square of the residuals (km; velocities times ``velocityScaleSeconds``):
    /// with the theory's moon and with the moved one.
    public let rmsBeforeKm: Double
    public let rmsAfterKm: Double

    /// A velocity residual counts as much as a position one this many seconds later.
    static let velocityScaleSeconds = 1_000.0
    /// Intervals whose integrations disagree by less than this need no fit, km.
    static let smallestGapKm = 5.0
    /// A close approach within this many of the moon's radii is examined.
    static let reachRadii = 20.0
    /// The intervals fitted together: those within this of the closest approach, seconds.
    static let windowSeconds = 6 * 3600.0
    /// A fit is kept only if it explains nine tenths of the disagreement (the residuals' rms
    /// falls by this factor) and leaves less than ``largestResidualKm`` unexplained: otherwise
    /// something else (a burn, a seam in the source, the planet's field, the other moons)
    /// disagrees with the data there, and a small moon's fit would wander off to explain it.
    static let explainedShare = 10.0
    static let largestResidualKm = 50.0
    /// Nor one where the samples disagree with the theory's moon by less than this (rms, km):
    /// the fit would follow the integration's own noise.
    static let smallestExplainedKm = 10.0
    /// Nor one that moves the moon by more than this share of its orbit's radius: the theories
    /// are good to about 1 %, and a weak moon's fit may wander off to explain another error.
    static let largestOffsetShare = 0.01
    /// A threshold in km for daily samples, for samples `seconds` apart: a force-model error
    /// opens a gap growing with the square of the interval, so closer samples agree more
    /// closely (Voyager's 30-minute encounter files: 1/2,304 of a day's); never below 0.1 km.
    static func scaled(_ km: Double, over seconds: Double) -> Double {
        max(0.1, km * min(1, (seconds / 86_400) * (seconds / 86_400)))
    }

    /// Steps of the closest-approach scan, per interval.
    static let scanSteps = 288

    /// A close approach of the path to a moon: which moon, when, and how close (km).
    struct Approach {
        let moon: BodyID
        let seconds: Double
        let distanceKm: Double
    }

    /// The approaches to a moon of the interval's centre closer than ``reachRadii`` radii in the
    /// intervals (`i`, `i`+1) whose integrations disagree by more than ``smallestGapKm`` and
    /// which `examine` accepts; one (the closest) per moon per interval.
    static func approaches(_ path: HorizonsPath, gaps: [(seconds: Double, center: BodyID, km: Double)],
                           examine: (Int) -> Bool) throws -> [Approach] {
        let eph = path.ephemeris
        var out: [Approach] = []
        for run in path.runs {
            let moons = PlanetCenter.moons(of: run.center).filter { $0 != .phobos && $0 != .deimos }
            guard !moons.isEmpty else { continue }
            for i in run.first..<run.last where examine(i) {
                let iv0 = path.samples[i].seconds, iv1 = path.samples[i + 1].seconds
                guard gaps[i].km > scaled(smallestGapKm, over: iv1 - iv0) else { continue }
                let iv = try run.path.interval(i - run.first)
                let steps = try scan(iv, moons: moons, of: run.center, ephemeris: eph)
                for moon in moons {
                    // The closest step, if inside the interval (a minimum at an end belongs to
                    // the neighbouring interval), refined between its neighbours.
                    guard let s = steps[moon], s.k > 0, s.k < scanSteps, s.km < reachRadii * eph.catalogue[moon].radiusKm else { continue }
                    let (t, km) = try closest(moon, of: run.center, within: around(s.k, in: iv), ephemeris: eph) { try iv.state(at: $0).positionKm }
                    out.append(Approach(moon: moon, seconds: t, distanceKm: km))
                }
            }
        }
        return out.sorted { $0.seconds < $1.seconds }
    }

    /// Per moon, the step of an interval (0 … ``scanSteps``, evenly spaced) where its blended
    /// path comes closest to the moon, and that distance (km): the first such step on a tie.
    static func scan(_ iv: BlendedInterval, moons: [BodyID], of planet: BodyID, ephemeris eph: Ephemeris) throws -> [BodyID: (k: Int, km: Double)] {
        let a = iv.start.seconds, b = iv.end.seconds
        var best: [BodyID: (k: Int, km: Double)] = [:]
        for k in 0...scanSteps {
            let t = a + (b - a) * Double(k) / Double(scanSteps)
            let craft = try iv.state(at: t).positionKm
            for (moon, km) in eph.satellitePositionsKm(of: planet, at: TimeScale.instant(tdbSecondsPastJ2000: t)) where moons.contains(moon) {
                let d = (craft - km).length
                if d < best[moon]?.km ?? .infinity { best[moon] = (k, d) }
            }
        }
        return best
    }

    /// The steps either side of scan step `k` of an interval (clipped to its ends), TDB seconds.
    static func around(_ k: Int, in iv: BlendedInterval) -> ClosedRange<Double> {
        let a = iv.start.seconds, step = (iv.end.seconds - a) / Double(scanSteps)
        return (a + step * Double(max(0, k - 1)))...(a + step * Double(min(scanSteps, k + 1)))
    }

    /// The least distance (and its time) of a path (planet-centred km, as the ephemeris gives
    /// the moons) from a moon within `span`, by golden-section search (``Search/golden(_:_:_:tolerance:)``): to a millisecond.
    static func closest(_ moon: BodyID, of planet: BodyID, within span: ClosedRange<Double>, ephemeris eph: Ephemeris,
                        _ craft: (Double) throws -> Vector3) throws -> (seconds: Double, km: Double) {
        func distance(_ t: Double) throws -> Double {
            let at = TimeScale.instant(tdbSecondsPastJ2000: t)
            guard let m = eph.satellitePositionsKm(of: planet, at: at).first(where: { $0.body == moon }) else { return .infinity }
            return (try craft(t) - m.km).length
        }
        let (lo, hi) = try Search.golden(distance, span.lowerBound, span.upperBound, tolerance: 1e-3)
        let t = (lo + hi) / 2
        return (t, try distance(t))
    }

    /// What became of an approach: the moon moved, or left on its theory and why.
    enum Outcome {
        case moved(MoonEncounterFit)
        case kept(String)
    }

    /// The fit of one approach, given the samples (heliocentric, time order) of the intervals
    /// around it, the anchors already fitted (earlier approaches: their tapers may reach this
    /// one) and the engine without anchors. The moon stays on its theory unless the fit
    /// explains the disagreement (``explainedShare``, ``largestResidualKm``,
    /// ``smallestExplainedKm``) with a plausible offset (``largestOffsetShare``) and leaves the
    /// spacecraft outside the moon.
    static func fit(_ approach: Approach, intervals: [(OrbitalState, OrbitalState)], fitted: [MoonAnchor], ephemeris base: Ephemeris,
                    source: String) throws -> Outcome {
        guard !intervals.isEmpty, let planet = approach.moon.parent else { return .kept("no interval clear of burns") }
        func anchor(_ x: [Double]) -> MoonAnchor {
            MoonAnchor(body: approach.moon, epochSeconds: approach.seconds, offsetKm: Vector3(x[0], x[1], x[2]), source: source)
        }
        func engine(_ x: [Double]) -> Ephemeris {
            Ephemeris(catalogue: base.catalogue, kernel: base.kernel, moonAnchors: fitted + [anchor(x)])
        }
        func residuals(_ x: [Double]) throws -> [Double] {
            let eph = engine(x)
            var out: [Double] = []
            for (a, b) in intervals {
                let path = try HorizonsPath(samples: [a, b], frame: .heliocentric, ephemeris: eph)
                let iv = try path.runs[0].path.interval(0)
                guard let backward = iv.backward else { throw RecipeError(description: "an interval without a backward arc") }
                let f = iv.forward.end, g = backward.end
                for d in [f.positionKm - iv.end.positionKm, (f.velocityKmS - iv.end.velocityKmS) * velocityScaleSeconds,
                          g.positionKm - iv.start.positionKm, (g.velocityKmS - iv.start.velocityKmS) * velocityScaleSeconds] {
                    out += [d.x, d.y, d.z]
                }
            }
            return out
        }
        func rms(_ r: [Double]) -> Double { (r.reduce(0) { $0 + $1 * $1 } / Double(r.count)).squareRoot() }
        let before = rms(try residuals([0, 0, 0]))
        let x = try LeastSquares.fit([0, 0, 0], steps: [1, 1, 1], residuals)
        let after = rms(try residuals(x))
        let moved = anchor(x)
        let orbitKm = base.satellitePositionsKm(of: planet, at: TimeScale.instant(tdbSecondsPastJ2000: approach.seconds))
            .first { $0.body == approach.moon }?.km.length ?? 0
        let figures = "\(Int(before.rounded())) km rms, \(Int(after.rounded())) km with the moon moved \(Int(moved.offsetKm.length.rounded())) km"
        let spacing = intervals.map { $0.1.seconds - $0.0.seconds }.reduce(0, +) / Double(intervals.count)
        guard before >= scaled(smallestExplainedKm, over: spacing) else { return .kept("the samples agree with its theory (\(figures))") }
        guard after * explainedShare <= before, after < largestResidualKm else { return .kept("moving it does not explain the samples (\(figures))") }
        guard moved.offsetKm.length < largestOffsetShare * orbitKm else { return .kept("the fit moves it implausibly far (\(figures))") }
        // The closest approach to the moved moon, in the path through the samples.
        let eph = engine(x)
        var nearest = (seconds: approach.seconds, km: Double.infinity)
        for (a, b) in intervals {
            let path = try HorizonsPath(samples: [a, b], frame: .heliocentric, ephemeris: eph)
            guard let run = path.runs.first, run.center == planet else { continue }
            let iv = try run.path.interval(0)
            guard let k = try scan(iv, moons: [approach.moon], of: planet, ephemeris: eph)[approach.moon]?.k else { continue }
            let c = try Self.closest(approach.moon, of: planet, within: around(k, in: iv), ephemeris: eph) { try iv.state(at: $0).positionKm }
            if c.km < nearest.km { nearest = c }
        }
        guard nearest.km > base.catalogue[approach.moon].radiusKm else { return .kept("the fit puts the spacecraft inside it (\(figures))") }
        return .moved(MoonEncounterFit(anchor: moved, closestSeconds: nearest.seconds, closestBeforeKm: approach.distanceKm, closestAfterKm: nearest.km,
                                rmsBeforeKm: before, rmsAfterKm: after))
    }
}
