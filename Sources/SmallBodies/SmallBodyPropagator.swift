import Astrodynamics
import Ephemeris
import Synchronization

/// Which forces a propagation includes (all by default; the others exist to measure what each
/// one is worth, as the tests do).
public struct ForceOptions: Sendable, Hashable {
    public var asteroidPerturbers = true
    public var relativity = true
    public var nonGravitational = true
    public init(asteroidPerturbers: Bool = true, relativity: Bool = true, nonGravitational: Bool = true) {
        self.asteroidPerturbers = asteroidPerturbers
        self.relativity = relativity
        self.nonGravitational = nonGravitational
    }
    /// The planets, the Moon, Pluto and the Sun only (the perturbing asteroids' own model).
    public static let planetsOnly = ForceOptions(asteroidPerturbers: false, relativity: true, nonGravitational: false)
}

/// How a small body's position is computed: the n-body integration, or two-body Kepler from
/// the elements (for comparison only: Bennu's elements drift 10,000 km from the truth in six
/// months this way).
public enum SmallBodyModel: String, Sendable, Hashable, CaseIterable {
    case nbody
    case kepler
}

/// Positions of small bodies from their elements, by numerical integration in the barycentric
/// frame under DE440 (``SmallBodyForces``), with DOP853 (``DormandPrince853``) from the element
/// epoch to the date in either direction. Integrated chunks are kept (``ChunkedPath``): in memory,
/// least recently used paths dropped beyond `memoryLimitBytes`, and in a ``ChunkStore`` when one
/// is given, so a second request near the first is an interpolation.
///
/// ```swift
/// let propagator = SmallBodyPropagator(kernel: de440, catalogue: catalogue)
/// let apophis = catalogue.body(catalogue.resolve("apophis")!)
/// let s = try propagator.heliocentricState(apophis, atSeconds: 9.3e8)   // km, km/s
/// ```
public final class SmallBodyPropagator: Sendable {
    public let kernel: PlanetaryKernel?
    public let catalogue: SmallBodyCatalogue
    public let memoryLimitBytes: Int
    let store: (any ChunkStore)?
    let integrator: DormandPrince853
    /// The loaded SB441-N16 asteroids, each integrated under ``ForceOptions/planetsOnly``.
    let perturbers: [(number: Int, gm: Double, trajectory: Trajectory)]
    let paths: Mutex<PathCache>

    /// Integration tolerances: relative 10⁻¹³ per component (DOP853's error control), the
    /// floors below anything that matters at solar-system distances. Measured against the
    /// independent integrator over ±20 years: 10⁻¹³ keeps Ceres, Apophis, 67P and Phaethon within
    /// 0.21 km; 10⁻¹² (20 % fewer steps) lets Phaethon (q = 0.14 AU) drift 4.2 km and 67P 1.8 km.
    public static let integrator = DormandPrince853(relativeTolerance: 1e-13, absoluteToleranceKm: 1e-6, absoluteToleranceKmS: 1e-12,
                                                   maxSteps: 2_000_000)
    /// Chunk length: 2²⁵ s (388 days).
    public static let chunkSeconds = 33_554_432.0
    /// How far from the element epoch an integration is trusted (besides the kernel's span).
    public static let trustedYears = 200.0
    /// Bytes one integration step holds in memory.
    static let bytesPerStep = 400

