import Astrodynamics
import Ephemeris
import Missions

extension ArtemisRecipe {
    /// The orbits before the data: the high Earth orbit of the first sample integrated back to
    /// the apogee-raise burn, and the initial orbit before it (same place and direction at the
    /// burn's middle, the initial orbit's speed), integrated back to the launch and on past the
    /// burn.
    struct Departure {
        /// The data's high orbit, from the first sample back to the burn.
        let highOrbit: PropagatedArc
        /// The initial orbit, from the burn's middle back to the launch and on to the burn's end.
        let initialBack: PropagatedArc, initialOn: PropagatedArc
        /// The high orbit's state at the burn's middle, and the speed the initial orbit has there.
        let atBurn: OrbitalState
        let initialSpeedKmS: Double
    }

    /// The orbits before the data, for the apogee-raise burn `raise` (geocentric).
    func departure(firstSample: OrbitalState, raise: ClosedRange<Double>, launch: Double, model: GravityModel) throws -> Departure {
        let dop = DormandPrince853()
        let raiseMid = (raise.lowerBound + raise.upperBound) / 2
        let heo = try dop.propagate(firstSample, to: raise.lowerBound, model: model)
        let atBurn = try heo.state(at: raiseMid)
        let a = Constants.earthEquatorialRadiusKm + (initialOrbitKm.perigee + initialOrbitKm.apogee) / 2
        let r = atBurn.positionKm.length
        let preSpeed = (GravityConstants.earthGM * (2 / r - 1 / a)).squareRoot()
        let before = OrbitalState(seconds: raiseMid, positionKm: atBurn.positionKm, velocityKmS: atBurn.velocityKmS.normalized * preSpeed)
        let initial = try dop.propagate(before, to: launch, model: model)
        let initialOn = try dop.propagate(before, to: raise.upperBound, model: model)
        return Departure(highOrbit: heo, initialBack: initial, initialOn: initialOn, atBurn: atBurn, initialSpeedKmS: preSpeed)
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
        notes.append("Apogee raise: \(Int(((d.atBurn.velocityKmS.length - d.initialSpeedKmS) * 1000).rounded())) m/s at the burn's middle (the state the data's high orbit had then, slowed to the initial orbit's speed).")
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
