import Testing
import Ephemeris
@testable import Astrodynamics

/// A Juno-like orbit about Jupiter's centre around its first science perijove, integrated with
/// the full model (Sun, Galilean moons, J2…J6) at tight tolerances: the truth the interpolator
/// is measured against. Samples every 12 hours, offset so the perijove falls inside an interval.
struct JupiterScenario {
    static let eph = PropagationFixtures.de440
    static let perijove = PropagationFixtures.perijove1Seconds
    static let full: GravityModel = {
        do {
            return try GravityModel(ephemeris: eph, center: .jupiter, perturbers: [.sun, .io, .europa, .ganymede, .callisto], zonalDegree: 6)
        } catch { fatalError("\(error)") }
    }()
    /// The same without the zonal harmonics: the "missing perturbation".
    static let withoutHarmonics: GravityModel = {
        do { return try GravityModel(ephemeris: eph, center: .jupiter, perturbers: [.sun, .io, .europa, .ganymede, .callisto]) } catch { fatalError("\(error)") }
    }()
    static let tight = DormandPrince853(relativeTolerance: 1e-14, absoluteToleranceKm: 1e-10, absoluteToleranceKmS: 1e-13)

    /// Truth from the perijove state backward and forward, optionally with an impulsive Δv.
    struct Truth {
        let before: PropagatedArc
        let after: PropagatedArc
        let burn: (seconds: Double, arc: PropagatedArc)?

        func state(at t: Double) throws -> OrbitalState {
            if let burn, t >= burn.seconds { return try burn.arc.state(at: t) }
            return t < before.start.seconds ? try before.state(at: t) : try after.state(at: t)
        }
    }

    static func truth(burnAt burn: Double? = nil, deltaV: Vector3 = .zero) throws -> Truth {
        let start = JunoLikeOrbit.periapsisState(seconds: perijove)
        let before = try tight.propagate(start, to: perijove - 3 * 86_400, model: full)
        let after = try tight.propagate(start, to: perijove + 3 * 86_400, model: full)
        guard let burn else { return Truth(before: before, after: after, burn: nil) }
        var kicked = try after.state(at: burn)
        kicked.velocityKmS += deltaV
        let arc = try tight.propagate(kicked, to: perijove + 3 * 86_400, model: full)
        return Truth(before: before, after: after, burn: (burn, arc))
    }

    /// Sample times: every 12 h from 3 days before the perijove (+5 h) to 2.7 days after.
    static let sampleTimes = (0...11).map { perijove - 3 * 86_400 + 5 * 3_600 + Double($0) * 43_200 }

    static func samples(_ truth: Truth) throws -> [OrbitalState] { try sampleTimes.map { try truth.state(at: $0) } }
}

@Suite("Ballistic interpolation between samples: forward and backward arcs blended")
struct BallisticInterpolatorTests {
    typealias S = JupiterScenario

    @Test("the path passes exactly through every sample, position and velocity")
    func reproducesSamples() throws {
        let samples = try S.samples(try S.truth())
        var path = try BallisticInterpolator(samples: samples, model: S.full)
        var checked = 0
        for (i, sample) in samples.enumerated() {
            #expect(try path.state(at: sample.seconds) == sample)
            if i < path.intervalCount {
                let iv = try path.interval(i)
                #expect(try iv.state(at: sample.seconds) == sample)
                #expect(try iv.state(at: samples[i + 1].seconds) == samples[i + 1])
            }
            checked += 1
        }
        #expect(checked == samples.count)
    }

    @Test("velocity is continuous across samples and is the derivative of the position")
    func continuity() throws {
        let samples = try S.samples(try S.truth())
        let path = try BallisticInterpolator(samples: samples, model: S.withoutHarmonics)
        var checked = 0
        for i in 1..<samples.count - 1 {
            let left = try path.interval(i - 1), right = try path.interval(i)
            let t = samples[i].seconds, e = 1e-3
            // Just before and just after the sample, on either interval: the sample's velocity
            // (to the acceleration's change over a millisecond).
            let vl = try left.state(at: t - e).velocityKmS, vr = try right.state(at: t + e).velocityKmS
            let a = S.withoutHarmonics.accelerationKmS2(at: samples[i].positionKm, seconds: t)
            #expect((vr - vl - a * (2 * e)).length < metresPerSecond(1e-4), "sample \(i)")
            // Inside each interval: a central difference of positions equals the velocity,
            // even here where the arcs disagree by kilometres (no harmonics in the model).
            for k in 1..<20 {
                // Whole seconds and a power-of-two half-width: t ± d exact, no rounding of the
                // time (its last bit is 6·10⁻⁸ s here) in the quotient.
                let u = (t + (samples[i + 1].seconds - t) * Double(k) / 20).rounded(), d = 0.0625
                let x1 = try right.state(at: u + d).positionKm, x0 = try right.state(at: u - d).positionKm
                let v = try right.state(at: u).velocityKmS
                #expect(((x1 - x0) / (2 * d) - v).length < metresPerSecond(1e-3), "interval \(i) step \(k)")
                checked += 1
            }
        }
        #expect(checked == 19 * (samples.count - 2))
    }

