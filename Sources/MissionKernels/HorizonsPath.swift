import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A spacecraft's path through JPL Horizons samples: exactly through every sample (position and
/// velocity), and physical between them — each interval is a forward integration from one
/// sample and a backward one from the next under the gravity that dominates there, blended
/// (``BallisticInterpolator``). The dominant body of an interval is the planet whose sphere of
/// influence holds either of its samples, else the Sun (geocentric missions: the Earth, with
/// the Moon as a perturber): a Juno perijove between daily samples is integrated about
/// Jupiter with its J2…J6 and the Galilean moons, Voyager's cruise about the Sun with the
/// planets pulling.
public final class HorizonsPath {
    public enum Frame: Sendable {
        /// Samples and states relative to the Sun.
        case heliocentric
        /// Samples and states relative to the Earth (lunar missions).
        case geocentric
    }

    /// One stretch of consecutive intervals integrated about the same centre.
    struct Run {
        let center: BodyID
        /// Indices into `samples`: the run covers samples[first]…samples[last].
        let first: Int
        let last: Int
        let path: BallisticInterpolator<GravityModel>
    }

    public let ephemeris: Ephemeris
    public let frame: Frame
    /// Heliocentric (or geocentric) ecliptic J2000 states, time order.
    public let samples: [OrbitalState]
    let runs: [Run]
    /// The interval last used, per run, and its index.
    private var cache: [Int: (index: Int, interval: BlendedInterval)] = [:]

    public struct PathError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `burns`: impulsive burns (TDB seconds) inside intervals (short burns between samples);
    /// at most one per interval.
    public init(samples: [OrbitalState], frame: Frame, ephemeris: Ephemeris, burns: [Double] = []) throws {
        guard samples.count >= 2 else { throw PathError(description: "at least two samples are needed") }
        self.samples = samples
        self.frame = frame
        self.ephemeris = ephemeris
        let bodies = samples.map { Self.dominantBody($0, frame: frame, ephemeris: ephemeris) }
        // Each interval is integrated about the deeper of its two ends' bodies.
        var intervalCenters: [BodyID] = []
        for i in 0..<(samples.count - 1) {
            let a = bodies[i], b = bodies[i + 1]
            intervalCenters.append(a == b ? a : (a == .sun || a == .earth && frame == .geocentric ? b : a))
        }
        var runs: [Run] = []
        var start = 0
        while start < intervalCenters.count {
            var end = start
            while end + 1 < intervalCenters.count, intervalCenters[end + 1] == intervalCenters[start] { end += 1 }
            let center = intervalCenters[start]
            let model = try Self.model(center, frame: frame, ephemeris: ephemeris)
            let local = samples[start...(end + 1)].map { s in
                let c = Self.centerState(center, model: model, frame: frame, seconds: s.seconds, ephemeris: ephemeris)
                return OrbitalState(seconds: s.seconds, positionKm: s.positionKm - c.positionKm, velocityKmS: s.velocityKmS - c.velocityKmS)
            }
            let span = samples[start].seconds...samples[end + 1].seconds
            let runBurns = burns.filter { span.contains($0) }
            runs.append(Run(center: center, first: start, last: end + 1, path: try BallisticInterpolator(samples: local, model: model, burns: runBurns)))
            start = end + 1
        }
        self.runs = runs
    }

    /// The planet whose sphere of influence (`a·(m/M☉)^(2/5)`) holds the state, else the Sun;
    /// always the Earth for a geocentric path.
    static func dominantBody(_ s: OrbitalState, frame: Frame, ephemeris: Ephemeris) -> BodyID {
        if frame == .geocentric { return .earth }
        let t = TimeScale.instant(tdbSecondsPastJ2000: s.seconds)
        let planets = ephemeris.planetPositionsAU(at: t)
        for p in BodyID.heliocentric {
            let q = planets[p.index] * Constants.auKm
            let soi = q.length * pow(GravityConstants.gm(p) / GravityConstants.sunGM, 0.4)
            if (s.positionKm - q).length < soi { return p }
        }
        return .sun
    }

