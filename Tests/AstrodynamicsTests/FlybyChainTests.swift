import Glibc
import Testing
import Ephemeris
@testable import Astrodynamics

/// Tolerances in named units.
func seconds(_ x: Double) -> Double { x }
func degrees(_ x: Double) -> Double { x * Double.pi / 180 }

@Suite("Patched-conic flyby chains")
struct FlybyChainTests {
    static let eph = PropagationFixtures.de440
    static func t(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0, _ s: Double = 0) -> Double { PropagationFixtures.tdbSeconds(y, m, d, h, min, s) }
    static func radius(_ b: BodyID) -> Double { eph.catalogue[b].radiusKm }

    // MARK: - Walking a chain

    struct Walk {
        var samples = 0
        var maxSpeedKmS = 0.0
        /// Least distance minus radius, per body.
        var clearanceKm: [BodyID: Double] = [:]
        /// Consecutive samples whose velocity changed more than gravity allows, and those that
        /// straddle a burn.
        var jumps = 0
        var burnsCrossed = 0
        var worstPositionStepKm = 0.0
    }

    /// Samples the chain every `coarse` seconds, and every `fine` seconds within `window` of
    /// each segment boundary and node. Checks each step against what gravity (the centre's
    /// plus every listed body's, at the nearer end, doubled) can do to velocity and position.
    static func walk(_ chain: FlybyChain, bodies: [BodyID], coarse: Double = 3_600, fine: Double = 60, window: Double = 2 * 86_400) -> Walk {
        var times: [Double] = []
        var marks = chain.segments.map(\.startSeconds) + chain.plan.nodes.map(\.seconds)
        marks.append(chain.endSeconds)
        var t = chain.startSeconds
        while t < chain.endSeconds {
            times.append(t)
            let near = marks.contains { abs($0 - t) < window }
            t += near ? fine : coarse
        }
        times.append(chain.endSeconds)
        let centerMu = GravityConstants.gm(chain.plan.center)
        var w = Walk()
        var previous: (OrbitalState, Double)?
        for time in times {
            guard let s = chain.state(atSeconds: time) else { continue }
            w.samples += 1
            w.maxSpeedKmS = max(w.maxSpeedKmS, s.velocityKmS.length)
            var acceleration = centerMu / s.positionKm.lengthSquared
            w.clearanceKm[chain.plan.center] = min(w.clearanceKm[chain.plan.center] ?? .infinity, s.positionKm.length - radius(chain.plan.center))
            for b in bodies {
                let d = (s.positionKm - chain.bodyStates.state(b, seconds: time).position).length
                w.clearanceKm[b] = min(w.clearanceKm[b] ?? .infinity, d - radius(b))
                acceleration += GravityConstants.gm(b) / (d * d)
            }
            if let (p, pa) = previous {
                let h = time - p.seconds
                let bound = 2 * max(acceleration, pa)
                let dv = (s.velocityKmS - p.velocityKmS).length
                let dr = (s.positionKm - p.positionKm - p.velocityKmS * h).length
                w.worstPositionStepKm = max(w.worstPositionStepKm, dr - bound * h * h / 2)
                if chain.burns.contains(where: { $0.seconds > p.seconds && $0.seconds <= time }) {
                    w.burnsCrossed += 1
                } else if dv > bound * h + 1e-9 || dr > bound * h * h / 2 + 1e-6 {
                    w.jumps += 1
                }
            }
            previous = (s, acceleration)
        }
        return w
    }

