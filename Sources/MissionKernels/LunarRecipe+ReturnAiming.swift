import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// Within this distance of the Moon (km) the return burn is solved for through its departure asymptote.
    static let nearMoonKm = 40_000.0
    /// The first guess aims this far round from the Moon (degrees): a return that grazes the Earth.
    static let returnGuessAngleDeg = 175.0
    /// Apollo's entry corridor, flight-path angle at the interface (steep … shallow), and its middle, degrees.
    static let corridorDeg = -7.5 ... -5.5, corridorMiddleDeg = -6.5
    /// Bisection steps over the corridor, and over the bank angle.
    static let corridorIterations = 30, bankIterations = 40
    /// The bank angles (degrees) the entry may fly to close what the corridor cannot.
    static let bankRangeDeg = 0.0...150.0
    /// How close to the splashdown site along track an entry must come down, km.
    static let landingToleranceKm = 1.0
    /// Passes moving the aimed plane against the entry's drift across it, how close across
    /// track they stop at (km), and the fraction of the drift the first pass corrects.
    static let returnPlanePasses = 8, crossTrackToleranceKm = 2.0, planeCorrectionGain = 0.7
    /// The bounds of the measured gain (shift of the aimed plane per unit of drift across it).
    static let planeGainRange = 0.3...6.0
    /// Rounds of the lateral search (reversal time, then bank angle), and bisection steps over
    /// the reversal time.
    static let lateralPasses = 3, lateralIterations = 40
    /// The return shooting's finite-difference step (km/s) and its tolerances on the interface
    /// radius (km), flight-path angle (radians) and plane (km).
    static let returnStep = 1e-6, returnTolerance = [0.5, 2e-5, 0.5]

    /// A return aimed at the interface: the coast, the interface state, the entry flown from it
    /// (nil when it skips out), how far past the site it lands, and the velocity after the burn.
    typealias Aimed = (arc: Arc, interface: OrbitalState, flight: EntryModel.Flight?, overshootKm: Double, velocity: Vector3)
    typealias ReturnLeg = (arc: Arc, flight: EntryModel.Flight, deltaV: Double, interface: OrbitalState)

    /// The return-aiming stage. The return is aimed as Apollo's were: at the entry interface's
    /// altitude at the published time, inside the entry corridor, in the plane through the
    /// splashdown site; the flight-path angle within the corridor sets how far the entry flies,
    /// so it comes down at the site. A class: each aim starts from the last one's solution.
    final class ReturnAiming {
        let solver: Solver
        let state: OrbitalState
        let burnMid: Double
        /// The splashdown site, geocentric, at splashdown.
        let site: Vector3
        let m0: (positionKm: Vector3, velocityKmS: Vector3)
        let rel: Vector3
        /// Near the Moon the burn is solved for through the departure asymptote (the velocity
        /// leaving the Moon's sphere): the return follows it almost linearly, where it hangs
        /// steeply on the burn itself. Farther out, the burn directly.
        let nearMoon: Bool
        /// The unknowns of the last aim: the asymptote near the Moon, else the burn.
        var x: [Double]
        /// The plane aimed through: the site, moved against the entry's drift across it.
        var planeTarget: Vector3

        /// First guess: the Earth's two-body arc to a point on the interface sphere 175° on from
        /// the Moon, in the plane of the Moon and the site — a return that grazes the Earth, as
        /// the real ones did, not one that falls straight at it.
        init(_ solver: Solver, from state: OrbitalState, burnMid: Double) throws {
            self.solver = solver
            self.state = state
            self.burnMid = burnMid
            let site = solver.frames.geo(solver.recipe.splashdown.state(at: solver.splash, ephemeris: solver.eph, terrestrial: solver.c.terrestrial)).positionKm
            self.site = site
            let m0 = solver.frames.moon(burnMid)
            self.m0 = m0
            rel = state.positionKm - m0.positionKm
            let nearMoon = rel.length < LunarRecipe.nearMoonKm
            self.nearMoon = nearMoon
            let from = nearMoon ? m0.positionKm : state.positionKm
            let planeNormal = from.cross(site).normalized
            let guessPoint = LunarRecipe.rotate(from.normalized, about: planeNormal, by: LunarRecipe.returnGuessAngleDeg * .pi / 180) * LunarRecipe.entryInterfaceRadiusKm
            guard let l = KeplerArc.lambert(mu: GravityConstants.earthGM, from: from, to: guessPoint, seconds: solver.ei - burnMid, longWay: false) else {
                throw RecipeError(description: "\(solver.missionID): no two-body return arc to the entry interface")
            }
            let guess = nearMoon ? l.v1 - m0.velocityKmS : l.v1 - state.velocityKmS
            x = [guess.x, guess.y, guess.z]
            planeTarget = site
        }

        /// The velocity after the burn for the unknowns `x`.
        func velocityAfterBurn(_ x: [Double]) throws -> Vector3 {
            guard nearMoon else { return state.velocityKmS + Vector3(x[0], x[1], x[2]) }
            guard let v = LunarRecipe.hyperbolaVelocity(at: rel, asymptote: Vector3(x[0], x[1], x[2]), mu: GravityConstants.moonGM) else {
                throw RecipeError(description: "\(solver.missionID): no departure hyperbola for that asymptote")
            }
            return m0.velocityKmS + v
        }

        /// The return aimed at the interface at flight-path angle `fpa`, and where the entry
        /// (at the model's bank angle) lands.
        func aimed(_ fpa: Double) throws -> Aimed {
            let step = LunarRecipe.returnStep, ei = solver.ei
            x = try Shooting.solve(x, steps: [step, step, step], tolerance: LunarRecipe.returnTolerance) { x in
                let s = try solver.propagateGeo(OrbitalState(seconds: burnMid, positionKm: state.positionKm, velocityKmS: try velocityAfterBurn(x)), to: ei).state(ei)
                let r = s.positionKm, v = s.velocityKmS
                return [r.length - LunarRecipe.entryInterfaceRadiusKm, asin(r.normalized.dot(v.normalized)) - fpa, r.cross(v).normalized.dot(planeTarget)]
            }.x
            let after = try velocityAfterBurn(x)
            let arc = try solver.propagateGeo(OrbitalState(seconds: burnMid, positionKm: state.positionKm, velocityKmS: after), to: ei)
            let interface = try arc.state(ei)
            // Too shallow an entry skips out: it overshoots without end.
            guard let landing = solver.entryLanding(solver.recipe.entry, from: interface, site: site) else { return (arc, interface, nil, .infinity, after) }
            return (arc, interface, landing.flight, landing.overshootKm, after)
        }

        /// The flight-path angle in Apollo's corridor that lands at the site, by bisection (a
        /// shallower entry flies farther); landing short at the edge of skipping out when none
        /// does, or the better end of the corridor when the site is beyond its reach.
        func corridorSearch() throws -> Aimed {
            let tolerance = LunarRecipe.landingToleranceKm
            let lo = LunarRecipe.corridorDeg.lowerBound * .pi / 180, hi = LunarRecipe.corridorDeg.upperBound * .pi / 180
            var best = try aimed(LunarRecipe.corridorMiddleDeg * .pi / 180)
            let steep = try aimed(lo), shallow = try aimed(hi)
            guard steep.overshootKm < 0, shallow.overshootKm > 0 else {
                return abs(steep.overshootKm) < abs(shallow.overshootKm) ? steep : shallow
            }
            var short = steep
            _ = try Search.bisect(lo, hi, iterations: LunarRecipe.corridorIterations) { mid in
                let m = try aimed(mid)
                if m.flight != nil, m.overshootKm < 0 { short = m }
                best = m
                if abs(m.overshootKm) < tolerance { return .found }
                return m.overshootKm < 0 ? .above : .below
            }
            // Landing short at the edge of skipping out: the bank angle closes the rest.
            if best.flight == nil || abs(best.overshootKm) >= tolerance { best = short }
            return best
        }

        /// The recipe's entry flown at `bankDeg`, with `lateral`'s side part when set.
        func entry(bankDeg: Double, lateral: EntryModel.Lateral?) -> EntryModel {
            var model = solver.recipe.entry
            model.bankDeg = bankDeg
            model.lateral = lateral
            return model
        }

        /// Beyond the corridor's reach, the bank angle (lift up flies farther; skipping out
        /// counts as flying too far) closes the rest: the entry from `best`'s interface that
        /// lands at the site, else the last that landed short, else `flight` (flown at
        /// `bankDeg`), and its bank angle.
        func bankSearch(_ best: Aimed, flight: EntryModel.Flight, bankDeg: Double, lateral: EntryModel.Lateral? = nil) -> (flight: EntryModel.Flight, bankDeg: Double) {
            let tolerance = LunarRecipe.landingToleranceKm, range = LunarRecipe.bankRangeDeg
            func overshoot(_ bankDeg: Double) -> (km: Double, flight: EntryModel.Flight?) {
                guard let landing = solver.entryLanding(entry(bankDeg: bankDeg, lateral: lateral), from: best.interface, site: site) else { return (.infinity, nil) }
                return (landing.overshootKm, landing.flight)
            }
            var chosen = (flight: flight, bankDeg: bankDeg)
            guard overshoot(range.lowerBound).km > 0, overshoot(range.upperBound).km < 0 else { return chosen }
            _ = Search.bisect(range.lowerBound, range.upperBound, iterations: LunarRecipe.bankIterations) { mid in
                let m = overshoot(mid)
                if let f = m.flight, m.km < 0 || abs(m.km) < tolerance { chosen = (f, mid) }
                if abs(m.km) < tolerance { return .found }
                return m.km > 0 ? .above : .below
            }
            return chosen
        }

        /// One aim for the current plane: the corridor, then the bank angle if it falls short.
        func attempt() throws -> (best: Aimed, flight: EntryModel.Flight, bankDeg: Double) {
            let best = try corridorSearch()
            let bankDeg = solver.recipe.entry.bankDeg
            guard let flight = best.flight else { throw RecipeError(description: "\(solver.missionID): no entry in the corridor comes down before the splashdown time") }
            guard abs(best.overshootKm) > LunarRecipe.landingToleranceKm else { return (best, flight, bankDeg) }
            let banked = bankSearch(best, flight: flight, bankDeg: bankDeg)
            return (best, banked.flight, banked.bankDeg)
        }

        /// How far across track `flight` lands from the site, km (``LunarRecipe/acrossTrack(landed:site:interface:)``).
        func acrossKm(_ flight: EntryModel.Flight, _ interface: OrbitalState) -> Double {
            LunarRecipe.acrossTrack(landed: flight.states[flight.states.count - 1].positionKm, site: site, interface: interface) * Constants.earthEquatorialRadiusKm
        }

        /// What the plane cannot close across track, the entry closes as Apollo's lateral logic
        /// did: the lift's side part flown right, then reversed to the left, the reversal's
        /// time found by bisection between the interface (all left) and the landing (all
        /// right); the bank angle is then searched again for the range, up to three rounds. The
        /// flight, or nil when even one side all the way does not reach the site.
        func lateralSearch(_ best: Aimed, bankDeg: Double) -> EntryModel.Flight? {
            let tolerance = LunarRecipe.landingToleranceKm
            var bank = bankDeg, steered: EntryModel.Flight?
            for _ in 0..<LunarRecipe.lateralPasses {
                func across(_ reversal: Double) -> (km: Double, landing: (flight: EntryModel.Flight, overshootKm: Double)?) {
                    let lateral = EntryModel.Lateral(side: 1, reversalSeconds: reversal)
                    guard let landing = solver.entryLanding(entry(bankDeg: bank, lateral: lateral), from: best.interface, site: site) else { return (.nan, nil) }
                    return (acrossKm(landing.flight, best.interface), landing)
                }
                let lo = best.interface.seconds, hi = solver.splash
                let left = across(lo).km, right = across(hi).km
                guard left.isFinite, right.isFinite, (left < 0) != (right < 0) else { return steered }
                var reversal = hi, found: (flight: EntryModel.Flight, overshootKm: Double)?
                _ = Search.bisect(lo, hi, iterations: LunarRecipe.lateralIterations) { mid in
                    let m = across(mid)
                    guard m.km.isFinite else { return .below }
                    reversal = mid
                    found = m.landing
                    if abs(m.km) < tolerance { return .found }
                    return (m.km < 0) == (left < 0) ? .above : .below
                }
                guard let flown = found else { return steered }
                steered = flown.flight
                if abs(flown.overshootKm) < tolerance { break }
                let lateral = EntryModel.Lateral(side: 1, reversalSeconds: reversal)
                let banked = bankSearch(best, flight: flown.flight, bankDeg: bank, lateral: lateral)
                bank = banked.bankDeg
                steered = banked.flight
                if abs(acrossKm(banked.flight, best.interface)) < LunarRecipe.crossTrackToleranceKm { break }
            }
            return steered
        }

        /// The return aimed: each pass moves the plane aimed through against the entry's drift
        /// across it, until the entry comes down within 2 km across track of the site; what
        /// the passes leave, the entry's lateral steering closes (``lateralSearch(_:bankDeg:)``).
        func solve() throws -> ReturnLeg {
            var result: (aimed: Aimed, flight: EntryModel.Flight, bankDeg: Double)?
            // The plane's shift per unit of drift: the landing follows the aimed plane only in
            // part, so after the first pass the gain is what the last pass achieved, inverted.
            var gain = LunarRecipe.planeCorrectionGain
            var last: (across: Double, shift: Double, plane: Vector3, n: Vector3, x: [Double])?
            /// `plane` tilted by `shift` against the interface orbit's normal `n`.
            func moved(_ plane: Vector3, _ n: Vector3, by shift: Double) -> Vector3 {
                (plane.normalized - n * shift).normalized * site.length
            }
            for _ in 0..<LunarRecipe.returnPlanePasses {
                let attempt: (best: Aimed, flight: EntryModel.Flight, bankDeg: Double)
                do {
                    attempt = try self.attempt()
                } catch {
                    // A correction of the plane that does not solve: half of it, from the last
                    // plane that did; with none, the error.
                    guard let l = last, result != nil else { throw error }
                    let shift = l.shift / 2
                    last = (l.across, shift, l.plane, l.n, l.x)
                    x = l.x
                    planeTarget = moved(l.plane, l.n, by: shift)
                    continue
                }
                let best = attempt.best, flight = attempt.flight
                result = (best, flight, attempt.bankDeg)
                let n = best.interface.positionKm.cross(best.interface.velocityKmS).normalized
                let across = LunarRecipe.acrossTrack(landed: flight.states[flight.states.count - 1].positionKm, site: site, interface: best.interface)
                if abs(across) * Constants.earthEquatorialRadiusKm < LunarRecipe.crossTrackToleranceKm { break }
                if let last, last.shift != 0 {
                    let response = (last.across - across) / last.shift
                    if response > 0 { gain = min(LunarRecipe.planeGainRange.upperBound, max(LunarRecipe.planeGainRange.lowerBound, 1 / response)) }
                }
                let shift = across * gain
                last = (across, shift, planeTarget, n, x)
                planeTarget = moved(planeTarget, n, by: shift)
            }
            guard var result else { throw RecipeError(description: "\(solver.missionID): the return could not be aimed") }
            // The plane the return can reach may not pass through the site (the burn's point in
            // lunar orbit is fixed): the entry steers the rest.
            if abs(acrossKm(result.flight, result.aimed.interface)) >= LunarRecipe.crossTrackToleranceKm,
               let steered = lateralSearch(result.aimed, bankDeg: result.bankDeg) {
                result.flight = steered
            }
            return (result.aimed.arc, result.flight, (result.aimed.velocity - state.velocityKmS).length, result.aimed.interface)
        }
    }
}

extension LunarRecipe.Solver {
    /// The return-aiming stage from `state`, the burn at `burnMid`.
    func returnLeg(from state: OrbitalState, burnMid: Double) throws -> LunarRecipe.ReturnLeg {
        try LunarRecipe.ReturnAiming(self, from: state, burnMid: burnMid).solve()
    }
}
