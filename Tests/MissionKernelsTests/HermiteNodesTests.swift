import Astrodynamics
import Testing
@testable import MissionKernels
import Ephemeris
import Missions

@Suite("Hermite nodes")
struct HermiteNodesTests {
    /// An eccentric two-body orbit around the Earth (perigee 7,000 km, e = 0.7).
    static let orbit = KeplerArc(mu: GravityConstants.earthGM, position: Vector3(7_000, 0, 0), velocity: Vector3(0, 9.0, 3.0), epochHours: 0)

    static func truth(_ t: Double) -> OrbitalState {
        let s = orbit.state(atHours: t / 3600)
        return OrbitalState(seconds: t, positionKm: s.position, velocityKmS: s.velocity)
    }

    @Test("the nodes keep every required epoch and reproduce an eccentric orbit within the tolerance")
    func eccentricOrbit() throws {
        let required = stride(from: 0.0, through: 86_400 * 2, by: 6 * 3600).map { $0 }
        let nodes = try HermiteNodes.fit(required: required, window: 6, toleranceKm: 0.001) { Self.truth($0) }
        for t in required { #expect(nodes.contains { $0.seconds == t }) }
        #expect(nodes.count > required.count, "the perigees need more nodes than 6-hour ones")
        var worst = 0.0, checked = 0
        for k in 0...2_000 {
            let t = 86_400 * 2 * Double(k) / 2_000
            let p = HermiteNodes.interpolate(nodes, at: t, window: 6)
            worst = max(worst, (p.positionKm - Self.truth(t).positionKm).length)
            checked += 1
        }
        #expect(checked == 2_001)
        #expect(worst < 0.005, "\(worst * 1000) m")
    }

    @Test("at a node the interpolant is the node, position and velocity")
    func exactAtNodes() throws {
        let nodes = (0..<10).map { Self.truth(Double($0) * 600) }
        for n in nodes {
            let p = HermiteNodes.interpolate(nodes, at: n.seconds, window: 4)
            #expect((p.positionKm - n.positionKm).length < 1e-8)
            #expect((p.velocityKmS - n.velocityKmS).length < 1e-11)
        }
    }

    @Test("a velocity tolerance holds the interpolated velocity where the position's alone would not")
    func velocityTolerance() throws {
        // Six minutes through perigee (the orbit's epoch: its velocity there is square to its
        // position): three nodes hold the position within 10 m, the velocity only within 4.6 cm/s.
        let required = [-180.0, 180.0]
        func worstVelocity(_ nodes: [OrbitalState]) -> Double {
            (0...200).map { k -> Double in
                let t = required[0] + 360 * Double(k) / 200
                return (HermiteNodes.interpolate(nodes, at: t, window: 6).velocityKmS - Self.truth(t).velocityKmS).length
            }.max()!
        }
        let loose = try HermiteNodes.fit(required: required, window: 6, toleranceKm: 0.01) { Self.truth($0) }
        let held = try HermiteNodes.fit(required: required, window: 6, toleranceKm: 0.01, velocityToleranceKmS: 1e-5) { Self.truth($0) }
        #expect(loose.count == 3)
        #expect(worstVelocity(loose) > 1e-5, "\(worstVelocity(loose) * 1000) m/s")
        #expect(held.count > loose.count)
        // Held at the quarter points, so within a few times the tolerance between them.
        #expect(worstVelocity(held) < 3e-5, "\(worstVelocity(held) * 1000) m/s")
    }

    @Test("a fit that does not settle says whether the position or the velocity kept it from settling")
    func failureNamesWhatFailed() throws {
        // One pass through perigee: three nodes hold the position within 10 m but the velocity
        // only within 4.6 cm/s, so a 1 cm/s tolerance fails there and the message says so.
        let required = [-180.0, 180.0]
        do {
            _ = try HermiteNodes.fit(required: required, window: 6, toleranceKm: 0.01, velocityToleranceKmS: 1e-5, maxPasses: 1) { Self.truth($0) }
            Issue.record("one pass cannot hold the velocity within 1 cm/s")
        } catch let e as HermiteNodes.FitError {
            #expect(e.description.contains("velocity "), "\(e.description)")
            #expect(e.description.contains("m/s off at"), "\(e.description)")
        }
        // Without a velocity tolerance, a position that does not settle is named alone.
        do {
            _ = try HermiteNodes.fit(required: [0, 86_400], window: 6, toleranceKm: 1e-6, maxPasses: 1) { Self.truth($0) }
            Issue.record("one pass cannot hold a day of an eccentric orbit within a millimetre")
        } catch let e as HermiteNodes.FitError {
            #expect(e.description.contains("did not settle within 0.001 m"), "\(e.description)")
            #expect(!e.description.contains("velocity"), "\(e.description)")
        }
    }
}