    @Test("with the model that made the truth, the blend stays within a metre of it everywhere")
    func sameModel() throws {
        let truth = try S.truth()
        let samples = try S.samples(truth)
        var checked = 0, worst = 0.0, worstMismatch = 0.0
        let path = try BallisticInterpolator(samples: samples, model: S.full)
        try path.forEachInterval { iv in
            worstMismatch = max(worstMismatch, iv.mismatchKm)
            for k in 0...40 {
                let t = iv.start.seconds + (iv.end.seconds - iv.start.seconds) * Double(k) / 40
                let error = (try iv.state(at: t).positionKm - truth.state(at: t).positionKm).length
                worst = max(worst, error)
                #expect(error < metres(1), "interval \(iv.index) at \(k)/40")
                #expect((try iv.state(at: t).velocityKmS - truth.state(at: t).velocityKmS).length < metresPerSecond(1e-3))
                checked += 1
            }
        }
        #expect(checked == 41 * (samples.count - 1))
        // The two arcs agree: the model explains the data.
        #expect(worstMismatch < metres(1))
        print("same model: worst blend error \(worst * 1000) m, worst mismatch \(worstMismatch * 1000) m")
    }

    @Test("with a perturbation missing from the model, the error stays within the reported mismatch")
    func missingPerturbation() throws {
        let truth = try S.truth()
        let samples = try S.samples(truth)
        let path = try BallisticInterpolator(samples: samples, model: S.withoutHarmonics)
        var checked = 0, largest = 0.0
        try path.forEachInterval { iv in
            largest = max(largest, iv.mismatchKm)
            for k in 0...60 {
                let t = iv.start.seconds + (iv.end.seconds - iv.start.seconds) * Double(k) / 60
                let error = (try iv.state(at: t).positionKm - truth.state(at: t).positionKm).length
                #expect(error <= iv.mismatchKm + metres(1), "interval \(iv.index): \(error) km against a mismatch of \(iv.mismatchKm) km")
                checked += 1
            }
        }
        #expect(checked == 61 * (samples.count - 1))
        // Without J2 the perijove interval's arcs miss each other by far more than a metre.
        #expect(largest > km(10))
    }

    @Test("an impulsive burn: position continuous, the velocity jumps by Δv at the burn and nowhere else")
    func burnInside() throws {
        let deltaV = Vector3(0.012, -0.006, 0.003)
        let burn = S.perijove + 86_400 + 3 * 3_600
        let truth = try S.truth(burnAt: burn, deltaV: deltaV)
        let samples = try S.samples(truth)
        var path = try BallisticInterpolator(samples: samples, model: S.full, burns: [burn])
        let i = try path.intervalIndex(containing: burn)
        let iv = try path.interval(i)
        #expect(iv.burnSeconds == burn)
        #expect((iv.velocityJumpKmS - deltaV).length < metresPerSecond(1e-3))
        #expect(iv.mismatchKm < metres(1))
        let e = 1e-3
        let before = try iv.state(at: burn - e), at = try iv.state(at: burn), after = try iv.state(at: burn + e)
        #expect((at.positionKm - before.positionKm).length < at.velocityKmS.length * e * 1.01)
        #expect((after.positionKm - at.positionKm).length < after.velocityKmS.length * e * 1.01)
        #expect((at.velocityKmS - before.velocityKmS - deltaV).length < metresPerSecond(1e-3))
        // Everywhere else the velocity changes only as gravity makes it.
        var checked = 0
        for k in 1..<40 {
            let t = iv.start.seconds + (iv.end.seconds - iv.start.seconds) * Double(k) / 40
            guard abs(t - burn) > 1 else { continue }
            let v0 = try iv.state(at: t - e).velocityKmS, v1 = try iv.state(at: t + e).velocityKmS
            let a = S.full.accelerationKmS2(at: try iv.state(at: t).positionKm, seconds: t)
            #expect((v1 - v0 - a * (2 * e)).length < metresPerSecond(1e-4))
            #expect((try path.state(at: t).positionKm - truth.state(at: t).positionKm).length < metres(1))
            checked += 1
        }
        #expect(checked >= 38)
    }

