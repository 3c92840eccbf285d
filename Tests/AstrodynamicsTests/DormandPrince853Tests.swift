import Glibc
import Testing
import Ephemeris
@testable import Astrodynamics

@Suite("DOP853: adaptive Runge–Kutta 8(5,3) with dense output")
struct DormandPrince853Tests {
    let integrator = DormandPrince853()

    func kepler(_ s: OrbitalState, mu: Double) -> KeplerArc {
        KeplerArc(mu: mu, position: s.positionKm, velocity: s.velocityKmS, epochHours: s.seconds / 3600)
    }

    func energy(_ s: OrbitalState, mu: Double) -> Double {
        s.velocityKmS.lengthSquared / 2 - mu / s.positionKm.length
    }

    @Test("ten revolutions of a Juno-like orbit (e ≈ 0.98) follow the exact conic to metres, dense output included")
    func eccentricOrbit() throws {
        let start = JunoLikeOrbit.periapsisState(seconds: 5e8)
        let model = PointMass(mu: JunoLikeOrbit.mu)
        let span = 10 * JunoLikeOrbit.periodSeconds
        let arc = try integrator.propagate(start, to: start.seconds + span, model: model)
        var checked = 0
        // Times spread over the whole span, most of them inside steps (dense output).
        for i in 0...2000 {
            let dt = span * Double(i) / 2000 + 1234.5 * Double(i % 7)
            guard dt <= span else { continue }
            let s = try arc.state(at: start.seconds + dt)
            #expect((s.positionKm - JunoLikeOrbit.positionKm(after: dt)).length < metres(10), "t − t0 = \(dt)")
            checked += 1
        }
        // Every periapsis pass, where the spacecraft moves at 58 km/s.
        for rev in 1...10 {
            let s = try arc.state(at: start.seconds + Double(rev) * JunoLikeOrbit.periodSeconds)
            #expect((s.positionKm - start.positionKm).length < metres(10), "periapsis \(rev)")
            #expect((s.velocityKmS - start.velocityKmS).length < kmPerSecond(1e-5))
            checked += 1
        }
        #expect(checked > 1990)
    }

    @Test("KeplerArc and the exact conic agree within a day of KeplerArc's epoch, where its solve is tight")
    func conicReference() {
        let start = JunoLikeOrbit.periapsisState(seconds: 0)
        let arc = KeplerArc(mu: JunoLikeOrbit.mu, position: start.positionKm, velocity: start.velocityKmS, epochHours: 0)
        var checked = 0
        for i in -100...100 {
            let dt = 864.0 * Double(i)
            #expect((arc.state(atHours: dt / 3600).position - JunoLikeOrbit.positionKm(after: dt)).length < metres(1))
            checked += 1
        }
        #expect(checked == 201)
    }

    @Test("a 15 km/s hyperbolic Earth flyby over two days stays within metres of Kepler", arguments: [1.0, -1.0])
    func hyperbolicFlyby(direction: Double) throws {
        let mu = GravityConstants.earthGM
        let rp = 6_378.137 + 500
        let periapsis = OrbitalState(seconds: 7e8, positionKm: Vector3(0, rp, 0), velocityKmS: Vector3(-15 * cos(0.4), 0, 15 * sin(0.4)))
        let truth = kepler(periapsis, mu: mu)
        // Start a day out, cross the periapsis, end a day on (or the reverse).
        let t0 = periapsis.seconds - direction * 86_400, t1 = periapsis.seconds + direction * 86_400
        let k0 = truth.state(atHours: t0 / 3600)
        let start = OrbitalState(seconds: t0, positionKm: k0.position, velocityKmS: k0.velocity)
        let arc = try integrator.propagate(start, to: t1, model: PointMass(mu: mu))
        var checked = 0
        for i in 0...500 {
            let t = t0 + (t1 - t0) * Double(i) / 500
            let s = try arc.state(at: t)
            let k = truth.state(atHours: t / 3600)
            #expect((s.positionKm - k.position).length < metres(1), "t − tp = \(t - periapsis.seconds)")
            #expect((s.velocityKmS - k.velocity).length < kmPerSecond(1e-6))
            checked += 1
        }
        #expect(checked == 501)
        #expect(arc.isBackward == (direction < 0))
    }