    /// Left and right states at every boundary between segments: the largest position and
    /// velocity differences, and the velocity differences where the chain lists a burn.
    static func boundaries(_ chain: FlybyChain) -> (count: Int, positionKm: Double, velocityKmS: Double, burns: [Double]) {
        var worstR = 0.0, worstV = 0.0, burns: [Double] = []
        for i in 1..<chain.segments.count {
            let a = chain.segments[i - 1], b = chain.segments[i]
            #expect(a.endSeconds == b.startSeconds, "segments \(i - 1) and \(i) leave a gap")
            let left = a.state(atSeconds: a.endSeconds, bodies: chain.bodyStates), right = b.state(atSeconds: b.startSeconds, bodies: chain.bodyStates)
            worstR = max(worstR, (left.positionKm - right.positionKm).length)
            let dv = (left.velocityKmS - right.velocityKmS).length
            if let burn = chain.burns.first(where: { $0.seconds == b.startSeconds }) {
                #expect(abs(dv - burn.deltaVKmS) < kmPerS(1e-6), "the jump at a burn is the burn")
                burns.append(dv)
            } else {
                worstV = max(worstV, dv)
            }
        }
        return (chain.segments.count - 1, worstR, worstV, burns)
    }

    /// The closest approach to `body` near `seconds` by sampling the built path every 0.25 s
    /// over ±120 s and refining by golden section: (distance km, time).
    static func closestApproach(_ chain: FlybyChain, _ body: BodyID, near seconds: Double) -> (Double, Double) {
        func distance(_ t: Double) -> Double {
            (chain.state(atSeconds: t)!.positionKm - chain.bodyStates.state(body, seconds: t).position).length
        }
        var best = (d: Double.infinity, t: seconds)
        for k in -480...480 {
            let t = seconds + Double(k) * 0.25
            let d = distance(t)
            if d < best.d { best = (d, t) }
        }
        var lo = best.t - 0.25, hi = best.t + 0.25
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo)
            if distance(a) < distance(b) { hi = b } else { lo = a }
        }
        return (distance((lo + hi) / 2), (lo + hi) / 2)
    }

    // MARK: - A synthetic chain

    static let synthetic = FlybyPlan(center: .sun, nodes: [
        .departure(.earth, seconds: t(2006, 1, 19, 19, 45), injectionAltitudeKm: 300, name: "launch"),
        .flyby(.jupiter, seconds: t(2007, 2, 28, 5, 43, 40), closestApproachKm: 3_000_000, name: "Jupiter flyby"),
        .flyby(.pluto, seconds: t(2015, 7, 14, 11, 49, 57), closestApproachKm: 20_000, name: "Pluto flyby"),
    ], openEnd: FlybyPlan.OpenEnd(seconds: t(2015, 9, 1)))

    @Test("synthetic Earth → Jupiter → Pluto-like chain: each closest approach at its distance and time")
    func closestApproaches() throws {
        let chain = try FlybyChain(plan: Self.synthetic, ephemeris: Self.eph)
        #expect(chain.maximumPatchMismatchKmS < kmPerS(1e-9))
        for (node, body) in [(1, BodyID.jupiter), (2, .pluto)] {
            let planned = Self.synthetic.nodes[node]
            let (d, t) = Self.closestApproach(chain, body, near: planned.seconds)
            #expect(abs(d - planned.distanceKm!) < km(1), "\(body): \(d) km")
            #expect(abs(t - planned.seconds) < seconds(1), "\(body): \(t - planned.seconds) s")
            let report = try #require(chain.flybys.first { $0.node == node })
            #expect(abs(report.achievedClosestApproachKm - planned.distanceKm!) < km(1))
            #expect(abs(report.achievedClosestApproachSeconds - planned.seconds) < seconds(1))
            print("[chain] synthetic \(body): closest approach \(d) km at \(t - planned.seconds) s from planned; v∞ \(report.vInfinityIn.length) → \(report.vInfinityOut.length) km/s, Δv \(report.deltaVKmS * 1000) m/s")
        }
    }

    @Test("synthetic chain: continuous in position everywhere, in velocity except at its burns; never inside a body, never above 200 km/s")
    func continuity() throws {
        let chain = try FlybyChain(plan: Self.synthetic, ephemeris: Self.eph)
        let b = Self.boundaries(chain)
        #expect(b.count == chain.segments.count - 1 && b.count >= 6)
        #expect(b.positionKm < km(0.001), "\(b.positionKm) km")
        #expect(b.velocityKmS < kmPerS(1e-6), "\(b.velocityKmS) km/s")
        #expect(b.burns.count == chain.burns.count)
        let w = Self.walk(chain, bodies: [.earth, .jupiter, .pluto])
        print("[chain] synthetic walk: \(w.samples) samples, \(b.count) boundaries (worst \(b.positionKm * 1000) m, \(b.velocityKmS * 1e6) mm/s), \(w.burnsCrossed) burns crossed, max speed \(w.maxSpeedKmS) km/s, clearance \(w.clearanceKm)")
        #expect(w.samples > 100_000)
        #expect(w.jumps == 0)
        #expect(w.burnsCrossed == chain.burns.count)
        #expect(w.maxSpeedKmS < 200)
        for (body, clearance) in w.clearanceKm { #expect(clearance > 0, "\(body): \(clearance) km") }
        // Outside its span, no state.
        #expect(chain.state(atSeconds: chain.startSeconds - 1) == nil)
        #expect(chain.state(atSeconds: chain.endSeconds + 1) == nil)
    }

    // MARK: - An unpowered flyby

    /// New Horizons' nodes with Jupiter's distance and Pluto's time moved until the legs ask for
    /// exactly what an unpowered Jupiter flyby does: same |v∞| in and out, and the turn the
    /// distance gives (Newton's method on those two conditions). The chain must then report no
    /// impulse at all.
    @Test("a chain whose legs ask for an unpowered flyby reports no Δv, and its hyperbola is one conic through the flyby")
    func unpoweredChain() throws {
        let launch = Self.t(2006, 1, 19, 19, 45), jupiter = Self.t(2007, 2, 28, 5, 43, 40)
        func plan(_ rp: Double, _ arrival: Double) -> FlybyPlan {
            FlybyPlan(center: .sun, nodes: [
                .departure(.earth, seconds: launch, injectionAltitudeKm: 300),
                .flyby(.jupiter, seconds: jupiter, closestApproachKm: rp),
                .arrival(.pluto, seconds: arrival),
            ])
        }
        func conditions(_ rp: Double, _ arrival: Double) throws -> (Double, Double, FlybyChain) {
            let chain = try FlybyChain(plan: plan(rp, arrival), ephemeris: Self.eph)
            let f = chain.flybys[0]
            return (f.vInfinityOut.length - f.vInfinityIn.length, f.turnRadians - f.unpoweredTurnRadians, chain)
        }
        var x = (rp: 2_300_000.0, arrival: Self.t(2015, 7, 14, 11, 49, 57))
        var chain = try conditions(x.rp, x.arrival).2
        for _ in 0..<20 {
            let (g1, g2, c) = try conditions(x.rp, x.arrival)
            chain = c
            if abs(g1) < 1e-12 && abs(g2) < 1e-13 { break }
            let hr = 100.0, ht = 600.0
            let (a1, a2, _) = try conditions(x.rp + hr, x.arrival), (b1, b2, _) = try conditions(x.rp, x.arrival + ht)
            let j11 = (a1 - g1) / hr, j12 = (b1 - g1) / ht, j21 = (a2 - g2) / hr, j22 = (b2 - g2) / ht
            let det = j11 * j22 - j12 * j21
            x.rp -= (j22 * g1 - j12 * g2) / det
            x.arrival -= (j11 * g2 - j21 * g1) / det
        }
        let f = chain.flybys[0]
        print("[chain] unpowered Jupiter flyby: closest approach \(x.rp) km, Pluto reached \((x.arrival - Self.t(2015, 7, 14, 11, 49, 57)) / 86_400) days from New Horizons' date; Δv \(f.deltaVKmS * 1e6) mm/s, v∞ \(f.vInfinityIn.length) km/s")
        #expect(f.deltaVKmS < kmPerS(1e-6))
        #expect(chain.burns.isEmpty)
        // One hyperbola: the inbound half's state at closest approach, propagated out, is the
        // outbound half.
        let inbound = try #require(chain.segments.first { $0.kind == .inbound(node: 1) })
        let outbound = try #require(chain.segments.first { $0.kind == .outbound(node: 1) })
        let later = inbound.conicState(atSeconds: outbound.endSeconds), actual = outbound.conicState(atSeconds: outbound.endSeconds)
        #expect((later.position - actual.position).length < km(0.001))
    }

    // MARK: - A geocentric chain

    static let freeReturn = FlybyPlan(center: .earth, nodes: [
        .departure(.earth, seconds: t(2024, 3, 1, 12), injectionAltitudeKm: 185, name: "TLI"),
        .flyby(.moon, seconds: t(2024, 3, 4, 12), closestApproachKm: 1_737.4 + 250, name: "lunar flyby"),
        .arrival(.earth, seconds: t(2024, 3, 7, 12), endRadiusKm: 6_378.137 + 122, name: "entry interface"),
    ])

    @Test("a geocentric chain about the Earth with a lunar flyby: perigee injection, closest approach, entry, all continuous")
    func lunarFreeReturn() throws {
        let chain = try FlybyChain(plan: Self.freeReturn, ephemeris: Self.eph)
        let start = try #require(chain.state(atSeconds: chain.startSeconds)), end = try #require(chain.state(atSeconds: chain.endSeconds))
        #expect(abs(start.positionKm.length - (Self.radius(.earth) + 185)) < km(1e-6))
        #expect(abs(start.positionKm.normalized.dot(start.velocityKmS.normalized)) < 1e-9, "injection at perigee")
        #expect(abs(end.positionKm.length - (6_378.137 + 122)) < km(1e-6))
        #expect(abs(end.positionKm.normalized.dot(end.velocityKmS.normalized)) < 1e-9, "ends at perigee")
        let (d, t) = Self.closestApproach(chain, .moon, near: Self.freeReturn.nodes[1].seconds)
        #expect(abs(d - (1_737.4 + 250)) < km(1) && abs(t - Self.freeReturn.nodes[1].seconds) < seconds(1))
        let b = Self.boundaries(chain)
        #expect(b.positionKm < km(0.001) && b.velocityKmS < kmPerS(1e-6))
        let w = Self.walk(chain, bodies: [.moon], coarse: 60, fine: 10, window: 3_600)
        #expect(w.jumps == 0 && w.burnsCrossed == chain.burns.count)
        for (body, clearance) in w.clearanceKm { #expect(clearance > 0, "\(body): \(clearance) km") }
        let f = chain.flybys[0]
        print("[chain] free return: TLI \(chain.departure.injectionSpeedKmS!) km/s at 185 km, Moon v∞ \(f.vInfinityIn.length) → \(f.vInfinityOut.length) km/s, Δv \(f.deltaVKmS * 1000) m/s at \(d - 1_737.4) km, entry \(chain.arrival!.endSpeedKmS!) km/s, \(chain.iterations) iterations, \(w.samples) samples")
    }

    // MARK: - Choosing Lambert solutions

    /// An Earth-return leg of 900 days (Earth → Earth → Venus, dates chosen only so that the
    /// zero- and both one-revolution Lambert solutions exist): the automatic choice must be the
    /// cheapest of the explicit ones. The dates are arbitrary, so every option needs a large
    /// Earth-flyby impulse; only the ordering matters here.
    @Test("'least Δv' picks the Lambert solution whose flyby needs the least impulse")
    func leastDeltaVChoice() throws {
        let t0 = Self.t(2018, 10, 20, 1, 45), t1 = t0 + 900 * 86_400
        let nodes: [FlybyNode] = [
            .departure(.earth, seconds: t0, injectionAltitudeKm: 300),
            .flyby(.earth, seconds: t1, closestApproachKm: Self.radius(.earth) + 5_000),
            .flyby(.venus, seconds: t1 + 160 * 86_400, closestApproachKm: Self.radius(.venus) + 5_000),
        ]
        let open = FlybyPlan.OpenEnd(seconds: t1 + 400 * 86_400)
        let auto = try FlybyChain(plan: FlybyPlan(nodes: nodes, legs: [FlybyPlan.Leg(revolutions: .leastDeltaV(maxRevolutions: 1)), .direct], openEnd: open), ephemeris: Self.eph)
        var alternatives: [(String, Double)] = []
        for (n, branch) in [(0, LambertBranch.left), (1, .left), (1, .right)] {
            let plan = FlybyPlan(nodes: nodes, legs: [FlybyPlan.Leg(revolutions: .exactly(n, branch)), .direct], openEnd: open)
            let chain = try FlybyChain(plan: plan, ephemeris: Self.eph)
            alternatives.append(("\(n) \(branch)", chain.flybys[0].deltaVKmS))
        }
        let chosen = auto.flybys[0].deltaVKmS
        print("[chain] 900-day Earth return: chose \(auto.legs[0].revolutions) revolutions \(String(describing: auto.legs[0].branch)), Earth flyby Δv \(chosen) km/s; alternatives \(alternatives)")
        #expect(chosen <= alternatives.map(\.1).min()! + kmPerS(1e-6))
    }

    // MARK: - Errors

    static func error(_ plan: FlybyPlan) -> FlybyChainError? {
        do {
            _ = try FlybyChain(plan: plan, ephemeris: eph)
            return nil
        } catch {
            return error
        }
    }

    @Test("bad plans are errors naming the node and the problem, never traps")
    func errors() throws {
        let base = Self.synthetic.nodes
        let open = Self.synthetic.openEnd
        // Out of order.
        var e = try #require(Self.error(FlybyPlan(nodes: [base[0], base[2], base[1]], openEnd: open)))
        #expect(e.node == 2)
        #expect(e.description.contains("Jupiter flyby"), "\(e)")
        if case .outOfOrder = e.problem {} else { Issue.record("\(e)") }
        // Below the radius.
        e = try #require(Self.error(FlybyPlan(nodes: [base[0], .flyby(.jupiter, seconds: base[1].seconds, closestApproachKm: 50_000, name: "grazing"), base[2]], openEnd: open)))
        #expect(e.node == 1 && e.problem == .belowSurface(distanceKm: 50_000, radiusKm: Self.radius(.jupiter)))
        #expect(e.description.contains("grazing") && e.description.contains("50000"), "\(e)")
        // Outside the ephemeris (the kernel ends in 2100).
        e = try #require(Self.error(FlybyPlan(nodes: [base[0], base[1], .flyby(.pluto, seconds: Self.t(2105, 1, 1), closestApproachKm: 20_000)], openEnd: FlybyPlan.OpenEnd(seconds: Self.t(2106, 1, 1)))))
        #expect(e.node == 2)
        if case .outsideEphemeris = e.problem {} else { Issue.record("\(e)") }
        // A leg with no solution for the revolutions asked: 13 months cannot hold 3 revolutions.
        e = try #require(Self.error(FlybyPlan(nodes: base, legs: [FlybyPlan.Leg(revolutions: .exactly(3, .left)), .direct], openEnd: open)))
        #expect(e.node == 0)
        if case .noLambertSolution(3, _) = e.problem {} else { Issue.record("\(e)") }
        // Shape: no departure first; a last flyby without an open end; an open end after an
        // arrival; a flyby of the centre; a body that does not orbit the centre; legs of the
        // wrong count; a departure from the centre without an altitude.
        let shapes: [FlybyPlan] = [
            FlybyPlan(nodes: [base[1], base[2]], openEnd: open),
            FlybyPlan(nodes: base),
            FlybyPlan(nodes: [base[0], .arrival(.jupiter, seconds: base[1].seconds)], openEnd: open),
            FlybyPlan(nodes: [base[0], .flyby(.sun, seconds: base[1].seconds, closestApproachKm: 1e7)], openEnd: open),
            FlybyPlan(nodes: [base[0], .flyby(.moon, seconds: base[1].seconds, closestApproachKm: 5_000)], openEnd: open),
            FlybyPlan(nodes: base, legs: [.direct], openEnd: open),
            FlybyPlan(center: .earth, nodes: [.departure(.earth, seconds: base[0].seconds), .flyby(.moon, seconds: base[0].seconds + 3 * 86_400, closestApproachKm: 3_000)],
                      openEnd: FlybyPlan.OpenEnd(seconds: base[0].seconds + 6 * 86_400)),
            FlybyPlan(nodes: [base[0]]),
            FlybyPlan(nodes: [.departure(.earth, seconds: .nan), base[1], base[2]], openEnd: open),
            FlybyPlan(nodes: [.departure(.earth, seconds: base[0].seconds, injectionAltitudeKm: -5), base[1], base[2]], openEnd: open),
            FlybyPlan(nodes: [base[0], .flyby(.jupiter, seconds: base[1].seconds, closestApproachKm: 9e9), base[2]], openEnd: open),
        ]
        for plan in shapes {
            let e = try #require(Self.error(plan), "\(plan.nodes.map(\.kind))")
            #expect(e.description.hasPrefix("node \(e.node) ("), "\(e)")
        }
    }

    // MARK: - Real missions, roughly

    /// New Horizons. Launch 2006-01-19 19:00 UTC (2 p.m. EST), third stage separated 44 min
    /// 53 s later at 16.26 km/s Earth-relative (NASA launch coverage, newslines.org "Launch
    /// successful"; universetoday/Wikipedia summary). Jupiter closest approach 2007-02-28
    /// 05:43 UTC (12:43 a.m. EST) at 2.3 million km from the centre (spacetoday.net, NASA
    /// release via universetoday "passing as close as 2.3 million km away from the planet's
    /// centre"). Pluto closest approach 2015-07-14 11:49:57 UTC, 12,500 km above the surface
    /// (sciencephoto.com caption "11:49:57 UT"; NASA/spaceref "approximately 7,800 miles
    /// (12,500 kilometers) above the surface") — 13,690 km from the centre with Pluto's
    /// 1,188 km radius — at 13.78 km/s relative (remanzacco.blogspot.com, 2015-07-13).
    /// Injection is modelled at 200 km altitude at separation; ascent and parking orbit are
    /// out of scope.
    @Test("New Horizons: the chain needs only a small Jupiter impulse and meets Pluto at the published v∞")
    func newHorizons() throws {
        let launch = Self.t(2006, 1, 19, 19, 0, 0)
        let plan = FlybyPlan(nodes: [
            .departure(.earth, seconds: launch + 44 * 60 + 53, injectionAltitudeKm: 200, name: "New Horizons injection"),
            .flyby(.jupiter, seconds: Self.t(2007, 2, 28, 5, 43, 0), closestApproachKm: 2_300_000, name: "Jupiter closest approach"),
            .flyby(.pluto, seconds: Self.t(2015, 7, 14, 11, 49, 57), closestApproachKm: 1_188 + 12_500, name: "Pluto closest approach"),
        ], openEnd: FlybyPlan.OpenEnd(seconds: Self.t(2015, 8, 14)))
        let chain = try FlybyChain(plan: plan, ephemeris: Self.eph)
        let jupiter = chain.flybys[0], pluto = chain.flybys[1]
        print("""
        [chain] New Horizons: C3 \(chain.departure.c3!) km²/s² (v∞ \(chain.departure.vInfinity!.length) km/s, \(chain.departure.injectionSpeedKmS!) km/s at 200 km)
        [chain]   Jupiter: v∞ \(jupiter.vInfinityIn.length) → \(jupiter.vInfinityOut.length) km/s, turn \(jupiter.turnRadians * 180 / .pi)° needed, \(jupiter.unpoweredTurnRadians * 180 / .pi)° unpowered at 2.3e6 km, Δv \(jupiter.deltaVKmS * 1000) m/s, closest \(jupiter.achievedClosestApproachKm) km
        [chain]   Pluto: v∞ \(pluto.vInfinityIn.length) km/s, turn \(pluto.turnRadians * 180 / .pi)°, closest \(pluto.achievedClosestApproachKm) km at \(pluto.achievedClosestApproachSeconds - plan.nodes[2].seconds) s; burns \(chain.burns.map { ($0.body, $0.deltaVKmS * 1000) }) m/s
        """)
        #expect(abs(pluto.vInfinityIn.length - 13.78) < kmPerS(0.05))
        #expect(jupiter.deltaVKmS < kmPerS(0.1), "real New Horizons used only small corrections")
        #expect(chain.burns.count == 1)
        let w = Self.walk(chain, bodies: [.earth, .jupiter, .pluto], coarse: 6 * 3_600)
        #expect(w.jumps == 0 && w.maxSpeedKmS < 200)
        for (body, clearance) in w.clearanceKm { #expect(clearance > 0, "\(body): \(clearance) km") }
    }

    /// Parker Solar Probe. Launch 2018-08-12 07:31 UTC (3:31 a.m. EDT, nasa.gov image article
    /// "Delta IV Heavy Lifts Off"), separated from the Star 48BV about 43 minutes later (Florida
    /// Today, 2018-08-12). First Venus flyby 2018-10-03, 52 days after launch (Guo et al., Acta
    /// Astronautica 2020), "within about 1,500 miles (2,400 km)" (NASA via AP); the brief's
    /// 08:44 UTC and 2,548 km altitude are used as given (not found in the stored sources).
    /// Then the first perihelion: 0.166 AU at 95.3 km/s five weeks later (Guo et al. 2020).
    @Test("Parker Solar Probe's first leg: an unpowered Venus flyby that lowers the perihelion to about 0.166 AU")
    func parker() throws {
        let plan = FlybyPlan(nodes: [
            .departure(.earth, seconds: Self.t(2018, 8, 12, 7, 31) + 43 * 60, injectionAltitudeKm: 200, name: "Parker injection"),
            .flyby(.venus, seconds: Self.t(2018, 10, 3, 8, 44), closestApproachKm: Self.radius(.venus) + 2_548, name: "Venus flyby 1"),
        ], openEnd: FlybyPlan.OpenEnd(seconds: Self.t(2018, 11, 20), turn: .decelerate))
        let chain = try FlybyChain(plan: plan, ephemeris: Self.eph)
        var perihelion = (r: Double.infinity, t: 0.0, v: 0.0)
        var t = chain.flybys[0].exitSeconds
        while t <= chain.endSeconds {
            let s = chain.state(atSeconds: t)!
            if s.positionKm.length < perihelion.r { perihelion = (s.positionKm.length, t, s.velocityKmS.length) }
            t += 60
        }
        let venus = chain.flybys[0]
        print("""
        [chain] Parker: C3 \(chain.departure.c3!) km²/s² (v∞ \(chain.departure.vInfinity!.length) km/s); Venus v∞ \(venus.vInfinityIn.length) km/s, turn \(venus.turnRadians * 180 / .pi)°, Δv \(venus.deltaVKmS) km/s, closest \(venus.achievedClosestApproachKm - Self.radius(.venus)) km altitude
        [chain]   perihelion \(perihelion.r / Constants.auKm) AU at \(TimeScale.instant(tdbSecondsPastJ2000: perihelion.t).iso8601), \(perihelion.v) km/s
        """)
        #expect(abs(perihelion.r / Constants.auKm - 0.166) < au(0.01))
        #expect(abs(perihelion.v - 95.3) < kmPerS(3))
        #expect(chain.burns.isEmpty)
    }
    // MARK: - Points and returns

    /// A chain that picks up a known path: from a point at a time, past Venus, to another point
    /// (where a data kernel would take over). The legs start and end exactly at the points, and
    /// a state read on either side of the Venus burn keeps that side.
    @Test("departure from and arrival at points: the legs start and end there")
    func points() throws {
        let t0 = Self.t(2021, 5, 1), tv = Self.t(2021, 8, 10, 13, 52), t1 = Self.t(2021, 9, 20)
        let earth = Self.eph.state(.earth, relativeTo: .sun, at: TimeScale.instant(tdbSecondsPastJ2000: t0))
        let start = earth.positionAU * Constants.auKm * 0.8
        let mercury = Self.eph.state(.mercury, relativeTo: .sun, at: TimeScale.instant(tdbSecondsPastJ2000: t1))
        let end = mercury.positionAU * Constants.auKm + Vector3(2e6, 0, 0)
        let chain = try FlybyChain(plan: FlybyPlan(nodes: [
            .departure(fromPointKm: start, seconds: t0, name: "after the data"),
            .flyby(.venus, seconds: tv, closestApproachKm: Self.radius(.venus) + 552),
            .arrival(atPointKm: end, seconds: t1, name: "before the data"),
        ]), ephemeris: Self.eph)
        #expect((chain.state(atSeconds: t0)!.positionKm - start).length < km(1e-6))
        #expect((chain.state(atSeconds: t1)!.positionKm - end).length < km(1e-6))
        #expect(chain.departure.vInfinity != nil)
        let b = Self.boundaries(chain)
        #expect(b.positionKm < km(1e-6))
        if let burn = chain.burns.first(where: { $0.kind == .closestApproach }) {
            let before = chain.segments.firstIndex { $0.endSeconds == burn.seconds }!
            let after = chain.segments.firstIndex { $0.startSeconds == burn.seconds }!
            let jump = chain.state(atSeconds: burn.seconds, segment: after).velocityKmS - chain.state(atSeconds: burn.seconds, segment: before).velocityKmS
            #expect((jump - burn.deltaV).length < kmPerS(1e-9))
        }
        #expect(Self.error(FlybyPlan(nodes: [.departure(fromPointKm: Vector3(1_000, 0, 0), seconds: t0), .flyby(.venus, seconds: tv, closestApproachKm: 7_000)],
                                     openEnd: .init(seconds: t1)))?.problem == .belowSurface(distanceKm: 1_000, radiusKm: Self.radius(.sun)))
    }

    /// Lambert's problem between two positions of the Earth a year and a half apart has a
    /// solution along the Earth's own orbit (v∞ ≈ 0). Asked for the least Δv with a revolution
    /// allowed, the chain must not take it: no hyperbola can leave or reach a sphere of influence
    /// on it.
    @Test("'least Δv' never takes the body's own orbit")
    func ownOrbit() throws {
        let t0 = Self.t(2018, 10, 20, 2, 15), t1 = Self.t(2020, 4, 10, 4, 25)
        let chain = try FlybyChain(plan: FlybyPlan(nodes: [
            .departure(.earth, seconds: t0, injectionAltitudeKm: 200),
            .flyby(.earth, seconds: t1, closestApproachKm: Self.radius(.earth) + 12_677),
        ], legs: [FlybyPlan.Leg(revolutions: .leastDeltaV(maxRevolutions: 1))], openEnd: .init(seconds: t1 + 30 * 86_400)), ephemeris: Self.eph)
        #expect(chain.departure.vInfinity!.length > kmPerS(1))
        #expect(chain.flybys[0].vInfinityIn.length > kmPerS(1))
    }
}