    struct PathCache: Sendable {
        var paths: [String: (trajectory: Trajectory, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
    }

    public init(kernel: PlanetaryKernel?, catalogue: SmallBodyCatalogue, memoryLimitBytes: Int = 64 << 20, store: (any ChunkStore)? = nil) {
        self.kernel = kernel
        self.catalogue = catalogue
        self.memoryLimitBytes = memoryLimitBytes
        self.store = store
        integrator = Self.integrator
        paths = Mutex(PathCache())
        var perturbers: [(Int, Double, Trajectory)] = []
        if let kernel {
            for (number, gm) in SmallBodyConstants.perturbingAsteroids {
                guard let h = catalogue.numbered(number) else { continue }
                let body = catalogue.body(h)
                guard let t = Self.trajectory(body, options: .planetsOnly, kernel: kernel, limits: kernel.spanSeconds, perturbers: [],
                                              integrator: Self.integrator, store: store) else { continue }
                perturbers.append((number, gm, t))
            }
        }
        self.perturbers = perturbers
    }

    /// The numbers of the asteroids pulling on every other body.
    public var perturberNumbers: [Int] { perturbers.map(\.number) }

    /// Integrates every perturbing asteroid over `span` (TDB seconds past J2000) now, so that a
    /// body's first request there pays for its own integration only (a server does this in the
    /// background at start-up, for the decades around the present: about 40 ms of CPU and 0.5 MB
    /// per asteroid and 50 years).
    public func warmPerturbers(over span: ClosedRange<Double>, shouldStop: () -> Bool = { false }) throws(SmallBodyError) {
        guard kernel != nil else { return }
        for p in perturbers {
            _ = try p.trajectory.covering(span.lowerBound, span.upperBound, shouldStop: shouldStop)
        }
    }

    /// The span (TDB seconds past J2000) the n-body model answers for `body`: the kernel's span,
    /// and at most ``trustedYears`` from the element epoch.
    public func trustedSpan(_ body: SmallBody) -> ClosedRange<Double>? {
        guard let kernel else { return nil }
        let epoch = (body.elements.epochJDTDB - Constants.jdJ2000) * Constants.secondsPerDay
        let years = Self.trustedYears * 365.25 * Constants.secondsPerDay
        let lo = max(kernel.spanSeconds.lowerBound, epoch - years), hi = min(kernel.spanSeconds.upperBound, epoch + years)
        guard lo <= epoch, epoch <= hi else { return nil }
        return lo...hi
    }

    /// Heliocentric state (km, km/s, ecliptic J2000) at TDB seconds past J2000.
    public func heliocentricState(_ body: SmallBody, atSeconds t: Double, model: SmallBodyModel = .nbody, options: ForceOptions = ForceOptions(),
                                  shouldStop: () -> Bool = { false }) throws(SmallBodyError) -> (positionKm: Vector3, velocityKmS: Vector3) {
        switch model {
        case .kepler:
            return body.elements.state(atJDTDB: Constants.jdJ2000 + t / Constants.secondsPerDay)
        case .nbody:
            guard let kernel else { throw .noKernel }
            let s = try barycentricState(body, atSeconds: t, options: options, shouldStop: shouldStop)
            let sun = kernel.barycentricState(.sun, secondsPastJ2000: t)
            return (s.positionKm - sun.positionKm, s.velocityKmS - sun.velocityKmS)
        }
    }

    /// Barycentric state (km, km/s, ecliptic J2000) from the n-body integration.
    public func barycentricState(_ body: SmallBody, atSeconds t: Double, options: ForceOptions = ForceOptions(),
                                 shouldStop: () -> Bool = { false }) throws(SmallBodyError) -> OrbitalState {
        let path = try path(body, from: t, to: t, options: options, shouldStop: shouldStop)
        guard let s = path.state(at: t) else { throw .outsideTrustedSpan(seconds: t, trusted: trustedSpan(body) ?? t...t) }
        return s
    }

    /// The body's integrated path, covering at least `a…b` (TDB seconds past J2000).
    public func path(_ body: SmallBody, from a: Double, to b: Double, options: ForceOptions = ForceOptions(),
                     shouldStop: () -> Bool = { false }) throws(SmallBodyError) -> ChunkedPath {
        guard kernel != nil else { throw .noKernel }
        guard let span = trustedSpan(body) else {
            let epoch = (body.elements.epochJDTDB - Constants.jdJ2000) * Constants.secondsPerDay
            throw .outsideTrustedSpan(seconds: epoch, trusted: kernel!.spanSeconds)
        }
        for t in [a, b] where !span.contains(t) { throw .outsideTrustedSpan(seconds: t, trusted: span) }
        let trajectory = self.trajectory(body, options: options)
        let (path, grew) = try trajectory.covering(min(a, b), max(a, b), shouldStop: shouldStop)
        if grew { trim() }
        return path
    }

    /// The cached trajectory of `body` under `options` (made when first asked for).
    func trajectory(_ body: SmallBody, options: ForceOptions) -> Trajectory {
        let key = Self.key(body, options: options, perturbers: perturbers.map(\.number).filter { $0 != body.number })
        if let t = paths.withLock({ cache -> Trajectory? in
            cache.clock += 1
            guard let hit = cache.paths[key] else { return nil }
            cache.paths[key] = (hit.trajectory, cache.clock)
            return hit.trajectory
        }) { return t }
        let own = perturbers.filter { $0.number != body.number }.map { ($0.gm, $0.trajectory) }
        let limits = trustedSpan(body) ?? kernel!.spanSeconds
        let made = Self.trajectory(body, options: options, kernel: kernel!, limits: limits, perturbers: options.asteroidPerturbers ? own : [],
                                   integrator: integrator, store: store, key: key)!
        return paths.withLock { cache in
            cache.clock += 1
            if let other = cache.paths[key] { return other.trajectory }
            cache.paths[key] = (made, cache.clock)
            return made
        }
    }

    /// Drops least recently used paths while the held steps exceed the memory limit.
    func trim() {
        paths.withLock { cache in
            var entries = cache.paths.map { (key: $0.key, use: $0.value.lastUse, bytes: $0.value.trajectory.path.withLock { $0.stepCount } * Self.bytesPerStep) }
            var total = entries.reduce(0) { $0 + $1.bytes }
            guard total > memoryLimitBytes else { return }
            entries.sort { $0.use < $1.use }
            for e in entries.dropLast() where total > memoryLimitBytes {
                cache.paths[e.key] = nil
                total -= e.bytes
            }
        }
    }

    /// Bytes of integration steps held in memory now.
    public var memoryBytes: Int {
        paths.withLock { cache in cache.paths.values.reduce(0) { $0 + $1.trajectory.path.withLock { $0.stepCount } } } * Self.bytesPerStep
    }

    /// What identifies a path: the elements (all digits), the non-gravitational parameters,
    /// the forces and the perturbers.
    static func key(_ body: SmallBody, options: ForceOptions, perturbers: [Int]) -> String {
        let e = body.elements
        var parts = [body.designation, "\(e.epochJDTDB)", "\(e.perihelionAU)", "\(e.eccentricity)", "\(e.inclinationDeg)", "\(e.ascendingNodeDeg)",
                     "\(e.argumentOfPerihelionDeg)", "\(e.perihelionJDTDB)", "\(e.meanAnomalyDeg ?? .nan)"]
        if options.nonGravitational, let ng = body.nonGravitational {
            parts += ["ng", "\(ng.a1)", "\(ng.a2)", "\(ng.a3)", "\(ng.dtDays)", "\(ng.law.alpha)", "\(ng.law.r0AU)", "\(ng.law.m)", "\(ng.law.n)", "\(ng.law.k)"]
        }
        if !options.relativity { parts.append("newtonian") }
        parts.append(options.asteroidPerturbers ? "ast" + perturbers.map(String.init).joined(separator: ".") : "planets")
        return parts.joined(separator: "|")
    }

    /// A trajectory of `body` from its elements (nil when the kernel does not cover the epoch).
    static func trajectory(_ body: SmallBody, options: ForceOptions, kernel: PlanetaryKernel, limits: ClosedRange<Double>, perturbers: [(Double, Trajectory)],
                           integrator: DormandPrince853, store: (any ChunkStore)?, key: String? = nil) -> Trajectory? {
        let epoch = (body.elements.epochJDTDB - Constants.jdJ2000) * Constants.secondsPerDay
        guard kernel.spanSeconds.contains(epoch) else { return nil }
        let helio = body.elements.heliocentricState()
        let sun = kernel.barycentricState(.sun, secondsPastJ2000: epoch)
        let initial = OrbitalState(seconds: epoch, positionKm: helio.positionKm + sun.positionKm, velocityKmS: helio.velocityKmS + sun.velocityKmS)
        let nonGrav = options.nonGravitational ? body.nonGravitational.flatMap { $0.isZero ? nil : $0 } : nil
        let relativity = options.relativity
        return Trajectory(key: key ?? Self.key(body, options: options, perturbers: []), initial: initial, chunkSeconds: chunkSeconds,
                          limits: limits, integrator: integrator, store: store) { (span, shouldStop) throws(SmallBodyError) in
            var paths: [PerturberPath] = []
            for (gm, t) in perturbers {
                // A perturber's own path is trusted where the kernel is: clamp to it.
                let lo = max(span.lowerBound, kernel.spanSeconds.lowerBound), hi = min(span.upperBound, kernel.spanSeconds.upperBound)
                paths.append(PerturberPath(gm: gm, chunks: try t.covering(lo, hi, shouldStop: shouldStop).path))
            }
            return SmallBodyForces(kernel: kernel, perturbers: paths, relativity: relativity, nonGravitational: nonGrav)
        }
    }
}
