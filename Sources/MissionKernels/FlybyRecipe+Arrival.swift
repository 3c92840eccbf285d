import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension FlybyRecipe {
    /// Periapsis and apoapsis altitudes of an orbit, km above the body's mean radius.
    public struct Apsides: Sendable {
        public let periapsisKm: Double
        public let apoapsisKm: Double

        public init(periapsisKm: Double, apoapsisKm: Double) {
            self.periapsisKm = periapsisKm
            self.apoapsisKm = apoapsisKm
        }
    }

    /// A published plan past the last flyby: the arrival in orbit about a body (BepiColombo at
    /// Mercury). Its dates are mission events (by key); its orbits are the plan's.
    ///
    /// The path it gives, after the last flyby's integration has been eased back onto the conics:
    /// - the thrust arcs up to `thrustEnd`, standing in as two impulses where they cost least (the
    ///   first anywhere in the cruise, the second at `thrustEnd`) joined by a two-body arc about
    ///   the Sun (Lambert's problem, up to ``maxRevolutions`` revolutions);
    /// - from `thrustEnd` a ballistic approach integrated under the body's gravity with the Sun and
    ///   the planets pulling: the state at `insertion` — at the capture orbit's periapsis, over the
    ///   equator, in a polar plane, `approachVInfinityKmS` above escape — integrated backward;
    /// - at `insertion` an impulse into `captureOrbit` (the second orbiter's: both fly it until
    ///   `release`), integrated on;
    /// - a day after `release`, two impulses (at a periapsis, then the next apoapsis) into
    ///   `finalOrbit`, the vehicle's own, integrated to the kernel's end.
    ///
    /// Which of the equator's directions the periapsis lies over, and which way the orbit runs
    /// past it, is chosen for the least total impulse of the thrust arcs' stand-ins: the plan
    /// publishes the orbits' sizes and that they are polar, not their orientation.
    public struct Arrival: Sendable {
        public let body: BodyID
        public let thrustEnd: String
        public let insertion: String
        public let release: String
        public let captureOrbit: Apsides
        public let finalOrbit: Apsides
        public let approachVInfinityKmS: Double

        public init(body: BodyID, thrustEnd: String, insertion: String, release: String, captureOrbit: Apsides, finalOrbit: Apsides,
                    approachVInfinityKmS: Double) {
            self.body = body
            self.thrustEnd = thrustEnd
            self.insertion = insertion
            self.release = release
            self.captureOrbit = captureOrbit
            self.finalOrbit = finalOrbit
            self.approachVInfinityKmS = approachVInfinityKmS
        }

        /// The most complete revolutions the cruise's Lambert arc may make.
        static let maxRevolutions = 12
        /// How far after the last flyby the first stand-in impulse may come (past that flyby's
        /// integration and easing), and how far before `thrustEnd`, seconds.
        static let cruiseMargin = 60 * 86_400.0
    }

    /// The path from the last flyby on as the plan flies it (see ``Arrival``): `pieces` up to
    /// the first impulse, then the plan's pieces to `end`. Its impulses go to `burns`.
    func planned(_ arrival: Arrival, pieces: [PathPiece], lastFlyby: Double, end: Double, context c: BuildContext,
                 burns: inout [Impulse], notes: inout [String]) throws -> [PathPiece] {
        let eph = c.ephemeris
        let body = arrival.body, name = Self.display(body)
        let mu = GravityConstants.gm(body), radius = eph.catalogue[body].radiusKm
        let thrustEnd = try c.event(arrival.thrustEnd), insertion = try c.event(arrival.insertion), release = try c.event(arrival.release)
        guard lastFlyby + Arrival.cruiseMargin < thrustEnd - Arrival.cruiseMargin, thrustEnd < insertion, insertion < release, release + 3 * 86_400 < end else {
            throw RecipeError(description: "\(missionID): the arrival's dates must follow the last flyby by months, in order, and end days before the kernel's end")
        }
        let path = PiecewisePath(pieces: pieces)
        let center = Self.centerID(body)
        let at = TimeScale.instant(tdbSecondsPastJ2000: insertion)
        guard let b = eph.naifState(center, at: at) else { throw RecipeError(description: "no state of \(name) at \(Self.iso(insertion))") }
        let pole = eph.orientation(body, at: at).poleEcliptic
        let e1 = Vector3(0, 0, 1).cross(pole).normalized, e2 = pole.cross(e1)
        let rp = radius + arrival.captureOrbit.periapsisKm
        let approachSpeed = (arrival.approachVInfinityKmS * arrival.approachVInfinityKmS + 2 * mu / rp).squareRoot()

        // Every orientation of the arrival: the approach integrated back to the thrust's end,
        // then the cheapest cruise arc to it.
        struct Candidate {
            let angle: Double, north: Bool
            let approach: ForwardArc
            let departure: Double
            let arc: KeplerArc
            let deltaV: (Vector3, Vector3)
            let revolutions: Int
            var cost: Double { deltaV.0.length + deltaV.1.length }
        }
        var best: Candidate?
        for k in 0..<12 {
            let angle = Double(k) * .pi / 6
            for north in [true, false] {
                let p = (e1 * cos(angle) + e2 * sin(angle)) * rp
                let v = pole * (north ? approachSpeed : -approachSpeed)
                let periapsis = OrbitalState(seconds: insertion, positionKm: b.positionKm + p, velocityKmS: b.velocityKmS + v)
                let approach = try ForwardArc(from: periapsis, to: thrustEnd, ephemeris: eph)
                guard approach.center == body, try Self.lowest(approach, from: thrustEnd, to: insertion) > radius else { continue }
                let target = try approach.state(at: thrustEnd)
                var t = lastFlyby + Arrival.cruiseMargin
                while t <= thrustEnd - Arrival.cruiseMargin {
                    defer { t += 2 * 86_400 }
                    let s = try path.state(at: t)
                    guard let solutions = try? Lambert.solutions(mu: GravityConstants.sunGM, from: s.positionKm, to: target.positionKm,
                                                                  seconds: thrustEnd - t, maxRevolutions: Arrival.maxRevolutions) else { continue }
                    for l in solutions {
                        let dv = (l.v1 - s.velocityKmS, target.velocityKmS - l.v2)
                        guard best.map({ dv.0.length + dv.1.length < $0.cost }) ?? true else { continue }
                        best = Candidate(angle: angle, north: north, approach: approach, departure: t,
                                         arc: KeplerArc(mu: GravityConstants.sunGM, position: s.positionKm, velocity: l.v1, epochHours: t / 3_600),
                                         deltaV: dv, revolutions: l.revolutions)
                    }
                }
            }
        }
        guard let best else { throw RecipeError(description: "\(missionID): no ballistic approach to \(name) reaches the thrust's end outside the body") }

        // The orbits: the capture orbit from the insertion, the vehicle's own after the release.
        let captured = try best.approach.state(at: insertion)
        let rpVelocity = captured.velocityKmS - b.velocityKmS
        let captureSpeed = Self.speed(mu: mu, at: rp, periapsis: rp, apoapsis: radius + arrival.captureOrbit.apoapsisKm)
        let afterInsertion = OrbitalState(seconds: insertion, positionKm: captured.positionKm, velocityKmS: b.velocityKmS + rpVelocity.normalized * captureSpeed)
        let capture = try ForwardArc(from: afterInsertion, to: end, ephemeris: eph)
        // At an apsis of `arc` after `t`, an impulse along the motion that moves the opposite
        // apsis to `altitude`; the arc on from there.
        func burn(on arc: ForwardArc, after t: Double, atPeriapsis: Bool, moving altitude: Double) throws -> (seconds: Double, before: OrbitalState, after: OrbitalState, arc: ForwardArc) {
            let at = try Self.apsis(arc, body: center, after: t, lowest: atPeriapsis, eph: eph)
            let before = try arc.state(at: at)
            let r = try Self.distance(before, from: center, eph: eph)
            let after = Self.rescaled(before, relativeTo: center, speed: Self.speed(mu: mu, at: r, periapsis: r, apoapsis: radius + altitude), eph: eph)
            return (at, before, after, try ForwardArc(from: after, to: end, ephemeris: eph))
        }
        let first = try burn(on: capture, after: release + 86_400, atPeriapsis: true, moving: arrival.finalOrbit.apoapsisKm)
        let second = try burn(on: first.arc, after: first.seconds + 600, atPeriapsis: false, moving: arrival.finalOrbit.periapsisKm)
        let lower = first.seconds, upper = second.seconds, transfer = first.arc, final = second.arc

        // The pieces: the path up to the first impulse, the plan after it.
        var result: [PathPiece] = []
        for p in pieces where p.startSeconds < best.departure {
            result.append(p.endSeconds > best.departure ? p.ending(at: best.departure) : p)
        }
        let arc = best.arc
        let sunward = "solar-electric thrust (modelled as impulses; planned)"
        result.append(PathPiece(name: "Cruise to \(name) (planned)", notes: [
            "Two-body conic about the Sun from the \(sunward) after the last flyby to the thrust's end (Lambert's problem, \(best.revolutions) complete revolution(s))."],
                                startSeconds: best.departure, endSeconds: thrustEnd, center: 10, maxStepSeconds: 10 * 86_400) { t in
            let s = arc.state(afterSeconds: t - best.departure)
            return OrbitalState(seconds: t, positionKm: s.position, velocityKmS: s.velocity)
        })
        let approach = best.approach
        var ballistic = PathPiece(name: "Ballistic approach to \(name) (planned)", notes: [
            "From the thrust's end, ballistic: the capture orbit's periapsis state \(arrival.approachVInfinityKmS) km/s above escape integrated back under \(name)'s gravity with the Sun and the planets pulling."],
                                  startSeconds: thrustEnd, endSeconds: insertion, center: center, maxStepSeconds: 6 * 3_600) { try approach.state(at: $0) }
        ballistic.toleranceKm = Self.flybyToleranceKm
        result.append(ballistic)
        let orbitNote = "integrated under \(name)'s gravity with the Sun and the planets pulling"
        result.append(PathPiece(name: "\(name) capture orbit (planned)", notes: ["The capture orbit, \(Int(arrival.captureOrbit.periapsisKm)) x \(Int(arrival.captureOrbit.apoapsisKm)) km, \(orbitNote)."],
                                startSeconds: insertion, endSeconds: lower, center: center, maxStepSeconds: 1_800) { try capture.state(at: $0) })
        result.append(PathPiece(name: "\(name) descent orbit (planned)", notes: ["The transfer to the final orbit, \(orbitNote)."],
                                startSeconds: lower, endSeconds: upper, center: center, maxStepSeconds: 600) { try transfer.state(at: $0) })
        result.append(PathPiece(name: "\(name) orbit (planned)", notes: ["The final orbit, \(Int(arrival.finalOrbit.periapsisKm)) x \(Int(arrival.finalOrbit.apoapsisKm)) km, \(orbitNote)."],
                                startSeconds: upper, endSeconds: end, center: center, maxStepSeconds: 600) { try final.state(at: $0) })

        burns += [
            Impulse(seconds: best.departure, deltaV: best.deltaV.0, what: "the \(sunward) after the last flyby"),
            Impulse(seconds: thrustEnd, deltaV: best.deltaV.1, what: "the thrust's end (\(sunward))"),
            Impulse(seconds: insertion, deltaV: afterInsertion.velocityKmS - captured.velocityKmS, what: "\(name) orbit insertion (planned)"),
            Impulse(seconds: lower, deltaV: first.after.velocityKmS - first.before.velocityKmS, what: "the periapsis burn lowering the apoapsis (planned)"),
            Impulse(seconds: upper, deltaV: second.after.velocityKmS - second.before.velocityKmS, what: "the apoapsis burn lowering the periapsis (planned)"),
        ]
        let degrees = Int((best.angle * 180 / .pi).rounded())
        notes.append("Arrival at \(name) (the published plan, planned): after the last flyby the thrust arcs stand in as two impulses, \(Self.metres(best.deltaV.0.length)) at \(Self.iso(best.departure)) and \(Self.metres(best.deltaV.1.length)) at the thrust's end (\(Self.iso(thrustEnd))), joined by a two-body arc of \(best.revolutions) revolution(s); then a ballistic approach reaching the capture orbit's periapsis \(Int(arrival.captureOrbit.periapsisKm)) km up at the insertion (\(Self.iso(insertion))), \(arrival.approachVInfinityKmS) km/s above escape, over the equator \(degrees)° from the ascending node of \(name)'s equator on the ecliptic, heading \(best.north ? "north" : "south") (the orientation with the least stand-in impulse; the plan gives the orbits' sizes and that they are polar).")
        notes.append("  Insertion into the \(Int(arrival.captureOrbit.periapsisKm)) x \(Int(arrival.captureOrbit.apoapsisKm)) km capture orbit: \(Self.metres((afterInsertion.velocityKmS - captured.velocityKmS).length)); a day after the release (\(Self.iso(release))), \(Self.metres((first.after.velocityKmS - first.before.velocityKmS).length)) at the periapsis (\(Self.iso(lower))) and \(Self.metres((second.after.velocityKmS - second.before.velocityKmS).length)) at the apoapsis (\(Self.iso(upper))) into the \(Int(arrival.finalOrbit.periapsisKm)) x \(Int(arrival.finalOrbit.apoapsisKm)) km orbit, integrated to the kernel's end.")
        return result
    }

    /// The speed at distance `r` on the orbit with those apsides (km from the centre).
    static func speed(mu: Double, at r: Double, periapsis: Double, apoapsis: Double) -> Double {
        (mu * (2 / r - 2 / (periapsis + apoapsis))).squareRoot()
    }

    /// The least distance of an arc from its centre between two times (a 10-minute scan).
    static func lowest(_ arc: ForwardArc, from a: Double, to b: Double) throws -> Double {
        var least = Double.infinity, t = min(a, b)
        while t <= max(a, b) {
            least = min(least, try arc.arc.state(at: t).positionKm.length)
            t += 600
        }
        return least
    }

    static func distance(_ s: OrbitalState, from center: Int, eph: Ephemeris) throws -> Double {
        guard let c = eph.naifState(center, at: TimeScale.instant(tdbSecondsPastJ2000: s.seconds)) else {
            throw RecipeError(description: "no state of NAIF \(center) at \(iso(s.seconds))")
        }
        return (s.positionKm - c.positionKm).length
    }

    /// The state with its velocity relative to `center` set to `speed` along the same direction.
    static func rescaled(_ s: OrbitalState, relativeTo center: Int, speed: Double, eph: Ephemeris) -> OrbitalState {
        let c = eph.naifState(center, at: TimeScale.instant(tdbSecondsPastJ2000: s.seconds)) ?? (.zero, .zero)
        let v = s.velocityKmS - c.velocityKmS
        return OrbitalState(seconds: s.seconds, positionKm: s.positionKm, velocityKmS: c.velocityKmS + v.normalized * speed)
    }

    /// The first periapsis (`lowest`) or apoapsis of an arc after `t`: the first sign change of
    /// the radial speed (a 60-second scan), refined by bisection to a millisecond.
    static func apsis(_ arc: ForwardArc, body center: Int, after t: Double, lowest: Bool, eph: Ephemeris) throws -> Double {
        func radialSpeed(_ t: Double) throws -> Double {
            let s = try arc.state(at: t)
            let c = eph.naifState(center, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
            let r = s.positionKm - c.positionKm
            return r.dot(s.velocityKmS - c.velocityKmS)
        }
        var a = t, fa = try radialSpeed(a)
        while true {
            let b = a + 60, fb = try radialSpeed(b)
            guard b - t < 2 * 86_400 else { throw RecipeError(description: "no \(lowest ? "periapsis" : "apoapsis") within two days of \(iso(t))") }
            if lowest ? (fa < 0 && fb >= 0) : (fa > 0 && fb <= 0) {
                var lo = a, hi = b
                while hi - lo > 1e-3 {
                    let m = (lo + hi) / 2
                    let fm = try radialSpeed(m)
                    if lowest ? fm < 0 : fm > 0 { lo = m } else { hi = m }
                }
                return (lo + hi) / 2
            }
            a = b
            fa = fb
        }
    }
}
