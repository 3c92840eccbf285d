import Astrodynamics
import Ephemeris
import Synchronization

/// An orbiter's path between the states of a kernel segment that holds only samples — JPL
/// Horizons' daily states of a Mars orbiter — made by physics at run time: between samples i
/// and i + 1, a forward integration from i and a backward one from i + 1 under the body's
/// gravity with its J2, C22 and S22 and the Sun's pull, blended (``BlendedInterval``). The path
/// passes exactly through every sample, its velocity is continuous and the derivative of its
/// position.
///
/// What that model leaves out (Mars's higher harmonics, drag, trims) moves a day's end state by
/// up to ~70 km; blended, it would show as up to 3.5 mm/s² of unexplained acceleration where the
/// blend's weight changes fastest. So each interval is fitted first: six empirical
/// accelerations, hundredths to tenths of a mm/s² (``EmpiricalAccelerations``), that take the
/// forward arc onto the next sample (``BlendedInterval/fitted``), kept per interval once
/// found, so a day is fitted once.
///
/// Why at run time: a Mars orbiter circles every 2–4.5 hours, so a kernel that followed it
/// would need some 300 states a day, 60–150 MB per mission over two decades; its daily states
/// are 0.3–0.5 MB. The kernel marks such a segment by its name (``segmentName(naifID:about:)``),
/// and a SPICE reader that interpolates it alone is right only at the samples.
///
/// Cost: one interval (a day, 5–12 revolutions) is fitted and integrated in about ten
/// milliseconds (some twelve integrations; two, about 2 ms, once its fit is known) and kept
/// (the last ``cachedIntervals`` per path), so a replay or a telemetry stream integrates each
/// day once; at a sample time the sample itself is answered, so a line drawn across years
/// through the samples (``MissionEngine``'s sampler snaps to them) integrates nothing.
///
/// ```swift
/// let bodies = try KernelBodies(kernels, paths: SampledOrbitPath.make)
/// try bodies.state(-74, at: t, ephemeris: eph)   // MRO between its daily samples, about Mars
/// ```
public final class SampledOrbitPath: SegmentPath {
    /// The body the samples are relative to (the segment's centre) and integrated about.
    public let body: BodyID
    /// The samples: TDB seconds past J2000, relative to the body, ecliptic J2000, km and km/s.
    public let samples: [OrbitalState]
    let state: Mutex<State>

    struct State: Sendable {
        var path: BallisticInterpolator<GravityModel>?
        /// Most recently used last.
        var intervals: [BlendedInterval] = []
        /// Each interval's fitted empirical accelerations, once fitted (six numbers a day).
        var fits: [Int: [Double]] = [:]
        var failed = false
    }

    /// How many integrated intervals each path keeps (a day's is about 0.2 MB).
    public static let cachedIntervals = 8

    /// The forces between the samples: `body`'s point mass, J2 and (Mars's) C22 and S22, and
    /// the Sun's pull.
    public static func model(about body: BodyID, ephemeris: Ephemeris) throws(GravityModelError) -> GravityModel {
        try GravityModel(ephemeris: ephemeris, center: body, perturbers: [.sun], zonalDegree: 2, sectoral: GravityConstants.sectoral(body) != nil)
    }

    /// The integrator's tolerances: a millimetre over a day of revolutions.
    public static let integrator = DormandPrince853(relativeTolerance: 1e-11, absoluteToleranceKm: 1e-6, absoluteToleranceKmS: 1e-9)

    /// The name a kernel's sample-only segment carries: `JPL Horizons -74 samples about mars`
    /// (at most 40 characters).
    public static func segmentName(naifID: Int, about body: BodyID) -> String {
        "JPL Horizons \(naifID) samples about \(body.rawValue)"
    }

    /// The bodies whose orbiters are integrated this way (their J2 is known).
    public static let bodies: Set<BodyID> = [.mars]

    public init(body: BodyID, samples: [OrbitalState]) {
        self.body = body
        self.samples = samples
        state = Mutex(State())
    }

