import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// The lunar orbit as flown: the ellipse after insertion, the orbit after the second burn,
    /// and that burn's span and middle.
    typealias LunarOrbit = (first: Arc, second: Arc, burn: ClosedRange<Double>, burnMid: Double)

    /// The second orbit's other apsis is looked for from this far above the Moon (km) to this
    /// far above the first orbit's radius at the second burn (km), in steps of `otherApsisStepKm`.
    static let otherApsisFloorKm = 30.0, otherApsisCeilingKm = 250.0, otherApsisStepKm = 4.0
    /// The first apolune is looked for up to this far above the perilune (km), in steps of
    /// `apoluneStepKm`, when a landing site must be passed over.
    static let apoluneSpanKm = 300.0, apoluneStepKm = 5.0
    /// The first apolune above the perilune without a landing site to pass over, km.
    static let apoluneRaiseKm = 200.0
    /// Bisection steps refining a phasing root (a 5 km step to well under a millimetre).
    static let phasingIterations = 40

    /// The lunar-orbit phasing stage, as Apollo flew it: the insertion burn at the closest
    /// approach, along the motion, to an ellipse with its perilune there; two revolutions later a
    /// second burn (the phase named `lunar orbit circularization`) to a near-circular orbit. The
    /// two free radii — the first ellipse's apolune, the second orbit's other apsis — are the
    /// ones that put the orbiter where trans-Earth injection can leave along the return's
    /// asymptote, and (with a lander) over the landing site at the descent.
    struct LunarOrbitPhasing {
        let solver: Solver
        let ca: ClosestApproach
        let departure: Departure
        let circularization: ClosedRange<Double>, secondMid: Double
        let tei: ClosedRange<Double>
        /// The Moon at the closest approach, and the orbiter's position and orbit normal about it.
        let m: (positionKm: Vector3, velocityKmS: Vector3)
        let r: Vector3
        let normal: Vector3
        let along: Vector3
        /// The departure hyperbola's true anomaly at infinity, from the perilune's radius.
        let nuInf: Double

        init(_ solver: Solver, ca: ClosestApproach, departure: Departure) throws {
            self.solver = solver
            self.ca = ca
            self.departure = departure
            circularization = try solver.c.phase(solver.vehicle, "lunar orbit circularization")
            secondMid = (circularization.lowerBound + circularization.upperBound) / 2
            tei = try solver.c.phase(solver.vehicle, "trans-Earth injection")
            m = solver.frames.moon(ca.seconds)
            r = ca.state.positionKm - m.positionKm
            let v = ca.state.velocityKmS - m.velocityKmS
            normal = r.cross(v).normalized
            along = normal.cross(r.normalized)
            let eDep = 1 + r.length * departure.vInf * departure.vInf / GravityConstants.moonGM
            nuInf = acos(-1 / eDep)
        }

        /// The ellipse after insertion at the closest approach, with apolune radius `apolune`.
        func firstOrbit(_ apolune: Double) throws -> Arc {
            let a = (r.length + apolune) / 2
            let start = OrbitalState(seconds: ca.seconds, positionKm: ca.state.positionKm,
                                     velocityKmS: m.velocityKmS + along * (GravityConstants.moonGM * (2 / r.length - 1 / a)).squareRoot())
            return try solver.propagateMoon(start, to: circularization.upperBound)
        }

        /// The orbit after the second burn (horizontal) at its middle, its other apsis at radius `otherApsis`.
        func secondOrbit(_ first: Arc, _ otherApsis: Double) throws -> Arc {
            let st = try first.state(secondMid), mm = solver.frames.moon(secondMid)
            let rr = st.positionKm - mm.positionKm, vv = st.velocityKmS - mm.velocityKmS
            let dir = rr.cross(vv).cross(rr).normalized
            let a = (rr.length + otherApsis) / 2
            let start = OrbitalState(seconds: secondMid, positionKm: st.positionKm, velocityKmS: mm.velocityKmS + dir * (GravityConstants.moonGM * (2 / rr.length - 1 / a)).squareRoot())
            return try solver.propagateMoon(start, to: tei.upperBound)
        }

        /// The angle by which `arc` misses its mark at `t`: the signed angle (about the orbit
        /// normal, in the direction of motion) from the mark to the orbiter, less `lead`.
        func miss(_ arc: Arc, at t: Double, mark: Vector3, lead: Double) throws -> Double {
            let st = try arc.state(t), mm = solver.frames.moon(t)
            let rr = (st.positionKm - mm.positionKm), n = rr.cross(st.velocityKmS - mm.velocityKmS).normalized
            let mp = (mark - n * mark.dot(n)).normalized, p = rr.normalized
            var x = atan2(mp.cross(p).dot(n), mp.dot(p)) + lead
            while x > .pi { x -= 2 * .pi }
            while x <= -.pi { x += 2 * .pi }
            return x
        }

        /// How far the second orbit misses the injection point: leaving along the asymptote
        /// means the injection point lies ν∞ behind it.
        func teiMiss(_ first: Arc, _ other: Double) throws -> Double {
            try miss(try secondOrbit(first, other), at: departure.seconds, mark: departure.s, lead: nuInf)
        }

        /// The first value in `range` (scanned by `step`) where `f` crosses zero from above
        /// without wrapping, refined by bisection.
        static func root(_ range: ClosedRange<Double>, step: Double, _ f: (Double) throws -> Double) throws -> Double? {
            guard let bracket = try Search.firstBracket(range, step: step, f, brackets: { fLo, fHi in fLo > 0 && fHi <= 0 && fLo - fHi < .pi }) else {
                return nil
            }
            let r = try Search.bisect(bracket.lo, bracket.hi, iterations: LunarRecipe.phasingIterations) { mid in
                let y = try f(mid)
                return !y.isNaN && y > 0 ? .above : .below
            }
            return (r.lo + r.hi) / 2
        }

        /// The second orbit's other apsis that phases the injection, for a first apolune.
        func phasedSecond(_ apolune: Double) throws -> (first: Arc, other: Double)? {
            let first = try firstOrbit(apolune)
            let stAt = try first.state(secondMid)
            let here = (stAt.positionKm - solver.frames.moon(secondMid).positionKm).length
            let range = (solver.rMoon + LunarRecipe.otherApsisFloorKm)...(here + LunarRecipe.otherApsisCeilingKm)
            guard let other = try Self.root(range, step: LunarRecipe.otherApsisStepKm, { try teiMiss(first, $0) }) else { return nil }
            return (first, other)
        }

        /// The first apolune and second orbit that phase the injection (and pass over the site).
        func solve() throws -> (apolune: Double, first: Arc, other: Double)? {
            let rP = r.length
            guard let overSite = solver.target.overSite else {
                let apolune = rP + LunarRecipe.apoluneRaiseKm
                return try phasedSecond(apolune).map { (apolune, $0.first, $0.other) }
            }
            let site = solver.frames.siteDirection(overSite.site, overSite.seconds)
            func siteMiss(_ apolune: Double) throws -> Double {
                guard let p = try phasedSecond(apolune) else { return .nan }
                return try miss(try secondOrbit(p.first, p.other), at: overSite.seconds, mark: site, lead: 0)
            }
            guard let apolune = try Self.root(rP...(rP + LunarRecipe.apoluneSpanKm), step: LunarRecipe.apoluneStepKm, siteMiss),
                  let p = try phasedSecond(apolune) else { return nil }
            return (apolune, p.first, p.other)
        }
    }
}

