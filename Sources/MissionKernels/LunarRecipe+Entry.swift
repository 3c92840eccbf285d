import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// How far along track `landed` lies past `site` (both geocentric), measured about the
    /// normal of the entry interface's orbit and scaled to the equatorial radius, km; negative
    /// when the entry comes down short.
    static func overshootKm(landed: Vector3, site: Vector3, interface: OrbitalState) -> Double {
        let track = interface.positionKm.cross(interface.velocityKmS).normalized
        return atan2(site.normalized.cross(landed.normalized).dot(track), site.normalized.dot(landed.normalized)) * Constants.earthEquatorialRadiusKm
    }

    /// How far `landed` lies from `site` across the plane of the entry interface's orbit (both
    /// geocentric): the difference of their unit vectors along its normal, positive on the
    /// normal's side. Times the Earth's radius it is km.
    static func acrossTrack(landed: Vector3, site: Vector3, interface: OrbitalState) -> Double {
        let normal = interface.positionKm.cross(interface.velocityKmS).normalized
        return landed.normalized.dot(normal) - site.normalized.dot(normal)
    }
}

extension LunarRecipe.Solver {
    /// The entry stage: `model` flown from `interface` to the splashdown time, and how far past
    /// `site` it comes down (``LunarRecipe/overshootKm(landed:site:interface:)``); nil when it
    /// does not come down (too shallow an entry skips out).
    func entryLanding(_ model: EntryModel, from interface: OrbitalState, site: Vector3) -> (flight: EntryModel.Flight, overshootKm: Double)? {
        guard let f = try? model.fly(from: interface, landingSeconds: splash, ephemeris: eph) else { return nil }
        let landed = f.states[f.states.count - 1].positionKm
        return (f, LunarRecipe.overshootKm(landed: landed, site: site, interface: interface))
    }

    /// The return's pieces: the burn (a powered blend from `before` to the return arc, `center`
    /// the body it is written about), the coast to the entry interface, and the entry flown.
    func addReturn(to pieces: inout LunarRecipe.PieceList, _ name: String, burn: ClosedRange<Double>, center: BodyID,
                   from before: @escaping (Double) throws -> OrbitalState, _ back: LunarRecipe.ReturnLeg) throws {
        let frames = frames, eph = eph
        let burnMid = (burn.lowerBound + burn.upperBound) / 2
        let returnBack = try propagateGeo(try back.arc.state(burn.upperBound), to: burn.lowerBound)
        pieces.add(name, [], burn.lowerBound, burn.upperBound, step: 20) { t in
            frames.geo(try PoweredBlend(center: center, start: burn.lowerBound, end: burn.upperBound, ephemeris: eph,
                                        from: { frames.helio(try before($0)) },
                                        to: { frames.helio($0 >= burnMid ? try back.arc.state($0) : try returnBack.state($0)) }).state(at: t))
        }
        pieces.add("Transearth coast (modelled)", [], burn.upperBound, ei, step: 3600) { try back.arc.state($0) }
        let table = try StateTable(back.flight.states)
        pieces.add("Entry and parachute descent (modelled)", ["Three-degree-of-freedom entry (drag and lift in an exponential atmosphere), then parachutes."],
                   ei, splash, step: 20) { table.state(at: $0) }
    }
}
