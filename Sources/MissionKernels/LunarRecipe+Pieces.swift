import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe.Solver {
    /// The ascent, the parking orbit as flown (back from the injection point under J2) and
    /// trans-lunar injection, each burn a powered blend between the coasts either side.
    func addLaunch(to pieces: inout LunarRecipe.PieceList, _ outbound: LunarRecipe.Outbound) throws {
        let frames = frames, eph = eph, pad = recipe.pad, terrestrial = c.terrestrial
        let launch = launch, insertion = ascent.upperBound, tli = tli, tliMid = tliMid
        let park = outbound.park, coast = outbound.injection.coast
        let parkingArc = try propagateGeo(park.state, to: launch)
        pieces.add("Ascent (modelled)", ["From the pad to the parking orbit: a powered blend."], launch, insertion, step: 30) { t in
            frames.geo(try PoweredBlend(center: .earth, start: launch, end: insertion, ephemeris: eph,
                                        from: { pad.state(at: $0, ephemeris: eph, terrestrial: terrestrial) }, to: { frames.helio(try parkingArc.state($0)) }).state(at: t))
        }
        pieces.add("Parking orbit (modelled)", [], insertion, tli.lowerBound, step: 300) { try parkingArc.state($0) }
        // The post-burn coast extended back over the burn, to blend from.
        let coastBack = try propagateGeo(try coast.state(tli.upperBound), to: tli.lowerBound)
        let parkingOn = try propagateGeo(park.state, to: tli.upperBound)
        pieces.add("Trans-lunar injection (modelled)", [], tli.lowerBound, tli.upperBound, step: 20) { t in
            frames.geo(try PoweredBlend(center: .earth, start: tli.lowerBound, end: tli.upperBound, ephemeris: eph,
                                        from: { frames.helio($0 <= tliMid ? try parkingArc.state($0) : try parkingOn.state($0)) },
                                        to: { frames.helio($0 >= tliMid ? try coast.state($0) : try coastBack.state($0)) }).state(at: t))
        }
    }

    /// A lunar orbit's pieces after trans-lunar injection: the coast, lunar orbit insertion, the
    /// two orbits either side of the second burn, the return; and the lander's path.
    func orbitPaths(pieces: LunarRecipe.PieceList, notes: [String], outbound: LunarRecipe.Outbound,
                    lunarOrbit: LunarRecipe.LunarOrbit) throws -> [VehiclePath] {
        var pieces = pieces, notes = notes
        let frames = frames, eph = eph
        let coast = outbound.injection.coast, ca = outbound.injection.ca
        let loi = try c.phase(vehicle, "lunar orbit insertion")
        let tei = try c.phase(vehicle, "trans-Earth injection")
        let teiMid = (tei.lowerBound + tei.upperBound) / 2
        let orbitStart = try lunarOrbit.first.state(ca.seconds)
        let orbitBack = try propagateMoon(orbitStart, to: loi.lowerBound)
        let coastOn = try propagateGeo(try coast.state(arrival), to: loi.upperBound)
        let loiDV = (orbitStart.velocityKmS - (try coast.state(ca.seconds)).velocityKmS).length
        notes.append("Lunar orbit insertion: \(LunarRecipe.kms(loiDV)).")
        pieces.add("Translunar coast (modelled)", [], tli.upperBound, loi.lowerBound, step: 3600) { try coast.state($0) }
        pieces.add("Lunar orbit insertion (modelled)", [], loi.lowerBound, loi.upperBound, step: 20) { t in
            frames.geo(try PoweredBlend(center: .moon, start: loi.lowerBound, end: loi.upperBound, ephemeris: eph,
                                        from: { frames.helio($0 <= ca.seconds ? try coast.state($0) : try coastOn.state($0)) },
                                        to: { frames.helio($0 >= ca.seconds ? try lunarOrbit.first.state($0) : try orbitBack.state($0)) }).state(at: t))
        }
        let burn = lunarOrbit.burn
        let integrated = ["Integrated about the Moon (J2) with the Earth and the Sun pulling."]
        pieces.add("Lunar orbit (modelled)", integrated, loi.upperBound, burn.lowerBound, step: 300, center: 301) { try lunarOrbit.first.state($0) }
        let secondBack = try propagateMoon(try lunarOrbit.second.state(lunarOrbit.burnMid), to: burn.lowerBound)
        let circularizationDV = (try lunarOrbit.second.state(lunarOrbit.burnMid).velocityKmS - (try lunarOrbit.first.state(lunarOrbit.burnMid)).velocityKmS).length
        notes.append("Lunar orbit circularization: \(LunarRecipe.kms(circularizationDV)).")
        pieces.add("Lunar orbit circularization (modelled)", [], burn.lowerBound, burn.upperBound, step: 5) { t in
            frames.geo(try PoweredBlend(center: .moon, start: burn.lowerBound, end: burn.upperBound, ephemeris: eph,
                                        from: { frames.helio(try lunarOrbit.first.state($0)) },
                                        to: { frames.helio($0 >= lunarOrbit.burnMid ? try lunarOrbit.second.state($0) : try secondBack.state($0)) }).state(at: t))
        }
        let orbitArc = lunarOrbit.second
        pieces.add("Lunar orbit (modelled)", integrated, burn.upperBound, tei.lowerBound, step: 300, center: 301) { try orbitArc.state($0) }
        let back = try returnLeg(from: try orbitArc.state(teiMid), burnMid: teiMid)
        notes.append("Trans-Earth injection: \(LunarRecipe.kms(back.deltaV)), aimed at the entry corridor in the plane of the splashdown site; the entry \(recipe.landing(back.flight, terrestrial: c.terrestrial)).")
        try addReturn(to: &pieces, "Trans-Earth injection (modelled)", burn: tei, center: .moon, from: { try orbitArc.state($0) }, back)
        var paths = [VehiclePath(vehicle: vehicle, pieces: pieces.pieces, notes: notes)]
        if let lander = recipe.lander {
            paths.append(try landerPath(lander, orbitArc: orbitArc))
        }
        return paths
    }

    /// A flyby's pieces after trans-lunar injection: the coast through the closest approach, the
    /// free return, and the return burn aimed at the entry corridor.
    func flybyPath(pieces: LunarRecipe.PieceList, notes: [String], outbound: LunarRecipe.Outbound, returnBurn: String) throws -> VehiclePath {
        var pieces = pieces, notes = notes
        let coast = outbound.injection.coast
        let burn = try c.phase(vehicle, returnBurn)
        let burnMid = (burn.lowerBound + burn.upperBound) / 2
        let free = try propagateGeo(try coast.state(arrival), to: burn.upperBound)
        pieces.add("Translunar coast and flyby (modelled)", ["One ballistic arc from trans-lunar injection to the published closest approach (the mid-course corrections before it are not modelled separately)."],
                   tli.upperBound, arrival, step: 3600) { try coast.state($0) }
        pieces.add("Free return (modelled)", [], arrival, burn.lowerBound, step: 600) { try free.state($0) }
        let back = try returnLeg(from: try free.state(burnMid), burnMid: burnMid)
        notes.append("\(returnBurn): \(LunarRecipe.kms(back.deltaV)), aimed at the entry corridor in the plane of the splashdown site; the entry \(recipe.landing(back.flight, terrestrial: c.terrestrial)).")
        try addReturn(to: &pieces, "\(returnBurn) (modelled)", burn: burn, center: .earth, from: { try free.state($0) }, back)
        return VehiclePath(vehicle: vehicle, pieces: pieces.pieces, notes: notes)
    }
}