    /// The force model of an interval about `center`: the Sun and the planets pulling, the
    /// centre's zonal harmonics (to J6) and moons, and Mars's C22 and S22 about Mars.
    static func model(_ center: BodyID, frame: Frame, ephemeris: Ephemeris) throws -> GravityModel {
        let planets: [BodyID] = [.mercury, .venus, .earth, .moon, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto]
        switch center {
        case .sun:
            return try GravityModel(ephemeris: ephemeris, center: .sun, perturbers: planets)
        case .earth:
            return try GravityModel(ephemeris: ephemeris, center: .earth, perturbers: [.sun, .moon, .venus, .mars, .jupiter, .saturn], zonalDegree: 4)
        default:
            let others = [BodyID.sun] + planets.filter { $0 != center }
            let moons = PlanetCenter.moons(of: center).filter { $0 != .phobos && $0 != .deimos }
            let zonal = GravityConstants.zonal(center).map { min($0.coefficients.count - 1, 6) } ?? 0
            return try GravityModel(ephemeris: ephemeris, center: center, perturbers: others + moons, zonalDegree: zonal >= 2 ? zonal : 0,
                                    sectoral: GravityConstants.sectoral(center) != nil)
        }
    }

    /// The model's centre relative to the path's frame centre (the Sun or the Earth).
    static func centerState(_ center: BodyID, model: GravityModel, frame: Frame, seconds: Double, ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let t = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        func helio(_ b: BodyID) -> (positionKm: Vector3, velocityKmS: Vector3) {
            guard b != .sun else { return (.zero, .zero) }
            let s = ephemeris.state(b, at: t)
            var p = s.positionAU * Constants.auKm, v = s.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay)
            if model.isPlanetCenter {
                let o = PlanetCenter.offsetFromBarycenter(b, seconds: seconds)
                p += o.positionKm
                v += o.velocityKmS
            }
            return (p, v)
        }
        let c = helio(center)
        guard frame == .geocentric else { return c }
        let earth = helio(.earth)
        return (c.positionKm - earth.positionKm, c.velocityKmS - earth.velocityKmS)
    }

    /// The path's span.
    public var span: ClosedRange<Double> { samples[0].seconds...samples[samples.count - 1].seconds }

    /// The state at `t` (inside the span), in the path's frame.
    public func state(at t: Double) throws -> OrbitalState {
        guard span.contains(t) else { throw PathError(description: "\(t) s is outside the samples' span \(span)") }
        // The run holding t: the last whose first sample is at or before it.
        var r = 0
        for (k, run) in runs.enumerated() where samples[run.first].seconds <= t { r = k }
        let run = runs[r]
        let i = try run.path.intervalIndex(containing: min(t, run.path.span.upperBound))
        let iv: BlendedInterval
        if let hit = cache[r], hit.index == i { iv = hit.interval } else {
            iv = try run.path.interval(i)
            cache[r] = (i, iv)
        }
        let local = try iv.state(at: t)
        let c = Self.centerState(run.center, model: run.path.model, frame: frame, seconds: t, ephemeris: ephemeris)
        return OrbitalState(seconds: t, positionKm: local.positionKm + c.positionKm, velocityKmS: local.velocityKmS + c.velocityKmS)
    }

    /// Where an impulsive burn between two samples best explains them: the time within
    /// `window` (default: the whole interval) where the forward arc from `a` and the backward arc
    /// from `b` come closest, with that distance (what a single burn leaves unexplained), the
    /// interval's gap without a burn, and the velocity change there.
    public static func bestBurn(between a: OrbitalState, and b: OrbitalState, frame: Frame, window: ClosedRange<Double>? = nil,
                                ephemeris: Ephemeris) throws -> (seconds: Double, residualKm: Double, gapKm: Double, deltaVKmS: Double) {
        let path = try HorizonsPath(samples: [a, b], frame: frame, ephemeris: ephemeris)
        let iv = try path.runs[0].path.interval(0)
        guard let backward = iv.backward else { throw PathError(description: "no backward arc") }
        let lo = max(a.seconds, window?.lowerBound ?? a.seconds), hi = min(b.seconds, window?.upperBound ?? b.seconds)
        guard hi > lo else { throw PathError(description: "the burn window lies outside the interval") }
        var best = (t: lo, d: Double.infinity)
        for k in 0...400 {
            let t = lo + (hi - lo) * Double(k) / 400
            let d = (try backward.state(at: t).positionKm - iv.forward.state(at: t).positionKm).length
            if d < best.d { best = (t, d) }
        }
        let dv = (try backward.state(at: best.t).velocityKmS - iv.forward.state(at: best.t).velocityKmS).length
        return (best.t, best.d, iv.mismatchKm, dv)
    }

    /// Per interval (time order) its centre and how far apart its forward and backward
    /// integrations end up (km): how well the physics explains the data there. Integrates every
    /// interval once.
    public func mismatches() throws -> [(seconds: Double, center: BodyID, km: Double)] {
        var out: [(Double, BodyID, Double)] = []
        for run in runs {
            try run.path.forEachInterval { iv in out.append((iv.start.seconds, run.center, iv.mismatchKm)) }
        }
        return out
    }
}
