extension Ephemeris {
    /// Heliocentric ecliptic J2000 position (AU) of one body, without its velocity: what the
    /// missions' scene placement and nearest-body search ask for many times per answer.
    public func heliocentricPositionAU(_ body: BodyID, at t: Instant) -> Vector3 {
        if let k = kernel, let seconds = kernelSeconds(t), !body.isSatellite {
            return k.heliocentricPosition(body, secondsPastJ2000: seconds)
        }
        switch body {
        case .sun:
            return .zero
        case .mercury, .venus, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto:
            return planetPosition(body, jdTDB: t.jdTDB)
        case .earth:
            return state(.earth, at: t).positionAU
        default:
            guard let parent = body.parent else { return .zero }
            return heliocentricPositionAU(parent, at: t) + parentRelativeState(body, at: t).positionKm / Constants.auKm
        }
    }
}

extension Ephemeris {
    /// The Sun's, the planets' and Pluto's heliocentric positions (AU) at their `BodyID.index`
    /// (the Earth itself, the others their system barycentres), and the Moon's, each kernel
    /// link evaluated once: the neighbourhood a spacecraft is placed and measured against.
    /// Satellites other than the Moon are left at zero.
    public func planetPositionsAU(at t: Instant) -> [Vector3] {
        var out = [Vector3](repeating: .zero, count: BodyID.count)
        if let k = kernel, let seconds = kernelSeconds(t) {
            let moon = k.positions(secondsPastJ2000: seconds, heliocentricAU: &out)
            out[BodyID.moon.index] = out[BodyID.earth.index] + moon / Constants.auKm
            return out
        }
        for body in BodyID.heliocentric where body != .earth { out[body.index] = planetPosition(body, jdTDB: t.jdTDB) }
        let earth = state(.earth, at: t).positionAU
        out[BodyID.earth.index] = earth
        out[BodyID.moon.index] = earth + LunarTheory.geocentricPositionKm(jdTDB: t.jdTDB) / Constants.auKm
        return out
    }
}