    @Test("forward ten revolutions and back again returns to the start")
    func roundTrip() throws {
        let start = JunoLikeOrbit.periapsisState(seconds: -3e8)
        let model = PointMass(mu: JunoLikeOrbit.mu)
        let there = try integrator.propagate(start, to: start.seconds + 10 * JunoLikeOrbit.periodSeconds, model: model)
        let back = try integrator.propagate(there.end, to: start.seconds, model: model)
        #expect(back.end.seconds == start.seconds)
        #expect((back.end.positionKm - start.positionKm).length < metres(50))
        #expect((back.end.velocityKmS - start.velocityKmS).length < kmPerSecond(1e-4))
    }

    @Test("energy is conserved over ten eccentric revolutions")
    func energyConservation() throws {
        let start = JunoLikeOrbit.periapsisState(seconds: 0)
        let model = PointMass(mu: JunoLikeOrbit.mu)
        let arc = try integrator.propagate(start, to: 10 * JunoLikeOrbit.periodSeconds, model: model)
        let e0 = energy(start, mu: model.mu)
        var checked = 0
        for i in 0...200 {
            let s = try arc.state(at: arc.span.upperBound * Double(i) / 200)
            #expect(abs(energy(s, mu: model.mu) - e0) < 1e-9 * abs(e0))
            checked += 1
        }
        #expect(checked == 201)
    }

    @Test("the ends of an arc are the states themselves, exactly")
    func exactEnds() throws {
        let start = JunoLikeOrbit.periapsisState(seconds: 1e8)
        let arc = try integrator.propagate(start, to: start.seconds - 86_400, model: PointMass(mu: JunoLikeOrbit.mu))
        #expect(try arc.state(at: start.seconds) == start)
        #expect(try arc.state(at: start.seconds - 86_400) == arc.end)
        let none = try integrator.propagate(start, to: start.seconds, model: PointMass(mu: JunoLikeOrbit.mu))
        #expect(none.stepCount == 0)
        #expect(try none.state(at: start.seconds) == start)
    }

    @Test("runaway ends in a thrown error: NaN accelerations, a plunge into the centre, too many steps")
    func runaway() {
        let start = JunoLikeOrbit.periapsisState(seconds: 0)
        #expect(throws: PropagationError.nonFiniteState(seconds: 0)) {
            try integrator.propagate(start, to: 86_400, model: BrokenModel())
        }
        // Falling straight in from rest: the radius reaches zero in finite time.
        let plunge = OrbitalState(seconds: 0, positionKm: Vector3(100_000, 0, 0), velocityKmS: .zero)
        do {
            _ = try integrator.propagate(plunge, to: 86_400 * 10, model: PointMass(mu: JunoLikeOrbit.mu))
            Issue.record("a plunge through the centre should not integrate")
        } catch {
            switch error {
            case .nonFiniteState, .stepSizeUnderflow, .tooManySteps: break
            default: Issue.record("unexpected \(error)")
            }
        }
        var few = integrator
        few.maxSteps = 20
        #expect(throws: PropagationError.self) {
            try few.propagate(start, to: 10 * JunoLikeOrbit.periodSeconds, model: PointMass(mu: JunoLikeOrbit.mu))
        }
        do {
            _ = try few.propagate(start, to: 10 * JunoLikeOrbit.periodSeconds, model: PointMass(mu: JunoLikeOrbit.mu))
        } catch {
            guard case .tooManySteps(limit: 20, _) = error else { Issue.record("unexpected \(error)"); return }
        }
    }

    @Test("bad input and times outside the span are errors")
    func badInput() throws {
        let start = JunoLikeOrbit.periapsisState(seconds: 0)
        let model = PointMass(mu: JunoLikeOrbit.mu)
        #expect(throws: PropagationError.self) { try integrator.propagate(start, to: .nan, model: model) }
        var broken = start
        broken.positionKm.x = .infinity
        #expect(throws: PropagationError.self) { try integrator.propagate(broken, to: 10, model: model) }
        var loose = integrator
        loose.relativeTolerance = 0
        #expect(throws: PropagationError.self) { try loose.propagate(start, to: 10, model: model) }
        let arc = try integrator.propagate(start, to: 3_600, model: model)
        #expect(throws: PropagationError.outsideSpan(seconds: 3_601, span: 0...3_600)) { try arc.state(at: 3_601) }
        #expect(throws: PropagationError.outsideSpan(seconds: -1, span: 0...3_600)) { try arc.state(at: -1) }
    }
}
