import Glibc
import Testing
import Ephemeris
@testable import Astrodynamics

@Suite("Two-body arcs: universal-variable propagation and Lambert's problem")
struct KeplerArcTests {
    let moonMu = Constants.moonGMKm3PerS2

    func energy(_ s: (position: Vector3, velocity: Vector3), mu: Double) -> Double {
        s.velocity.lengthSquared / 2 - mu / s.position.length
    }

    @Test("a circular lunar orbit comes back after one period and is a quarter turn on after a quarter")
    func circularOrbit() {
        let r = 1_737.4 + 110, v = (moonMu / r).squareRoot()
        let arc = KeplerArc(mu: moonMu, position: Vector3(r, 0, 0), velocity: Vector3(0, v, 0), epochHours: 10)
        let periodHours = 2 * Double.pi * (r * r * r / moonMu).squareRoot() / 3600
        #expect(abs(periodHours - 1.979) < 0.001) // 110 km above a 1,737.4 km Moon: about 2 h
        #expect((arc.state(atHours: 10 + periodHours).position - arc.position).length < km(1e-6))
        let quarter = arc.state(atHours: 10 + periodHours / 4)
        #expect((quarter.position - Vector3(0, r, 0)).length < km(1e-6))
        #expect((quarter.velocity - Vector3(-v, 0, 0)).length < 1e-9)
        // Backwards too.
        #expect((arc.state(atHours: 10 - periodHours / 4).position - Vector3(0, -r, 0)).length < km(1e-6))
    }

    @Test("a circular heliocentric orbit stays within a metre of its analytic place over fifteen years")
    func longPropagation() {
        let mu = GravityConstants.sunGM, r = Constants.auKm
        let v = (mu / r).squareRoot()
        let period = 2 * Double.pi * (r * r * r / mu).squareRoot()
        let arc = KeplerArc(mu: mu, position: Vector3(r, 0, 0), velocity: Vector3(0, v, 0), epochHours: 0)
        var worst = 0.0
        for k in 1...400 {
            let dt = period * Double(k) * 0.0371
            let angle = 2 * Double.pi * dt / period
            let exact = Vector3(r * cos(angle), r * sin(angle), 0)
            worst = max(worst, (arc.state(afterSeconds: dt).position - exact).length)
            // The hours API is the same propagation (dt/3600·3600 rounds, the solve ends at rounding).
            #expect((arc.state(atHours: dt / 3600).position - arc.state(afterSeconds: dt).position).length < km(0.001))
        }
        #expect(worst < km(0.001), "\(worst) km")
    }

    @Test("a hyperbola keeps its energy and angular momentum and retraces itself", arguments: [-20.0, -3, -0.01, 0.01, 1, 7.5, 20])
    func hyperbola(hours: Double) {
        // 110 km periapsis at 2.5 km/s: v∞ ≈ 1.26 km/s.
        let arc = KeplerArc(mu: moonMu, position: Vector3(1_847.4, 0, 0), velocity: Vector3(0, 2.5, 0.3), epochHours: 0)
        let there = arc.state(atHours: hours)
        let start = (arc.position, arc.velocity)
        #expect(abs(energy(there, mu: moonMu) - energy(start, mu: moonMu)) < 1e-9)
        #expect((there.position.cross(there.velocity) - arc.position.cross(arc.velocity)).length < 1e-6)
        let back = KeplerArc(mu: moonMu, position: there.position, velocity: there.velocity, epochHours: hours).state(atHours: 0)
        #expect((back.position - arc.position).length < km(1e-5))
        #expect((back.velocity - arc.velocity).length < 1e-9)
        // It never comes closer than its periapsis.
        #expect(there.position.length >= 1_847.4 - 1e-6)
    }

    @Test("Lambert: Curtis, Orbital Mechanics for Engineering Students, example 5.2 (Earth, one hour)")
    func lambertTextbook() throws {
        let s = try #require(KeplerArc.lambert(mu: 398_600, from: Vector3(5_000, 10_000, 2_100), to: Vector3(-14_600, 2_500, 7_000), seconds: 3_600, longWay: false))
        #expect((s.v1 - Vector3(-5.9925, 1.9254, 3.2456)).length < 1e-3, "\(s.v1)")
        #expect((s.v2 - Vector3(-3.3125, -4.1966, -0.38529)).length < 1e-3, "\(s.v2)")
    }

    @Test("Lambert solutions propagate onto their target, both ways round", arguments: [(false, 3.0), (true, 3.0), (false, 14.0), (true, 30.0), (false, 0.5)])
    func lambertRoundTrip(longWay: Bool, hours: Double) throws {
        let r1 = Vector3(60_000, -12_000, 3_000), r2 = Vector3(-1_200, 1_400, 100)
        let s = try #require(KeplerArc.lambert(mu: moonMu, from: r1, to: r2, seconds: hours * 3600, longWay: longWay))
        let arc = KeplerArc(mu: moonMu, position: r1, velocity: s.v1, epochHours: 0)
        let end = arc.state(atHours: hours)
        #expect((end.position - r2).length < km(1e-3), "\(end.position) vs \(r2)")
        #expect((end.velocity - s.v2).length < 1e-6)
        // The long way round turns the other way: opposite angular momentum.
        let h = r1.cross(s.v1), short = r1.cross(r2)
        #expect((h.dot(short) > 0) != longWay)
    }

    @Test("Lambert refuses (anti)parallel ends, where the plane is undefined, and non-positive times")
    func lambertDegenerate() {
        #expect(KeplerArc.lambert(mu: moonMu, from: Vector3(10_000, 0, 0), to: Vector3(-5_000, 0, 0), seconds: 3_600, longWay: false) == nil)
        #expect(KeplerArc.lambert(mu: moonMu, from: Vector3(10_000, 0, 0), to: Vector3(20_000, 0, 0), seconds: 3_600, longWay: false) == nil)
        #expect(KeplerArc.lambert(mu: moonMu, from: Vector3(10_000, 0, 0), to: Vector3(0, 9_000, 0), seconds: 0, longWay: false) == nil)
    }

    @Test("the minimum distance of an arc is its periapsis only when the arc passes it")
    func minimumDistance() {
        let arc = KeplerArc(mu: moonMu, position: Vector3(1_847.4, 0, 0), velocity: Vector3(0, 2.5, 0), epochHours: 0)
        let before = arc.state(atHours: -2), after = arc.state(atHours: 3)
        #expect(abs(KeplerArc.minimumDistance(mu: moonMu, from: before, to: after) - 1_847.4) < km(1e-6))
        let later = arc.state(atHours: 5)
        #expect(abs(KeplerArc.minimumDistance(mu: moonMu, from: after, to: later) - after.position.length) < 1e-9)
    }
}
