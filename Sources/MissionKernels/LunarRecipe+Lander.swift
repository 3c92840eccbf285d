import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// The orbit the lander's ascent inserts it into, km above the Moon at perilune and
    /// apolune: Apollo 11's Eagle reached about 17 × 87 km at 124:29:15 GET.
    static let ascentOrbitPeriluneKm = 17.0, ascentOrbitApoluneKm = 87.0
    /// How far downrange of the site the ascent may end, and the step it is scanned by, degrees.
    static let ascentDownrangeDeg = 5.0...60.0, ascentDownrangeStepDeg = 1.0
    /// The phase in which the lander leaves its insertion orbit for the command module: the
    /// coelliptic sequence initiation (CSI), the first rendezvous burn Apollo flew.
    static let rendezvousBurnPhase = "coelliptic sequence initiation"
    /// The most revolutions a rendezvous transfer may make.
    static let rendezvousMaxRevolutions = 3
    /// How far above the Moon a rendezvous transfer's lowest point must stay, km.
    static let rendezvousClearanceKm = 10.0
    /// How far above the Moon a rendezvous transfer's highest point may go, km: the flown
    /// sequence stayed below Columbia's orbit (about 100 × 113 km); a transfer may reach 130.
    static let rendezvousCeilingKm = 130.0

    /// The rendezvous chosen: the insertion point and velocity (Moon-relative, at the ascent's
    /// end), where the insertion orbit is at the rendezvous burn, the Lambert solution from there
    /// to the command module at docking, its cost and the insertion's downrange angle.
    typealias Rendezvous = (insertion: Vector3, insertionVelocity: Vector3, burnPosition: Vector3, burnVelocity: Vector3,
                            solution: LambertSolution, cost: Double, downrangeDeg: Double)

    /// The apoapsis radius of the two-body orbit through `r` with velocity `v` (infinite for an
    /// open one).
    static func apoapsisRadius(r: Vector3, v: Vector3, mu: Double) -> Double {
        let energy = v.lengthSquared / 2 - mu / r.length
        guard energy < 0 else { return .infinity }
        let a = -mu / (2 * energy)
        return 2 * a - periapsisRadius(r: r, v: v, mu: mu)
    }
}

extension LunarRecipe.Solver {
    /// The lander stage: the command module's orbit until the descent-orbit burn, an ellipse down
    /// to the descent's perilune, the powered descent to the site, the stay (fixed in IAU_MOON),
    /// the ascent, and a transfer (Lambert's problem about the Moon, with as many revolutions as
    /// fit) that meets the command module at the docking time.
    func landerPath(_ lander: LunarRecipe.Lander, orbitArc: Arc) throws -> VehiclePath {
        let frames = frames, eph = eph
        let v = try c.vehicle(lander.vehicleID)
        let undock = c.seconds(hours: v.startHours), dock = c.seconds(hours: v.endHours ?? v.startHours)
        let doi = try c.phase(v, lander.doiPhase)
        let doiMid = (doi.lowerBound + doi.upperBound) / 2
        let descent = try c.phase(v, "powered descent")
        let landed = try c.phase(v, "on the Moon")
        let ascent = try c.phase(v, "ascent")
        var pieces = LunarRecipe.PieceList(frames: frames, center: 301)
        var notes: [String] = []
        // The descent orbit: apolune at the burn, perilune lowered to the descent altitude.
        let before = try orbitArc.state(doiMid)
        let m0 = frames.moon(doiMid)
        let r0 = before.positionKm - m0.positionKm, v0 = before.velocityKmS - m0.velocityKmS
        let ra = r0.length, rp = rMoon + lander.descentPeriluneKm
        let a = (ra + rp) / 2
        let speed = (GravityConstants.moonGM * (2 / ra - 1 / a)).squareRoot()
        let afterDOI = OrbitalState(seconds: doiMid, positionKm: before.positionKm, velocityKmS: m0.velocityKmS + v0.normalized * speed)
        let descentOrbit = try propagateMoon(afterDOI, to: descent.lowerBound)
        let doiBack = try propagateMoon(afterDOI, to: doi.lowerBound)
        notes.append("Descent orbit insertion: \(LunarRecipe.kms(abs(v0.length - speed))) to a perilune of \(Int(lander.descentPeriluneKm)) km.")
        pieces.add("Lunar orbit with the CSM (modelled)", [], undock, doi.lowerBound, step: 300) { try orbitArc.state($0) }
        pieces.add("Descent orbit insertion (modelled)", [], doi.lowerBound, doi.upperBound, step: 5) { t in
            frames.geo(try PoweredBlend(center: .moon, start: doi.lowerBound, end: doi.upperBound, ephemeris: eph,
                                        from: { frames.helio(try orbitArc.state($0)) },
                                        to: { frames.helio($0 >= doiMid ? try descentOrbit.state($0) : try doiBack.state($0)) }).state(at: t))
        }
        pieces.add("Descent orbit (modelled)", [], doi.upperBound, descent.lowerBound, step: 120) { try descentOrbit.state($0) }
        let site = lander.site
        // The descent orbit carried on through the descent, to blend from.
        let descentOn = try propagateMoon(try descentOrbit.state(descent.lowerBound), to: descent.upperBound)
        pieces.add("Powered descent (modelled)", [], descent.lowerBound, descent.upperBound, step: 10) { t in
            frames.geo(try PoweredBlend(center: .moon, start: descent.lowerBound, end: descent.upperBound, ephemeris: eph,
                                        from: { frames.helio(try descentOn.state($0)) },
                                        to: { site.state(at: $0, ephemeris: eph) }).state(at: t))
        }
        // On the surface: fixed in the Moon's IAU frame (the engine turns it).
        pieces.pieces.append(PathPiece(name: "Tranquility Base (IAU_MOON)", notes: ["The landing site, fixed in the Moon's body frame."],
                                       startSeconds: landed.lowerBound, endSeconds: landed.upperBound, center: 301, frame: 10020, maxStepSeconds: 86_400,
                                       state: { site.state(at: $0, ephemeris: eph) }))
        try addRendezvous(to: &pieces, notes: &notes, lander: v, site: site, ascent: ascent, dock: dock, orbitArc: orbitArc)
        return VehiclePath(vehicle: v, pieces: pieces.pieces, notes: notes)
    }

