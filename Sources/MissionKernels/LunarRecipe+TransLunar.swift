import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// How long before arrival the approach hyperbola is read off the coast (the Moon's
    /// two-body conic through the state then), seconds.
    static let approachPatchSeconds = 8.0 * 3600
    /// How far either side of arrival the closest approach is looked for, seconds.
    static let closestApproachWindowSeconds = 3.0 * 3600
    /// Bisection steps for the closest approach (r·v = 0): 6 hours to well under a millisecond.
    static let closestApproachIterations = 60
    /// Passes of the outer loop that moves the B-plane targets by what the full force model misses.
    static let injectionPasses = 6
    /// What the outer loop accepts: the closest approach's radius (km) and time (s) off the target.
    static let periluneToleranceKm = 0.1, periluneToleranceSeconds = 0.5

    typealias ClosestApproach = (seconds: Double, radius: Double, state: OrbitalState)
    typealias Injection = (velocity: Vector3, coast: Arc, ca: ClosestApproach)

    /// The parking orbit and trans-lunar injection as solved, with their notes.
    struct Outbound {
        let azimuthDeg: Double
        let park: (state: OrbitalState, deltaV: Double)
        let injection: Injection
        let notes: [String]
    }
}

extension LunarRecipe.Solver {
    typealias Arc = LunarRecipe.Arc

    /// The orbit normal wanted for an incoming asymptote `s` (Moon-relative): a plane holding
    /// `s`, retrograde about the Moon's pole as Apollo's were, through the landing site at
    /// the descent for a lander, else through the return's departure asymptote (a flyby: tilted
    /// by the inclination about the Earth–Moon line).
    func wantedNormal(_ s: Vector3) -> Vector3 {
        let pole = frames.moonPole(arrival)
        var n: Vector3
        if let overSite = target.overSite {
            n = s.cross(frames.siteDirection(overSite.site, overSite.seconds)).normalized
        } else if let departure, s.cross(departure.s).length > 0.05 {
            n = s.cross(departure.s).normalized
        } else {
            n = -pole
            if target.inclination != 0 {
                let toEarth = (-frames.moon(arrival).positionKm).normalized
                n = LunarRecipe.rotate(n, about: (toEarth - pole * toEarth.dot(pole)).normalized, by: target.inclination)
            }
            n = (n - s * n.dot(s)).normalized
        }
        return n.dot(pole) > 0 ? -n : n
    }

    /// The approach hyperbola through `arc`'s state 8 hours before arrival: its incoming
    /// asymptote, B vector, v∞ and the time of its closest approach.
    func approach(_ arc: Arc) throws -> (s: Vector3, b: Vector3, vInf: Double, closest: Double) {
        let muM = GravityConstants.moonGM
        let patch = arrival - LunarRecipe.approachPatchSeconds
        let st = try arc.state(patch), m = frames.moon(patch)
        let r = st.positionKm - m.positionKm, v = st.velocityKmS - m.velocityKmS
        let h = r.cross(v), energy = v.lengthSquared / 2 - muM / r.length
        guard energy > 0 else { throw RecipeError(description: "\(missionID): the approach is bound to the Moon 8 hours out") }
        let vInf = (2 * energy).squareRoot(), a = muM / (2 * energy)
        let eVec = v.cross(h) / muM - r.normalized, e = eVec.length
        let hh = h.normalized, ee = eVec.normalized
        let s = ee * (1 / e) + hh.cross(ee) * (1 - 1 / (e * e)).squareRoot()
        let coshF = (1 + r.length / a) / e
        let f = acosh(max(coshF, 1)) * (r.dot(v) < 0 ? -1 : 1)
        let meanAnomaly = e * sinh(f) - f
        return (s, s.cross(hh) * (h.length / vInf), vInf, patch - meanAnomaly / (muM / (a * a * a)).squareRoot())
    }

    /// The coast from the parking orbit's injection point with velocity `x`, to `t`.
    func outbound(_ park: OrbitalState, _ x: Vector3, to t: Double) throws -> Arc {
        try propagateGeo(OrbitalState(seconds: tliMid, positionKm: park.positionKm, velocityKmS: x), to: t)
    }

    /// The closest approach of an arc to the Moon near `arrival`: where r·v changes sign.
    func closest(_ arc: Arc) throws -> LunarRecipe.ClosestApproach {
        func rv(_ t: Double) throws -> Double {
            let st = try arc.state(t), m = frames.moon(t)
            return (st.positionKm - m.positionKm).dot(st.velocityKmS - m.velocityKmS)
        }
        let lo = arrival - LunarRecipe.closestApproachWindowSeconds, hi = arrival + LunarRecipe.closestApproachWindowSeconds
        guard try rv(lo) < 0, try rv(hi) > 0 else { throw RecipeError(description: "\(missionID): no closest approach to the Moon within 3 hours of arrival") }
        let t = try Search.bisect(lo, hi, iterations: LunarRecipe.closestApproachIterations) { try rv($0) < 0 ? .above : .below }.lo
        let st = try arc.state(t)
        return (t, (st.positionKm - frames.moon(t).positionKm).length, st)
    }
}
