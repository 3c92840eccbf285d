import Astrodynamics
import Testing
import Ephemeris
import Missions
@testable import MissionKernels

@Suite("Flyby shooting")
struct FlybyShootingTests {
    static let eph = FlybyTestData.ephemeris
    static func t(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> Double { FlybyTestData.seconds(y, m, d, h, min) }
    static let venus = eph.catalogue[.venus].radiusKm

    /// Parker Solar Probe's first two Venus flybys (published distances; the first flyby's time
    /// as the shipped kernel flies it): a resonant return after two Venus years.
    static let flybys = [
        FlybyShooting.Flyby(body: .venus, seconds: t(2018, 10, 3, 8, 7), distanceKm: venus + 2_400, name: "Venus flyby 1"),
        FlybyShooting.Flyby(body: .venus, seconds: t(2019, 12, 26, 18, 14), distanceKm: venus + 3_004, name: "Venus flyby 2"),
    ]

    /// Checks every arc joins the next in time and in state (position always, velocity except
    /// at an impulse), and that each flyby is flown at its distance and time.
    static func checkPath(_ shooting: FlybyShooting, _ solution: FlybyShooting.Solution) {
        for (a, b) in zip(solution.arcs, solution.arcs.dropFirst()) {
            #expect(abs(a.endSeconds - b.startSeconds) < seconds(1e-6))
            let left = shooting.state(a, at: a.endSeconds), right = shooting.state(b, at: b.startSeconds)
            #expect((left.positionKm - right.positionKm).length < metres(1), "\(a.kind) -> \(b.kind)")
            let jump = (left.velocityKmS - right.velocityKmS).length
            if let impulse = solution.impulses.first(where: { abs($0.seconds - a.endSeconds) < 1e-6 }) {
                #expect(abs(jump - impulse.deltaV.length) < metresPerSecond(1e-3))
            } else {
                #expect(jump < metresPerSecond(1e-3), "\(a.kind) -> \(b.kind): \(jump * 1000) m/s")
            }
        }
        for f in solution.flybys {
            #expect(abs(f.closestApproachKm - f.flyby.distanceKm) < metres(1), "\(f.flyby.name): \(f.closestApproachKm) km")
            #expect(abs(f.closestApproachSeconds - f.flyby.seconds) < seconds(1e-3), "\(f.flyby.name)")
        }
    }

    @Test("forwards from the Earth: every flyby at its distance and time, one correction per leg, continuous between")
    func forwards() throws {
        let shooting = FlybyShooting(start: .escape(seconds: Self.t(2018, 8, 12, 8, 15), altitudeKm: 200), flybys: Self.flybys,
                                     endSeconds: Self.t(2020, 1, 30), endTurn: .decelerate, ephemeris: Self.eph)
        var solved = 0
        for aim in stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 4) {
            guard let solution = try? shooting.solve(aims: [aim]) else { continue }
            solved += 1
            Self.checkPath(shooting, solution)
            #expect(solution.impulses.count == 1 && solution.impulses[0].leg == 1)
            #expect(solution.arcs.first?.kind == .escape && solution.arcs.last?.endSeconds == Self.t(2020, 1, 30))
            // Unpowered flybys: the turn is what the distance gives.
            for f in solution.flybys {
                let natural = FlybyGeometry.unpoweredTurn(vInfinity: f.vInfinityKmS, periapsisKm: f.flyby.distanceKm, mu: GravityConstants.gm(.venus))
                #expect(abs(f.turnRadians - natural) < 1e-9)
            }
            // The escape hyperbola's periapsis is the injection point.
            let escape = solution.arcs[0].local(at: Self.t(2018, 8, 12, 8, 15))
            #expect(abs(escape.position.length - (Self.eph.catalogue[.earth].radiusKm + 200)) < metres(1))
            #expect(abs(escape.position.dot(escape.velocity)) < 1e-6 * escape.position.length * escape.velocity.length)
        }
        #expect(solved >= 4)
    }

    /// The cheapest aim of the resonant leg needs only a small correction: the published
    /// distances and times are nearly ballistic.
    @Test("the resonant return's best aim needs only a small correction")
    func resonance() throws {
        let shooting = FlybyShooting(start: .escape(seconds: Self.t(2018, 8, 12, 8, 15), altitudeKm: 200), flybys: Self.flybys,
                                     endSeconds: Self.t(2020, 1, 30), endTurn: .decelerate, ephemeris: Self.eph)
        var best = Double.infinity
        for k in 0..<180 {
            if let cost = try? shooting.solve(aims: [Double(k) * Double.pi / 90]).totalImpulseKmS { best = min(best, cost) }
        }
        #expect(best < metresPerSecond(200), "\(best * 1000) m/s at the best of 180 aims")
    }