    /// The path of segment `index` of `kernel`, when its name marks it as samples about a body
    /// of ``bodies``, its centre is that body, it is in J2000 or ECLIPJ2000 and it stores at
    /// least two states; nil otherwise. What ``KernelBodies`` is given as `paths`.
    @Sendable public static func make(kernel: SPKKernel, segment index: Int) -> (any SegmentPath)? {
        let s = kernel.segments[index]
        let words = s.name.split(separator: " ")
        guard s.name.hasPrefix("JPL Horizons "), words.count == 6, words[3] == "samples", words[4] == "about",
              let body = BodyID(rawValue: String(words[5])), bodies.contains(body),
              s.center == NAIFBody.id(body), let frame = NAIFBody.frame(s.frame),
              let epochs = kernel.stateEpochs(segment: index), epochs.count >= 2 else { return nil }
        let turn: Matrix3
        switch frame {
        case .icrf: turn = Precession.equatorialToEclipticJ2000
        case .eclipticJ2000: turn = Matrix3.identity
        case .bodyFixed: return nil
        }
        let samples = epochs.map { t in
            let x = kernel.state(segment: index, secondsPastJ2000: t)
            return OrbitalState(seconds: t, positionKm: turn * x.positionKm, velocityKmS: turn * x.velocityKmPerSecond)
        }
        return SampledOrbitPath(body: body, samples: samples)
    }

    /// The sample at `seconds` (within 0.1 ms: a third of a metre), if there is one.
    func sampleIndex(at seconds: Double) -> Int? {
        let k = nearestSample(to: seconds)
        return abs(samples[k].seconds - seconds) < 1e-4 ? k : nil
    }

    /// The index of the sample nearest `seconds`.
    public func nearestSample(to seconds: Double) -> Int {
        var lo = 0, hi = samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].seconds <= seconds { lo = mid } else { hi = mid }
        }
        return abs(samples[hi].seconds - seconds) < abs(samples[lo].seconds - seconds) ? hi : lo
    }

    public func state(secondsPastJ2000 seconds: Double, ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3)? {
        guard let first = samples.first, let last = samples.last, seconds >= first.seconds, seconds <= last.seconds else { return nil }
        // At a sample: the sample (what a line drawn through the samples asks for).
        if let k = sampleIndex(at: seconds) { return (samples[k].positionKm, samples[k].velocityKmS) }
        // The interval, from the cache or integrated now (outside the lock: two threads may
        // integrate the same day once each, never wait for each other's).
        // A cached interval; else the model, the interval's index and its fit if one was made.
        let cached: (hit: BlendedInterval?, path: BallisticInterpolator<GravityModel>?, index: Int?, fit: [Double]?) = state.withLock { s in
            if s.failed { return (nil, nil, nil, nil) }
            if let k = s.intervals.lastIndex(where: { $0.span.contains(seconds) }) {
                let iv = s.intervals.remove(at: k)
                s.intervals.append(iv)
                return (iv, s.path, nil, nil)
            }
            if s.path == nil {
                guard let model = try? Self.model(about: body, ephemeris: ephemeris),
                      let path = try? BallisticInterpolator(samples: samples, model: model, integrator: Self.integrator) else {
                    s.failed = true
                    return (nil, nil, nil, nil)
                }
                s.path = path
            }
            let i = try? s.path?.intervalIndex(containing: seconds)
            return (nil, s.path, i, i.flatMap { s.fits[$0] })
        }
        let interval: BlendedInterval
        if let hit = cached.hit {
            interval = hit
        } else {
            guard let path = cached.path, let i = cached.index,
                  let (iv, fit) = try? BlendedInterval.fitted(index: i, start: samples[i], end: samples[i + 1], model: path.model,
                                                             integrator: Self.integrator, coefficients: cached.fit) else { return nil }
            state.withLock { s in
                s.fits[i] = fit.coefficients
                s.intervals.append(iv)
                if s.intervals.count > Self.cachedIntervals { s.intervals.removeFirst() }
            }
            interval = iv
        }
        guard let x = try? interval.state(at: seconds) else { return nil }
        return (x.positionKm, x.velocityKmS)
    }
}
