import Testing
import Ephemeris
@testable import Astrodynamics

@Suite("Planet centres: where Jupiter and Saturn are, not their barycentres")
struct PlanetCenterTests {
    let eph = PropagationFixtures.de440
    /// 2016-01-01 … 2018-01-01, the Juno years, TDB seconds past J2000.
    let times = (0..<400).map { 504_000_000.0 + Double($0) * 157_788.0 }

    @Test("the offset is −Σ (GM_moon / GM_system) · r_moon over the engine's moons", arguments: [BodyID.jupiter, .saturn, .mars])
    func definition(planet: BodyID) {
        var checked = 0
        for t in times {
            let instant = TimeScale.instant(tdbSecondsPastJ2000: t)
            var expected = Vector3.zero
            for moon in PlanetCenter.moons(of: planet) {
                expected -= eph.parentRelativeState(moon, at: instant).positionKm * (GravityConstants.gm(moon) / GravityConstants.gm(planet))
            }
            let offset = PlanetCenter.offsetFromBarycenter(planet, seconds: t)
            #expect((offset.positionKm - expected).length < metres(1))
            checked += 1
        }
        #expect(checked == times.count)
    }

    @Test("planet and moons weighted by GM put the system's centre of mass at the barycentre", arguments: [BodyID.jupiter, .saturn])
    func barycenter(planet: BodyID) {
        var checked = 0
        for t in times {
            let states = PlanetCenter.moonStates(planet, seconds: t)
            let offset = PlanetCenter.offsetFromBarycenter(planet, seconds: t)
            // The planet carries whatever of the system's GM the listed moons do not.
            let moonsGM = PlanetCenter.moons(of: planet).map(GravityConstants.gm).reduce(0, +)
            var moment = offset.positionKm * (GravityConstants.gm(planet) - moonsGM)
            var momentum = offset.velocityKmS * (GravityConstants.gm(planet) - moonsGM)
            for (moon, s) in zip(PlanetCenter.moons(of: planet), states) {
                moment += (offset.positionKm + s.r) * GravityConstants.gm(moon)
                momentum += (offset.velocityKmS + s.v) * GravityConstants.gm(moon)
            }
            #expect((moment / GravityConstants.gm(planet)).length < metres(1))
            #expect((momentum / GravityConstants.gm(planet)).length < metresPerSecond(1e-3))
            checked += 1
        }
        #expect(checked == times.count)
    }

    @Test("Jupiter's centre wanders up to ~230 km from its barycentre, Saturn's ~300 km, Mars's a fraction of a metre")
    func sizes() {
        func range(_ planet: BodyID) -> ClosedRange<Double> {
            let lengths = times.map { PlanetCenter.offsetFromBarycenter(planet, seconds: $0).positionKm.length }
            return lengths.min()!...lengths.max()!
        }
        let jupiter = range(.jupiter), saturn = range(.saturn), mars = range(.mars)
        #expect(jupiter.upperBound < km(240) && jupiter.upperBound > km(170), "\(jupiter)")
        #expect(saturn.lowerBound > km(250) && saturn.upperBound < km(330), "\(saturn)")
        #expect(mars.upperBound < metres(0.5))
        #expect(PlanetCenter.offsetFromBarycenter(.uranus, seconds: 0).positionKm == .zero)
        #expect(PlanetCenter.offsetFromBarycenter(.earth, seconds: 0).positionKm == .zero)
    }

    @Test("moon states: the engine's positions, velocities the derivative of those positions", arguments: [BodyID.jupiter, .saturn, .mars])
    func moonStates(planet: BodyID) {
        var checked = 0
        for t in times.prefix(50) {
            let instant = TimeScale.instant(tdbSecondsPastJ2000: t)
            let states = PlanetCenter.moonStates(planet, seconds: t)
            let d = planet == .mars ? 60.0 : 600.0 // short enough for Phobos (7.7 h)
            let p1 = PlanetCenter.moonStates(planet, seconds: t + d), m1 = PlanetCenter.moonStates(planet, seconds: t - d)
            let p2 = PlanetCenter.moonStates(planet, seconds: t + 2 * d), m2 = PlanetCenter.moonStates(planet, seconds: t - 2 * d)
            for (i, moon) in PlanetCenter.moons(of: planet).enumerated() {
                let engine = eph.parentRelativeState(moon, at: instant)
                #expect(states[i].r == engine.positionKm)
                // The engine's own velocity is a coarser difference (7·10⁻⁶ of the speed).
                #expect((states[i].v - engine.velocityKmPerDay / 86_400).length < 1e-5 * states[i].v.length + 1e-9)
                // A difference of the positions 10 minutes apart (the theories' time argument is
                // a Julian-date double, ±20 µs: ±0.35 m on Io, so short baselines are noise).
                let difference = ((p1[i].r - m1[i].r) * 8 - (p2[i].r - m2[i].r)) / (12 * d)
                #expect((states[i].v - difference).length < metresPerSecond(5e-3))
                checked += 1
            }
        }
        #expect(checked == 50 * PlanetCenter.moons(of: planet).count)
    }
}
