import Astrodynamics
import Ephemeris
import Missions

extension ArtemisRecipe {
    /// The orbits before the data: the high Earth orbit of the first sample integrated back to
    /// the apogee-raise burn, and the initial orbit before it (the stated perigee and apogee,
    /// its perigee at the burn's middle in the high orbit's plane:
    /// ``initialState(perigeeAt:perigeeKm:apogeeKm:)``), integrated back to the launch and on
    /// past the burn.
    struct Departure {
        /// The data's high orbit, from the first sample back to the burn.
        let highOrbit: PropagatedArc
        /// The initial orbit, from the burn's middle back to the launch and on to the burn's end.
        let initialBack: PropagatedArc, initialOn: PropagatedArc
        /// The high orbit's state at the burn's middle.
        let atBurn: OrbitalState
    }

    /// The orbits before the data, for the apogee-raise burn `raise` (geocentric).
    func departure(firstSample: OrbitalState, raise: ClosedRange<Double>, launch: Double, model: GravityModel) throws -> Departure {
        let dop = DormandPrince853()
        let raiseMid = (raise.lowerBound + raise.upperBound) / 2
        let heo = try dop.propagate(firstSample, to: raise.lowerBound, model: model)
        let atBurn = try heo.state(at: raiseMid)
        let before = Self.initialState(perigeeAt: atBurn, perigeeKm: initialOrbitKm.perigee, apogeeKm: initialOrbitKm.apogee)
        let initial = try dop.propagate(before, to: launch, model: model)
        let initialOn = try dop.propagate(before, to: raise.upperBound, model: model)
        return Departure(highOrbit: heo, initialBack: initial, initialOn: initialOn, atBurn: atBurn)
    }

    /// The initial orbit's state at the burn's middle: at its perigee (an apogee raise is flown
    /// about the perigee), under the place `heo` (the data's high orbit integrated back to the
    /// burn's middle, which the burn's hour of thrust leaves higher than the vehicle was), in
    /// its plane and moving its way, on an orbit of `perigeeKm` × `apogeeKm` above the
    /// equatorial radius. The burn's blend joins the two.
    static func initialState(perigeeAt heo: OrbitalState, perigeeKm: Double, apogeeKm: Double) -> OrbitalState {
        let mu = GravityConstants.earthGM, radius = Constants.earthEquatorialRadiusKm
        let rp = radius + perigeeKm, ra = radius + apogeeKm
        let up = heo.positionKm.normalized
        let along = heo.positionKm.cross(heo.velocityKmS).normalized.cross(up)
        let speed = (mu * (2 / rp - 2 / (rp + ra))).squareRoot()
        return OrbitalState(seconds: heo.seconds, positionKm: up * rp, velocityKmS: along * speed)
    }

    /// The apogee raise as one impulse at the initial orbit's perigee: the speed the high
    /// orbit's energy needs at that radius, less the initial orbit's there, km/s.
    static func apogeeRaiseKmS(heo: OrbitalState, initial: OrbitalState) -> Double {
        let mu = GravityConstants.earthGM
        let energy = heo.velocityKmS.dot(heo.velocityKmS) / 2 - mu / heo.positionKm.length
        return (2 * (energy + mu / initial.positionKm.length)).squareRoot() - initial.velocityKmS.length
    }

    /// The pieces before the data: back from the first sample (the high Earth orbit) to the
    /// apogee-raise burn, the orbit before it (185 × 2,223 km), back to orbit insertion, and the
    /// ascent from the pad.
    func departure(_ c: BuildContext, vehicle: Vehicle, firstSample: OrbitalState, model: GravityModel, notes: inout [String]) throws -> [PathPiece] {
        let eph = c.ephemeris
        let helio = Self.heliocentric(eph)
        let launch = c.seconds(hours: 0)
        let ascent = try c.phase(vehicle, "ascent")
        let raise = try c.phase(vehicle, "apogee raise burn")
        let raiseMid = (raise.lowerBound + raise.upperBound) / 2
        let d = try departure(firstSample: firstSample, raise: raise, launch: launch, model: model)
        let heo = d.highOrbit, initial = d.initialBack, initialOn = d.initialOn
        let initialAtBurn = try initialOn.state(at: raiseMid)
        notes.append("Apogee raise: \(Int((Self.apogeeRaiseKmS(heo: d.atBurn, initial: initialAtBurn) * 1000).rounded())) m/s as one impulse at the initial orbit's perigee, where the burn's middle is placed; the blend over the burn joins it to the data's high orbit.")
        let pad = SurfaceSite.lc39B
        var pieces: [PathPiece] = []
        pieces.append(PathPiece(name: "Ascent (modelled)", notes: ["From LC-39B to the initial orbit: a powered blend."],
                                startSeconds: launch, endSeconds: ascent.upperBound, center: 399, maxStepSeconds: 30, state: { s in
            try PoweredBlend(center: .earth, start: launch, end: ascent.upperBound, ephemeris: eph,
                             from: { pad.state(at: $0, ephemeris: eph, terrestrial: c.terrestrial) }, to: { helio(try initial.state(at: $0)) }).state(at: s)
        }))
        pieces.append(PathPiece(name: "Initial Earth orbit (modelled)", startSeconds: ascent.upperBound, endSeconds: raise.lowerBound, center: 399,
                                maxStepSeconds: 300, state: { helio(try initial.state(at: $0)) }))
        pieces.append(PathPiece(name: "Apogee raise burn (modelled)", startSeconds: raise.lowerBound, endSeconds: raise.upperBound, center: 399,
                                maxStepSeconds: 20, state: { s in
            try PoweredBlend(center: .earth, start: raise.lowerBound, end: raise.upperBound, ephemeris: eph,
                             from: { helio($0 <= raiseMid ? try initial.state(at: $0) : try initialOn.state(at: $0)) },
                             to: { helio(try heo.state(at: $0)) }).state(at: s)
        }))
        pieces.append(PathPiece(name: "High Earth orbit before JPL data", startSeconds: raise.upperBound, endSeconds: firstSample.seconds, center: 399,
                                maxStepSeconds: 600, state: { helio(try heo.state(at: $0)) }))
        return pieces
    }
}
