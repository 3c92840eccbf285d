import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// Where the lander's ascent ends: this far above the Moon (as Apollo's LM inserted into a
    /// 17 km perilune), km.
    static let ascentInsertionAltitudeKm = 17.0
    /// How far downrange of the site the ascent may end, and the step it is scanned by, degrees.
    static let ascentDownrangeDeg = 5.0...60.0, ascentDownrangeStepDeg = 1.0
    /// The most revolutions a rendezvous transfer may make.
    static let rendezvousMaxRevolutions = 3
    /// How far above the Moon a rendezvous transfer's lowest point must stay, km.
    static let rendezvousClearanceKm = 10.0

    /// The rendezvous transfer chosen: its insertion point (Moon-relative), the Lambert
    /// solution, its cost and the insertion's downrange angle.
    typealias Rendezvous = (insertion: Vector3, solution: LambertSolution, cost: Double, downrangeDeg: Double)
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

    /// The ascent from the site, the rendezvous transfer (``rendezvousTransfer``) and the braking
    /// onto the command module.
    func addRendezvous(to pieces: inout LunarRecipe.PieceList, notes: inout [String], lander v: Vehicle, site: SurfaceSite,
                       ascent: ClosedRange<Double>, dock: Double, orbitArc: Arc) throws {
        let frames = frames, eph = eph, muM = GravityConstants.moonGM
        let csmRelative = try orbitArc.state(dock).velocityKmS - frames.moon(dock).velocityKmS
        let chosen = try rendezvousTransfer(site: site, ascent: ascent, dock: dock, orbitArc: orbitArc)
        let insertion = chosen.insertion, best = chosen.solution
        let rendezvous = KeplerArc(mu: muM, position: insertion, velocity: best.v1, epochHours: ascent.upperBound / 3600)
        func rendezvousState(_ t: Double) -> OrbitalState {
            let s = rendezvous.state(atHours: t / 3600)
            let m = frames.moon(t)
            return OrbitalState(seconds: t, positionKm: m.positionKm + s.position, velocityKmS: m.velocityKmS + s.velocity)
        }
        notes.append("Rendezvous: inserted 17 km up, \(Int(chosen.downrangeDeg))° downrange of the site; a \(best.revolutions)-revolution two-body transfer about the Moon to the CSM at docking, its lowest point \(Int((LunarRecipe.periapsisRadius(r: insertion, v: best.v1, mu: muM) - rMoon).rounded())) km up (\(LunarRecipe.kms((best.v2 - csmRelative).length)) to match the CSM there, taken out over the braking phase).")
        pieces.add("Ascent (modelled)", [], ascent.lowerBound, ascent.upperBound, step: 10) { t in
            frames.geo(try PoweredBlend(center: .moon, start: ascent.lowerBound, end: ascent.upperBound, ephemeris: eph,
                                        from: { site.state(at: $0, ephemeris: eph) }, to: { frames.helio(rendezvousState($0)) }).state(at: t))
        }
        // The last minutes: braking onto the command module (the phase after `rendezvous`),
        // a powered blend from the transfer to the CSM's own orbit.
        let braking = v.phases.last { $0.kind == .powered && c.seconds(hours: $0.endHours) >= dock - 1 }
            .map { c.seconds(hours: $0.startHours)...c.seconds(hours: $0.endHours) } ?? dock...dock
        pieces.add("Rendezvous (modelled)", [], ascent.upperBound, braking.lowerBound, step: 300) { rendezvousState($0) }
        if braking.upperBound > braking.lowerBound {
            pieces.add("Braking and docking (modelled)", [], braking.lowerBound, braking.upperBound, step: 10) { t in
                frames.geo(try PoweredBlend(center: .moon, start: braking.lowerBound, end: braking.upperBound, ephemeris: eph,
                                            from: { frames.helio(rendezvousState($0)) }, to: { frames.helio(try orbitArc.state($0)) }).state(at: t))
            }
        }
    }

    /// The ascent ends 17 km up, downrange of the site along the CSM's orbit: how far downrange,
    /// and which transfer (up to three revolutions), is what keeps the transfer above the
    /// ground and costs least — the speed the ascent must reach beyond a circular orbit there
    /// plus the mismatch with the CSM at docking. Lambert's problem about the Moon from the
    /// ascent's end to the CSM at docking.
    func rendezvousTransfer(site: SurfaceSite, ascent: ClosedRange<Double>, dock: Double, orbitArc: Arc) throws -> LunarRecipe.Rendezvous {
        let muM = GravityConstants.moonGM
        let csmAtDock = try orbitArc.state(dock)
        let mAscent = frames.moon(ascent.upperBound)
        let normal = (try orbitArc.state(ascent.upperBound).positionKm - mAscent.positionKm).cross(try orbitArc.state(ascent.upperBound).velocityKmS - mAscent.velocityKmS).normalized
        let siteDir = (site.state(at: ascent.lowerBound, ephemeris: eph).positionKm - frames.helio(OrbitalState(seconds: ascent.lowerBound, positionKm: frames.moon(ascent.lowerBound).positionKm, velocityKmS: .zero)).positionKm).normalized
        let mDock = frames.moon(dock)
        let csmRelative = csmAtDock.velocityKmS - mDock.velocityKmS
        var chosen: LunarRecipe.Rendezvous?
        let range = LunarRecipe.ascentDownrangeDeg
        for downrange in stride(from: range.lowerBound, through: range.upperBound, by: LunarRecipe.ascentDownrangeStepDeg) {
            let insertion = LunarRecipe.rotate(siteDir, about: normal, by: downrange * .pi / 180) * (rMoon + LunarRecipe.ascentInsertionAltitudeKm)
            let circular = normal.cross(insertion.normalized) * (muM / insertion.length).squareRoot()
            guard let solutions = try? Lambert.solutions(mu: muM, from: insertion, to: csmAtDock.positionKm - mDock.positionKm, seconds: dock - ascent.upperBound,
                                                         direction: .retrograde, maxRevolutions: LunarRecipe.rendezvousMaxRevolutions, referenceNormal: -normal) else { continue }
            for sol in solutions where insertion.cross(sol.v1).dot(normal) > 0 && LunarRecipe.periapsisRadius(r: insertion, v: sol.v1, mu: muM) > rMoon + LunarRecipe.rendezvousClearanceKm {
                let cost = (sol.v1 - circular).length + (sol.v2 - csmRelative).length
                if cost < chosen?.cost ?? .infinity { chosen = (insertion, sol, cost, downrange) }
            }
        }
        guard let chosen else { throw RecipeError(description: "\(missionID): no rendezvous transfer stays above the Moon") }
        return chosen
    }
}
