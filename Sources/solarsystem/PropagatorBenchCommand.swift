import Glibc
import ArgumentParser
import Astrodynamics
import Ephemeris
import Foundation
import Missions

/// `solarsystem bench propagator`: what the numerical propagator costs — one force evaluation of
/// the heliocentric model (Sun, eight planets, the Moon) and of the Jovian one (Jupiter's
/// centre, Galilean moons, J2…J6, the Sun), with their tables built; a year of Juno-like
/// orbits (periapsis 1.06 Jupiter radii, 53-day period) at the integrator's default
/// tolerance, tables built on the way, with all of it, without the moons and about Jupiter
/// alone; a year of Cassini-like orbits with Saturn's seven moons; the Juno year rebuilt
/// from daily samples by the ballistic interpolator, every interval walked; and twenty of MRO's
/// days between its daily samples, blended alone, fitted, and rebuilt from a known fit.
struct PropagatorBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "propagator",
        abstract: "Force evaluation, a year of Juno-like and Cassini-like orbits, interpolating a year of daily samples, and a Mars orbiter's fitted days."
    )

    @Option(help: "Batches to time; the median batch is reported.") var batches = 21
    @Option(help: "Force evaluations per batch.") var iterations = 20_000
    @Option(help: "Runs of the year-long propagation; the median is reported.") var runs = 5
    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard batches > 0, iterations > 0, runs > 0 else { throw ValidationError("--batches, --iterations and --runs must be positive") }
        Bench.warnIfDebug("propagator")
        let loaded = try resources.loadKernel()
        let eph = Ephemeris(catalogue: try resources.loadCatalogue(), kernel: loaded?.kernel)
        print("ephemeris: \(loaded.map { $0.kernel.label } ?? "analytical theories")")
        // Juno's first science perijove, 2016-08-27T12:50:44 UTC, TDB seconds past J2000.
        let epoch = 525_574_313.0

        let helio = try GravityModel(ephemeris: eph, center: .sun,
                                     perturbers: [.mercury, .venus, .earth, .moon, .mars, .jupiter, .saturn, .uranus, .neptune])
        let jovian = try GravityModel(ephemeris: eph, center: .jupiter,
                                      perturbers: [.sun, .io, .europa, .ganymede, .callisto], zonalDegree: 6)
        var checksum = 0.0
        /// Median ns per evaluation over positions and times a day wide (tables built first).
        func evaluation(_ model: GravityModel, radiusKm: Double) -> Double {
            let points = (0..<iterations).map { i -> (Vector3, Double) in
                let a = Double(i) * 0.618_033_988_75 * 2 * Double.pi
                return (Vector3(cos(a), sin(a), 0.2 * sin(3 * a)) * radiusKm * (1 + 0.5 * sin(Double(i))), epoch + 86_400 * Double(i) / Double(iterations))
            }
            return Bench.run(batches, warmUp: 1) { _ in
                for (r, t) in points { checksum += model.accelerationKmS2(at: r, seconds: t).x }
            }.perOperation(iterations).median.wallNs
        }
        let helioNs = evaluation(helio, radiusKm: 1.5e8)
        let jovianNs = evaluation(jovian, radiusKm: 1e6)
        print(String(format: "force evaluation: %.0f ns with the Sun + 8 planets + Moon; %.0f ns with Jupiter + Galilean moons + J2…J6 + Sun (median of %d × %d, tables built)",
                     helioNs, jovianNs, batches, iterations))

        // A year of Juno-like orbits from a perijove, a fresh model each run (its tables built
        // on the way: a year does not stay in a table's few chunks), with the full model, then
        // without the moons and with Jupiter alone, to show where the time goes.
        let mu = GravityConstants.jupiterGM
        let rp = 1.06 * 71_492.0, period = 53 * 86_400.0
        let a = cbrt(mu * period * period / (4 * Double.pi * Double.pi))
        let vp = (mu * (2 / rp - 1 / a)).squareRoot()
        let start = OrbitalState(seconds: epoch, positionKm: Vector3(rp, 0, 0), velocityKmS: Vector3(0, vp * 0.5, vp * 0.866_025_403_784))
        let year = 365.25 * 86_400
        let integrator = DormandPrince853()
        func propagateYear(_ make: () throws -> GravityModel) throws -> (ms: Double, arc: PropagatedArc, model: GravityModel) {
            var times = Bench.Samples()
            var last: (PropagatedArc, GravityModel)?
            for _ in 0..<runs {
                let model = try make()
                let arc = try times.time { try integrator.propagate(start, to: epoch + year, model: model) }
                last = (arc, model)
            }
            guard let last else { throw ValidationError("--runs must be positive") }
            return (times.median.wallNs / 1e6, last.0, last.1)
        }
        let full = try propagateYear { try GravityModel(ephemeris: eph, center: .jupiter, perturbers: [.sun, .io, .europa, .ganymede, .callisto], zonalDegree: 6) }
        let noMoons = try propagateYear { try GravityModel(ephemeris: eph, center: .jupiter, perturbers: [.sun], zonalDegree: 6) }
        let alone = try propagateYear { try GravityModel(ephemeris: eph, center: .jupiter) }
        let arc: PropagatedArc? = full.arc
        let model = full.model
        print(String(format: "a year of Juno-like orbits (rp 1.06 RJ, 53 d, default tolerance): %.0f ms with Jupiter + Galilean moons + J2…J6 + Sun (%d steps, %d rejected, %d evaluations), %.0f ms without the moons, %.0f ms for Jupiter alone (%d steps); tables built on the way (median of %d)",
                     full.ms, full.arc.stepCount, full.arc.rejectedStepCount, full.arc.evaluationCount, noMoons.ms, alone.ms, alone.arc.stepCount, runs))
        // A year at Saturn with all seven moons the engine has (the finest table, Mimas's, on a
        // 256 s grid): what 20 years of Cassini costs, a twentieth of it. Periapsis 3 Saturn
        // radii, 20-day period.
        let saturnMu = GravityConstants.saturnGM
        let sp = 3 * 60_268.0, sPeriod = 20 * 86_400.0
        let sa = cbrt(saturnMu * sPeriod * sPeriod / (4 * Double.pi * Double.pi))
        let svp = (saturnMu * (2 / sp - 1 / sa)).squareRoot()
        let cassiniStart = OrbitalState(seconds: epoch, positionKm: Vector3(0, sp, 0), velocityKmS: Vector3(-svp * 0.94, 0, svp * 0.34))
        var saturnTimes = Bench.Samples()
        var saturnArc: PropagatedArc?
        for _ in 0..<runs {
            let model = try GravityModel(ephemeris: eph, center: .saturn, perturbers: [.sun, .jupiter] + PlanetCenter.moons(of: .saturn), zonalDegree: 6)
            saturnArc = try saturnTimes.time { try integrator.propagate(cassiniStart, to: epoch + year, model: model) }
        }
        print(String(format: "a year of Cassini-like orbits (rp 3 RS, 20 d; Saturn + 7 moons + J2…J6 + Sun + Jupiter): %.0f ms (%d steps), tables built on the way",
                     saturnTimes.median.wallNs / 1e6, saturnArc?.stepCount ?? 0))
        guard let arc else { return }

        // The same year as daily samples, joined again by the interpolator: every interval
        // integrated both ways and blended, each queried at 24 times.
        let samples = try (0...365).map { try arc.state(at: epoch + Double($0) * 86_400) }
        let path = try BallisticInterpolator(samples: samples, model: model)
        var worstMismatch = 0.0, steps = 0
        let walk = try Bench.time {
            try path.forEachInterval { iv in
                worstMismatch = max(worstMismatch, iv.mismatchKm)
                steps += iv.forward.stepCount + (iv.backward?.stepCount ?? 0)
                for k in 0..<24 { checksum += try iv.state(at: iv.start.seconds + Double(k) * 3_600).positionKm.x }
            }
        }.time.wallNs / 1e6
        print(String(format: "interpolating the year's 365 daily intervals: %.0f ms (%.2f ms per interval, %d steps in all); largest forward/backward mismatch %.3f m  (checksum %.3e)",
                     walk, walk / 365, steps, worstMismatch * 1000, checksum))
        try marsOrbiterDays(eph)
    }

    /// Twenty of MRO's days between its daily samples (from 2025-03-22), as the server makes
    /// them (``SampledOrbitPath``: J2, C22, S22 and the Sun): blended alone, fitted with
    /// empirical accelerations from nothing, and rebuilt from a known fit. Skipped when the
    /// mission kernels are not at hand.
    func marsOrbiterDays(_ eph: Ephemeris) throws {
        let bodies = try resources.loadBodies(missions: try resources.loadMissions()).bodies
        guard let entry = bodies.segments(of: -74).first(where: { bodies.path(of: $0) is SampledOrbitPath }),
              let orbiter = bodies.path(of: entry) as? SampledOrbitPath else {
            print("MRO's sampled orbit: not in the mission kernels, skipped")
            return
        }
        let mars = try SampledOrbitPath.model(about: .mars, ephemeris: eph)
        let first = orbiter.nearestSample(to: try TimeScale.parse("2025-03-22T00:00:00Z").daysSinceJ2000TDB * Constants.secondsPerDay)
        let samples = Array(orbiter.samples[first...(first + 20)])
        let integrator = SampledOrbitPath.integrator
        let plainPath = try BallisticInterpolator(samples: samples, model: mars, integrator: integrator)
        var plainWorst = 0.0, fits: [BlendedInterval.Fit] = []
        var plain = Bench.Samples(), cold = Bench.Samples(), known = Bench.Samples()
        for run in 0..<runs {
            try plain.time { for i in 0..<20 { plainWorst = max(plainWorst, try plainPath.interval(i).velocityMismatchKmS) } }
            var found: [BlendedInterval.Fit] = []
            try cold.time {
                for i in 0..<20 {
                    found.append(try BlendedInterval.fitted(index: i, start: samples[i], end: samples[i + 1], model: mars, integrator: integrator).fit)
                }
            }
            if run == 0 { fits = found }
            try known.time {
                for i in 0..<20 {
                    _ = try BlendedInterval.fitted(index: i, start: samples[i], end: samples[i + 1], model: mars, integrator: integrator, coefficients: fits[i].coefficients)
                }
            }
        }
        let iterations = fits.map(\.iterations).sorted()[10], bound = fits.map(\.boundKmS2).max() ?? 0
        let miss = fits.map(\.missBeforeKm).max() ?? 0
        print(String(format: "MRO's days between daily samples (20 from 2025-03-22; J2, C22, S22, Sun): blended alone %.1f ms a day (arcs up to %.1f m/s apart); fitted %.1f ms a day (median %d Newton/Broyden steps, ends up to %.1f km off before, empirical accelerations at most %.3f mm/s²); with the fit known %.1f ms a day (medians of %d)",
                     plain.median.wallNs / 20e6, plainWorst * 1000, cold.median.wallNs / 20e6, iterations, miss, bound * 1e6, known.median.wallNs / 20e6, runs))
    }
}