    /// The ascent from the site into the insertion orbit (17 × 87 km), the coast in it to the
    /// rendezvous burn (CSI), the transfer from there (``rendezvousTransfer``) and the braking
    /// onto the command module.
    func addRendezvous(to pieces: inout LunarRecipe.PieceList, notes: inout [String], lander v: Vehicle, site: SurfaceSite,
                       ascent: ClosedRange<Double>, dock: Double, orbitArc: Arc) throws {
        let frames = frames, eph = eph, muM = GravityConstants.moonGM
        let csmRelative = try orbitArc.state(dock).velocityKmS - frames.moon(dock).velocityKmS
        let burn = try c.phase(v, LunarRecipe.rendezvousBurnPhase)
        let burnMid = (burn.lowerBound + burn.upperBound) / 2
        let chosen = try rendezvousTransfer(site: site, ascent: ascent, burn: burnMid, dock: dock, orbitArc: orbitArc)
        let best = chosen.solution
        let insertionOrbit = KeplerArc(mu: muM, position: chosen.insertion, velocity: chosen.insertionVelocity, epochHours: ascent.upperBound / 3600)
        let transfer = KeplerArc(mu: muM, position: chosen.burnPosition, velocity: best.v1, epochHours: burnMid / 3600)
        func moonRelative(_ arc: KeplerArc, _ t: Double) -> OrbitalState {
            let s = arc.state(atHours: t / 3600)
            let m = frames.moon(t)
            return OrbitalState(seconds: t, positionKm: m.positionKm + s.position, velocityKmS: m.velocityKmS + s.velocity)
        }
        let low = LunarRecipe.periapsisRadius(r: chosen.burnPosition, v: best.v1, mu: muM) - rMoon
        let high = LunarRecipe.apoapsisRadius(r: chosen.burnPosition, v: best.v1, mu: muM) - rMoon
        notes.append("Ascent: inserted into a \(Int(LunarRecipe.ascentOrbitPeriluneKm)) × \(Int(LunarRecipe.ascentOrbitApoluneKm)) km orbit \(Int(chosen.downrangeDeg))° downrange of the site; at CSI (\(LunarRecipe.kms((best.v1 - chosen.burnVelocity).length))) a \(best.revolutions)-revolution two-body transfer about the Moon to Columbia at docking, \(Int(low.rounded())) × \(Int(high.rounded())) km (\(LunarRecipe.kms((best.v2 - csmRelative).length)) to match Columbia there, taken out over the braking phase; CDH and TPI are not modelled one by one).")
        pieces.add("Ascent (modelled)", [], ascent.lowerBound, ascent.upperBound, step: 10) { t in
            frames.geo(try PoweredBlend(center: .moon, start: ascent.lowerBound, end: ascent.upperBound, ephemeris: eph,
                                        from: { site.state(at: $0, ephemeris: eph) }, to: { frames.helio(moonRelative(insertionOrbit, $0)) }).state(at: t))
        }
        pieces.add("Insertion orbit (modelled)", [], ascent.upperBound, burn.lowerBound, step: 120) { moonRelative(insertionOrbit, $0) }
        pieces.add("CSI burn (modelled)", [], burn.lowerBound, burn.upperBound, step: 5) { t in
            frames.geo(try PoweredBlend(center: .moon, start: burn.lowerBound, end: burn.upperBound, ephemeris: eph,
                                        from: { frames.helio(moonRelative(insertionOrbit, $0)) }, to: { frames.helio(moonRelative(transfer, $0)) }).state(at: t))
        }
        // The last minutes: braking onto the command module (the phase after `rendezvous`),
        // a powered blend from the transfer to the CSM's own orbit.
        let braking = v.phases.last { $0.kind == .powered && c.seconds(hours: $0.endHours) >= dock - 1 }
            .map { c.seconds(hours: $0.startHours)...c.seconds(hours: $0.endHours) } ?? dock...dock
        pieces.add("Rendezvous (modelled)", [], burn.upperBound, braking.lowerBound, step: 300) { moonRelative(transfer, $0) }
        if braking.upperBound > braking.lowerBound {
            pieces.add("Braking and docking (modelled)", [], braking.lowerBound, braking.upperBound, step: 10) { t in
                frames.geo(try PoweredBlend(center: .moon, start: braking.lowerBound, end: braking.upperBound, ephemeris: eph,
                                            from: { frames.helio(moonRelative(transfer, $0)) }, to: { frames.helio(try orbitArc.state($0)) }).state(at: t))
            }
        }
    }