extension LunarRecipe.Solver {
    /// The lunar-orbit phasing stage (``LunarRecipe/LunarOrbitPhasing``) from the closest
    /// approach, with its note.
    func lunarOrbit(after ca: LunarRecipe.ClosestApproach, departure: LunarRecipe.Departure) throws -> (orbit: LunarRecipe.LunarOrbit, note: String) {
        let phasing = try LunarRecipe.LunarOrbitPhasing(self, ca: ca, departure: departure)
        let overSite = target.overSite
        guard let chosen = try phasing.solve() else {
            throw RecipeError(description: "\(missionID): no lunar orbit phases trans-Earth injection\(overSite == nil ? "" : " and the descent")")
        }
        let secondMid = phasing.secondMid, rP = phasing.r.length
        let second = try phasing.secondOrbit(chosen.first, chosen.other)
        let st2 = try chosen.first.state(secondMid)
        let here = (st2.positionKm - frames.moon(secondMid).positionKm).length
        let note = "Lunar orbit: \(Int((rP - rMoon).rounded())) × \(Int((chosen.apolune - rMoon).rounded())) km after insertion, then \(Int((min(here, chosen.other) - rMoon).rounded())) × \(Int((max(here, chosen.other) - rMoon).rounded())) km after the second burn — radii chosen so trans-Earth injection leaves along the return asymptote\(overSite == nil ? "" : " and the orbit passes over the landing site at the descent"); normal \(LunarRecipe.describe(phasing.normal)) (retrograde)."
        return ((chosen.first, second, phasing.circularization, secondMid), note)
    }
}