    @Test("a burn at a sample: the interval ending there carries the jump")
    func burnAtSample() throws {
        let deltaV = Vector3(-0.004, 0.01, 0)
        let burn = S.sampleTimes[8]
        let truth = try S.truth(burnAt: burn, deltaV: deltaV)
        let samples = try S.samples(truth)
        let path = try BallisticInterpolator(samples: samples, model: S.full, burns: [burn])
        let ending = try path.interval(7), starting = try path.interval(8)
        #expect(ending.burnSeconds == burn)
        #expect(starting.burnSeconds == nil)
        #expect(ending.backward == nil)
        #expect((ending.velocityJumpKmS - deltaV).length < metresPerSecond(1e-3))
        #expect(try ending.state(at: burn) == samples[8])
        let justBefore = try ending.state(at: burn - 1e-3)
        #expect((justBefore.velocityKmS + deltaV - samples[8].velocityKmS).length < metresPerSecond(1e-3))
        var checked = 0
        for k in 0...40 {
            let t = ending.start.seconds + (burn - ending.start.seconds) * Double(k) / 40
            #expect((try ending.state(at: t).positionKm - truth.state(at: t).positionKm).length < metres(1))
            checked += 1
        }
        #expect(checked == 41)
    }

    @Test("random access reuses the interval it last used and agrees with the batch walk")
    func randomAccess() throws {
        let samples = try S.samples(try S.truth())
        var path = try BallisticInterpolator(samples: samples, model: S.full)
        var checked = 0
        // Jumping between intervals (each computed afresh for the comparison), and several
        // queries in a row inside one.
        let bins = [7, 2, 9, 0, 5, 3, 8, 1, 6, 4]
        for k in 0..<30 {
            let t = path.span.lowerBound + (path.span.upperBound - path.span.lowerBound) * (Double(bins[k / 3]) + 0.2 + 0.3 * Double(k % 3)) / 10
            let direct = try path.interval(try path.intervalIndex(containing: t)).state(at: t)
            #expect(try path.state(at: t) == direct)
            checked += 1
        }
        #expect(checked == 30)
    }

    @Test("bad samples, times outside the span, crowded burns and diverging arcs are thrown errors")
    func errors() throws {
        let samples = try S.samples(try S.truth())
        var repeated = samples
        repeated[5].seconds = repeated[4].seconds
        #expect(throws: PropagationError.nonIncreasingSamples(index: 5)) { try BallisticInterpolator(samples: repeated, model: S.full) }
        var reversed = samples
        reversed.swapAt(2, 3)
        #expect(throws: PropagationError.nonIncreasingSamples(index: 3)) { try BallisticInterpolator(samples: reversed, model: S.full) }
        #expect(throws: PropagationError.tooFewSamples(count: 1)) { try BallisticInterpolator(samples: [samples[0]], model: S.full) }
        var broken = samples
        broken[2].velocityKmS.y = .nan
        #expect(throws: PropagationError.self) { try BallisticInterpolator(samples: broken, model: S.full) }
        let twoBurns = [samples[3].seconds + 100, samples[3].seconds + 200]
        #expect(throws: PropagationError.burnsInOneInterval(interval: 3, burnSeconds: twoBurns)) {
            try BallisticInterpolator(samples: samples, model: S.full, burns: twoBurns)
        }
        var path = try BallisticInterpolator(samples: samples, model: S.full)
        #expect(throws: PropagationError.outsideSpan(seconds: samples[0].seconds - 1, span: path.span)) { try path.state(at: samples[0].seconds - 1) }
        #expect(throws: PropagationError.self) { try path.state(at: samples[samples.count - 1].seconds + 1) }
        // At rest 100,000 km from Jupiter: the forward arc falls into the centre within an hour.
        let plunge = [OrbitalState(seconds: 0, positionKm: Vector3(100_000, 0, 0), velocityKmS: .zero),
                      OrbitalState(seconds: 86_400, positionKm: Vector3(-100_000, 0, 0), velocityKmS: .zero)]
        let falling = try BallisticInterpolator(samples: plunge, model: PointMass(mu: GravityConstants.jupiterSystemGM))
        #expect(throws: PropagationError.self) { try falling.interval(0) }
    }
}
