import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// The B-plane targeting's finite-difference step on the aim (km, km, s) and its tolerance
    /// on the residuals (km in the B-plane; seconds times v∞, km).
    static let bPlaneStep = 1.0, bPlaneTolerance = 0.05
}

extension LunarRecipe.Solver {
    /// The approach hyperbola's patch time, 8 hours before arrival.
    var patch: Double { arrival - LunarRecipe.approachPatchSeconds }

    /// Trans-lunar injection aimed by B-plane targeting, as flight dynamics aims a flyby: the
    /// injection velocity is corrected until the approach hyperbola (the Moon's two-body
    /// conic through the state 8 hours before arrival) has the wanted B vector — the
    /// closest-approach radius, in the wanted plane — and its closest approach at the
    /// wanted time. These targets change almost linearly with the injection velocity, where
    /// the closest approach's position does not. An outer loop moves the targets by what
    /// the full force model then misses (the Earth's pull during the approach).
    ///
    /// The unknowns are where and when the Earth's two-body arc from the injection point
    /// aims past the Moon (a point in the B-plane, and a time): the actual approach differs
    /// from the aim by the Moon's and the Sun's pull, smoothly, so Newton's method on the aim
    /// converges where it does not on the injection velocity itself.
    func injection(_ park: OrbitalState) throws -> LunarRecipe.Injection {
        let muE = GravityConstants.earthGM, muM = GravityConstants.moonGM
        let moonAtArrival = frames.moon(arrival)
        let toCenter = KeplerArc.lambert(mu: muE, from: park.positionKm, to: moonAtArrival.positionKm, seconds: arrival - tliMid, longWay: false)!
        let vInf0 = toCenter.v2 - moonAtArrival.velocityKmS
        let s0 = vInf0.normalized
        let t0 = s0.cross(Vector3(0, 0, 1)).normalized, r0 = s0.cross(t0)
        func velocity(_ aim: [Double]) throws -> Vector3 {
            let at = arrival + aim[2]
            let point = frames.moon(at).positionKm + t0 * aim[0] + r0 * aim[1]
            guard let l = KeplerArc.lambert(mu: muE, from: park.positionKm, to: point, seconds: at - tliMid, longWay: false) else {
                throw RecipeError(description: "\(missionID): no two-body arc to the aim point")
            }
            return l.v1
        }
        let b0 = periluneRadius * (1 + 2 * muM / (periluneRadius * vInf0.lengthSquared)).squareRoot()
        let wanted0 = s0.cross(wantedNormal(s0)) * b0
        var aim = [wanted0.dot(t0), wanted0.dot(r0), 0]
        var aimRadius = periluneRadius, aimTime = arrival
        var coastArc: LunarRecipe.Arc?
        var x = Vector3.zero
        let step = LunarRecipe.bPlaneStep, tolerance = LunarRecipe.bPlaneTolerance
        for _ in 0..<LunarRecipe.injectionPasses {
            let radius = aimRadius, time = aimTime
            aim = try Shooting.solve(aim, steps: [step, step, step], tolerance: [tolerance, tolerance, tolerance]) { aim in
                let v = try velocity(aim)
                let ap = try approach(try outbound(park, v, to: patch))
                let b = radius * (1 + 2 * muM / (radius * ap.vInf * ap.vInf)).squareRoot()
                let d = ap.b - ap.s.cross(wantedNormal(ap.s)) * b
                return [d.dot(t0), d.dot(r0), (ap.closest - time) * ap.vInf]
            }.x
            x = try velocity(aim)
            let arc = try outbound(park, x, to: arrival + LunarRecipe.closestApproachWindowSeconds)
            let ca = try closest(arc)
            coastArc = arc
            if abs(ca.radius - periluneRadius) < LunarRecipe.periluneToleranceKm, abs(ca.seconds - arrival) < LunarRecipe.periluneToleranceSeconds { break }
            aimRadius += periluneRadius - ca.radius
            aimTime += arrival - ca.seconds
        }
        guard let coast = coastArc else { throw RecipeError(description: "\(missionID): trans-lunar injection not found") }
        return (x, coast, try closest(coast))
    }

    /// The launch azimuth (within Apollo's 72°–108°) whose parking orbit needs the least
    /// injection: a golden-section search within 12° of the two-body estimate.
    func launchAzimuth(_ parking: LunarRecipe.ParkingOrbit, around twoBody: Double) -> Double {
        let range = LunarRecipe.launchAzimuthRangeDeg, width = LunarRecipe.azimuthSearchHalfWidthDeg
        func cost(_ az: Double) -> Double {
            guard let p = parking.state(azimuthDeg: az), let i = try? injection(p.state) else { return .infinity }
            return (i.velocity - p.state.velocityKmS).length
        }
        let bracket = Search.golden(cost, max(range.lowerBound, twoBody - width), min(range.upperBound, twoBody + width),
                                    tolerance: LunarRecipe.azimuthToleranceDeg)
        return (bracket.lo + bracket.hi) / 2
    }

    /// The parking orbit and trans-lunar injection stages: the two-body azimuth, refined on the
    /// full force model, and the injection solved from it.
    func outbound() throws -> LunarRecipe.Outbound {
        let parking = parkingOrbit()
        guard let twoBody = parking.twoBodyAzimuth() else { throw RecipeError(description: "\(missionID): no parking orbit reaches the Moon") }
        let azimuth = launchAzimuth(parking, around: twoBody)
        guard let park = parking.state(azimuthDeg: azimuth) else { throw RecipeError(description: "\(missionID): no parking orbit at azimuth \(azimuth)°") }
        let solved = try injection(park.state)
        let tliDV = (solved.velocity - park.state.velocityKmS).length
        return LunarRecipe.Outbound(azimuthDeg: azimuth, park: park, injection: solved, notes: [
            "Parking orbit: circular at \(Int(recipe.parkingAltitudeKm)) km, launch azimuth \((azimuth * 10).rounded() / 10)°.",
            "Trans-lunar injection: \(LunarRecipe.kms(tliDV)), aimed by B-plane targeting at a closest approach \(Int((solved.ca.radius - rMoon).rounded())) km above the Moon at \(TimeScale.instant(tdbSecondsPastJ2000: solved.ca.seconds).iso8601).",
        ])
    }
}
