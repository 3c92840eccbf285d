import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension PerseveranceRecipe {
    /// The escape hyperbola's perigee for an asymptote, in the plane through the asymptote and
    /// the pad at liftoff, moving eastward (geocentric ecliptic J2000).
    struct Injection {
        /// The pad's direction from the Earth's centre at liftoff.
        let padAtLiftoff: Vector3
        /// The Earth's pole at liftoff.
        let earthPole: Vector3
        /// The perigee's (and the parking orbit's) distance from the Earth's centre, km.
        let radiusKm: Double
        let mu = GravityConstants.earthGM

        /// The perigee state at `t` for the asymptote `vInf` (km/s).
        func state(_ vInf: Vector3, at t: Double) -> OrbitalState {
            let rp = radiusKm, muE = mu
            var n = padAtLiftoff.cross(vInf).normalized
            if n.dot(earthPole) < 0 { n = -n }
            let e = 1 + rp * vInf.lengthSquared / muE
            let p = LunarRecipe.rotate(vInf.normalized, about: n, by: -acos(-1 / e))
            let speed = (vInf.lengthSquared + 2 * muE / rp).squareRoot()
            return OrbitalState(seconds: t, positionKm: p * rp, velocityKmS: n.cross(p) * speed)
        }
    }

    /// The departure: the asymptote, the escape integrated from the injection to TCM-1, and the
    /// launch profile before the injection (``PlanarDeparture``).
    struct Departure {
        let injection: Injection
        /// The end of the escape burn, at the hyperbola's perigee; the parking orbit's insertion;
        /// the escape burn's length, s; where the ascent enters the parking orbit (radians
        /// downrange of the pad at liftoff).
        let injectionSeconds: Double, insertionSeconds: Double, burnSeconds: Double
        let vInf: Vector3
        /// The escape, geocentric, from the injection to TCM-1.
        let outbound: PropagatedArc
        let profile: PlanarDeparture
        let ephemeris: Ephemeris

        /// The escape, heliocentric, at `t`.
        func outboundState(_ t: Double) throws -> OrbitalState {
            PerseveranceRecipe.shifted(try outbound.state(at: t), by: PerseveranceRecipe.planet(399, ephemeris, t), at: t)
        }

        /// The launch profile (ascent, parking orbit, escape burn), heliocentric, at `t`.
        func launching(_ t: Double) -> OrbitalState {
            PerseveranceRecipe.shifted(profile.state(at: t), by: PerseveranceRecipe.planet(399, ephemeris, t), at: t)
        }
    }

    /// The differential correction of the asymptote: finite-difference steps (km/s) and the
    /// miss at TCM-1 it stops within (km).
    static let aimStepKmS = 1e-6, aimToleranceKm = 1e-5
    /// Passes of the injection time's fixed-point iteration, and the change (s) that ends it.
    static let injectionPasses = 10, injectionSettledSeconds = 0.01

    /// The pad's geocentric state at `t`.
    func padState(_ c: BuildContext, _ t: Double) -> OrbitalState {
        let p = pad.state(at: t, ephemeris: c.ephemeris, terrestrial: c.terrestrial), e = Self.planet(399, c.ephemeris, t)
        return OrbitalState(seconds: t, positionKm: p.positionKm - e.positionKm, velocityKmS: p.velocityKmS - e.velocityKmS)
    }

    /// The asymptote whose escape from an injection at `injection`, integrated to TCM-1, meets
    /// the cruise (`aim`) there: differential correction from the two-body arc's asymptote.
    func aimed(_ injectionAt: Injection, at injection: Double, tcm: Double, aim: OrbitalState, model: GravityModel,
               ephemeris eph: Ephemeris) throws -> (vInf: Vector3, arc: PropagatedArc) {
        let dop = DormandPrince853()
        let e0 = Self.planet(399, eph, injection)
        guard let guess = KeplerArc.lambert(mu: GravityConstants.sunGM, from: e0.positionKm, to: aim.positionKm, seconds: tcm - injection, longWay: false) else {
            throw RecipeError(description: "\(missionID): no two-body arc from the Earth to the cruise at TCM-1")
        }
        let v0 = guess.v1 - e0.velocityKmS
        let step = Self.aimStepKmS, tolerance = Self.aimToleranceKm
        let x = try Shooting.solve([v0.x, v0.y, v0.z], steps: [step, step, step], tolerance: [tolerance, tolerance, tolerance]) { x in
            let end = try dop.propagate(injectionAt.state(Vector3(x[0], x[1], x[2]), at: injection), to: tcm, model: model).end
            let miss = end.positionKm + Self.planet(399, eph, tcm).positionKm - aim.positionKm
            return [miss.x, miss.y, miss.z]
        }.x
        let vInf = Vector3(x[0], x[1], x[2])
        return (vInf, try dop.propagate(injectionAt.state(vInf, at: injection), to: tcm, model: model))
    }

    /// The departure aimed at the cruise at TCM-1. The injection time is where the escape burn
    /// from the parking orbit ends at the perigee; the perigee's direction moves a little with
    /// the asymptote, so the two are solved together in a few passes.
    func depart(_ c: BuildContext, times: Timeline, aim: OrbitalState) throws -> Departure {
        let eph = c.ephemeris
        let earthModel = try HorizonsPath.model(.earth, frame: .heliocentric, ephemeris: eph)
        let padAtLiftoff = padState(c, times.launch).positionKm.normalized
        let earthPole = eph.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: times.launch)).bodyToEcliptic * Vector3(0, 0, 1)
        let geometry = Injection(padAtLiftoff: padAtLiftoff, earthPole: earthPole, radiusKm: Constants.earthEquatorialRadiusKm + injectionAltitudeKm)
        let rp = geometry.radiusKm, muE = geometry.mu
        let insertion = times.launch + ascentMinutes * 60, burn = escapeBurnMinutes * 60
        let insertionAngle = insertionDownrangeDeg * .pi / 180
        var injection = times.launchPhase.upperBound
        var departure = try aimed(geometry, at: injection, tcm: times.tcm, aim: aim, model: earthModel, ephemeris: eph)
        for pass in 0..<Self.injectionPasses {
            let perigee = geometry.state(departure.vInf, at: injection)
            let n = perigee.positionKm.cross(perigee.velocityKmS).normalized
            var angle = atan2(padAtLiftoff.cross(perigee.positionKm.normalized).dot(n), padAtLiftoff.dot(perigee.positionKm.normalized))
            if angle < insertionAngle { angle += 2 * .pi }
            let next = PlanarDeparture.injectionSeconds(insertionSeconds: insertion, insertionAngle: insertionAngle, burnSeconds: burn, radius: rp,
                                                        perigeeAngle: angle, perigeeSpeed: perigee.velocityKmS.length, mu: muE)
            if abs(next - injection) < Self.injectionSettledSeconds { break }
            guard pass < Self.injectionPasses - 1 else { throw RecipeError(description: "\(missionID): the injection time does not settle (\(iso(injection)), then \(iso(next)))") }
            injection = next
            departure = try aimed(geometry, at: injection, tcm: times.tcm, aim: aim, model: earthModel, ephemeris: eph)
        }
        guard times.launchPhase.contains(injection - Self.phaseSlackSeconds) else {
            throw RecipeError(description: "\(missionID): the powered phase \"launch and injection\" must last to the injection, \(iso(injection))")
        }
        let injected = geometry.state(departure.vInf, at: injection)
        let profile = try PlanarDeparture(launchSeconds: times.launch, insertionSeconds: insertion, insertionAngle: insertionAngle, burnSeconds: burn,
                                          perigee: injected, mu: muE, pad: { padState(c, $0) })
        return Departure(injection: geometry, injectionSeconds: injection, insertionSeconds: insertion, burnSeconds: burn, vInf: departure.vInf,
                         outbound: departure.arc, profile: profile, ephemeris: eph)
    }

    /// What the departure and TCM-1 came to.
    func departureNotes(_ d: Departure, aim: OrbitalState, times: Timeline) throws -> [String] {
        let before = try d.outboundState(times.tcm)
        let deltaV = aim.velocityKmS - before.velocityKmS
        let joinMiss = (before.positionKm - aim.positionKm).length
        let rp = d.injection.radiusKm, burn = d.burnSeconds, p = d.profile
        let inclination = acos(max(-1, min(1, p.normal.dot(d.injection.earthPole)))) * 180 / .pi
        return [
            "Departure: C3 \(fixed(d.vInf.lengthSquared, 2)) km²/s², in a plane through the pad at liftoff and the asymptote, inclined \(fixed(inclination, 1))° to the equator. Ascent to a \(Int(injectionAltitudeKm)) km parking orbit \(Int(insertionDownrangeDeg))° downrange at \(iso(d.insertionSeconds)), coast, and an \(Int(escapeBurnMinutes))-minute escape burn ending at the hyperbola's perigee, \(fixed(p.perigeeAngle * 180 / .pi, 0))° downrange of the pad at liftoff, at \(iso(d.injectionSeconds)) (the time at which the burn is a constant tangential acceleration, \(fixed((p.perigeeRate - p.circularRate) * rp / burn * 1000 / Constants.standardGravityMS2, 2)) g).",
            "TCM-1 (modelled): \(fixed(deltaV.length * 1000, 2)) m/s at \(iso(times.tcm)), the one impulse joining the departure to the cruise integrated back from NAIF's cruise orbit determination (positions meet within \(fixed(joinMiss * 1e6, 0)) mm). It stands for TCM-1's removal of the injection bias and for what the model leaves out after it (TCM-2 to TCM-4, solar radiation pressure).",
        ]
    }
}