    /// The ascent ends at the perilune of a 17 × 87 km orbit in the command module's plane,
    /// downrange of the site; the lander coasts in it to the rendezvous burn (`burn`), where a
    /// transfer (Lambert's problem about the Moon, up to three revolutions) takes it to the
    /// command module at docking. How far downrange, and which transfer, is what keeps the
    /// transfer between 10 and 130 km up and costs least: the burn's change of velocity plus
    /// the mismatch with the command module at docking.
    func rendezvousTransfer(site: SurfaceSite, ascent: ClosedRange<Double>, burn: Double, dock: Double, orbitArc: Arc) throws -> LunarRecipe.Rendezvous {
        let muM = GravityConstants.moonGM
        let csmAtDock = try orbitArc.state(dock)
        let mAscent = frames.moon(ascent.upperBound)
        let csmAtInsertion = try orbitArc.state(ascent.upperBound)
        let normal = (csmAtInsertion.positionKm - mAscent.positionKm).cross(csmAtInsertion.velocityKmS - mAscent.velocityKmS).normalized
        let siteDir = (site.state(at: ascent.lowerBound, ephemeris: eph).positionKm - frames.helio(OrbitalState(seconds: ascent.lowerBound, positionKm: frames.moon(ascent.lowerBound).positionKm, velocityKmS: .zero)).positionKm).normalized
        // The site's direction in Columbia's plane: the insertion is in that plane.
        let inPlane = (siteDir - normal * siteDir.dot(normal)).normalized
        let mDock = frames.moon(dock)
        let csmRelative = csmAtDock.velocityKmS - mDock.velocityKmS
        let rp = rMoon + LunarRecipe.ascentOrbitPeriluneKm, ra = rMoon + LunarRecipe.ascentOrbitApoluneKm
        let periluneSpeed = (muM * (2 / rp - 2 / (rp + ra))).squareRoot()
        var chosen: LunarRecipe.Rendezvous?
        let range = LunarRecipe.ascentDownrangeDeg
        for downrange in stride(from: range.lowerBound, through: range.upperBound, by: LunarRecipe.ascentDownrangeStepDeg) {
            let insertion = LunarRecipe.rotate(inPlane, about: normal, by: downrange * .pi / 180) * rp
            let velocity = normal.cross(insertion.normalized) * periluneSpeed
            let atBurn = KeplerArc(mu: muM, position: insertion, velocity: velocity, epochHours: ascent.upperBound / 3600).state(atHours: burn / 3600)
            guard let solutions = try? Lambert.solutions(mu: muM, from: atBurn.position, to: csmAtDock.positionKm - mDock.positionKm, seconds: dock - burn,
                                                         direction: .retrograde, maxRevolutions: LunarRecipe.rendezvousMaxRevolutions, referenceNormal: -normal) else { continue }
            for sol in solutions where atBurn.position.cross(sol.v1).dot(normal) > 0
                && LunarRecipe.periapsisRadius(r: atBurn.position, v: sol.v1, mu: muM) > rMoon + LunarRecipe.rendezvousClearanceKm
                && LunarRecipe.apoapsisRadius(r: atBurn.position, v: sol.v1, mu: muM) < rMoon + LunarRecipe.rendezvousCeilingKm {
                let cost = (sol.v1 - atBurn.velocity).length + (sol.v2 - csmRelative).length
                if cost < chosen?.cost ?? .infinity { chosen = (insertion, velocity, atBurn.position, atBurn.velocity, sol, cost, downrange) }
            }
        }
        guard let chosen else { throw RecipeError(description: "\(missionID): no rendezvous transfer stays between \(Int(LunarRecipe.rendezvousClearanceKm)) and \(Int(LunarRecipe.rendezvousCeilingKm)) km above the Moon") }
        return chosen
    }
}
