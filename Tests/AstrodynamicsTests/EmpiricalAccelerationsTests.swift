import Glibc
import Testing
import Ephemeris
@testable import Astrodynamics

/// A day of a low Mars orbit (MRO's: 300 km up, polar) between two states, fitted with
/// empirical accelerations (``BlendedInterval/fitted``) against a model that lacks a force the
/// truth has.
@Suite("Empirical accelerations fitted between two samples")
struct EmpiricalAccelerationsTests {
    static let eph = PropagationFixtures.de440
    static let t0 = PropagationFixtures.perijove1Seconds
    static let day = 86_400.0
    static let integrator = DormandPrince853(relativeTolerance: 1e-12, absoluteToleranceKm: 1e-7, absoluteToleranceKmS: 1e-10)
    static let j2: GravityModel = {
        do { return try GravityModel(ephemeris: eph, center: .mars, perturbers: [.sun], zonalDegree: 2) } catch { fatalError("\(error)") }
    }()
    static let j2c22: GravityModel = {
        do { return try GravityModel(ephemeris: eph, center: .mars, perturbers: [.sun], zonalDegree: 2, sectoral: true) } catch { fatalError("\(error)") }
    }()
    static let start: OrbitalState = {
        let r = 3_396.0 + 300, v = (GravityConstants.gm(.mars) / r).squareRoot()
        return OrbitalState(seconds: t0, positionKm: Vector3(r, 0, 0), velocityKmS: Vector3(0, v * 0.1, v * 0.995))
    }()

    /// The largest velocity change over `span`-second steps that `model` does not explain
    /// (Simpson's rule, as the mission walk measures it), km/s².
    static func unexplained(_ path: BlendedInterval, _ model: GravityModel, span: Double = 60) throws -> Double {
        var worst = 0.0
        var t = path.start.seconds + 1
        while t + span < path.end.seconds {
            let a = try path.state(at: t), m = try path.state(at: t + span / 2), b = try path.state(at: t + span)
            let expected = (model.accelerationKmS2(at: a.positionKm, seconds: t) + model.accelerationKmS2(at: m.positionKm, seconds: t + span / 2) * 4
                            + model.accelerationKmS2(at: b.positionKm, seconds: t + span)) * (span / 6)
            worst = max(worst, (b.velocityKmS - a.velocityKmS - expected).length / span)
            t += 997
        }
        return worst
    }

    @Test("a force of the fitted form is found again: its coefficients, the end sample, the path")
    func recovers() throws {
        let hidden = [3e-9, -2e-9, 1.5e-9, -1e-9, 2e-9, 0.5e-9]
        let truthModel = EmpiricalAccelerations(base: Self.j2, reference: Self.start, coefficients: hidden)
        let truth = try Self.integrator.propagate(Self.start, to: Self.t0 + Self.day, model: truthModel)
        let (path, fit) = try BlendedInterval.fitted(index: 0, start: Self.start, end: truth.end, model: Self.j2, integrator: Self.integrator)
        // Hidden forces of 2 µm/s² leave the model alone kilometres off after a day.
        #expect(fit.missBeforeKm > 5, "\(fit.missBeforeKm) km")
        #expect(fit.missAfterKm < 1e-3 && fit.missAfterKmS < 1e-6, "\(fit.missAfterKm) km, \(fit.missAfterKmS) km/s")
        for (c, h) in zip(fit.coefficients, hidden) { #expect(abs(c - h) < 1e-11, "\(fit.coefficients)") }
        var worst = 0.0
        for k in 0...96 {
            let t = Self.t0 + Self.day * Double(k) / 96
            worst = max(worst, (try path.state(at: t).positionKm - truth.state(at: t).positionKm).length)
        }
        #expect(worst < 1e-3, "\(worst) km from the truth")
        // Given the coefficients, the interval is rebuilt without fitting, identically.
        let (again, refit) = try BlendedInterval.fitted(index: 0, start: Self.start, end: truth.end, model: Self.j2, integrator: Self.integrator, coefficients: fit.coefficients)
        #expect(refit.iterations == 0 && refit.coefficients == fit.coefficients)
        #expect(try again.state(at: Self.t0 + 40_000) == path.state(at: Self.t0 + 40_000))
    }

    @Test("a force the model lacks (Mars's C22) is spread as a few µm/s², where the plain blend concentrates it")
    func spreads() throws {
        let truth = try Self.integrator.propagate(Self.start, to: Self.t0 + Self.day, model: Self.j2c22)
        let plain = try BlendedInterval(index: 0, start: Self.start, end: truth.end, burnSeconds: nil, model: Self.j2, integrator: Self.integrator)
        let (fitted, fit) = try BlendedInterval.fitted(index: 0, start: Self.start, end: truth.end, model: Self.j2, integrator: Self.integrator)
        #expect(fit.missBeforeKm > 1, "\(fit.missBeforeKm) km")
        #expect(fit.missAfterKm < fit.missBeforeKm / 100, "\(fit.missAfterKm) km")
        let plainExcess = try Self.unexplained(plain, Self.j2), fittedExcess = try Self.unexplained(fitted, Self.j2)
        // What the fit leaves unexplained is its own accelerations (and what the blend still
        // bridges): within their bound, and well under the plain blend's.
        #expect(fittedExcess < fit.boundKmS2 + 1e-9, "\(fittedExcess) against a bound of \(fit.boundKmS2)")
        #expect(fittedExcess < plainExcess / 3, "fitted \(fittedExcess), plain \(plainExcess) km/s²")
        // Both pass through the samples, position and velocity.
        for path in [plain, fitted] {
            #expect(try path.state(at: Self.t0) == Self.start)
            #expect(try path.state(at: Self.t0 + Self.day) == truth.end)
        }
    }
}