    @Test("backwards from a known state to the launch's injection point")
    func reversed() throws {
        // A known path: the forward solution's coast after its last flyby.
        let forward = FlybyShooting(start: .escape(seconds: Self.t(2018, 8, 12, 8, 15), altitudeKm: 200), flybys: [Self.flybys[0]],
                                    endSeconds: Self.t(2018, 12, 1), endTurn: .decelerate, ephemeris: Self.eph)
        let path = try forward.solve(aims: [])
        let coastArc = try #require(path.arcs.last)
        let known = forward.state(coastArc, at: Self.t(2018, 11, 20))
        let coast = try PatchedCoast(from: known, forward: false, ephemeris: Self.eph)
        let injection = Self.t(2018, 8, 12, 8, 15)
        let shooting = FlybyShooting(start: .coast(coast, seconds: Self.t(2018, 11, 1)),
                                     flybys: [Self.flybys[0], FlybyShooting.Flyby(body: .earth, seconds: injection, distanceKm: Self.eph.catalogue[.earth].radiusKm + 200, name: "injection")],
                                     endSeconds: injection, endTurn: .accelerate, reversed: true, stopsAtLastFlyby: true, ephemeris: Self.eph)
        var solved = 0
        for aim in stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 2) {
            guard let solution = try? shooting.solve(aims: [aim, 0]) else { continue }
            solved += 1
            Self.checkPath(shooting, solution)
            // In time order: the escape from the injection point first, the impulse leaving
            // the known path last.
            #expect(solution.arcs.first?.center == .earth && abs(solution.arcs[0].startSeconds - injection) < seconds(1e-3))
            #expect(solution.arcs.last?.endSeconds == Self.t(2018, 11, 1))
            #expect(solution.impulses.map(\.leg).sorted() == [0, 1])
            let end = shooting.state(solution.arcs[solution.arcs.count - 1], at: Self.t(2018, 11, 1))
            #expect((end.positionKm - coast.state(at: Self.t(2018, 11, 1)).positionKm).length < metres(1))
        }
        #expect(solved >= 1)
    }
}

@Suite("Patched coast and kernel spans")
struct PatchedCoastTests {
    @Test("a state inside a planet's sphere coasts about it, then about the Sun, continuously")
    func handover() throws {
        let eph = FlybyTestData.ephemeris
        let t0 = FlybyTestData.seconds(2020, 10, 16)
        let venus = FlybyTestData.place(.venus, t0)
        // 400,000 km from Venus, leaving it at about 8.5 km/s.
        let anchor = OrbitalState(seconds: t0, positionKm: venus.positionKm + Vector3(400_000, 0, 0), velocityKmS: venus.velocityKmS + Vector3(8, 3, 0))
        for forward in [true, false] {
            let coast = try PatchedCoast(from: anchor, forward: forward, ephemeris: eph)
            #expect(coast.body == .venus)
            let h = try #require(coast.handoverSeconds)
            #expect(forward ? h > t0 : h < t0)
            let before = coast.state(at: h), after = coast.state(at: h + (forward ? 1e-3 : -1e-3))
            #expect((after.positionKm - before.positionKm - before.velocityKmS * (forward ? 1e-3 : -1e-3)).length < metres(1))
            #expect((coast.state(at: t0).positionKm - anchor.positionKm).length < metres(1))
        }
        // Far from every planet: about the Sun only.
        let far = OrbitalState(seconds: t0, positionKm: Vector3(1.2e8, 0, 0), velocityKmS: Vector3(0, 33, 0))
        #expect(try PatchedCoast(from: far, forward: true, ephemeris: eph).body == nil)
    }

    @Test("ESA's BepiColombo kernel read as heliocentric ecliptic states: the Venus-1 swing-by")
    func esaKernel() throws {
        let span = try KernelSpan(kernel: FlybyTestData.kernel("naif/bc_mpo_fcp_Venus1SwingbyMTP_v01.bsp"), target: -121, ephemeris: FlybyTestData.ephemeris)
        #expect(abs(span.startSeconds - FlybyTestData.seconds(2020, 10, 13) ) < seconds(70))
        #expect(span.endSeconds > span.startSeconds + 2.9 * 86_400)
        var best = (km: Double.infinity, t: 0.0)
        var t = span.startSeconds
        while t <= span.endSeconds {
            let d = (try span.state(at: t).positionKm - FlybyTestData.place(.venus, t).positionKm).length
            if d < best.km { best = (d, t) }
            t += 10
        }
        // ESA's Venus-1 closest approach: about 10,660 km above the surface on 2020-10-15 near 03:58 UTC.
        #expect(abs(best.km - FlybyTestData.ephemeris.catalogue[.venus].radiusKm - 10_663) < km(5))
        #expect(abs(best.t - FlybyTestData.seconds(2020, 10, 15, 3, 58)) < seconds(120))
        #expect(throws: (any Error).self) { try KernelSpan(kernel: FlybyTestData.kernel("naif/bc_mpo_fcp_Venus1SwingbyMTP_v01.bsp"), target: -98, ephemeris: FlybyTestData.ephemeris) }
    }
}
